import { randomUUID } from 'node:crypto';
import { type Vital, VitalError } from '@tryvital/vital-node';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { CollectionMethod } from '../../domain/orders/status.js';
import { testkitLabTest } from '../support/catalog-fixture.js';
import { eventually, http, newTeam, sdkFor, startTestStack, type TestStack } from '../support/harness.js';
import { Receivers, createEndpoint } from '../support/webhooks.js';
import { recordHistory } from '../support/histories.js';
import { labOrderWorkflowId } from '../../workflows/lab-order/definitions.js';

/** Waits for the order's workflow to end and saves its history (with RECORD_HISTORIES=1) for the replay tests. */
async function saveHistory(name: string, orderId: string, expected: string) {
  const handle = stack.temporal.workflow.getHandle(labOrderWorkflowId(orderId));
  await expect(handle.result()).resolves.toBe(expected);
  await recordHistory(name, handle);
}

let stack: TestStack;
const receivers = new Receivers();
beforeAll(async () => {
  // Completed orders end their workflow at once here (no correction window).
  stack = await startTestStack({}, { orderDeadlines: { correctionWindowSeconds: 0 } });
});
afterEach(() => receivers.stopAll());
afterAll(async () => {
  await stack?.close();
});

const patientDetails = { firstName: 'Jane', lastName: 'Doe', dob: '1990-05-17', gender: 'female', phoneNumber: '+14155552671', email: 'jane@example.com' } as const;
const patientAddress = { firstLine: '123 Main St', city: 'San Francisco', state: 'CA', zip: '94105', country: 'US' };

/** A team with a webhook receiver, a user and a lab test of `method`. */
async function setup(method: CollectionMethod) {
  const team = await newTeam(stack);
  const client = sdkFor(stack, team.apiKey);
  const receiver = await receivers.start();
  await createEndpoint(stack, team.apiKey, receiver.url);
  const { userId } = await client.user.create({ clientUserId: `methods-${randomUUID()}` });
  const { labTestId } = await testkitLabTest(stack.db.db, team.teamId, method);
  const create = () =>
    client.labTests.createOrder({ userId, orderSet: { labTestIds: [labTestId] }, patientDetails, patientAddress } as Vital.CreateOrderRequestCompatible);
  return { ...team, client, receiver, userId, labTestId, create };
}

const statuses = (o: Vital.ClientFacingOrder) => o.events.map((e) => e.status);

/** The order once its last event is `status`. */
async function reaching(client: ReturnType<typeof sdkFor>, orderId: string, status: string) {
  return eventually(async () => {
    const o = await client.labTests.getOrder(orderId);
    return o.events.at(-1)?.status === status ? o : null;
  });
}

/** The statuses announced by `labtest.order.*` webhooks for an order, in delivery order. */
function announced(receiver: Awaited<ReturnType<Receivers['start']>>, orderId: string): string[] {
  return receiver.accepted
    .filter((r) => r.json.event_type.startsWith('labtest.order.') && r.json.data.id === orderId)
    .map((r) => (r.json.data.last_event as { status: string }).status);
}

