import { type Vital, VitalError } from '@tryvital/vital-node';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { outboxEvents } from '../../db/schema/index.js';
import { testkitLabTest } from '../support/catalog-fixture.js';
import { recordHistory } from '../support/histories.js';
import { labOrderWorkflowId } from '../../workflows/lab-order/definitions.js';
import { eventually, http, newTeam, sdkFor, startTestStack, type TestStack } from '../support/harness.js';

let stack: TestStack;
beforeAll(async () => {
  // Completed orders end their workflow at once here (no correction window), so tests can await the result.
  stack = await startTestStack({}, { orderDeadlines: { correctionWindowSeconds: 0 } });
});
afterAll(async () => {
  await stack?.close();
});

const shipping = {
  receiverName: 'Jane Doe',
  firstLine: '123 Main St',
  city: 'San Francisco',
  state: 'CA',
  zip: '94105',
  country: 'US',
  phoneNumber: '+14155552671',
};
const patientDetails = {
  firstName: 'Jane',
  lastName: 'Doe',
  dob: '1990-05-17',
  gender: 'female' as const,
  phoneNumber: '+14155552671',
  email: 'jane@example.com',
};
const patientAddress = { firstLine: '123 Main St', city: 'San Francisco', state: 'CA', zip: '94105', country: 'US' };

async function setup() {
  const team = await newTeam(stack);
  const client = sdkFor(stack, team.apiKey);
  const { userId } = await client.user.create({ clientUserId: `patient-${Date.now()}-${Math.random()}` });
  const { labTestId } = await testkitLabTest(stack.db.db, team.teamId);
  return { ...team, client, userId, labTestId };
}

const statuses = (o: Vital.ClientFacingOrder) => o.events.map((e) => e.status);

