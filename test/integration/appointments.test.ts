import { randomUUID } from 'node:crypto';
import type { Vital } from '@tryvital/vital-node';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { testkitLabTest } from '../support/catalog-fixture.js';
import { eventually, http, newTeam, sdkFor, startTestStack, type TestStack } from '../support/harness.js';
import { Receivers, createEndpoint } from '../support/webhooks.js';

let stack: TestStack;
const receivers = new Receivers();
beforeAll(async () => {
  stack = await startTestStack({}, { orderDeadlines: { correctionWindowSeconds: 0 } });
});
afterEach(() => receivers.stopAll());
afterAll(async () => {
  await stack?.close();
});

const patientDetails = { firstName: 'Jane', lastName: 'Doe', dob: '1990-05-17', gender: 'female', phoneNumber: '+14155552671', email: 'jane@example.com' } as const;

async function setup(method: 'walk_in_test' | 'at_home_phlebotomy', patientAddress: { firstLine: string; city: string; state: string; zip: string; country: string }) {
  const team = await newTeam(stack);
  const client = sdkFor(stack, team.apiKey);
  const receiver = await receivers.start();
  await createEndpoint(stack, team.apiKey, receiver.url);
  const { userId } = await client.user.create({ clientUserId: `appt-${randomUUID()}` });
  const { labTestId } = await testkitLabTest(stack.db.db, team.teamId, method);
  const { order } = await client.labTests.createOrder({ userId, orderSet: { labTestIds: [labTestId] }, patientDetails, patientAddress } as Vital.CreateOrderRequestCompatible);
  await eventually(async () => ((await client.labTests.getOrder(order.id)).events.at(-1)?.status.endsWith('requisition_created') ? true : null));
  return { ...team, client, receiver, order };
}

const statuses = async (client: ReturnType<typeof sdkFor>, id: string) => (await client.labTests.getOrder(id)).events.map((e) => e.status);
const keys = (a: Vital.AppointmentAvailabilitySlots) => a.slots.flatMap((d) => d.slots).filter((s) => s.bookingKey);

