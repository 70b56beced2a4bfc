import type { VitalError } from '@tryvital/vital-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLabAccount, resolveLabAccount } from '../../db/queries/lab-accounts.js';
import { platformAccountId } from '../../domain/lab-accounts/platform.js';
import { checkOrderSurroundings } from '../../api/routes/lab-accounts/order-checks.js';
import { HttpError } from '../../api/errors.js';
import { labs } from '../../db/schema/index.js';
import { eq } from 'drizzle-orm';
import { testkitLabTest } from '../support/catalog-fixture.js';
import { eventually, http, newTeam, sdkFor, startTestStack, type TestStack } from '../support/harness.js';

let stack: TestStack;
beforeAll(async () => {
  stack = await startTestStack();
});
afterAll(async () => {
  await stack?.close();
});

const DAY = 86_400_000;
const physician = { first_name: 'Gregory', last_name: 'House', npi: '1234567893' };
const refusal = (p: Promise<unknown>) => p.then(() => null, (e: unknown) => e as HttpError);

async function setup() {
  const team = await newTeam(stack);
  const { labTestId, labId } = await testkitLabTest(stack.db.db, team.teamId);
  const [lab] = await stack.db.db.select().from(labs).where(eq(labs.id, labId));
  return { ...team, labTestId, labId, labSlug: lab!.slug, client: sdkFor(stack, team.apiKey) };
}

describe('GET /v3/lab_test/lab_account', () => {
  it('lists the platform account of a lab where the team has none, and the team accounts with delegated_flow', async () => {
    const s = await setup();
    const before = await http(stack, 'GET', `/v3/lab_test/lab_account?lab_id=${s.labId}`, { apiKey: s.apiKey });
    expect(before.status).toBe(200);
    expect(before.json.data).toEqual([
      expect.objectContaining({ id: platformAccountId(s.labSlug), lab: s.labSlug, org_id: null, is_platform: true, status: 'active', delegated_flow: 'not_delegated', team_id_allowlist: [] }),
    ]);
    const own = await createLabAccount(stack.db.db, {
      teamId: s.teamId, labId: s.labId, name: 'Own', defaultComment: 'Account 1', delegatedFlow: 'order_delegated',
      allowedBilling: { client_bill: ['*'], commercial_insurance: ['CA'] },
    });
    await createLabAccount(stack.db.db, { teamId: s.teamId, labId: s.labId, name: 'Waiting', defaultComment: null, status: 'pending' });
    const after = await http(stack, 'GET', `/v3/lab_test/lab_account?lab_id=${s.labId}`, { apiKey: s.apiKey });
    const data = after.json.data as Record<string, unknown>[];
    expect(data.map((a) => a.account_name)).toEqual(['Own', 'Waiting']);
    expect(data[0]).toMatchObject({ id: own!.id, delegated_flow: 'order_delegated', org_id: s.teamId, default_clinical_notes: 'Account 1', team_id_allowlist: [s.teamId] });
    expect((data[0]!.allowed_billing as Record<string, string[]>).commercial_insurance).toEqual(['CA']);
    expect((data[0]!.allowed_billing as Record<string, string[]>).client_bill).toHaveLength(51);

    const byStatus = await http(stack, 'GET', `/v3/lab_test/lab_account?status=pending&lab_id=${s.labId}`, { apiKey: s.apiKey });
    expect((byStatus.json.data as { account_name: string }[]).map((a) => a.account_name)).toEqual(['Waiting']);
    const byId = await http(stack, 'GET', `/v3/lab_test/lab_account?lab_account_id=${own!.id}`, { apiKey: s.apiKey });
    expect((byId.json.data as { id: string }[]).map((a) => a.id)).toEqual([own!.id]);
  });

  it('never shows another team its accounts', async () => {
    const a = await setup();
    const b = await newTeam(stack);
    const own = await createLabAccount(stack.db.db, { teamId: a.teamId, labId: a.labId, name: 'Mine', defaultComment: null });
    const res = await http(stack, 'GET', `/v3/lab_test/lab_account?lab_account_id=${own!.id}`, { apiKey: b.apiKey });
    expect(res.status).toBe(200);
    expect(res.json.data).toEqual([]);
  });

  it('bad filters are a 422 with detail', async () => {
    const s = await setup();
    for (const q of ['lab_account_id=nope', 'status=closed', 'lab_id=-1']) {
      const res = await http(stack, 'GET', `/v3/lab_test/lab_account?${q}`, { apiKey: s.apiKey });
      expect(res.status, q).toBe(422);
      expect(Array.isArray(res.json.detail)).toBe(true);
    }
    expect((await http(stack, 'GET', '/v3/lab_test/lab_account')).status).toBe(401);
  });
});

