import { randomUUID } from 'node:crypto';
import { WithStartWorkflowOperation, WorkflowFailedError, WorkflowUpdateFailedError } from '@temporalio/client';
import type { Vital } from '@tryvital/vital-node';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { orders } from '../../db/schema/index.js';
import {
  createdUpdate,
  labOrderWorkflowId,
  labOrderWorkflowType,
  registerUpdate,
  resultsSignal,
  taskQueue,
  type LabOrderInput,
} from '../../workflows/lab-order/definitions.js';
import { testkitLabTest } from '../support/catalog-fixture.js';
import { recordHistory } from '../support/histories.js';
import { eventually, http, newTeam, sdkFor, startTestStack, type TestStack } from '../support/harness.js';

// Data that passed the API's validation but that Postgres refuses (here a NUL byte, SQLSTATE 22021 in text and
// 22P05 in jsonb) is injected straight into the order's workflow. It must never loop or vanish: the caller
// gets a clear error and the order a visible, documented end (do_not_process with status_detail processing_error).

const POISON = 'Jane\u0000Doe';

let stack: TestStack;
beforeAll(async () => {
  stack = await startTestStack({}, { orderDeadlines: { correctionWindowSeconds: 0 } });
});
afterAll(async () => {
  await stack?.close();
});

async function setup(method = 'testkit') {
  const team = await newTeam(stack);
  const client = sdkFor(stack, team.apiKey);
  const { userId } = await client.user.create({ clientUserId: `poison-${randomUUID()}` });
  const { labTestId } = await testkitLabTest(stack.db.db, team.teamId, method);
  return { ...team, client, userId, labTestId };
}

const patientDetails = { firstName: 'Jane', lastName: 'Doe', dob: '1990-05-17', gender: 'female', phoneNumber: '+14155552671', email: 'jane@example.com' } as const;
const patientAddress = { firstLine: '123 Main St', city: 'San Francisco', state: 'CA', zip: '94105', country: 'US' };

describe('poison data in an order workflow', () => {
  it('at creation: the create call fails with the reason, nothing is written, the workflow fails visibly', async () => {
    const t = await setup();
    const orderId = randomUUID();
    const workflowId = labOrderWorkflowId(orderId);
    const input: LabOrderInput = {
      orderId,
      teamId: t.teamId,
      method: 'testkit',
      registrable: false,
      activateBy: null,
      record: { id: orderId, teamId: t.teamId, workflowId, detailsId: randomUUID(), userId: t.userId, labTestId: t.labTestId, method: 'testkit', clinicalNotes: POISON },
      idempotency: null,
    };
    const started = stack.temporal.workflow.executeUpdateWithStart(createdUpdate, {
      startWorkflowOperation: new WithStartWorkflowOperation(labOrderWorkflowType, { workflowId, taskQueue, args: [input], workflowIdConflictPolicy: 'FAIL' }),
    });
    const err = await started.then(() => null, (e: unknown) => e);
    expect(err).toBeInstanceOf(WorkflowUpdateFailedError);
    expect((err as WorkflowUpdateFailedError).cause?.message).toMatch(/could not be recorded: Postgres refused the write: .*\[SQLSTATE 22021\]/);
    await expect(stack.temporal.workflow.getHandle(workflowId).result()).rejects.toBeInstanceOf(WorkflowFailedError);
    expect(await stack.db.db.select().from(orders).where(eq(orders.id, orderId))).toEqual([]);
  }, 30_000);

  it('through the API: a create whose data the database refuses answers 422 with {detail} and creates nothing', async () => {
    const t = await setup('walk_in_test');
    const body = {
      user_id: t.userId,
      order_set: { lab_test_ids: [t.labTestId] },
      passthrough: POISON,
      patient_details: { first_name: 'Jane', last_name: 'Doe', dob: '1990-05-17', gender: 'female', phone_number: '+14155552671', email: 'jane@example.com' },
      patient_address: { first_line: '123 Main St', city: 'San Francisco', state: 'CA', zip: '94105', country: 'US' },
    };
    const res = await http(stack, 'POST', '/v3/order', { apiKey: t.apiKey, body });
    expect(res.status).toBe(422);
    expect(res.json.detail).toBeTruthy();
    expect(await stack.db.db.select().from(orders).where(eq(orders.teamId, t.teamId))).toEqual([]);
  }, 30_000);

  it('in a results report: the order ends do_not_process (processing_error) and its workflow ends', async () => {
    const t = await setup('on_site_collection');
    const { order } = await t.client.labTests.createOrder({ userId: t.userId, orderSet: { labTestIds: [t.labTestId] }, patientDetails, patientAddress } as Vital.CreateOrderRequestCompatible);
    await eventually(async () => (await t.client.labTests.getOrder(order.id)).events.length === 2);
    await t.client.labTests.updateOnSiteCollectionOrderDrawCompleted(order.id);
    const handle = stack.temporal.workflow.getHandle(labOrderWorkflowId(order.id));
    await handle.signal(resultsSignal, { final: true, interpretation: 'normal', results: [{ name: 'Hemoglobin A1c', result: POISON, type: 'comment' }] });
    await expect(handle.result()).resolves.toBe('do_not_process');
    await recordHistory('lab-order-on-site-poison-results', handle);
    const after = await http(stack, 'GET', `/v3/order/${order.id}`, { apiKey: t.apiKey });
    const events = after.json.events as { status: string; status_detail: string | null }[];
    expect(events.at(-1)).toMatchObject({ status: 'cancelled.on_site_collection.do_not_process', status_detail: 'processing_error' });
    expect(events.map((e) => e.status)).not.toContain('completed.on_site_collection.completed');
    // the order refuses what comes after
    expect((await http(stack, 'POST', `/v3/order/${order.id}/cancel`, { apiKey: t.apiKey })).status).toBe(400);
  }, 30_000);

  it('in an Update (kit registration): the caller learns the refusal and the order stops visibly', async () => {
    const t = await setup();
    const { order } = await t.client.testkit.createOrder({
      userId: t.userId,
      labTestId: t.labTestId,
      shippingDetails: { receiverName: 'Jane Doe', firstLine: '123 Main St', city: 'San Francisco', state: 'CA', zip: '94105', country: 'US', phoneNumber: '+14155552671' },
    });
    const handle = stack.temporal.workflow.getHandle(labOrderWorkflowId(order.id));
    const registration = handle.executeUpdate(registerUpdate, {
      args: [{ sampleId: order.sampleId!, userId: t.userId, patientDetails: { first_name: POISON }, patientAddress: {}, physician: null, consents: null, healthInsurance: null }],
    });
    const err = await registration.then(() => null, (e: unknown) => e);
    expect(err).toBeInstanceOf(WorkflowUpdateFailedError);
    expect((err as WorkflowUpdateFailedError).cause?.message).toMatch(/^the order could not be processed: Postgres refused the write: .*\[SQLSTATE 22P05\]/);
    await expect(handle.result()).resolves.toBe('do_not_process');
    const row = await stack.db.db.select().from(orders).where(eq(orders.id, order.id));
    expect(row[0]).toMatchObject({ lowLevelStatus: 'do_not_process', status: 'cancelled' });
    expect(row[0]!.patientDetails).toBeNull(); // the poison was not written
  }, 30_000);
});
