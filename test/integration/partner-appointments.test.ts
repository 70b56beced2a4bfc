import { randomUUID } from 'node:crypto';
import type { Vital } from '@tryvital/vital-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPartnerKey, type PartnerKind } from '../../db/queries/partners.js';
import { labOrderWorkflowId } from '../../workflows/lab-order/definitions.js';
import { testkitLabTest } from '../support/catalog-fixture.js';
import { recordHistory } from '../support/histories.js';
import { eventually, http, newTeam, sdkFor, startTestStack, type TestStack } from '../support/harness.js';

/**
 * Appointment providers report the draw through the partner API (`POST /partner/v1/orders/{id}/appointment`):
 * each report is an Update to the order's workflow, whose validator accepts or refuses it.
 */
let stack: TestStack;
beforeAll(async () => {
  stack = await startTestStack({}, { orderDeadlines: { correctionWindowSeconds: 0 } });
});
afterAll(async () => {
  await stack?.close();
});

const patientDetails = { firstName: 'Jane', lastName: 'Doe', dob: '1990-05-17', gender: 'female', phoneNumber: '+14155552671', email: 'jane@example.com' } as const;
const phoenix = { firstLine: '100 West Lincoln Street', city: 'Phoenix', state: 'AZ', zip: '85004', country: 'US' };

async function key(kind: PartnerKind, labId: number | null = null) {
  return (await createPartnerKey(stack.db.db, { name: `${kind} partner`, kind, labId, environment: 'sandbox', region: 'us' })).apiKey;
}

async function order(method: 'at_home_phlebotomy' | 'testkit') {
  const team = await newTeam(stack);
  const client = sdkFor(stack, team.apiKey);
  const { userId } = await client.user.create({ clientUserId: `pa-${randomUUID()}` });
  const { labTestId, labId } = await testkitLabTest(stack.db.db, team.teamId, method);
  const { order } = await client.labTests.createOrder({ userId, orderSet: { labTestIds: [labTestId] }, patientDetails, patientAddress: phoenix } as Vital.CreateOrderRequestCompatible);
  await eventually(async () => ((await client.labTests.getOrder(order.id)).events.at(-1)?.status.endsWith('requisition_created') ? true : null));
  return { ...team, client, orderId: order.id, lab: await key('lab', labId), courier: await key('courier') };
}

/** Books the first slot still free (slots are shared with other tests of the run). */
async function book(t: Awaited<ReturnType<typeof order>>) {
  const availability = await t.client.labTests.getPhlebotomyAppointmentAvailability({ body: { firstLine: phoenix.firstLine, city: phoenix.city, state: phoenix.state, zipCode: phoenix.zip } });
  for (const slot of availability.slots.flatMap((d) => d.slots).filter((s) => s.bookingKey && (s.numAppointmentsAvailable ?? 1) > 0)) {
    const res = await http(stack, 'POST', `/v3/order/${t.orderId}/phlebotomy/appointment/book`, { apiKey: t.apiKey, body: { booking_key: slot.bookingKey } });
    if (res.status === 200) return res.json as { id: string };
  }
  throw new Error('no free phlebotomy slot');
}

const report = (partnerKey: string, orderId: string, body: unknown) =>
  http(stack, 'POST', `/partner/v1/orders/${orderId}/appointment`, { headers: { 'x-partner-api-key': partnerKey }, body });
const statuses = async (t: Awaited<ReturnType<typeof order>>) => (await t.client.labTests.getOrder(t.orderId)).events.map((e) => e.status.split('.').at(-1));

describe('partner API: appointment progress as Updates on the order workflow', () => {
  it('in_progress → completed moves the appointment and records draw_completed; a repeat is refused', async () => {
    const t = await order('at_home_phlebotomy');
    // before any booking, the workflow refuses: there is no appointment to start
    const early = await report(t.lab, t.orderId, { status: 'in_progress' });
    expect(early.status).toBe(409);
    expect(early.json.detail).toBe('the order has no scheduled appointment to start');

    await book(t);
    const started = await report(t.lab, t.orderId, { status: 'in_progress', notes: 'phlebotomist arrived' });
    expect(started.status, started.text).toBe(202);
    expect(started.json).toEqual({ accepted: true, order_id: t.orderId, status: 'appointment_scheduled' });
    expect((await t.client.labTests.getPhlebotomyAppointment(t.orderId)).status).toBe('in_progress');
    // the provider's refusal comes back from the workflow: the appointment is already under way
    const again = await report(t.lab, t.orderId, { status: 'in_progress' });
    expect(again.status).toBe(409);
    expect(again.json.detail).toBe('This appointment is in_progress; it cannot become in_progress.');

    const done = await report(t.lab, t.orderId, { status: 'completed' });
    expect(done.status, done.text).toBe(202);
    expect(done.json.status).toBe('draw_completed');
    const appointment = await t.client.labTests.getPhlebotomyAppointment(t.orderId);
    expect(appointment.status).toBe('completed');
    expect(appointment.events.map((e) => e.status)).toEqual(['scheduled', 'in_progress', 'completed']);
    expect(await statuses(t)).toEqual(['ordered', 'requisition_created', 'appointment_pending', 'appointment_scheduled', 'draw_completed']);
    // the order has moved on: another completion is refused and records nothing
    expect((await report(t.lab, t.orderId, { status: 'completed' })).status).toBe(409);
    expect(await statuses(t)).toHaveLength(5);
    await recordHistory('lab-order-phlebotomy-partner-draw', stack.temporal.workflow.getHandle(labOrderWorkflowId(t.orderId)));
  });

  it('no_show cancels the appointment with its reason and the order shows appointment_cancelled', async () => {
    const t = await order('at_home_phlebotomy');
    await book(t);
    const res = await report(t.lab, t.orderId, { status: 'no_show' });
    expect(res.status, res.text).toBe(202);
    expect(res.json.status).toBe('appointment_cancelled');
    const raw = await http(stack, 'GET', `/v3/order/${t.orderId}/phlebotomy/appointment`, { apiKey: t.apiKey });
    expect(raw.json.status).toBe('cancelled');
    expect((raw.json.event_data as { cancellation_reason_id: string }).cancellation_reason_id).toBe('5b2f7a4e-0d1c-4b7e-9a51-2f3c1e0a9b01');
  });

  it('refuses what does not fit: a testkit order, a courier key, bad bodies (nothing changes)', async () => {
    const kit = await order('testkit');
    const onKit = await report(kit.lab, kit.orderId, { status: 'completed' });
    expect(onKit.status).toBe(409);
    expect(onKit.json.detail).toBe('a testkit order has no appointments');

    const t = await order('at_home_phlebotomy');
    expect((await report(t.courier, t.orderId, { status: 'in_progress' })).status).toBe(403);
    for (const body of [{}, { status: 'done' }, { status: 'completed', notes: 'x'.repeat(2001) }, { status: 'completed', notes: 'a\u0000b' }]) {
      const res = await report(t.lab, t.orderId, body);
      expect(res.status, JSON.stringify(body)).toBe(422);
      expect(typeof res.json.detail).not.toBe('undefined');
    }
    expect(await statuses(t)).toEqual(['ordered', 'requisition_created']);
  });
});
