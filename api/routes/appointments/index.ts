import { WorkflowUpdateFailedError } from '@temporalio/client';
import type { Context } from 'hono';
import { Hono } from 'hono';
import { appointmentView, latestAppointment } from '../../../db/queries/appointments.js';
import { findOrder } from '../../../db/queries/orders.js';
import { availableDays } from '../../../activities/appointments/availability.js';
import { decodeBookingKey } from '../../../domain/appointments/booking-key.js';
import { PHLEBOTOMY_CANCELLATION_REASONS, PSC_CANCELLATION_REASONS, findReason } from '../../../domain/appointments/reasons.js';
import { PHLEBOTOMY_ZIPS, ZIP_CENTRES } from '../../../domain/appointments/sites.js';
import { PHLEBOTOMY_DAYS } from '../../../domain/appointments/slots.js';
import { isFinishedStatus } from '../../../domain/orders/lifecycles.js';
import { appointmentUpdate, type AppointmentChange } from '../../../workflows/lab-order/definitions.js';
import type { AppEnv } from '../../env.js';
import { HttpError, badRequest, notFound } from '../../errors.js';
import { parse, parseJsonBody, parseQuery } from '../../validation.js';
import type { OrdersDeps } from '../orders/deps.js';
import { orderIdParam } from '../orders/schemas.js';
import { locationInfoRoutes } from './info.js';
import { pscAppointmentRoutes } from './psc.js';
import { bookingBody, phlebotomyCancelBody, requestBody, startDateQuery, usAddress } from './schemas.js';

type AppointmentType = 'phlebotomy' | 'patient_service_center';
const METHOD_OF: Record<AppointmentType, string> = { phlebotomy: 'at_home_phlebotomy', patient_service_center: 'walk_in_test' };

/**
 * Runs an appointment change through the order's workflow (an Update: the workflow checks it against the
 * order's state, calls the provider, records the order events and the appointment webhooks) and answers
 * the appointment as it is now.
 */
export async function changeAppointment(c: Context<AppEnv>, deps: OrdersDeps, type: AppointmentType, change: AppointmentChange) {
  const { order_id } = parse(orderIdParam, c.req.param(), 'path');
  const teamId = c.get('teamId');
  const order = await findOrder(deps.db, teamId, order_id);
  if (!order) throw notFound("This order doesn't exist.");
  if (order.method !== METHOD_OF[type]) throw badRequest(`This is a ${order.method} order; ${type} appointments belong to ${METHOD_OF[type]} orders.`);
  if (isFinishedStatus(order.lowLevelStatus)) throw badRequest(`The order is ${order.lowLevelStatus}; its appointment can no longer change.`);
  if ('bookingKey' in change && !decodeBookingKey(change.bookingKey)) throw badRequest('Invalid booking key format');
  if (change.action === 'cancel' && !findReason(type, change.reasonId)) throw badRequest(`Unknown cancellation reason ${change.reasonId}`);
  try {
    await deps.temporal.workflow.getHandle(order.workflowId).executeUpdate(appointmentUpdate, { args: [change] });
  } catch (err) {
    if (err instanceof WorkflowUpdateFailedError) throw badRequest(err.cause?.message ?? err.message);
    throw err;
  }
  const row = await latestAppointment(deps.db, teamId, order_id);
  if (!row) throw new HttpError(500, 'The appointment was not recorded');
  return c.json(appointmentView(row));
}

export async function getAppointment(c: Context<AppEnv>, deps: OrdersDeps, type: AppointmentType) {
  const { order_id } = parse(orderIdParam, c.req.param(), 'path');
  const teamId = c.get('teamId');
  const order = await findOrder(deps.db, teamId, order_id);
  if (!order) throw notFound("This order doesn't exist.");
  const row = await latestAppointment(deps.db, teamId, order_id);
  if (!row || row.type !== type) throw notFound("This order doesn't have an appointment yet.");
  return c.json(appointmentView(row));
}

/** At-home phlebotomy and PSC appointments (CONTRACT §6, BEHAVIOUR §5). */
export function appointmentRoutes(deps: OrdersDeps) {
  const app = new Hono<AppEnv>({ strict: false });

  app.post('/order/phlebotomy/appointment/availability', async (c) => {
    const { start_date } = parseQuery(c, startDateQuery);
    const address = await parseJsonBody(c, usAddress);
    const zip = address.zip_code.slice(0, 5);
    const served = PHLEBOTOMY_ZIPS[zip];
    if (!served || (served.street && !served.street.test(address.first_line))) throw badRequest('This address is not served by an at-home phlebotomy provider.');
    if (served.provider === 'phlebfinders') throw badRequest('This area is served by appointment request only: use POST /v3/order/{order_id}/phlebotomy/appointment/request.');
    const timezone = ZIP_CENTRES[zip]!.timezone;
    const slots = await availableDays(deps.db, { provider: served.provider, place: zip, timeZone: timezone, startDate: start_date ?? null, days: PHLEBOTOMY_DAYS, now: new Date() });
    return c.json({ timezone, slots });
  });

  app.get('/order/phlebotomy/appointment/cancellation-reasons', (c) => c.json(PHLEBOTOMY_CANCELLATION_REASONS));
  app.get('/order/psc/appointment/cancellation-reasons', (c) => c.json(PSC_CANCELLATION_REASONS));

  app.post('/order/:order_id/phlebotomy/appointment/book', async (c) => {
    const body = await parseJsonBody(c, bookingBody);
    return changeAppointment(c, deps, 'phlebotomy', { action: 'book', type: 'phlebotomy', bookingKey: body.booking_key, notes: body.appointment_notes ?? null, accessNotes: body.access_notes ?? null });
  });
  app.post('/order/:order_id/phlebotomy/appointment/request', async (c) => {
    const body = await parseJsonBody(c, requestBody);
    return changeAppointment(c, deps, 'phlebotomy', { action: 'request', type: 'phlebotomy', provider: body.provider, address: body.address, notes: body.appointment_notes ?? null, accessNotes: body.access_notes ?? null });
  });
  app.patch('/order/:order_id/phlebotomy/appointment/reschedule', async (c) => {
    const body = await parseJsonBody(c, bookingBody);
    return changeAppointment(c, deps, 'phlebotomy', { action: 'reschedule', type: 'phlebotomy', bookingKey: body.booking_key, notes: body.appointment_notes ?? null, accessNotes: body.access_notes ?? null });
  });
  app.patch('/order/:order_id/phlebotomy/appointment/cancel', async (c) => {
    const body = await parseJsonBody(c, phlebotomyCancelBody);
    return changeAppointment(c, deps, 'phlebotomy', { action: 'cancel', type: 'phlebotomy', reasonId: body.cancellation_reason_id, notes: body.notes ?? null });
  });
  app.get('/order/:order_id/phlebotomy/appointment', (c) => getAppointment(c, deps, 'phlebotomy'));

  app.route('/', pscAppointmentRoutes(deps));
  app.route('/', locationInfoRoutes(deps));
  return app;
}
