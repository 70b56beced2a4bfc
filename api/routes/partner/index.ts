import type { Client } from '@temporalio/client';
import { type Context, Hono } from 'hono';
import type { Db } from '../../../db/client.js';
import type { ServiceEnvironment, ServiceRegion } from '../../../domain/environment.js';
import { partnerAuth, type PartnerEnv } from '../../middleware/partner-auth.js';
import { ValidationError } from '../../errors.js';
import { parse, readJson } from '../../validation.js';
import type { PartnerReport } from '../../../workflows/lab-order/definitions.js';
import { forbidden, mayReport, submitReport, type Endpoint, type OrderAddress } from './report.js';
import { appointmentBody, failureBody, orderIdParam, resultsBody, sampleIdParam, sampleReceivedBody, shipmentBody } from './schemas.js';

export interface PartnerDeps {
  db: Db;
  temporal: Client;
  environment: ServiceEnvironment;
  region: ServiceRegion;
}

type Ctx = Context<PartnerEnv>;

/**
 * /partner/v1: couriers, labs and operators report shipments, sample receipt, results and failures
 * (docs/partner-api.md), and appointment providers the draw's progress. Each report is an Update to the
 * order's workflow, which accepts or refuses it (409) and records it before answering; every answer carries
 * the order id and status only, never team or patient data.
 */
export function partnerRoutes(deps: PartnerDeps) {
  const app = new Hono<PartnerEnv>({ strict: false });
  const reportDeps = { db: deps.db, temporal: deps.temporal };
  app.use('*', partnerAuth(deps));

  /** Reads the body into a report, checks the key may send it, and submits it to the order. */
  const handler = (endpoint: Endpoint, address: (c: Ctx) => OrderAddress) => async (c: Ctx) => {
    const where = address(c);
    const report = await readReport(c, endpoint);
    const partner = c.get('partner');
    if (!mayReport(partner, endpoint, report.kind === 'shipment' ? report.update.event : undefined)) throw forbidden(partner, endpoint);
    return c.json(await submitReport(reportDeps, c.get('log'), partner, where, report), 202);
  };

  const byOrder = (c: Ctx): OrderAddress => ({ orderId: parse(orderIdParam, c.req.param(), 'path').order_id });
  const bySample = (c: Ctx): OrderAddress => ({ sampleId: parse(sampleIdParam, c.req.param(), 'path').sample_id });
  for (const endpoint of ['shipment', 'sample_received', 'results', 'failure', 'appointment'] as const) {
    app.post(`/orders/:order_id/${endpoint}`, handler(endpoint, byOrder));
    app.post(`/samples/:sample_id/${endpoint}`, handler(endpoint, bySample));
  }
  return app;
}

async function readReport(c: Ctx, endpoint: Endpoint): Promise<PartnerReport> {
  const raw = await c.req.text();
  // Only sample_received may come without a body; elsewhere an empty body is a missing one (422).
  const json = raw.trim() === '' ? (endpoint === 'sample_received' ? null : undefined) : readJson(raw);
  if (json === undefined) throw new ValidationError([{ loc: ['body'], msg: 'Field required', type: 'missing' }]);
  switch (endpoint) {
    case 'shipment': {
      const b = parse(shipmentBody, json, 'body');
      return {
        kind: 'shipment',
        update: {
          event: b.event,
          courier: b.courier,
          trackingNumber: b.tracking_number,
          trackingUrl: b.tracking_url,
          notes: b.notes,
          statusDetail: b.status_detail,
        },
      };
    }
    case 'sample_received': {
      const b = parse(sampleReceivedBody, json, 'body');
      return { kind: 'shipment', update: { event: 'delivered_to_lab', notes: b.notes, statusDetail: b.status_detail } };
    }
    case 'results': {
      const b = parse(resultsBody, json, 'body');
      return {
        kind: 'results',
        results: {
          final: b.final,
          interpretation: b.interpretation,
          results: b.results,
          missingResults: b.missing_results,
        },
      };
    }
    case 'failure': {
      const b = parse(failureBody, json, 'body');
      return b.kind === 'sample_error'
        ? { kind: 'sample_error', statusDetail: b.status_detail }
        : { kind: 'shipment', update: { event: b.kind, statusDetail: b.status_detail } };
    }
    case 'appointment': {
      const b = parse(appointmentBody, json, 'body');
      return { kind: 'appointment', status: b.status, notes: b.notes };
    }
  }
}