describe('on-site collection orders', () => {
  it('go ordered → requisition_created → draw_completed (PATCH) → completed, each status announced once', async () => {
    const t = await setup('on_site_collection');
    const { order } = await t.create();
    expect(order.details.type).toBe('on_site_collection');
    await reaching(t.client, order.id, 'received.on_site_collection.requisition_created');

    const drawn = await t.client.labTests.updateOnSiteCollectionOrderDrawCompleted(order.id);
    expect(drawn.order.events.at(-1)?.status).toBe('sample_with_lab.on_site_collection.draw_completed');
    expect(drawn.order.status).toBe('sample_with_lab');
    // twice is refused: the lifecycle allows one draw
    await expect(t.client.labTests.updateOnSiteCollectionOrderDrawCompleted(order.id)).rejects.toMatchObject({ statusCode: 400 });

    await t.client.labTests.simulateOrderProcess(order.id, { finalStatus: 'completed.on_site_collection.completed' });
    const done = await reaching(t.client, order.id, 'completed.on_site_collection.completed');
    const expected = [
      'received.on_site_collection.ordered',
      'received.on_site_collection.requisition_created',
      'sample_with_lab.on_site_collection.draw_completed',
      'completed.on_site_collection.completed',
    ];
    expect(statuses(done)).toEqual(expected);
    await eventually(async () => (announced(t.receiver, order.id).length === expected.length ? true : null));
    expect(announced(t.receiver, order.id)).toEqual(expected);
    await saveHistory('lab-order-on-site-completed', order.id, 'completed');
  });

  it('answers 400/404/422 for draw_completed where it does not belong', async () => {
    const kit = await setup('testkit');
    const { order } = await kit.create();
    const onKit = await http(stack, 'PATCH', `/v3/order/${order.id}/draw_completed`, { apiKey: kit.apiKey });
    expect(onKit.status).toBe(400);
    expect(onKit.json.detail).toMatch(/on_site_collection/);
    const missing = await http(stack, 'PATCH', `/v3/order/${randomUUID()}/draw_completed`, { apiKey: kit.apiKey });
    expect(missing.status).toBe(404);
    expect(missing.json.detail).toBeTruthy();
    const bad = await http(stack, 'PATCH', '/v3/order/not-a-uuid/draw_completed', { apiKey: kit.apiKey });
    expect(bad.status).toBe(422);
    // another team's on-site order is not found
    const onSite = await setup('on_site_collection');
    const { order: theirs } = await onSite.create();
    expect((await http(stack, 'PATCH', `/v3/order/${theirs.id}/draw_completed`, { apiKey: kit.apiKey })).status).toBe(404);
    // a cancelled on-site order refuses the draw
    await reaching(onSite.client, theirs.id, 'received.on_site_collection.requisition_created');
    await onSite.client.labTests.cancelOrder(theirs.id);
    const afterCancel = await http(stack, 'PATCH', `/v3/order/${theirs.id}/draw_completed`, { apiKey: onSite.apiKey });
    expect(afterCancel.status).toBe(400);
    expect(afterCancel.json.detail).toBe('Transition from cancelled to draw_completed is not allowed');
  });
});

describe('walk-in orders', () => {
  it('simulate along the real path: a PSC appointment, partial results, completed', async () => {
    const t = await setup('walk_in_test');
    const { order } = await t.create();
    expect(order.details.type).toBe('walk_in_test');
    const raw = await http(stack, 'GET', `/v3/order/${order.id}`, { apiKey: t.apiKey });
    expect((raw.json.details as { data: Record<string, unknown> }).data).toMatchObject({ appointment_id: null });
    expect((raw.json.details as { data: Record<string, unknown> }).data).not.toHaveProperty('shipment');
    await t.client.labTests.simulateOrderProcess(order.id, { finalStatus: 'completed.walk_in_test.completed' });
    const done = await reaching(t.client, order.id, 'completed.walk_in_test.completed');
    expect(statuses(done)).toEqual([
      'received.walk_in_test.ordered',
      'received.walk_in_test.requisition_created',
      'collecting_sample.walk_in_test.appointment_pending',
      'collecting_sample.walk_in_test.appointment_scheduled',
      'sample_with_lab.walk_in_test.partial_results',
      'completed.walk_in_test.completed',
    ]);
    const results = await t.client.labTests.getResultMetadata(order.id);
    expect(results.status).toBe('final');
    await saveHistory('lab-order-walk-in-completed', order.id, 'completed');
  });

  it('may be cancelled with a scheduled appointment, but not once results arrived', async () => {
    const t = await setup('walk_in_test');
    const a = (await t.create()).order;
    await http(stack, 'POST', `/v3/order/${a.id}/test?final_status=collecting_sample.walk_in_test.appointment_scheduled&delay=0`, { apiKey: t.apiKey });
    await reaching(t.client, a.id, 'collecting_sample.walk_in_test.appointment_scheduled');
    const cancelled = await t.client.labTests.cancelOrder(a.id);
    expect(statuses(cancelled.order).at(-1)).toBe('cancelled.walk_in_test.cancelled');

    const b = (await t.create()).order;
    await http(stack, 'POST', `/v3/order/${b.id}/test?final_status=sample_with_lab.walk_in_test.partial_results&delay=0`, { apiKey: t.apiKey });
    await reaching(t.client, b.id, 'sample_with_lab.walk_in_test.partial_results');
    const refused = await http(stack, 'POST', `/v3/order/${b.id}/cancel`, { apiKey: t.apiKey });
    expect(refused.status).toBe(400);
    expect(refused.json.detail).toBe('Transition from partial_results to cancelled is not allowed');
  });
});

