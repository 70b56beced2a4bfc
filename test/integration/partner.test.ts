import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { acceptedResponse } from '../../api/routes/partner/schemas.js';
import { createPartnerKey, revokePartnerKey, type PartnerKind } from '../../db/queries/partners.js';
import { findResults } from '../../db/queries/orders.js';
import { partnerKeys } from '../../db/schema/index.js';
import { hashApiKey } from '../../domain/api-keys.js';
import { labOrderWorkflowId } from '../../workflows/lab-order/definitions.js';
import { testkitLabTest } from '../support/catalog-fixture.js';
import { eventually, http, newTeam, startTestStack, type TestStack } from '../support/harness.js';

let stack: TestStack;
beforeAll(async () => {
  // Completed orders end their workflow at once here (no correction window), so tests can await the result.
  stack = await startTestStack({}, { orderDeadlines: { correctionWindowSeconds: 0 } });
});
afterAll(async () => {
  await stack?.close();
});

const MISSING = '00000000-0000-4000-8000-000000000000';
const patient = {
  patient_details: { first_name: 'Jane', last_name: 'Doe', dob: '1990-05-17', gender: 'female', phone_number: '+14155552671', email: 'jane@example.com' },
  patient_address: { first_line: '123 Main St', city: 'San Francisco', state: 'CA', zip: '94105', country: 'US' },
};
const shipping = { receiver_name: 'Jane Doe', first_line: '123 Main St', city: 'San Francisco', state: 'CA', zip: '94105', country: 'US', phone_number: '+14155552671' };

interface OrderJson {
  id: string;
  status: string;
  sample_id: string;
  interpretation: string | null;
  events: { id: number; status: string; status_detail: string | null }[];
  details: { data: { shipment: Record<string, string | null> | null } };
}

async function key(kind: PartnerKind, labId: number | null = null) {
  return (await createPartnerKey(stack.db.db, { name: `${kind} partner`, kind, labId, environment: 'sandbox', region: 'us' })).apiKey;
}

/** A team with a patient and a testkit lab test at its own lab, and partner keys for that lab. */
async function setup() {
  const team = await newTeam(stack);
  const user = await http(stack, 'POST', '/v2/user', { apiKey: team.apiKey, body: { client_user_id: `p-${Math.random()}` } });
  const { labTestId, labId } = await testkitLabTest(stack.db.db, team.teamId);
  return { ...team, userId: user.json.user_id as string, labTestId, labId, courier: await key('courier'), lab: await key('lab', labId), operator: await key('operator') };
}

type Setup = Awaited<ReturnType<typeof setup>>;

/** A registered testkit order (POST /v3/order), once its requisition exists. */
async function registeredOrder(s: Setup): Promise<OrderJson> {
  const res = await http(stack, 'POST', '/v3/order', { apiKey: s.apiKey, body: { user_id: s.userId, lab_test_id: s.labTestId, ...patient } });
  expect(res.status, res.text).toBe(200);
  const id = (res.json.order as OrderJson).id;
  return eventually(async () => {
    const o = await getOrder(s.apiKey, id);
    return o.events.at(-1)?.status === 'received.testkit.requisition_created' ? o : null;
  });
}

async function getOrder(apiKey: string, id: string): Promise<OrderJson> {
  const res = await http(stack, 'GET', `/v3/order/${id}`, { apiKey });
  expect(res.status).toBe(200);
  return res.json as unknown as OrderJson;
}

function report(partnerKey: string | null, path: string, body?: unknown, rawBody?: string) {
  const headers: Record<string, string> = partnerKey ? { 'x-partner-api-key': partnerKey } : {};
  if (rawBody !== undefined) headers['content-type'] = 'application/json';
  return http(stack, 'POST', `/partner/v1${path}`, { headers, ...(rawBody !== undefined ? { rawBody } : { body }) });
}

