import { Hono } from 'hono';
import { availableDays } from '../../../activities/appointments/availability.js';
import { PHLEBOTOMY_CANCELLATION_REASONS, PSC_CANCELLATION_REASONS } from '../../../domain/appointments/reasons.js';
import { PHLEBOTOMY_ZIPS, ZIP_CENTRES } from '../../../domain/appointments/sites.js';
import { PHLEBOTOMY_DAYS } from '../../../domain/appointments/slots.js';
import type { AppEnv } from '../../env.js';
import { badRequest } from '../../errors.js';
import { parseJsonBody, parseQuery } from '../../validation.js';
import type { OrdersDeps } from '../orders/deps.js';
import { locationInfoRoutes } from './info.js';
import { changeAppointment, getAppointment } from './change.js';
import { pscAppointmentRoutes } from './psc.js';
import { bookingBody, phlebotomyCancelBody, requestBody, startDateQuery, usAddress } from './schemas.js';

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