describe('PSC appointments of a walk-in order', () => {
  it('books, reschedules and cancels through the SDK; capacity, order events and webhooks follow', async () => {
    const t = await setup('walk_in_test', { firstLine: '1 Market St', city: 'San Francisco', state: 'CA', zip: '94105', country: 'US' });
    const availability = await t.client.labTests.getPscAppointmentAvailability({ lab: 'quest', zipCode: '94105', radius: '25' });
    expect(availability.slots.length).toBeGreaterThan(0);
    expect(availability.slots[0]!.location).toMatchObject({ code: 'QSCA01', ianaTimezone: 'America/Los_Angeles' });
    // Slots are shared by every team (capacity lives in Postgres) and other tests book the earliest ones:
    // use the last two of the 14 days, and judge capacity against what this call saw.
    const open = keys({ ...availability, slots: availability.slots.filter((d) => d.location?.code === 'QSCA01') }).slice(-2);
    const first = open[0]!;
    const capacity = first.numAppointmentsAvailable!;
    expect(capacity).toBeGreaterThanOrEqual(1);
    expect(capacity).toBeLessThanOrEqual(3);
    expect(new Date(first.end).getTime() - new Date(first.start).getTime()).toBe(20 * 60_000);

    const booked = await t.client.labTests.bookPscAppointment(t.order.id, { bookingKey: first.bookingKey! });
    expect(booked).toMatchObject({ status: 'confirmed', eventStatus: 'scheduled', type: 'patient_service_center', provider: 'quest', orderId: t.order.id });
    expect(booked.startAt?.toISOString()).toBe(new Date(first.start).toISOString());
    // the slot lost one place, for every caller
    const after = keys(await t.client.labTests.getPscAppointmentAvailability({ lab: 'quest', siteCodes: ['QSCA01'] }));
    expect(after.find((s) => new Date(s.start).getTime() === new Date(first.start).getTime())?.numAppointmentsAvailable ?? 0).toBe(capacity - 1);

    const rescheduled = await t.client.labTests.reschedulePscAppointment(t.order.id, { bookingKey: open[1]!.bookingKey! });
    expect(rescheduled.startAt?.toISOString()).toBe(new Date(open[1]!.start).toISOString());
    expect(rescheduled.id).toBe(booked.id);
    // the order names its appointment (details.data.appointment_id), in GET and in the webhook payloads
    const raw = await http(stack, 'GET', `/v3/order/${t.order.id}`, { apiKey: t.apiKey });
    expect((raw.json.details as { data: { appointment_id: string | null } }).data.appointment_id).toBe(booked.id);

    const reasons = await t.client.labTests.getPscAppointmentCancellationReason();
    const cancelled = await t.client.labTests.cancelPscAppointment(t.order.id, { cancellationReasonId: reasons[0]!.id, note: 'patient travelling' });
    expect(cancelled.status).toBe('cancelled');
    expect((await t.client.labTests.getPscAppointment(t.order.id)).status).toBe('cancelled');
    expect(await statuses(t.client, t.order.id)).toEqual([
      'received.walk_in_test.ordered',
      'received.walk_in_test.requisition_created',
      'collecting_sample.walk_in_test.appointment_pending',
      'collecting_sample.walk_in_test.appointment_scheduled',
      'collecting_sample.walk_in_test.appointment_scheduled',
      'collecting_sample.walk_in_test.appointment_cancelled',
    ]);
    // cancelling twice is refused with the documented message
    const again = await http(stack, 'PATCH', `/v3/order/${t.order.id}/psc/appointment/cancel`, { apiKey: t.apiKey, body: { cancellationReasonId: reasons[0]!.id } });
    expect(again.status).toBe(400);
    expect(again.json.detail).toBe('This appointment has already been cancelled.');

    const hooks = await eventually(async () => {
      const appts = t.receiver.accepted.filter((r) => r.json.event_type.startsWith('labtest.appointment.'));
      return appts.length >= 3 ? appts : null;
    });
    expect(hooks.map((h) => [h.json.event_type, h.json.data.status])).toEqual([
      ['labtest.appointment.created', 'confirmed'],
      ['labtest.appointment.updated', 'confirmed'],
      ['labtest.appointment.updated', 'cancelled'],
    ]);
    const orderHooks = t.receiver.accepted.filter((r) => r.json.event_type === 'labtest.order.updated');
    expect(orderHooks.length).toBeGreaterThanOrEqual(5);
    const scheduledHook = orderHooks.find((h) => (h.json.data as { status: string; events?: { status: string }[] }).events?.at(-1)?.status.endsWith('appointment_scheduled'));
    expect((scheduledHook?.json.data as { details: { data: { appointment_id: string | null } } }).details.data.appointment_id).toBe(booked.id);
  });

  it('answers the documented errors for bad availability queries and changes', async () => {
    const t = await setup('walk_in_test', { firstLine: '1 Market St', city: 'San Francisco', state: 'CA', zip: '94105', country: 'US' });
    const avail = (q: string) => http(stack, 'POST', `/v3/order/psc/appointment/availability?${q}`, { apiKey: t.apiKey });
    const cases: [string, number, string | null][] = [
      ['lab=quest', 400, 'site_codes or zip_code must be provided'],
      ['lab=quest&zip_code=94105', 400, 'radius must be provided when using zip_code'],
      ['lab=quest&site_codes=QSCA01&site_codes=QSCA02&site_codes=QSNY01&site_codes=QSNY02', 400, 'site_codes must be less than or equal to 3'],
      ['lab=quest&site_codes=NOPE1', 400, 'Location with site code NOPE1 not found'],
      ['lab=quest&site_codes=QSAZ01', 400, 'Location with site code QSAZ01 is no longer active'],
      ['lab=quest&zip_code=99999&radius=10', 404, 'No slots found for zip code'],
      ['lab=labcorp&site_codes=QSCA01', 422, null],
      ['lab=quest&zip_code=94105&radius=7', 422, null],
      ['lab=quest&site_codes=QSCA01&start_date=2026-02-30', 422, null],
    ];
    for (const [q, status, detail] of cases) {
      const res = await avail(q);
      expect(res.status, q).toBe(status);
      expect(res.json.detail, q).toBeTruthy();
      if (detail) expect(res.json.detail, q).toBe(detail);
    }
    const book = (id: string, body: unknown) => http(stack, 'POST', `/v3/order/${id}/psc/appointment/book`, { apiKey: t.apiKey, body });
    expect((await book(t.order.id, { booking_key: 'not-a-key' })).json.detail).toBe('Invalid booking key format');
    expect((await book(t.order.id, {})).status).toBe(422);
    expect((await book(randomUUID(), { booking_key: 'x'.repeat(20) })).status).toBe(404);
    expect((await book('nope', { booking_key: 'x'.repeat(20) })).status).toBe(422);
    const noAppt = await http(stack, 'PATCH', `/v3/order/${t.order.id}/psc/appointment/reschedule`, { apiKey: t.apiKey, body: { booking_key: keys(await t.client.labTests.getPscAppointmentAvailability({ lab: 'quest', siteCodes: ['QSCA01'] }))[0]!.bookingKey } });
    expect(noAppt.status).toBe(400);
    expect(noAppt.json.detail).toBe("This order doesn't have an appointment yet.");
    const badReason = await http(stack, 'PATCH', `/v3/order/${t.order.id}/psc/appointment/cancel`, { apiKey: t.apiKey, body: { cancellationReasonId: randomUUID() } });
    expect(badReason.status).toBe(400);
    // snake_case is not the PSC cancel body
    expect((await http(stack, 'PATCH', `/v3/order/${t.order.id}/psc/appointment/cancel`, { apiKey: t.apiKey, body: { cancellation_reason_id: 'x' } })).status).toBe(422);
    expect((await http(stack, 'GET', `/v3/order/${t.order.id}/psc/appointment`, { apiKey: t.apiKey })).status).toBe(404);
    // a phlebotomy booking on a walk-in order
    const wrong = await http(stack, 'POST', `/v3/order/${t.order.id}/phlebotomy/appointment/book`, { apiKey: t.apiKey, body: { booking_key: 'x'.repeat(20) } });
    expect(wrong.status).toBe(400);
    expect(await statuses(t.client, t.order.id)).toEqual(['received.walk_in_test.ordered', 'received.walk_in_test.requisition_created']);
  });
});