describe('resolution and order checks against Postgres (what order creation calls)', () => {
  it('omitted lab_account_id: platform, then the one active account, then several → refused', async () => {
    const s = await setup();
    expect(await resolveLabAccount(stack.db.db, s.teamId, s.labId)).toMatchObject({ ok: true, account: { id: platformAccountId(s.labSlug) } });
    const one = await createLabAccount(stack.db.db, { teamId: s.teamId, labId: s.labId, name: 'One', defaultComment: null });
    expect(await resolveLabAccount(stack.db.db, s.teamId, s.labId)).toMatchObject({ ok: true, account: { id: one!.id } });
    await createLabAccount(stack.db.db, { teamId: s.teamId, labId: s.labId, name: 'Two', defaultComment: null });
    expect(await resolveLabAccount(stack.db.db, s.teamId, s.labId)).toMatchObject({ ok: false, status: 400 });
  });

  it('a pending account serves an import only', async () => {
    const s = await setup();
    const pending = await createLabAccount(stack.db.db, { teamId: s.teamId, labId: s.labId, name: 'P', defaultComment: null, status: 'pending' });
    expect(await resolveLabAccount(stack.db.db, s.teamId, s.labId)).toMatchObject({ ok: false, status: 400 });
    expect(await resolveLabAccount(stack.db.db, s.teamId, s.labId, { purpose: 'import' })).toMatchObject({ ok: true, account: { id: pending!.id } });
    expect(await resolveLabAccount(stack.db.db, s.teamId, s.labId, { labAccountId: pending!.id, purpose: 'import' })).toMatchObject({ ok: true });
  });

  it('a delegated account past its grace period refuses an order without a physician', async () => {
    const s = await setup();
    const { userId } = await s.client.user.create({ clientUserId: `p-${Date.now()}` });
    const account = await createLabAccount(stack.db.db, {
      teamId: s.teamId, labId: s.labId, name: 'Delegated', defaultComment: null, delegatedFlow: 'fully_delegated', delegatedAt: new Date(Date.now() - 40 * DAY),
    });
    const base = { teamId: s.teamId, userId, labId: s.labId, labAccountId: account!.id, patientState: 'CA', billingType: 'client_bill' as const, now: new Date() };
    const err = await refusal(checkOrderSurroundings(stack.db.db, base));
    expect(err).toBeInstanceOf(HttpError);
    expect(err!.status).toBe(400);
    expect(err!.detail).toBe(`A physician is required for orders on lab account ${account!.id}: its delegated_flow is fully_delegated`);
    const ok = await checkOrderSurroundings(stack.db.db, { ...base, physician });
    expect(ok).toMatchObject({ account: { id: account!.id }, physician, physicianSource: 'client' });
    // Within a longer grace period the service's physician still orders, with a warning.
    const grace = await checkOrderSurroundings(stack.db.db, { ...base, policy: { graceDays: 60 } });
    expect(grace.physicianSource).toBe('service');
    expect(grace.warnings).toHaveLength(1);
  });

  it('POST /v3/order on a delegated account: refused without a physician (nothing created), accepted with one', async () => {
    const s = await setup();
    const { userId } = await s.client.user.create({ clientUserId: `p-${Date.now()}` });
    const account = await createLabAccount(stack.db.db, {
      teamId: s.teamId, labId: s.labId, name: 'Delegated', defaultComment: null, delegatedFlow: 'order_delegated', delegatedAt: new Date(Date.now() - 40 * DAY),
    });
    const request = {
      userId,
      orderSet: { labTestIds: [s.labTestId] },
      labAccountId: account!.id,
      patientDetails: { firstName: 'Jane', lastName: 'Doe', dob: '1950-05-17', gender: 'female' as const, phoneNumber: '+14155552671', email: 'jane@example.com' },
      patientAddress: { firstLine: '123 Main St', city: 'San Francisco', state: 'CA', zip: '94105', country: 'US' },
    };
    const refused = await s.client.labTests.createOrder(request).then(() => null, (e: unknown) => e as VitalError);
    expect(refused?.statusCode).toBe(400);
    expect(refused?.body).toEqual({ detail: `A physician is required for orders on lab account ${account!.id}: its delegated_flow is order_delegated` });
    expect((await http(stack, 'GET', '/v3/orders', { apiKey: s.apiKey })).json).toMatchObject({ orders: [] });
    const { order } = await s.client.labTests.createOrder({ ...request, physician: { firstName: 'Gregory', lastName: 'House', npi: '1234567893' } });
    expect(order.physician).toEqual({ firstName: 'Gregory', lastName: 'House', npi: '1234567893' });
  });

  it('POST /v3/order/testkit runs the same checks: a delegated account refuses (no physician can be named), a plain one is recorded with its service physician', async () => {
    const s = await setup();
    const { userId } = await s.client.user.create({ clientUserId: `tk-${Date.now()}` });
    const delegated = await createLabAccount(stack.db.db, {
      teamId: s.teamId, labId: s.labId, name: 'Delegated', defaultComment: null, delegatedFlow: 'order_delegated', delegatedAt: new Date(Date.now() - 40 * DAY),
    });
    const shipping = { receiver_name: 'Jane Doe', first_line: '123 Main St', city: 'San Francisco', state: 'CA', zip: '94105', country: 'US', phone_number: '+14155552671' };
    const refused = await http(stack, 'POST', '/v3/order/testkit', { apiKey: s.apiKey, body: { user_id: userId, lab_test_id: s.labTestId, shipping_details: shipping, lab_account_id: delegated!.id } });
    expect(refused.status).toBe(400);
    expect(refused.json.detail).toBe(`A physician is required for orders on lab account ${delegated!.id}: its delegated_flow is order_delegated`);
    expect((await http(stack, 'GET', '/v3/orders', { apiKey: s.apiKey })).json).toMatchObject({ orders: [] });
    // an unknown account is refused too, and nothing is created
    const unknown = await http(stack, 'POST', '/v3/order/testkit', { apiKey: s.apiKey, body: { user_id: userId, lab_test_id: s.labTestId, shipping_details: shipping, lab_account_id: '00000000-0000-4000-8000-000000000000' } });
    expect(unknown.status).toBeGreaterThanOrEqual(400);
    expect(unknown.status).toBeLessThan(500);
    expect(typeof unknown.json.detail).toBe('string');
    // omitted, the account resolves to that same (only) team account: refused as well
    const resolved = await http(stack, 'POST', '/v3/order/testkit', { apiKey: s.apiKey, body: { user_id: userId, lab_test_id: s.labTestId, shipping_details: shipping } });
    expect(resolved.status).toBe(400);
    // a team without accounts: the lab's platform account resolves, and a service physician licensed in CA signs
    const t = await setup();
    const other = await t.client.user.create({ clientUserId: `tk2-${Date.now()}` });
    const ok = await http(stack, 'POST', '/v3/order/testkit', { apiKey: t.apiKey, body: { user_id: other.userId, lab_test_id: t.labTestId, shipping_details: shipping } });
    expect(ok.status, ok.text).toBe(200);
    expect((ok.json.order as { physician: unknown }).physician).toEqual({ first_name: 'Amara', last_name: 'Okafor', npi: '1743829560' });
  });

  it('POST /v3/order/import runs them with import rules: a PENDING account serves, a delegated one needs a physician', async () => {
    const s = await setup();
    const { userId } = await s.client.user.create({ clientUserId: `im-${Date.now()}` });
    const pending = await createLabAccount(stack.db.db, { teamId: s.teamId, labId: s.labId, name: 'P', defaultComment: null, status: 'pending' });
    const body = (extra: Record<string, unknown>) => ({
      user_id: userId, billing_type: 'client_bill', collection_method: 'testkit', order_set: { lab_test_ids: [s.labTestId] },
      patient_details: { first_name: 'Jane', last_name: 'Doe', dob: '1950-05-17', gender: 'female', phone_number: '+14155552671', email: 'jane@example.com' },
      patient_address: { first_line: '123 Main St', city: 'San Francisco', state: 'CA', zip: '94105', country: 'US' },
      sample_id: `IMP-${Date.now()}`, ...extra,
    });
    const imported = await http(stack, 'POST', '/v3/order/import', { apiKey: s.apiKey, body: body({ lab_account_id: pending!.id }) });
    expect(imported.status, imported.text).toBe(200);
    const delegated = await createLabAccount(stack.db.db, {
      teamId: s.teamId, labId: s.labId, name: 'Delegated', defaultComment: null, delegatedFlow: 'fully_delegated', delegatedAt: new Date(Date.now() - 40 * DAY),
    });
    const refused = await http(stack, 'POST', '/v3/order/import', { apiKey: s.apiKey, body: body({ lab_account_id: delegated!.id, sample_id: `IMP2-${Date.now()}` }) });
    expect(refused.status).toBe(400);
    expect(refused.json.detail).toBe(`A physician is required for orders on lab account ${delegated!.id}: its delegated_flow is fully_delegated`);
    const withPhysician = await http(stack, 'POST', '/v3/order/import', { apiKey: s.apiKey, body: body({ lab_account_id: delegated!.id, sample_id: `IMP3-${Date.now()}`, physician }) });
    expect(withPhysician.status, withPhysician.text).toBe(200);
    expect((withPhysician.json.order as { physician: unknown }).physician).toEqual(physician);
  });

  it('POST /v3/order/create (the spec\'s named creation): the account resolved when omitted, the same checks and answers as POST /v3/order', async () => {
    const s = await setup();
    const { userId } = await s.client.user.create({ clientUserId: `cr-${Date.now()}` });
    const body = {
      user_id: userId, order_set: { lab_test_ids: [s.labTestId] },
      patient_details: { first_name: 'Jane', last_name: 'Doe', dob: '1950-05-17', gender: 'female', phone_number: '+14155552671', email: 'jane@example.com' },
      patient_address: { first_line: '123 Main St', city: 'San Francisco', state: 'CA', zip: '94105', country: 'US' },
    };
    const created = await http(stack, 'POST', '/v3/order/create', { apiKey: s.apiKey, body });
    expect(created.status, created.text).toBe(200);
    expect(created.json).toMatchObject({ status: 'success', message: 'Order created successfully' });
    const order = created.json.order as { id: string; physician: unknown };
    expect(order.physician).toEqual({ first_name: 'Amara', last_name: 'Okafor', npi: '1743829560' });
    expect((await http(stack, 'GET', `/v3/order/${order.id}`, { apiKey: s.apiKey })).status).toBe(200);
    const bad = await http(stack, 'POST', '/v3/order/create', { apiKey: s.apiKey, body: { ...body, lab_account_id: 'nope' } });
    expect(bad.status).toBe(422);
    expect(bad.json.detail).toBeDefined();
    const missing = await http(stack, 'POST', '/v3/order/create', { apiKey: s.apiKey, body: { ...body, lab_account_id: '00000000-0000-4000-8000-000000000000' } });
    expect(missing.status).toBeGreaterThanOrEqual(400);
    expect(missing.status).toBeLessThan(500);
    expect((await http(stack, 'GET', '/v3/orders', { apiKey: s.apiKey })).json).toMatchObject({ total: 1 });
  });

  it('billing against allowed_billing, insurance and ICD codes', async () => {
    const s = await setup();
    const { userId } = await s.client.user.create({ clientUserId: `p-${Date.now()}` });
    await createLabAccount(stack.db.db, { teamId: s.teamId, labId: s.labId, name: 'CA insurance', defaultComment: null, allowedBilling: { client_bill: ['*'], commercial_insurance: ['CA'] } });
    const base = { teamId: s.teamId, userId, labId: s.labId, patientState: 'CA', now: new Date() };
    expect((await refusal(checkOrderSurroundings(stack.db.db, { ...base, billingType: 'patient_bill' })))?.status).toBe(400);
    const ny = await refusal(checkOrderSurroundings(stack.db.db, { ...base, patientState: 'NY', billingType: 'commercial_insurance', icdCodes: ['E11.9'], healthInsurance: { payor_code: 'AETNA' } }));
    expect(ny?.detail).toMatch(/not allowed .* for patients in NY/);
    const noCodes = await refusal(checkOrderSurroundings(stack.db.db, { ...base, billingType: 'commercial_insurance', healthInsurance: { payor_code: 'AETNA' } }));
    expect(noCodes?.status).toBe(422);
    const badCodes = await refusal(checkOrderSurroundings(stack.db.db, { ...base, billingType: 'client_bill', icdCodes: ['E11.9', 'R73.03'] }));
    expect(badCodes?.status).toBe(422);
    const noInsurance = await refusal(checkOrderSurroundings(stack.db.db, { ...base, billingType: 'commercial_insurance', icdCodes: ['E11.9'] }));
    expect(noInsurance?.detail).toMatch(/insurance on file/);
    const ok = await checkOrderSurroundings(stack.db.db, { ...base, billingType: 'commercial_insurance', icdCodes: ['e119'], healthInsurance: { payor_code: 'AETNA' } });
    expect(ok.icdCodes).toEqual(['E11.9']);
    expect(ok.physicianSource).toBe('service');
  });
});

