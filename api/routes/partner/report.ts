import { WorkflowNotFoundError, type Client } from '@temporalio/client';
import type { Db } from '../../../db/client.js';
import { findOrderForPartner, orderProgress, type Partner, type PartnerOrderRef } from '../../../db/queries/partners.js';
import { decide, isTerminalStatus, type ShipmentEvent, type TestkitCommand } from '../../../domain/orders/testkit-lifecycle.js';
import type { Logger } from '../../../lib/logger.js';
import {
  labOrderWorkflowId,
  resultsSignal,
  sampleErrorSignal,
  shipmentSignal,
  stateQuery,
  type ResultsInput,
  type ShipmentUpdate,
} from '../../../workflows/lab-order/definitions.js';
import { HttpError, notFound } from '../../errors.js';
import type { AcceptedResponse } from './schemas.js';

/** The partner API's endpoints, by what they report. */
export type Endpoint = 'shipment' | 'sample_received' | 'results' | 'failure';

/** One report, in the terms of the order workflow's signals. */
export type Report =
  | { signal: 'shipment'; update: ShipmentUpdate }
  | { signal: 'results'; results: ResultsInput }
  | { signal: 'sample_error'; statusDetail: string };

export type OrderAddress = { orderId: string } | { sampleId: string };

export interface ReportDeps {
  db: Db;
  temporal: Client;
  /** How long a report waits for its workflow to record it before answering anyway (ms). */
  applyWaitMs: number;
}

/**
 * Kind rules: couriers report shipment events; labs report receipt, results and failures, and of the
 * shipment events only delivery to the lab; operators report everything.
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
  const what = partner.kind === 'courier' ? 'shipment events' : 'sample receipt, results, failures and delivery to the lab';
  return new HttpError(403, `A ${partner.kind} key may report ${what} only, not ${endpoint === 'shipment' ? 'this shipment event' : endpoint}.`);
}

function commandOf(report: Report): TestkitCommand {
  switch (report.signal) {
    case 'shipment':
      return { kind: 'shipment', event: report.update.event };
    case 'results':
      return { kind: 'results', final: report.results.final };
    case 'sample_error':
      return { kind: 'sample_error' };
  }
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

/**
 * Checks a report against the order's state and signals the order's workflow. The state comes from
 * the workflow's `state` query (authoritative; the read model may lag by one activity), and the pure
 * lifecycle rules say whether the report fits: an impossible report is a 409 and changes nothing.
 * After signalling, waits (briefly) until the workflow has recorded the report, so a partner sending
 * reports one after another sees each one applied before it sends the next.
 */
export async function submitReport(deps: ReportDeps, log: Logger, partner: Partner, address: OrderAddress, report: Report): Promise<AcceptedResponse> {
  const order = await resolveOrder(deps.db, partner, address);
  if (order.method !== 'testkit') throw new HttpError(409, `Partner reports are taken for testkit orders only; this order is ${order.method}.`);
  if (isTerminalStatus(order.lowLevelStatus)) throw new HttpError(409, `the order is already ${order.lowLevelStatus}`);

  const handle = deps.temporal.workflow.getHandle(labOrderWorkflowId(order.id));
  let state;
  try {
    state = await handle.query(stateQuery);
  } catch (err) {
    log.error({ err, order_id: order.id }, 'partner report: order state query failed');
    throw new HttpError(503, 'The order cannot be checked right now; try again later.');
  }
  if (!state.testkit) throw new HttpError(409, `Partner reports are taken for testkit orders only; this order is ${state.method}.`);
  const decision = decide(state.testkit, commandOf(report));
  if (!decision.ok) throw new HttpError(409, decision.reason);

  try {
    if (report.signal === 'shipment') await handle.signal(shipmentSignal, report.update);
    else if (report.signal === 'results') await handle.signal(resultsSignal, report.results);
    else await handle.signal(sampleErrorSignal, { statusDetail: report.statusDetail });
  } catch (err) {
    // The workflow ended between the check and the signal (a deadline or another report won).
    if (err instanceof WorkflowNotFoundError) {
      const now = await orderProgress(deps.db, order.id);
      throw new HttpError(409, `the order is already ${now?.low ?? 'finished'}`);
    }
    throw err;
  }
  log.info({ order_id: order.id, report: report.signal, command: commandOf(report) }, 'partner report signalled');

  const target = state.events + decision.steps.length;
  const applied = await waitForEvent(deps, order.id, target);
  return { accepted: true, order_id: order.id, status: applied?.low ?? state.testkit.low };
}

/** Polls the read model until the order's last event id reaches `eventId`; the last progress seen, or null. */
async function waitForEvent(deps: ReportDeps, orderId: string, eventId: number) {
  const deadline = Date.now() + deps.applyWaitMs;
  let delay = 20;
  for (;;) {
    const progress = await orderProgress(deps.db, orderId);
    if (!progress || progress.lastEventId >= eventId || Date.now() >= deadline) return progress;
    await new Promise((r) => setTimeout(r, delay));
    delay = Math.min(delay * 2, 200);
  }
}