describe('at-home phlebotomy orders', () => {
  it('simulate through a booked appointment and the draw to completed', async () => {
    const t = await setup('at_home_phlebotomy');
    const { order } = await t.create();
    expect(order.details.type).toBe('at_home_phlebotomy');
    await t.client.labTests.simulateOrderProcess(order.id, { finalStatus: 'completed.at_home_phlebotomy.completed' });
    const done = await reaching(t.client, order.id, 'completed.at_home_phlebotomy.completed');
    expect(statuses(done)).toEqual([
      'received.at_home_phlebotomy.ordered',
      'received.at_home_phlebotomy.requisition_created',
      'collecting_sample.at_home_phlebotomy.appointment_pending',
      'collecting_sample.at_home_phlebotomy.appointment_scheduled',
      'collecting_sample.at_home_phlebotomy.draw_completed',
      'completed.at_home_phlebotomy.completed',
    ]);
    await saveHistory('lab-order-phlebotomy-completed', order.id, 'completed');
  });

  it('may be cancelled after the draw, and refuses a customer-reported draw', async () => {
    const t = await setup('at_home_phlebotomy');
    const { order } = await t.create();
    await http(stack, 'POST', `/v3/order/${order.id}/test?final_status=collecting_sample.at_home_phlebotomy.draw_completed&delay=0`, { apiKey: t.apiKey });
    await reaching(t.client, order.id, 'collecting_sample.at_home_phlebotomy.draw_completed');
    const draw = await http(stack, 'PATCH', `/v3/order/${order.id}/draw_completed`, { apiKey: t.apiKey });
    expect(draw.status).toBe(400);
    const cancelled = await t.client.labTests.cancelOrder(order.id);
    expect(statuses(cancelled.order).at(-1)).toBe('cancelled.at_home_phlebotomy.cancelled');
    await expect(t.client.labTests.cancelOrder(order.id)).rejects.toBeInstanceOf(VitalError);
  });

  it('honours X-Idempotency-Key as for testkits', async () => {
    const t = await setup('at_home_phlebotomy');
    const body = { user_id: t.userId, order_set: { lab_test_ids: [t.labTestId] }, patient_details: { first_name: 'Jane', last_name: 'Doe', dob: '1990-05-17', gender: 'female', phone_number: '+14155552671', email: 'jane@example.com' }, patient_address: { first_line: '123 Main St', city: 'San Francisco', state: 'CA', zip: '94105', country: 'US' } };
    const key = `phleb-${randomUUID()}`;
    const first = await http(stack, 'POST', '/v3/order', { apiKey: t.apiKey, body, headers: { 'x-idempotency-key': key } });
    const again = await http(stack, 'POST', '/v3/order', { apiKey: t.apiKey, body, headers: { 'x-idempotency-key': key } });
    expect(first.status).toBe(200);
    expect((again.json.order as { id: string }).id).toBe((first.json.order as { id: string }).id);
    const changed = await http(stack, 'POST', '/v3/order', { apiKey: t.apiKey, body: { ...body, priority: true }, headers: { 'x-idempotency-key': key } });
    expect(changed.status).toBe(409);
  });
});

interface TransactionJson {
  id: string;
  status: string;
  orders: { id: string; origin: string; parent_id: string | null; low_level_status: string; low_level_status_created_at: string }[];
}

