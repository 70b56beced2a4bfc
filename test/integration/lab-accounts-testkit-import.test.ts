import type { VitalError } from '@tryvital/vital-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLabAccount } from '../../db/queries/lab-accounts.js';
import { testkitLabTest } from '../support/catalog-fixture.js';
import { http, newTeam, sdkFor, startTestStack, type TestStack } from '../support/harness.js';

let stack: TestStack;
beforeAll(async () => {
  stack = await startTestStack();
});
afterAll(async () => {
  await stack?.close();
});

const DAY = 86_400_000;
const refused = (p: Promise<unknown>) => p.then(() => null, (e: unknown) => e as VitalError);
const shipping = { receiverName: 'Jane Doe', firstLine: '123 Main St', city: 'San Francisco', state: 'CA', zip: '94105', country: 'US', phoneNumber: '+14155552671' };
const patientDetails = { firstName: 'Jane', lastName: 'Doe', dob: '1950-05-17', gender: 'female' as const, phoneNumber: '+14155552671', email: 'jane@example.com' };
const patientAddress = { receiverName: 'Jane Doe', firstLine: '123 Main St', city: 'San Francisco', state: 'CA', zip: '94105', country: 'US' };

async function setup() {
  const team = await newTeam(stack);
  const { labTestId, labId } = await testkitLabTest(stack.db.db, team.teamId);
  const client = sdkFor(stack, team.apiKey);
  const { userId } = await client.user.create({ clientUserId: `p-${Date.now()}-${Math.random()}` });
  const orderCount = async () => (await http(stack, 'GET', '/v3/orders', { apiKey: team.apiKey })).json.total as number;
  return { ...team, labTestId, labId, client, userId, orderCount };
}

describe('lab-account checks on POST /v3/order/testkit', () => {
  it('resolves the account as POST /v3/order does: several active ones need lab_account_id, a pending one is refused', async () => {
    const s = await setup();
    const one = await createLabAccount(stack.db.db, { teamId: s.teamId, labId: s.labId, name: 'One', defaultComment: null });
    await createLabAccount(stack.db.db, { teamId: s.teamId, labId: s.labId, name: 'Two', defaultComment: null });
    const several = await refused(s.client.testkit.createOrder({ userId: s.userId, labTestId: s.labTestId, shippingDetails: shipping }));
    expect(several?.statusCode).toBe(400);
    expect(several?.body).toEqual({ detail: `Several active lab accounts of your team are at lab ${s.labId}: give lab_account_id` });
    const pending = await createLabAccount(stack.db.db, { teamId: s.teamId, labId: s.labId, name: 'P', defaultComment: null, status: 'pending' });
    const notActive = await refused(s.client.testkit.createOrder({ userId: s.userId, labTestId: s.labTestId, shippingDetails: shipping, labAccountId: pending!.id }));
    expect(notActive?.statusCode).toBe(400);
    expect(notActive?.body).toEqual({ detail: `Lab account ${pending!.id} is not active` });
    expect(await s.orderCount()).toBe(0);
    const { order } = await s.client.testkit.createOrder({ userId: s.userId, labTestId: s.labTestId, shippingDetails: shipping, labAccountId: one!.id });
    expect(order.userId).toBe(s.userId);
    expect(await s.orderCount()).toBe(1);
  });

  it('a delegated account past its grace period refuses a kit (no physician can be given), creating nothing', async () => {
    const s = await setup();
    const account = await createLabAccount(stack.db.db, {
      teamId: s.teamId, labId: s.labId, name: 'Delegated', defaultComment: null, delegatedFlow: 'fully_delegated', delegatedAt: new Date(Date.now() - 40 * DAY),
    });
    const err = await refused(s.client.testkit.createOrder({ userId: s.userId, labTestId: s.labTestId, shippingDetails: shipping, labAccountId: account!.id }));
    expect(err?.statusCode).toBe(400);
    expect(err?.body).toEqual({ detail: `A physician is required for orders on lab account ${account!.id}: its delegated_flow is fully_delegated` });
    const bad = await http(stack, 'POST', '/v3/order/testkit', { apiKey: s.apiKey, body: { user_id: s.userId, lab_test_id: s.labTestId, lab_account_id: 'nope', shipping_details: { receiver_name: 'J', first_line: '1 A St', city: 'SF', state: 'CA', zip: '94105', country: 'US', phone_number: '+14155552671' } } });
    expect(bad.status).toBe(422);
    expect(await s.orderCount()).toBe(0);
  });
});

describe('lab-account checks on POST /v3/order/import', () => {
  const importRequest = (userId: string, labTestId: string, extra: Record<string, unknown> = {}) => ({
    userId,
    billingType: 'client_bill' as const,
    orderSet: { labTestIds: [labTestId] },
    collectionMethod: 'testkit' as const,
    patientDetails,
    patientAddress,
    sampleId: `IMP-${Math.floor(Math.random() * 1e9)}`,
    ...extra,
  });

  it('accepts a PENDING account, given or resolved', async () => {
    const s = await setup();
    const pending = await createLabAccount(stack.db.db, { teamId: s.teamId, labId: s.labId, name: 'P', defaultComment: null, status: 'pending' });
    const resolved = await s.client.labTests.importOrder(importRequest(s.userId, s.labTestId));
    expect(resolved.order.userId).toBe(s.userId);
    const given = await s.client.labTests.importOrder(importRequest(s.userId, s.labTestId, { labAccountId: pending!.id }));
    expect(given.order.userId).toBe(s.userId);
    expect(await s.orderCount()).toBe(2);
  });

  it('refuses an unknown account (404), a delegated one without a physician (400), bad input (422), creating nothing', async () => {
    const s = await setup();
    const unknown = await refused(s.client.labTests.importOrder(importRequest(s.userId, s.labTestId, { labAccountId: '00000000-0000-4000-8000-000000000000' })));
    expect(unknown?.statusCode).toBe(404);
    expect(unknown?.body).toEqual({ detail: 'Lab account not found' });
    const account = await createLabAccount(stack.db.db, {
      teamId: s.teamId, labId: s.labId, name: 'Delegated', defaultComment: null, delegatedFlow: 'order_delegated', delegatedAt: new Date(Date.now() - 40 * DAY),
    });
    const err = await refused(s.client.labTests.importOrder(importRequest(s.userId, s.labTestId, { labAccountId: account!.id })));
    expect(err?.statusCode).toBe(400);
    expect(err?.body).toEqual({ detail: `A physician is required for orders on lab account ${account!.id}: its delegated_flow is order_delegated` });
    const bad = await http(stack, 'POST', '/v3/order/import', {
      apiKey: s.apiKey,
      body: { user_id: s.userId, billing_type: 'client_bill', order_set: { lab_test_ids: [s.labTestId] }, collection_method: 'testkit', lab_account_id: 'nope', sample_id: 'IMP-1234' },
    });
    expect(bad.status).toBe(422);
    expect(await s.orderCount()).toBe(0);
    const { order } = await s.client.labTests.importOrder(importRequest(s.userId, s.labTestId, { labAccountId: account!.id, physician: { firstName: 'Gregory', lastName: 'House', npi: '1234567893' } }));
    expect(order.physician).toEqual({ firstName: 'Gregory', lastName: 'House', npi: '1234567893' });
  });
});