/** Sends a report that must be accepted, and checks the answer reveals nothing but the order id and status. */
async function accepted(partnerKey: string, path: string, body: unknown, status: string) {
  const res = await report(partnerKey, path, body);
  expect(res.status, res.text).toBe(202);
  expect(Object.keys(res.json).sort()).toEqual(['accepted', 'order_id', 'status']);
  const parsed = acceptedResponse.parse(res.json);
  expect(parsed.status).toBe(status);
  return parsed;
}

const results = [
  { name: 'Hemoglobin A1c', slug: 'hba1c', result: '5.4', type: 'numeric', unit: '%', reference_range: '4.0-5.6', min_range_value: 4, max_range_value: 5.6, interpretation: 'normal', loinc: '4548-4' },
  { name: 'Total Cholesterol', slug: 'cholesterol', result: '182', type: 'numeric', unit: 'mg/dL', min_range_value: 0, max_range_value: 200, loinc: '2093-3' },
];

/** Drives an order to delivered_to_lab with operator reports. */
async function toLab(operator: string, orderId: string) {
  for (const [event, status] of [['transit_customer', 'transit_customer'], ['with_customer', 'with_customer'], ['transit_lab', 'transit_lab']]) {
    await accepted(operator, `/orders/${orderId}/shipment`, { event }, status!);
  }
  await accepted(operator, `/orders/${orderId}/sample_received`, undefined, 'delivered_to_lab');
}

