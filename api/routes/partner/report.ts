import { WorkflowNotFoundError, WorkflowUpdateFailedError, type Client } from '@temporalio/client';
import { ApplicationFailure } from '@temporalio/common';
import type { Db } from '../../../db/client.js';
import { findOrderForPartner, orderProgress, type Partner, type PartnerOrderRef } from '../../../db/queries/partners.js';
import { isTerminalStatus, type ShipmentEvent } from '../../../domain/orders/testkit-lifecycle.js';
import type { Logger } from '../../../lib/logger.js';
import { labOrderWorkflowId, partnerReportUpdate, type PartnerReport } from '../../../workflows/lab-order/definitions.js';
import { HttpError, notFound } from '../../errors.js';
import type { AcceptedResponse } from './schemas.js';

/** The partner API's endpoints, by what they report. */
export type Endpoint = 'shipment' | 'sample_received' | 'results' | 'failure' | 'appointment';

export type OrderAddress = { orderId: string } | { sampleId: string };

export interface ReportDeps {
  db: Db;
  temporal: Client;
}

/**
 * Kind rules: couriers report shipment events; labs report receipt, results, failures, the status of
 * appointments at their sites and by their phlebotomists, and of the shipment events only delivery to
 * the lab; operators report everything.
 */
export function mayReport(partner: Partner, endpoint: Endpoint, event?: ShipmentEvent): boolean {
  switch (partner.kind) {
    case 'operator':
      return true;
    case 'courier':
      return endpoint === 'shipment';
    case 'lab':
      return endpoint !== 'shipment' || event === 'delivered_to_lab';
  }
}

export function forbidden(partner: Partner, endpoint: Endpoint): HttpError {
  const what = partner.kind === 'courier' ? 'shipment events' : 'sample receipt, results, failures, appointment status and delivery to the lab';
  return new HttpError(403, `A ${partner.kind} key may report ${what} only, not ${endpoint === 'shipment' ? 'this shipment event' : endpoint}.`);
}

/** The order, if it exists and this partner may report for it (a lab key: orders of its lab only). */
async function resolveOrder(db: Db, partner: Partner, address: OrderAddress): Promise<PartnerOrderRef> {
  const order = await findOrderForPartner(db, address);
  const missing = () => notFound('orderId' in address ? 'Order not found' : 'No order with this sample_id');
  if (!order) throw missing();
  // Another lab's order answers like a missing one: a lab learns nothing about orders it does not serve.
  if (partner.kind === 'lab' && order.labId !== partner.labId) throw missing();
  return order;
}

/** The refusal a workflow's validator or handler gave, as its message; null for any other failure. */
function refusalOf(err: unknown): string | null {
  if (!(err instanceof WorkflowUpdateFailedError)) return null;
  const cause = err.cause;
  return cause instanceof ApplicationFailure && cause.message ? cause.message : null;
}

/**
 * Sends a report to the order's workflow as an Update: the workflow's validator checks it against the
 * order's state (an impossible report is a 409 and changes nothing), and the update completes once the
 * report is recorded, so the answer carries the status it led to. No query-then-signal race.
 */
export async function submitReport(deps: ReportDeps, log: Logger, partner: Partner, address: OrderAddress, report: PartnerReport): Promise<AcceptedResponse> {
  const order = await resolveOrder(deps.db, partner, address);
  if (isTerminalStatus(order.lowLevelStatus)) throw new HttpError(409, `the order is already ${order.lowLevelStatus}`);
  const handle = deps.temporal.workflow.getHandle(labOrderWorkflowId(order.id));
  try {
    const done = await handle.executeUpdate(partnerReportUpdate, { args: [report] });
    log.info({ order_id: order.id, report: report.kind, status: done.low }, 'partner report recorded');
    return { accepted: true, order_id: order.id, status: done.low };
  } catch (err) {
    const refusal = refusalOf(err);
    if (refusal) throw new HttpError(409, refusal);
    // The workflow has ended (a deadline or another report won): the order takes no more reports.
    if (err instanceof WorkflowNotFoundError) {
      const now = await orderProgress(deps.db, order.id);
      throw new HttpError(409, `the order is already ${now?.low ?? 'finished'}`);
    }
    log.error({ err, order_id: order.id }, 'partner report: the order workflow did not answer');
    throw new HttpError(503, 'The order cannot take reports right now; try again later.');
  }
}