describe('at-home phlebotomy appointments', () => {
  const phoenix = { firstLine: '100 West Lincoln Street', city: 'Phoenix', state: 'AZ', zip: '85004', country: 'US' };

  it('availability (14 days) → book → draw_completed → completed; an order cancel cancels the appointment', async () => {
    const t = await setup('at_home_phlebotomy', phoenix);
    const availability = await t.client.labTests.getPhlebotomyAppointmentAvailability({ body: { firstLine: '100 West Lincoln Street', city: 'Phoenix', state: 'AZ', zipCode: '85004' } });
    expect(availability.timezone).toBe('America/Phoenix');
    expect(availability.slots).toHaveLength(14);
    const open = keys(availability);
    // booked at least 48 hours ahead
    expect(new Date(open[0]!.start).getTime()).toBeGreaterThan(Date.now() + 47 * 3600_000);
    const booked = await t.client.labTests.bookPhlebotomyAppointment(t.order.id, { bookingKey: open[0]!.bookingKey! });
    expect(booked).toMatchObject({ status: 'confirmed', provider: 'getlabs', type: 'phlebotomy' });
    // one place per phlebotomist slot: the same key is now full for another order
    const other = await setup('at_home_phlebotomy', phoenix);
    const full = await http(stack, 'POST', `/v3/order/${other.order.id}/phlebotomy/appointment/book`, { apiKey: other.apiKey, body: { booking_key: open[0]!.bookingKey } });
    expect(full.status).toBe(400);
    expect(full.json.detail).toMatch(/no longer available/);

    await t.client.labTests.simulateOrderProcess(t.order.id, { finalStatus: 'completed.at_home_phlebotomy.completed' });
    await eventually(async () => ((await statuses(t.client, t.order.id)).at(-1) === 'completed.at_home_phlebotomy.completed' ? true : null));
    expect((await statuses(t.client, t.order.id)).slice(2)).toEqual([
      'collecting_sample.at_home_phlebotomy.appointment_pending',
      'collecting_sample.at_home_phlebotomy.appointment_scheduled',
      'collecting_sample.at_home_phlebotomy.draw_completed',
      'completed.at_home_phlebotomy.completed',
    ]);

    // the other order books the next slot, then the order is cancelled: its appointment goes with it
    await other.client.labTests.bookPhlebotomyAppointment(other.order.id, { bookingKey: open[1]!.bookingKey! });
    await other.client.labTests.cancelOrder(other.order.id);
    expect((await other.client.labTests.getPhlebotomyAppointment(other.order.id)).status).toBe('cancelled');
    const reasons = await other.client.labTests.getPhlebotomyAppointmentCancellationReason();
    const raw = await http(stack, 'GET', `/v3/order/${other.order.id}/phlebotomy/appointment`, { apiKey: other.apiKey });
    expect((raw.json.event_data as { cancellation_reason_id: string }).cancellation_reason_id).toBe(reasons[1]!.id);
  });

  it('refuses unserved addresses and bad bodies', async () => {
    const t = await setup('at_home_phlebotomy', phoenix);
    const avail = (body: unknown) => http(stack, 'POST', '/v3/order/phlebotomy/appointment/availability', { apiKey: t.apiKey, body });
    expect((await avail({ first_line: '1 Main St', city: 'Boston', state: 'MA', zip_code: '02108' })).status).toBe(400);
    expect((await avail({ first_line: '5 North 1st Street', city: 'Phoenix', state: 'AZ', zip_code: '85004' })).status).toBe(400); // Getlabs serves West Lincoln Street only
    expect((await avail({ first_line: '1 Main St', city: 'Boston', state: 'Massachusetts', zip_code: '02108' })).status).toBe(422);
    expect((await avail({ city: 'Boston' })).status).toBe(422);
    expect((await http(stack, 'POST', '/v3/order/phlebotomy/appointment/availability?start_date=tomorrow', { apiKey: t.apiKey, body: { first_line: '100 West Lincoln Street', city: 'Phoenix', state: 'AZ', zip_code: '85004' } })).status).toBe(422);
    const cancel = await http(stack, 'PATCH', `/v3/order/${t.order.id}/phlebotomy/appointment/cancel`, { apiKey: t.apiKey, body: { cancellationReasonId: 'x' } });
    expect(cancel.status).toBe(422); // phlebotomy cancel is snake_case
    const none = await http(stack, 'PATCH', `/v3/order/${t.order.id}/phlebotomy/appointment/cancel`, { apiKey: t.apiKey, body: { cancellation_reason_id: '5b2f7a4e-0d1c-4b7e-9a51-2f3c1e0a9b01' } });
    expect(none.json.detail).toBe("This order doesn't have an appointment yet.");
  });

  it('takes an appointment request (PhlebFinders): pending, no time yet', async () => {
    const t = await setup('at_home_phlebotomy', { firstLine: '1 Main St', city: 'La Crosse', state: 'WI', zip: '54650', country: 'US' });
    const requested = await t.client.labTests.requestPhlebotomyAppointment(t.order.id, {
      address: { firstLine: '1 Main St', city: 'La Crosse', state: 'WI', zipCode: '54650' },
      provider: 'phlebfinders',
    });
    expect(requested).toMatchObject({ status: 'pending', provider: 'phlebfinders' });
    expect(requested.startAt).toBeUndefined();
    expect((await statuses(t.client, t.order.id)).at(-1)).toBe('collecting_sample.at_home_phlebotomy.appointment_pending');
  });
});