describe('testkit orders through @tryvital/vital-node', () => {
  it('creates, registers, simulates to completed, and every event is recorded once and announced once', async () => {
    const { client, userId, labTestId, teamId } = await setup();
    const created = await client.testkit.createOrder({ userId, labTestId, shippingDetails: shipping });
    expect(created.status).toBe('success');
    const order = created.order;
    expect(order.status).toBe('received');
    expect(statuses(order)).toEqual(['received.testkit.ordered', 'received.testkit.awaiting_registration']);
    expect(order.details.type).toBe('testkit');
    expect(order.shippingDetails?.country).toBe('United States');
    expect(order.sampleId).toMatch(/^[A-Z2-9]{12}$/);

    const registered = await client.testkit.register({ sampleId: order.sampleId!, patientDetails, patientAddress });
    expect(statuses(registered.order).slice(2)).toEqual(['received.testkit.registered', 'received.testkit.requisition_created']);
    expect(registered.order.patientDetails?.firstName).toBe('Jane');

    await client.labTests.simulateOrderProcess(order.id, { finalStatus: 'completed.testkit.completed' });
    const done = await eventually(async () => {
      const o = await client.labTests.getOrder(order.id);
      return o.status === 'completed' ? o : null;
    });
    expect(statuses(done)).toEqual([
      'received.testkit.ordered',
      'received.testkit.awaiting_registration',
      'received.testkit.registered',
      'received.testkit.requisition_created',
      'collecting_sample.testkit.transit_customer',
      'collecting_sample.testkit.out_for_delivery',
      'collecting_sample.testkit.with_customer',
      'collecting_sample.testkit.transit_lab',
      'sample_with_lab.testkit.delivered_to_lab',
      'completed.testkit.completed',
    ]);
    expect(done.events.map((e) => e.id)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    const handle = stack.temporal.workflow.getHandle(labOrderWorkflowId(order.id));
    await expect(handle.result()).resolves.toBe('completed');
    await recordHistory('lab-order-testkit-registrable-completed-api-recorded', handle);
    // Patient details never reach the Temporal server in clear: every payload is sealed by the codec.
    const history = await handle.fetchHistory();
    const started = history.events?.[0]?.workflowExecutionStartedEventAttributes;
    expect(new TextDecoder().decode(started?.input?.payloads?.[0]?.metadata?.encoding ?? undefined)).toBe('binary/encrypted');
    const raw = JSON.stringify(history, (_k, v: unknown) => (v instanceof Uint8Array ? Buffer.from(v).toString('latin1') : v));
    expect(raw).not.toContain('jane@example.com');
    expect(raw).not.toContain('San Francisco');
    expect(done.interpretation).toBe('normal');
    const shipment = (done.details as { data?: { shipment?: Vital.ClientFacingShipment } }).data?.shipment;
    expect(shipment?.outboundTrackingNumber).toMatch(/^SIM/);

    // one outgoing event per status change, carrying the order as GET returns it
    const outbox = await stack.db.db.select().from(outboxEvents).where(and(eq(outboxEvents.teamId, teamId), eq(outboxEvents.subjectId, order.id)));
    expect(outbox.map((e) => e.eventType).sort()).toEqual(['labtest.order.created', ...Array(9).fill('labtest.order.updated')].sort());
    const last = outbox.sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime()).at(-1)!;
    expect((last.data as { status: string; events: unknown[] }).status).toBe('completed');
    expect((last.data as { events: unknown[] }).events).toHaveLength(10);
  });

  it('cancels an order before it ships, and refuses to cancel twice with a clear 400', async () => {
    const { client, userId, labTestId } = await setup();
    const { order } = await client.testkit.createOrder({ userId, labTestId, shippingDetails: shipping });
    const cancelled = await client.labTests.cancelOrder(order.id);
    expect(cancelled.order.status).toBe('cancelled');
    expect(statuses(cancelled.order).at(-1)).toBe('cancelled.testkit.cancelled');
    const err = await client.labTests.cancelOrder(order.id).then(() => null, (e: unknown) => e);
    expect(err).toBeInstanceOf(VitalError);
    expect((err as VitalError).statusCode).toBe(400);
    expect((err as VitalError).body).toEqual({ detail: 'Transition from cancelled to cancelled is not allowed' });
  });

  it('lists orders with filters and pages', async () => {
    const { client, userId, labTestId } = await setup();
    const a = (await client.testkit.createOrder({ userId, labTestId, shippingDetails: shipping })).order;
    const b = (await client.testkit.createOrder({ userId, labTestId, shippingDetails: shipping })).order;
    await client.labTests.cancelOrder(b.id);
    const all = await client.labTests.getOrders({});
    expect(all.total).toBe(2);
    expect(all.orders.map((o) => o.id)).toEqual([b.id, a.id]);
    const cancelled = await client.labTests.getOrders({ status: 'cancelled' });
    expect(cancelled.orders.map((o) => o.id)).toEqual([b.id]);
    const page2 = await client.labTests.getOrders({ size: 1, page: 2, orderDirection: 'asc' });
    expect(page2.orders.map((o) => o.id)).toEqual([b.id]);
    const byUser = await client.labTests.getOrders({ userId, orderType: 'testkit' });
    expect(byUser.total).toBe(2);
  });

  it('creates a registered order with POST /v3/order and honours X-Idempotency-Key', async () => {
    const { client, userId, labTestId, apiKey } = await setup();
    const request = { userId, orderSet: { labTestIds: [labTestId] }, patientDetails, patientAddress };
    const first = await client.labTests.createOrder(request, { headers: { 'X-Idempotency-Key': 'key-1' } });
    const again = await client.labTests.createOrder(request, { headers: { 'X-Idempotency-Key': 'key-1' } });
    expect(again.order.id).toBe(first.order.id);
    const other = await http(stack, 'POST', '/v3/order', {
      apiKey,
      headers: { 'x-idempotency-key': 'key-1' },
      body: { user_id: userId, order_set: { lab_test_ids: [labTestId] }, patient_details: { first_name: 'X', last_name: 'Doe', dob: '1990-05-17', gender: 'female', phone_number: '+14155552671', email: 'x@example.com' }, patient_address: { first_line: '1 A St', city: 'B', state: 'CA', zip: '94105', country: 'US' } },
    });
    expect(other.status).toBe(409);
    expect((await client.labTests.getOrders({})).total).toBe(1);
    const o = await eventually(async () => {
      const got = await client.labTests.getOrder(first.order.id);
      return got.events.length >= 2 ? got : null;
    });
    expect(statuses(o).slice(0, 2)).toEqual(['received.testkit.ordered', 'received.testkit.requisition_created']);
  });
});