describe('order transactions and redraws', () => {
  it('every order carries its transaction: on create, get, list, cancel and in webhooks', async () => {
    const t = await setup('on_site_collection');
    const created = await http(stack, 'POST', '/v3/order', {
      apiKey: t.apiKey,
      body: { user_id: t.userId, order_set: { lab_test_ids: [t.labTestId] }, patient_details: { first_name: 'Jane', last_name: 'Doe', dob: '1990-05-17', gender: 'female', phone_number: '+14155552671', email: 'jane@example.com' }, patient_address: { first_line: '123 Main St', city: 'San Francisco', state: 'CA', zip: '94105', country: 'US' } },
    });
    const order = created.json.order as { id: string; order_transaction: TransactionJson };
    expect(order.order_transaction).toMatchObject({ status: 'active', orders: [{ id: order.id, origin: 'initial', parent_id: null, low_level_status: expect.stringMatching(/^(ordered|requisition_created)$/) }] });
    const txId = order.order_transaction.id;
    const got = await http(stack, 'GET', `/v3/order/${order.id}`, { apiKey: t.apiKey });
    expect((got.json.order_transaction as TransactionJson).id).toBe(txId);
    const listed = await http(stack, 'GET', '/v3/orders', { apiKey: t.apiKey });
    expect((listed.json.orders as { order_transaction: TransactionJson }[])[0]!.order_transaction.id).toBe(txId);
    const cancelled = await http(stack, 'POST', `/v3/order/${order.id}/cancel`, { apiKey: t.apiKey });
    expect((cancelled.json.order as { order_transaction: TransactionJson }).order_transaction).toMatchObject({ id: txId, status: 'cancelled', orders: [{ low_level_status: 'cancelled' }] });
    // every event of the order is announced: created, requisition_created when the workflow got to it before
    // the cancel (creation no longer waits on the workflow), cancelled
    const events = ((await http(stack, 'GET', `/v3/order/${order.id}`, { apiKey: t.apiKey })).json.events as unknown[]).length;
    expect(events).toBeGreaterThanOrEqual(2);
    const hooks = await eventually(async () => {
      const mine = t.receiver.accepted.filter((r) => r.json.data.id === order.id);
      return mine.length >= events ? mine : null;
    });
    expect(hooks).toHaveLength(events);
    expect(hooks.every((h) => (h.json.data.order_transaction as TransactionJson).id === txId)).toBe(true);
    expect((hooks.at(-1)!.json.data.order_transaction as TransactionJson).status).toBe('cancelled');
    // GET /v3/order_transaction/{id}
    const tx = await http(stack, 'GET', `/v3/order_transaction/${txId}`, { apiKey: t.apiKey });
    expect(tx.status).toBe(200);
    expect(tx.json).toMatchObject({ id: txId, status: 'cancelled' });
  });

  it('a walk-in order with missing markers offers a redraw: a redraw order joins the transaction, created then updated', async () => {
    const t = await setup('walk_in_test');
    const { order } = await t.create();
    const sim = await http(stack, 'POST', `/v3/order/${order.id}/test?final_status=collecting_sample.walk_in_test.redraw_available&delay=0`, {
      apiKey: t.apiKey,
      body: { has_missing_results: true },
    });
    expect(sim.status).toBe(200);
    await reaching(t.client, order.id, 'collecting_sample.walk_in_test.redraw_available');
    const initial = await eventually(async () => {
      const o = await http(stack, 'GET', `/v3/order/${order.id}`, { apiKey: t.apiKey });
      const tx = o.json.order_transaction as TransactionJson;
      return tx.orders.length === 2 && tx.orders[1]!.low_level_status === 'requisition_created' ? tx : null;
    });
    const redraw = initial.orders[1]!;
    expect(initial.status).toBe('active');
    expect(initial.orders[0]).toMatchObject({ id: order.id, origin: 'initial', low_level_status: 'redraw_available' });
    expect(redraw).toMatchObject({ origin: 'redraw', parent_id: order.id });
    await saveHistory('lab-order-walk-in-redraw-available', order.id, 'redraw_available');
    // not cancellable once it offers a redraw
    expect((await http(stack, 'POST', `/v3/order/${order.id}/cancel`, { apiKey: t.apiKey })).status).toBe(400);
    // the redraw announces itself: created (ordered), then updated at requisition_created
    await eventually(async () => (announced(t.receiver, redraw.id).length >= 2 ? true : null));
    expect(announced(t.receiver, redraw.id).slice(0, 2)).toEqual(['received.walk_in_test.ordered', 'received.walk_in_test.requisition_created']);
    expect(t.receiver.accepted.find((r) => r.json.data.id === redraw.id)?.json.event_type).toBe('labtest.order.created');
    // at most one redraw: the redraw completes even with markers still missing
    await http(stack, 'POST', `/v3/order/${redraw.id}/test?final_status=completed.walk_in_test.completed&delay=0`, { apiKey: t.apiKey, body: { has_missing_results: true } });
    await reaching(t.client, redraw.id, 'completed.walk_in_test.completed');
    // the redraw drew only what the initial order missed: its results are those markers, no others
    const missed = (await http(stack, 'GET', `/v3/order/${order.id}/result`, { apiKey: t.apiKey })).json.missing_results as { slug: string }[];
    expect(missed.length).toBeGreaterThan(0);
    const redrawn = (await http(stack, 'GET', `/v3/order/${redraw.id}/result`, { apiKey: t.apiKey })).json.results as { slug: string }[];
    expect(redrawn.map((r) => r.slug).sort()).toEqual(missed.map((m) => m.slug).sort());
    const done = await http(stack, 'GET', `/v3/order_transaction/${initial.id}`, { apiKey: t.apiKey });
    expect(done.json).toMatchObject({ id: initial.id, status: 'completed' });
  });

  it('GET /v3/order_transaction answers 422 for a bad id and 404 for an unknown or another team\'s transaction', async () => {
    const a = await setup('on_site_collection');
    const b = await setup('on_site_collection');
    const { order } = await b.create();
    const theirs = await http(stack, 'GET', `/v3/order/${order.id}`, { apiKey: b.apiKey });
    const txId = (theirs.json.order_transaction as TransactionJson).id;
    const bad = await http(stack, 'GET', '/v3/order_transaction/nope', { apiKey: a.apiKey });
    expect(bad.status).toBe(422);
    const unknown = await http(stack, 'GET', `/v3/order_transaction/${randomUUID()}`, { apiKey: a.apiKey });
    expect(unknown.status).toBe(404);
    expect(unknown.json.detail).toBe('Order transaction not found');
    expect((await http(stack, 'GET', `/v3/order_transaction/${txId}`, { apiKey: a.apiKey })).status).toBe(404);
  });
});