describe('PSC and area information over the sandbox sites', () => {
  it('lists PSCs near a ZIP by distance, for an order, and the area coverage', async () => {
    const t = await setup('walk_in_test', { firstLine: '1 Market St', city: 'San Francisco', state: 'CA', zip: '94105', country: 'US' });
    const order = await http(stack, 'GET', `/v3/order/${t.order.id}`, { apiKey: t.apiKey });
    const labId = (order.json.lab_test as { lab: { id: number } }).lab.id;
    const info = await t.client.labTests.getPscInfo({ zipCode: '94105', labId, radius: '25' });
    expect(info.patientServiceCenters.map((p) => p.siteCode)).toEqual(['QSCA01', 'QSCA02']);
    expect(info.patientServiceCenters[0]!.distance).toBeLessThan(info.patientServiceCenters[1]!.distance);
    expect(info.patientServiceCenters[1]!.distance).toBeGreaterThan(5); // Oakland, across the bay (haversine)
    expect((await t.client.labTests.getOrderPscInfo(t.order.id, {})).patientServiceCenters[0]!.siteCode).toBe('QSCA01');
    const area = await t.client.labTests.getAreaInfo({ zipCode: '85004' });
    expect(area.phlebotomy).toMatchObject({ isServed: true, providers: [{ name: 'getlabs', serviceTypes: ['appointment-ready'] }] });
    const sf = await http(stack, 'GET', '/v3/order/area/info?zip_code=94105', { apiKey: t.apiKey });
    expect((sf.json.phlebotomy as { is_served: boolean }).is_served).toBe(false);

    const bad: [string, number][] = [
      ['/v3/order/psc/info?zip_code=94105', 422],
      ['/v3/order/psc/info?zip_code=941&lab_id=1', 422],
      [`/v3/order/psc/info?zip_code=94105&lab_id=${labId}&radius=3`, 422],
      [`/v3/order/psc/info?zip_code=94105&lab_id=${labId}&capabilities=teleport`, 422],
      ['/v3/order/psc/info?zip_code=94105&lab_id=999999', 404],
      [`/v3/order/psc/info?zip_code=99999&lab_id=${labId}`, 404],
      ['/v3/order/area/info', 422],
      [`/v3/order/${randomUUID()}/psc/info`, 404],
      ['/v3/order/nope/psc/info', 422],
    ];
    for (const [path, status] of bad) {
      const res = await http(stack, 'GET', path, { apiKey: t.apiKey });
      expect(res.status, path).toBe(status);
      expect(res.json.detail, path).toBeTruthy();
    }
  });
});
