import { randomUUID } from 'node:crypto';
import type { Vital } from '@tryvital/vital-node';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
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
});
