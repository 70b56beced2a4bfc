import { randomUUID } from 'node:crypto';
import type { Vital } from '@tryvital/vital-node';
import { sql } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createAppointmentActivities } from '../../activities/appointments/index.js';
import { createLogger } from '../../lib/logger.js';
import { labOrderWorkflowId } from '../../workflows/lab-order/definitions.js';
import { testkitLabTest } from '../support/catalog-fixture.js';
import { recordHistory } from '../support/histories.js';
import { eventually, http, newTeam, sdkFor, startTestStack, type TestStack } from '../support/harness.js';
import { Receivers, createEndpoint } from '../support/webhooks.js';

/**
 * Appointments booked before the requisition (BEHAVIOUR §5): held as `reserved`, confirmed when the
 * requisition comes, released when it does not come in time (8 h by default; 3 s in this stack).
 */
let stack: TestStack;
const receivers = new Receivers();
beforeAll(async () => {
  stack = await startTestStack({}, { orderDeadlines: { correctionWindowSeconds: 0, reservationHoldSeconds: 3 } });
});
afterEach(() => receivers.stopAll());
afterAll(async () => {
  await stack?.close();
});

const patientDetails = { firstName: 'Jane', lastName: 'Doe', dob: '1990-05-17', gender: 'female', phoneNumber: '+14155552671', email: 'jane@example.com' } as const;
const phoenix = { firstLine: '100 West Lincoln Street', city: 'Phoenix', state: 'AZ', zip: '85004', country: 'US' };

/** A phlebotomy order scheduled for later (`activate_by`), so it stays `ordered`, with a booked (reserved) appointment. */
async function reservedOrder() {
  const team = await newTeam(stack);
  const client = sdkFor(stack, team.apiKey);
  const receiver = await receivers.start();
  await createEndpoint(stack, team.apiKey, receiver.url);
  const { userId } = await client.user.create({ clientUserId: `res-${randomUUID()}` });
  const { labTestId } = await testkitLabTest(stack.db.db, team.teamId, 'at_home_phlebotomy');
  const activateBy = new Date(Date.now() + 20 * 86400_000).toISOString().slice(0, 10);
  const { order } = await client.labTests.createOrder({ userId, orderSet: { labTestIds: [labTestId] }, patientDetails, patientAddress: phoenix, activateBy } as Vital.CreateOrderRequestCompatible);
  const availability = await client.labTests.getPhlebotomyAppointmentAvailability({ body: { firstLine: phoenix.firstLine, city: phoenix.city, state: phoenix.state, zipCode: phoenix.zip } });
  for (const slot of availability.slots.flatMap((d) => d.slots).filter((s) => s.bookingKey)) {
    const res = await http(stack, 'POST', `/v3/order/${order.id}/phlebotomy/appointment/book`, { apiKey: team.apiKey, body: { booking_key: slot.bookingKey } });
    if (res.status === 200) return { ...team, client, receiver, orderId: order.id, appointment: res.json as { id: string; status: string } };
  }
  throw new Error('no free phlebotomy slot');
}

const statuses = async (client: ReturnType<typeof sdkFor>, id: string) => (await client.labTests.getOrder(id)).events.map((e) => e.status.split('.').at(-1));