describe('team', () => {
  it('team.get and team.getPhysicians list the physicians of the team orders', async () => {
    const s = await setup();
    const { userId } = await s.client.user.create({ clientUserId: `p-${Date.now()}` });
    expect(await s.client.team.getPhysicians(s.teamId)).toEqual([]);
    const res = await http(stack, 'POST', '/v3/order', {
      apiKey: s.apiKey,
      body: {
        user_id: userId, order_set: { lab_test_ids: [s.labTestId] }, physician,
        patient_details: { first_name: 'Jane', last_name: 'Doe', dob: '1990-05-17', gender: 'female', phone_number: '+14155552671', email: 'jane@example.com' },
        patient_address: { first_line: '123 Main St', city: 'San Francisco', state: 'CA', zip: '94105', country: 'US' },
      },
    });
    expect(res.status, JSON.stringify(res.json)).toBe(200);
    const physicians = await eventually(async () => {
      const list = await s.client.team.getPhysicians(s.teamId);
      return list.length > 0 ? list : null;
    });
    expect(physicians).toHaveLength(1);
    expect(physicians[0]!.npi).toMatch(/^\d{10}$/);
    const team = await s.client.team.get(s.teamId);
    expect(team).toMatchObject({ id: s.teamId, name: 'test team' });
  });

  it("another team's id is a 404, a malformed one a 422", async () => {
    const s = await setup();
    const other = await newTeam(stack);
    const err = await s.client.team.getPhysicians(other.teamId).then(() => null, (e: unknown) => e as VitalError);
    expect(err?.statusCode).toBe(404);
    expect(err?.body).toEqual({ detail: 'Team not found' });
    expect((await http(stack, 'GET', `/v2/team/${other.teamId}`, { apiKey: s.apiKey })).status).toBe(404);
    const bad = await http(stack, 'GET', '/v2/team/not-a-uuid/physicians', { apiKey: s.apiKey });
    expect(bad.status).toBe(422);
    expect(Array.isArray(bad.json.detail)).toBe(true);
  });
});
