import { WorkflowUpdateFailedError } from '@temporalio/client';
import type { Context } from 'hono';
import { appointmentView, latestAppointment } from '../../../db/queries/appointments.js';
import { findOrder } from '../../../db/queries/orders.js';
import { decodeBookingKey } from '../../../domain/appointments/booking-key.js';
import { findReason } from '../../../domain/appointments/reasons.js';
import { isFinishedStatus } from '../../../domain/orders/lifecycles.js';
import { appointmentUpdate, type CallerAppointmentChange } from '../../../workflows/lab-order/definitions.js';
import type { AppEnv } from '../../env.js';
import { HttpError, badRequest, notFound } from '../../errors.js';
import { parse } from '../../validation.js';
import type { OrdersDeps } from '../orders/deps.js';
import { orderIdParam } from '../orders/schemas.js';

/** The two appointment routes' shared steps (phlebotomy in index.ts, PSC in psc.ts). */
export type AppointmentType = 'phlebotomy' | 'patient_service_center';
const METHOD_OF: Record<AppointmentType, string> = { phlebotomy: 'at_home_phlebotomy', patient_service_center: 'walk_in_test' };

/**
 * Runs an appointment change through the order's workflow (an Update: the workflow checks it against the
 * order's state, calls the provider, records the order events and the appointment webhooks) and answers
 * the appointment as it is now.
 */
export async function changeAppointment(c: Context<AppEnv>, deps: OrdersDeps, type: AppointmentType, change: CallerAppointmentChange) {
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