describe('reserved appointments', () => {
  it('are released when no requisition comes in time: appointment cancelled, order still ordered', async () => {
    const t = await reservedOrder();
    expect(t.appointment.status).toBe('reserved');
    expect(await statuses(t.client, t.orderId)).toEqual(['ordered']);
    const released = await eventually(async () => {
      const a = await t.client.labTests.getPhlebotomyAppointment(t.orderId);
      return a.status === 'cancelled' ? a : null;
    }, 20_000);
    expect(released.id).toBe(t.appointment.id);
    expect(released.events.map((e) => e.status)).toEqual(['reserved', 'cancelled']);
    expect(await statuses(t.client, t.orderId)).toEqual(['ordered']);
    const hooks = await eventually(async () => {
      const h = t.receiver.accepted.filter((r) => r.json.event_type.startsWith('labtest.appointment.'));
      return h.length >= 2 ? h : null;
    });
    expect(hooks.map((h) => [h.json.event_type, h.json.data.status])).toEqual([
      ['labtest.appointment.created', 'reserved'],
      ['labtest.appointment.updated', 'cancelled'],
    ]);
    // released, the order may book again
    expect((await t.client.labTests.getOrder(t.orderId)).status).toBe('received');
    await recordHistory('lab-order-phlebotomy-reserved-released', stack.temporal.workflow.getHandle(labOrderWorkflowId(t.orderId)));
  });

  it('are confirmed with the requisition: three order events and the appointment confirmed', async () => {
    const t = await reservedOrder();
    // the sandbox simulation activates the order at once (its requisition), well inside the hold
    const sim = await http(stack, 'POST', `/v3/order/${t.orderId}/test?final_status=completed.at_home_phlebotomy.completed`, { apiKey: t.apiKey });
    expect(sim.status, sim.text).toBe(200);
    await eventually(async () => ((await statuses(t.client, t.orderId)).at(-1) === 'completed' ? true : null), 20_000);
    expect((await statuses(t.client, t.orderId)).slice(0, 4)).toEqual(['ordered', 'requisition_created', 'appointment_pending', 'appointment_scheduled']);
    const appointment = await t.client.labTests.getPhlebotomyAppointment(t.orderId);
    expect(appointment.status).toBe('confirmed');
    expect(appointment.events.map((e) => e.status)).toEqual(['reserved', 'scheduled']);
    await recordHistory('lab-order-phlebotomy-reserved-confirmed', stack.temporal.workflow.getHandle(labOrderWorkflowId(t.orderId)));
  });

  it('a simulated phlebotomy order books a sandbox appointment on its way (the simulation path)', async () => {
    const team = await newTeam(stack);
    const client = sdkFor(stack, team.apiKey);
    const { userId } = await client.user.create({ clientUserId: `sim-${randomUUID()}` });
    const { labTestId } = await testkitLabTest(stack.db.db, team.teamId, 'at_home_phlebotomy');
    const { order } = await client.labTests.createOrder({ userId, orderSet: { labTestIds: [labTestId] }, patientDetails, patientAddress: phoenix } as Vital.CreateOrderRequestCompatible);
    const sim = await http(stack, 'POST', `/v3/order/${order.id}/test`, { apiKey: team.apiKey });
    expect(sim.status, sim.text).toBe(200);
    await eventually(async () => ((await statuses(client, order.id)).at(-1) === 'completed' ? true : null), 20_000);
    expect(await statuses(client, order.id)).toEqual(['ordered', 'requisition_created', 'appointment_pending', 'appointment_scheduled', 'draw_completed', 'completed']);
    expect((await client.labTests.getPhlebotomyAppointment(order.id)).status).toBe('confirmed');
    await recordHistory('lab-order-phlebotomy-simulated-booking', stack.temporal.workflow.getHandle(labOrderWorkflowId(order.id)));
  });

  it('simulated orders at the same moment each book their own slot, none stopping at appointment_pending', async () => {
    const team = await newTeam(stack);
    const client = sdkFor(stack, team.apiKey);
    const { userId } = await client.user.create({ clientUserId: `sim-${randomUUID()}` });
    const { labTestId } = await testkitLabTest(stack.db.db, team.teamId, 'at_home_phlebotomy');
    const ids: string[] = [];
    for (let i = 0; i < 6; i += 1) {
      const { order } = await client.labTests.createOrder({ userId, orderSet: { labTestIds: [labTestId] }, patientDetails, patientAddress: phoenix } as Vital.CreateOrderRequestCompatible);
      ids.push(order.id);
    }
    const sims = await Promise.all(ids.map((id) => http(stack, 'POST', `/v3/order/${id}/test`, { apiKey: team.apiKey })));
    expect(sims.map((r) => r.status)).toEqual(ids.map(() => 200));
    await eventually(async () => ((await Promise.all(ids.map((id) => statuses(client, id)))).every((s) => s.at(-1) === 'completed') ? true : null), 45_000, 250);
    const starts = await Promise.all(ids.map(async (id) => new Date((await client.labTests.getPhlebotomyAppointment(id)).startAt!).getTime()));
    expect(new Set(starts).size).toBe(ids.length);
  });

  it('a simulated booking whose slot another order takes first asks for a slot again', async () => {
    // A real race, made to happen: the simulation's first booking of a Getlabs slot in 85004 sleeps in a
    // trigger (after it read availability, before it books), while another order books that same slot.
    const db = stack.db.db;
    const team = await newTeam(stack);
    const client = sdkFor(stack, team.apiKey);
    const { userId } = await client.user.create({ clientUserId: `sim-${randomUUID()}` });
    const { labTestId } = await testkitLabTest(db, team.teamId, 'at_home_phlebotomy');
    const place = () => client.labTests.createOrder({ userId, orderSet: { labTestIds: [labTestId] }, patientDetails, patientAddress: phoenix } as Vital.CreateOrderRequestCompatible);
    const { order } = await place();
    // the rival books after its requisition: a confirmed appointment, not one held for this stack's 3 s
    const { order: rival } = await place();
    await eventually(async () => ((await statuses(client, rival.id)).includes('requisition_created') ? true : null));
    await db.execute(sql`create sequence if not exists test_slot_race`);
    await db.execute(sql`select setval('test_slot_race', 1000)`);
    await db.execute(sql`create or replace function test_slot_race() returns trigger language plpgsql as $$
      begin
        if new.provider = 'getlabs' and new.place = '85004' then
          if nextval('test_slot_race') = 1 then perform pg_sleep(2); end if;
        end if;
        return new;
      end $$`);
    await db.execute(sql`drop trigger if exists test_slot_race on appointment_slots`);
    await db.execute(sql`create trigger test_slot_race before insert on appointment_slots for each row execute function test_slot_race()`);
    try {
      await db.execute(sql`select setval('test_slot_race', 1, false)`);
      // (the simulation's first steps run in the workflow task that answers this request: it is not awaited yet)
      const simulating = http(stack, 'POST', `/v3/order/${order.id}/test`, { apiKey: team.apiKey });
      await eventually(async () => (await db.execute(sql`select 1 from pg_stat_activity where wait_event = 'PgSleep' and query like '%appointment_slots%'`)).length > 0, 10_000, 20);
      // the slot the simulation is about to book (the activity's own choice, from the same availability)
      const acts = createAppointmentActivities({ db, logger: createLogger({ level: 'silent', pretty: false }), wakeEndpoints: async () => {} });
      const key = await acts.sandboxBookingKey({ orderId: order.id, type: 'phlebotomy' });
      const taken = await http(stack, 'POST', `/v3/order/${rival.id}/phlebotomy/appointment/book`, { apiKey: team.apiKey, body: { booking_key: key } });
      expect(taken.status, taken.text).toBe(200);
      const sim = await simulating;
      expect(sim.status, sim.text).toBe(200);

      await eventually(async () => ((await statuses(client, order.id)).at(-1) === 'completed' ? true : null), 20_000);
      expect(await statuses(client, order.id)).toEqual(['ordered', 'requisition_created', 'appointment_pending', 'appointment_scheduled', 'draw_completed', 'completed']);
      const mine = await client.labTests.getPhlebotomyAppointment(order.id);
      const theirs = await client.labTests.getPhlebotomyAppointment(rival.id);
      expect([mine.status, theirs.status]).toEqual(['confirmed', 'confirmed']);
      expect(new Date(mine.startAt!).getTime()).not.toBe(new Date(theirs.startAt!).getTime());
      const handle = stack.temporal.workflow.getHandle(labOrderWorkflowId(order.id));
      const patches = (await handle.fetchHistory()).events!.filter((e) => e.markerRecordedEventAttributes?.markerName === 'core_patch');
      expect(patches).toHaveLength(2); // the order's patches, and the rebooking's
      await recordHistory('lab-order-phlebotomy-simulated-rebooking', handle);
    } finally {
      await db.execute(sql`drop trigger if exists test_slot_race on appointment_slots`);
      await db.execute(sql`select setval('test_slot_race', 1000)`);
    }
  });
});
