import { eq } from 'drizzle-orm';
import { Hono } from 'hono';
import { z } from 'zod';
import { labOfLabTest } from '../../../db/queries/lab-accounts.js';
import { findOrder } from '../../../db/queries/orders.js';
import { labs } from '../../../db/schema/index.js';
import { PHLEBOTOMY_ZIPS, ZIP_CENTRES, sitesNear, type PscSite } from '../../../domain/appointments/sites.js';
import type { AppEnv } from '../../env.js';
import { notFound } from '../../errors.js';
import { parse } from '../../validation.js';
import type { OrdersDeps } from '../orders/deps.js';
import { orderIdParam } from '../orders/schemas.js';
import { RADII } from './schemas.js';

const CAPABILITIES = ['stat', 'appointment_scheduling_via_junction', 'appointment_scheduling_with_lab'] as const;
const zip = z.string().regex(/^\d{5}$/, 'must be a five-digit ZIP code');
export const pscInfoQuery = z.object({
  zip_code: zip,
  lab_id: z.coerce.number().int().positive(),
  radius: z.enum(RADII).default('25'),
  capabilities: z.array(z.enum(CAPABILITIES)).optional(),
  lab_account_id: z.string().uuid().optional(),
});
export const orderPscInfoQuery = z.object({ radius: z.enum(RADII).default('25'), capabilities: z.array(z.enum(CAPABILITIES)).optional() });
export const areaInfoQuery = z.object({ zip_code: zip, radius: z.enum(RADII).default('25'), lab: z.string().max(50).optional(), labs: z.array(z.string().max(50)).optional(), lab_account_id: z.string().uuid().optional() });

/** Query with repeatable keys kept as arrays. */
function query(all: Record<string, string[]>, repeatable: string[]) {
  return Object.fromEntries(Object.entries(all).map(([k, v]) => [k, repeatable.includes(k) ? v : v[v.length - 1]]));
}

const capabilitiesOf = (site: PscSite) => (site.schedulingViaUs ? ['appointment_scheduling_via_junction'] : ['appointment_scheduling_with_lab']);

/** The sandbox PSC network draws for every lab with walk-in tests (each site bills the three usual ways). */
function pscInfo(lab: { id: number; slug: string }, zipCode: string, radius: number, capabilities: readonly string[] | undefined) {
  const near = sitesNear(zipCode, radius);
  if (!near) throw notFound(`Zip code ${zipCode} not found`);
  return {
    lab_id: lab.id,
    slug: lab.slug,
    patient_service_centers: near
      .filter(({ site }) => !capabilities?.length || capabilities.every((c) => capabilitiesOf(site).includes(c)))
      .map(({ site, distance }) => ({
        metadata: { name: site.name, state: site.state, city: site.city, zip_code: site.zipCode, first_line: site.firstLine, second_line: null, phone_number: site.phone, fax_number: null, hours: { monday_friday: '07:00-12:00' } },
        distance,
        site_code: site.siteCode,
        supported_bill_types: ['client_bill', 'commercial_insurance', 'patient_bill'],
        location: site.location,
        capabilities: capabilitiesOf(site),
      })),
  };
}

/** GET /v3/order/psc/info, /v3/order/{id}/psc/info, /v3/order/area/info over the sandbox sites. */
export function locationInfoRoutes(deps: OrdersDeps) {
  const app = new Hono<AppEnv>({ strict: false });
  const walkInLab = async (labId: number) => {
    const [lab] = await deps.db.select({ id: labs.id, slug: labs.slug, methods: labs.collectionMethods }).from(labs).where(eq(labs.id, labId));
    if (!lab) throw notFound('Lab not found');
    return lab;
  };

  app.get('/order/psc/info', async (c) => {
    const q = parse(pscInfoQuery, query(c.req.queries(), ['capabilities']), 'query');
    return c.json(pscInfo(await walkInLab(q.lab_id), q.zip_code, Number(q.radius), q.capabilities));
  });

  app.get('/order/area/info', async (c) => {
    const q = parse(areaInfoQuery, query(c.req.queries(), ['labs']), 'query');
    const centre = ZIP_CENTRES[q.zip_code];
    const served = PHLEBOTOMY_ZIPS[q.zip_code];
    const near = (sitesNear(q.zip_code, Number(q.radius)) ?? []);
    const wanted = new Set([...(q.labs ?? []), ...(q.lab ? [q.lab] : [])]);
    const walkIn = (await deps.db.select({ id: labs.id, slug: labs.slug, methods: labs.collectionMethods }).from(labs)).filter(
      (l) => l.methods.includes('walk_in_test') && (wanted.size === 0 || wanted.has(l.slug)),
    );
    return c.json({
      zip_code: q.zip_code,
      phlebotomy: {
        is_served: Boolean(centre && served),
        providers: served ? [{ name: served.provider, service_types: [served.provider === 'getlabs' ? 'appointment-ready' : 'appointment-request'] }] : [],
      },
      central_labs: Object.fromEntries(
        walkIn.map((l) => [
          l.slug,
          {
            patient_service_centers: { appointment_with_vital: near.some((s) => s.site.schedulingViaUs), within_radius: near.length, radius: q.radius, capabilities: [...new Set(near.flatMap((s) => capabilitiesOf(s.site)))] },
            supported_bill_types: ['client_bill', 'commercial_insurance', 'patient_bill'],
            lab_id: l.id,
          },
        ]),
      ),
    });
  });

  app.get('/order/:order_id/psc/info', async (c) => {
    const { order_id } = parse(orderIdParam, c.req.param(), 'path');
    const q = parse(orderPscInfoQuery, query(c.req.queries(), ['capabilities']), 'query');
    const order = await findOrder(deps.db, c.get('teamId'), order_id);
    if (!order) throw notFound("This order doesn't exist.");
    const labId = await labOfLabTest(deps.db, order.labTestId);
    const zipCode = String(order.patientAddress?.zip ?? '').slice(0, 5);
    return c.json(pscInfo(await walkInLab(labId ?? 0), zipCode, Number(q.radius), q.capabilities));
  });
  return app;
}