describe('POST /v3/order/import', () => {
  it('imports an order whose requisition exists: requisition_bypassed, then the usual path; duplicates and bad bodies refused', async () => {
    const t = await setup('walk_in_test');
    const sampleId = `LC-${randomUUID().slice(0, 8)}`;
    const { order } = await t.client.labTests.importOrder({
      userId: t.userId,
      billingType: 'client_bill',
      orderSet: { labTestIds: [t.labTestId] },
      collectionMethod: 'walk_in_test',
      patientDetails,
      patientAddress: { ...patientAddress, receiverName: 'Jane Doe' }, // the SDK's ImportOrderBody requires it
      sampleId,
    } as Vital.ImportOrderBody);
    expect(order.sampleId).toBe(sampleId);
    const bypassed = await reaching(t.client, order.id, 'received.walk_in_test.requisition_bypassed');
    expect(bypassed.events.map((e) => e.status)).toEqual(['received.walk_in_test.ordered', 'received.walk_in_test.requisition_bypassed']);
    const raw = await http(stack, 'GET', `/v3/order/${order.id}`, { apiKey: t.apiKey });
    expect(raw.json.requisition_form_url).toBeNull();

    const body = { user_id: t.userId, billing_type: 'client_bill', order_set: { lab_test_ids: [t.labTestId] }, collection_method: 'walk_in_test', patient_details: { first_name: 'Jane', last_name: 'Doe', dob: '1990-05-17', gender: 'female', phone_number: '+14155552671', email: 'jane@example.com' }, patient_address: { first_line: '123 Main St', city: 'San Francisco', state: 'CA', zip: '94105', country: 'US' }, sample_id: sampleId };
    const dup = await http(stack, 'POST', '/v3/order/import', { apiKey: t.apiKey, body });
    expect(dup.status).toBe(400);
    expect(dup.json.detail).toBe(`An order with sample_id ${sampleId} already exists`);
    for (const bad of [{ ...body, sample_id: undefined }, { ...body, sample_id: 'a b' }, { ...body, collection_method: 'testkit' }, { ...body, billing_type: undefined }]) {
      const res = await http(stack, 'POST', '/v3/order/import', { apiKey: t.apiKey, body: { ...bad, sample_id: bad.sample_id === sampleId ? `X-${randomUUID().slice(0, 8)}` : bad.sample_id } });
      expect(res.status).toBe(422);
      expect(res.json.detail).toBeTruthy();
    }
    expect((await http(stack, 'POST', '/v3/order/import', { apiKey: t.apiKey, body: { ...body, user_id: randomUUID(), sample_id: 'FRESH-1234' } })).status).toBe(404);
  });
});