describe('partner API: the production path of a testkit order', () => {
  it('couriers and the lab drive a registered kit to completed; tracking, events and results are recorded', async () => {
    const s = await setup();
    const order = await registeredOrder(s);
    const o = `/orders/${order.id}`;

    // courier: the kit to the customer and the sample back to the lab
    const first = await accepted(s.courier, `${o}/shipment`, {
      event: 'transit_customer', courier: 'usps', tracking_number: '9400111899223344556677', tracking_url: 'https://tools.usps.com/go/TrackConfirmAction?tLabels=9400111899223344556677',
    }, 'transit_customer');
    expect(first.order_id).toBe(order.id);
    await accepted(s.courier, `${o}/shipment`, { event: 'out_for_delivery', status_detail: 'on the van' }, 'out_for_delivery');
    await accepted(s.courier, `${o}/shipment`, { event: 'with_customer', notes: 'left with the patient' }, 'with_customer');
    await accepted(s.courier, `${o}/shipment`, { event: 'transit_lab', courier: 'ups', tracking_number: '1Z999AA10123456784' }, 'transit_lab');

    // lab: by the sample id printed on the kit
    await accepted(s.lab, `/samples/${order.sample_id}/sample_received`, {}, 'delivered_to_lab');
    await accepted(s.lab, `/samples/${order.sample_id}/results`, { final: false, interpretation: 'normal', results: results.slice(0, 1) }, 'partial_results');
    const partial = await findResults(stack.db.db, order.id);
    expect(partial?.status).toBe('partial');
    await accepted(s.lab, `${o}/results`, { final: true, interpretation: 'normal', results }, 'completed');

    const done = await getOrder(s.apiKey, order.id);
    expect(done.status).toBe('completed');
    expect(done.events.map((e) => e.status)).toEqual([
      'received.testkit.ordered',
      'received.testkit.requisition_created',
      'collecting_sample.testkit.transit_customer',
      'collecting_sample.testkit.out_for_delivery',
      'collecting_sample.testkit.with_customer',
      'collecting_sample.testkit.transit_lab',
      'sample_with_lab.testkit.delivered_to_lab',
      'sample_with_lab.testkit.partial_results',
      'completed.testkit.completed',
    ]);
    expect(done.events.map((e) => e.id)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9]);
    expect(done.events[3]!.status_detail).toBe('on the van');
    expect(done.details.data.shipment).toMatchObject({
      outbound_courier: 'usps',
      outbound_tracking_number: '9400111899223344556677',
      outbound_tracking_url: 'https://tools.usps.com/go/TrackConfirmAction?tLabels=9400111899223344556677',
      inbound_courier: 'ups',
      inbound_tracking_number: '1Z999AA10123456784',
      notes: 'left with the patient',
    });
    expect(done.interpretation).toBe('normal');

    const stored = await findResults(stack.db.db, order.id);
    expect(stored?.status).toBe('final');
    expect(stored?.results).toEqual([
      expect.objectContaining({ name: 'Hemoglobin A1c', result: '5.4', type: 'numeric', loinc: '4548-4', min_range_value: 4, max_range_value: 5.6 }),
      expect.objectContaining({ name: 'Total Cholesterol', result: '182', unit: 'mg/dL' }),
    ]);
    await expect(stack.temporal.workflow.getHandle(labOrderWorkflowId(order.id)).result()).resolves.toBe('completed');

    // a finished order takes no more reports
    const late = await report(s.lab, `${o}/results`, { final: true, interpretation: 'normal', results });
    expect(late.status).toBe(409);
    expect(late.json.detail).toBe('the order is already completed');
  });

  it('a lab reports a sample error after delivery: the order ends sample_error with the reason', async () => {
    const s = await setup();
    const order = await registeredOrder(s);
    await toLab(s.operator, order.id);
    await accepted(s.lab, `/orders/${order.id}/failure`, { kind: 'sample_error', status_detail: 'hemolyzed' }, 'sample_error');
    const failed = await getOrder(s.apiKey, order.id);
    expect(failed.status).toBe('failed');
    expect(failed.events.at(-1)).toMatchObject({ status: 'failed.testkit.sample_error', status_detail: 'hemolyzed' });
    await expect(stack.temporal.workflow.getHandle(labOrderWorkflowId(order.id)).result()).resolves.toBe('sample_error');
    const again = await report(s.courier, `/orders/${order.id}/shipment`, { event: 'transit_customer' });
    expect(again.status).toBe(409);
    expect(again.json.detail).toBe('the order is already sample_error');
  });

  it('failure kinds that are shipment events: the lab reports a sample that never arrived', async () => {
    const s = await setup();
    const order = await registeredOrder(s);
    for (const event of ['transit_customer', 'with_customer', 'transit_lab']) await accepted(s.courier, `/orders/${order.id}/shipment`, { event }, event);
    await accepted(s.lab, `/orders/${order.id}/failure`, { kind: 'failure_to_deliver_to_lab', status_detail: 'returned to sender' }, 'failure_to_deliver_to_lab');
    expect((await getOrder(s.apiKey, order.id)).events.at(-1)).toMatchObject({ status: 'failed.testkit.failure_to_deliver_to_lab', status_detail: 'returned to sender' });
  });
});

