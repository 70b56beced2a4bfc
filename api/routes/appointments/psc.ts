import { Hono } from 'hono';
import { availableDays } from '../../../activities/appointments/availability.js';
import { findSite, sitesNear, type PscSite } from '../../../domain/appointments/sites.js';
import { PSC_DAYS } from '../../../domain/appointments/slots.js';
import type { AppEnv } from '../../env.js';
import { badRequest, notFound } from '../../errors.js';
import { parse, parseJsonBody } from '../../validation.js';
import type { OrdersDeps } from '../orders/deps.js';
import { changeAppointment, getAppointment } from './change.js';
import { bookingBody, pscAvailabilityQuery, pscCancelBody } from './schemas.js';

const locationOf = (site: PscSite, distance?: number) => ({
  location: site.location,
  ...(distance !== undefined ? { distance } : {}),
  address: { first_line: site.firstLine, city: site.city, state: site.state, zip_code: site.zipCode },
  code: site.siteCode,
  name: site.name,
  iana_timezone: site.timezone,
});

/** Quest patient service centre appointments (walk-in orders). */
export function pscAppointmentRoutes(deps: OrdersDeps) {
  const app = new Hono<AppEnv>({ strict: false });

  app.post('/order/psc/appointment/availability', async (c) => {
    const all = c.req.queries();
    const q = parse(pscAvailabilityQuery, { ...Object.fromEntries(Object.entries(all).map(([k, v]) => [k, v[v.length - 1]])), site_codes: all.site_codes }, 'query');
    let sites: { site: PscSite; distance?: number }[];
    if (q.site_codes?.length) {
      if (q.site_codes.length > 3) throw badRequest('site_codes must be less than or equal to 3');
      sites = q.site_codes.map((code) => {
        const site = findSite(code);
        if (!site) throw badRequest(`Location with site code ${code} not found`);
        if (!site.schedulingViaUs) throw badRequest(`Location with site code ${code} is no longer active`);
        return { site };
      });
    } else if (q.zip_code) {
      if (!q.radius) throw badRequest('radius must be provided when using zip_code');
      const near = (sitesNear(q.zip_code, Number(q.radius)) ?? []).filter((s) => s.site.schedulingViaUs);
      if (near.length === 0) throw notFound('No slots found for zip code');
      sites = near.slice(0, 3);
    } else {
      throw badRequest('site_codes or zip_code must be provided');
    }
    const now = new Date();
    const perSite = await Promise.all(
      sites.map(async ({ site, distance }) => {
        const days = await availableDays(deps.db, { provider: 'quest', place: site.siteCode, timeZone: site.timezone, startDate: q.start_date ?? null, days: PSC_DAYS, now });
        return days.map((d) => ({ location: locationOf(site, distance), date: d.date, slots: d.slots }));
      }),
    );
    return c.json({ timezone: sites[0]!.site.timezone, slots: perSite.flat() });
  });

  app.post('/order/:order_id/psc/appointment/book', async (c) => {
    const body = await parseJsonBody(c, bookingBody);
    return changeAppointment(c, deps, 'patient_service_center', { action: 'book', type: 'patient_service_center', bookingKey: body.booking_key, notes: body.appointment_notes ?? null, accessNotes: body.access_notes ?? null });
  });
  app.patch('/order/:order_id/psc/appointment/reschedule', async (c) => {
    const body = await parseJsonBody(c, bookingBody);
    return changeAppointment(c, deps, 'patient_service_center', { action: 'reschedule', type: 'patient_service_center', bookingKey: body.booking_key, notes: body.appointment_notes ?? null, accessNotes: body.access_notes ?? null });
  });
  app.patch('/order/:order_id/psc/appointment/cancel', async (c) => {
    const body = await parseJsonBody(c, pscCancelBody);
    return changeAppointment(c, deps, 'patient_service_center', { action: 'cancel', type: 'patient_service_center', reasonId: body.cancellationReasonId, notes: body.note ?? null });
  });
  app.get('/order/:order_id/psc/appointment', (c) => getAppointment(c, deps, 'patient_service_center'));
  return app;
}