describe('partner API: keys and kinds', () => {
  it('answers 401 without a partner key, with a team key, with a revoked key; partner keys do not open /v2 or /v3', async () => {
    const s = await setup();
    const order = await registeredOrder(s);
    const path = `/orders/${order.id}/shipment`;
    const body = { event: 'transit_customer' };
    const none = await report(null, path, body);
    expect(none.status).toBe(401);
    expect(none.json.detail).toMatch(/x-partner-api-key/);
    expect((await report(s.apiKey, path, body)).status).toBe(401); // team key in the partner header
    const teamHeader = await http(stack, 'POST', `/partner/v1${path}`, { apiKey: s.apiKey, body });
    expect(teamHeader.status).toBe(401);
    expect((await report('partner_sandbox_us_not-a-real-key-at-all-0000000000000000', path, body)).status).toBe(401);
    expect((await report(s.courier.replace('partner_sandbox_us_', 'partner_production_us_'), path, body)).status).toBe(401);

    for (const header of ['x-service-api-key', 'x-vital-api-key']) {
      expect((await http(stack, 'GET', `/v3/order/${order.id}`, { headers: { [header]: s.operator } })).status).toBe(401);
      expect((await http(stack, 'GET', '/v2/user', { headers: { [header]: s.operator } })).status).toBe(401);
    }

    const [row] = await stack.db.db.select().from(partnerKeys).where(eq(partnerKeys.keyHash, hashApiKey(s.courier)));
    expect(JSON.stringify(row)).not.toContain(s.courier); // only the hash is stored
    expect(await revokePartnerKey(stack.db.db, row!.id)).toBe(true);
    expect((await report(s.courier, path, body)).status).toBe(401);
    expect((await getOrder(s.apiKey, order.id)).events).toHaveLength(2); // nothing changed
  });

  it('enforces kinds (403) and a lab key sees only its lab\'s orders (404)', async () => {
    const s = await setup();
    const order = await registeredOrder(s);
    const o = `/orders/${order.id}`;
    for (const [path, body] of [
      [`${o}/sample_received`, {}],
      [`${o}/results`, { final: true, interpretation: 'normal', results }],
      [`${o}/failure`, { kind: 'lost', status_detail: 'gone' }],
    ] as const) {
      const res = await report(s.courier, path, body);
      expect(res.status, path).toBe(403);
      expect(res.json.detail).toMatch(/courier key may report shipment events only/);
    }
    const labShips = await report(s.lab, `${o}/shipment`, { event: 'transit_customer' });
    expect(labShips.status).toBe(403);

    const otherLab = await key('lab', (await testkitLabTest(stack.db.db, s.teamId)).labId);
    for (const path of [`${o}/sample_received`, `/samples/${order.sample_id}/sample_received`]) {
      const res = await report(otherLab, path, {});
      expect(res.status).toBe(404);
    }
    expect((await report(s.operator, `/orders/${MISSING}/shipment`, { event: 'transit_customer' })).json.detail).toBe('Order not found');
    const unknownSample = await report(s.lab, '/samples/NOSUCHSAMPLE/sample_received', {});
    expect(unknownSample.status).toBe(404);
    expect(unknownSample.json.detail).toBe('No order with this sample_id');
    expect((await getOrder(s.apiKey, order.id)).events).toHaveLength(2);
  });
});

describe('partner API: reports that do not fit', () => {
  it('answers 409 with the reason for an impossible report and changes nothing', async () => {
    const s = await setup();
    const order = await registeredOrder(s);
    const o = `/orders/${order.id}`;
    const early = await report(s.lab, `${o}/results`, { final: true, interpretation: 'normal', results });
    expect(early.status).toBe(409);
    expect(early.json.detail).toBe('reporting results is not possible while the order is requisition_created');
    const skip = await report(s.courier, `${o}/shipment`, { event: 'out_for_delivery' });
    expect(skip.status).toBe(409);
    expect(skip.json.detail).toBe('out for delivery is not possible while the order is requisition_created');
    const sampleError = await report(s.lab, `${o}/failure`, { kind: 'sample_error', status_detail: 'hemolyzed' });
    expect(sampleError.status).toBe(409);
    await accepted(s.courier, `${o}/shipment`, { event: 'transit_customer' }, 'transit_customer');
    const twice = await report(s.courier, `${o}/shipment`, { event: 'transit_customer' });
    expect(twice.status).toBe(409);
    expect((await getOrder(s.apiKey, order.id)).events.map((e) => e.status).at(-1)).toBe('collecting_sample.testkit.transit_customer');
    expect((await getOrder(s.apiKey, order.id)).events).toHaveLength(3);
  });

  it('refuses the way back to the lab for an unregistered kit, and any report on a cancelled order', async () => {
    const s = await setup();
    const kit = await http(stack, 'POST', '/v3/order/testkit', { apiKey: s.apiKey, body: { user_id: s.userId, lab_test_id: s.labTestId, shipping_details: shipping } });
    const kitId = (kit.json.order as OrderJson).id;
    await accepted(s.courier, `/orders/${kitId}/shipment`, { event: 'transit_customer' }, 'transit_customer');
    await accepted(s.courier, `/orders/${kitId}/shipment`, { event: 'with_customer' }, 'with_customer');
    const back = await report(s.courier, `/orders/${kitId}/shipment`, { event: 'transit_lab' });
    expect(back.status).toBe(409);
    expect(back.json.detail).toBe('the kit must be registered before it travels to the lab');

    const other = await http(stack, 'POST', '/v3/order/testkit', { apiKey: s.apiKey, body: { user_id: s.userId, lab_test_id: s.labTestId, shipping_details: shipping } });
    const otherId = (other.json.order as OrderJson).id;
    expect((await http(stack, 'POST', `/v3/order/${otherId}/cancel`, { apiKey: s.apiKey })).status).toBe(200);
    const cancelled = await report(s.operator, `/orders/${otherId}/shipment`, { event: 'transit_customer' });
    expect(cancelled.status).toBe(409);
    expect(cancelled.json.detail).toBe('the order is already cancelled');
  });

  it('answers 422 for bad paths and bodies and changes nothing', async () => {
    const s = await setup();
    const order = await registeredOrder(s);
    const o = `/orders/${order.id}`;
    const cases: [string, unknown, string | null][] = [
      ['/orders/not-a-uuid/shipment', { event: 'transit_customer' }, 'order_id'],
      ['/samples/bad!id/shipment', { event: 'transit_customer' }, 'sample_id'],
      [`${o}/shipment`, {}, 'event'],
      [`${o}/shipment`, { event: 'teleported' }, 'event'],
      [`${o}/shipment`, { event: 'transit_customer', tracking_url: 'ftp://x' }, 'tracking_url'],
      [`${o}/shipment`, { event: 'transit_customer', courier: 'x'.repeat(101) }, 'courier'],
      [`${o}/shipment`, undefined, null],
      [`${o}/sample_received`, { notes: 42 }, 'notes'],
      [`${o}/results`, { interpretation: 'normal', results }, 'final'],
      [`${o}/results`, { final: true, interpretation: 'fine', results }, 'interpretation'],
      [`${o}/results`, { final: true, interpretation: 'normal', results: [] }, 'results'],
      [`${o}/results`, { final: true, interpretation: 'normal', results: [{ name: 'A1c', result: '5', type: 'scalar' }] }, 'type'],
      [`${o}/results`, { final: true, interpretation: 'normal', results: [{ name: 'A1c', result: 5.4, type: 'numeric' }] }, 'result'],
      [`${o}/results`, { final: true, interpretation: 'normal', results: [{ name: 'A1c', result: '5', type: 'numeric', min_range_value: 9, max_range_value: 1 }] }, 'min_range_value'],
      [`${o}/results`, { final: true, interpretation: 'normal', results, missing_results: [{ name: 'X', slug: 'x', inferred_failure_type: 'gremlins' }] }, 'inferred_failure_type'],
      [`${o}/failure`, { kind: 'sample_error' }, 'status_detail'],
      [`${o}/failure`, { kind: 'exploded', status_detail: 'boom' }, 'kind'],
    ];
    for (const [path, body, loc] of cases) {
      const res = await report(s.operator, path, body);
      expect(res.status, `${path} ${JSON.stringify(body)}: ${res.text}`).toBe(422);
      const detail = res.json.detail as { loc: unknown[] }[];
      if (loc) expect(detail.some((d) => d.loc.includes(loc)), JSON.stringify(detail)).toBe(true);
    }
    const malformed = await report(s.operator, `${o}/shipment`, undefined, '{"event":');
    expect(malformed.status).toBe(422);
    expect((malformed.json.detail as { type: string }[])[0]!.type).toBe('json_invalid');
    expect((await getOrder(s.apiKey, order.id)).events).toHaveLength(2);
  });
});
