import { DEFAULT_DEADLINES, moveTo, type Deadline, type Lifecycle, type OrderCommand, type OrderDeadlines } from './lifecycle.js';
import type { LowLevelStatus } from './status.js';

/**
 * The testkit lifecycle as a pure state machine (BEHAVIOUR §1). Shipping and registration run side
 * by side for registrable kits: the kit travels to the customer unregistered, is registered, and may
 * only travel back to the lab once registered (its requisition exists then).
 *
 * registered kit:   ordered → requisition_created → transit_customer → out_for_delivery → with_customer
 *                   → transit_lab → delivered_to_lab → (partial_results →) completed
 * registrable kit:  ordered → awaiting_registration → [transit_customer → out_for_delivery → with_customer]
 *                   register → registered → requisition_created → transit_lab → delivered_to_lab → … completed
 * failures:         transit_customer|out_for_delivery → failure_to_deliver_to_customer; transit_lab →
 *                   failure_to_deliver_to_lab | lost; delivered_to_lab|partial_results → sample_error;
 *                   problem_in_transit_customer|lab are recoverable detours.
 * cancel:           only from ordered, awaiting_registration, registered, requisition_created.
 */

export type ShippingLeg = 'none' | 'transit_customer' | 'out_for_delivery' | 'with_customer' | 'transit_lab' | 'delivered_to_lab';

export interface TestkitState {
  low: LowLevelStatus;
  registered: boolean;
  requisition: boolean;
  shipping: ShippingLeg;
  results: 'none' | 'partial' | 'final';
}

export const SHIPMENT_EVENTS = [
  'transit_customer', 'out_for_delivery', 'with_customer', 'transit_lab', 'delivered_to_lab',
  'problem_in_transit_customer', 'problem_in_transit_lab', 'failure_to_deliver_to_customer',
  'failure_to_deliver_to_lab', 'lost',
] as const;
export type ShipmentEvent = (typeof SHIPMENT_EVENTS)[number];

export type TestkitCommand =
  | { kind: 'activate' }
  | { kind: 'register' }
  | { kind: 'shipment'; event: ShipmentEvent }
  | { kind: 'results'; final: boolean }
  | { kind: 'sample_error' }
  | { kind: 'cancel'; as: 'cancelled' | 'do_not_process' };

export type Decision = { ok: true; steps: LowLevelStatus[]; next: TestkitState } | { ok: false; reason: string };

const TERMINAL: ReadonlySet<LowLevelStatus> = new Set([
  'completed', 'corrected', 'cancelled', 'do_not_process', 'failure_to_deliver_to_customer', 'failure_to_deliver_to_lab',
  'sample_error', 'lost',
]);
const CANCELLABLE: ReadonlySet<LowLevelStatus> = new Set(['ordered', 'awaiting_registration', 'registered', 'requisition_created']);

export const isTerminal = (s: TestkitState) => TERMINAL.has(s.low);
export const isTerminalStatus = (low: string) => TERMINAL.has(low as LowLevelStatus);
export const canCancel = (s: TestkitState) => CANCELLABLE.has(s.low);

export function initialState(registrable: boolean): TestkitState {
  return { low: 'ordered', registered: !registrable, requisition: false, shipping: 'none', results: 'none' };
}

/** Steps taken right after creation: an unregistered kit awaits registration; a registered one is activated later. */
export function afterCreation(s: TestkitState): TestkitCommand | null {
  return s.registered ? null : { kind: 'activate' };
}

function reject(s: TestkitState, what: string): Decision {
  return { ok: false, reason: `${what} is not possible while the order is ${s.low}` };
}

function to(s: TestkitState, patch: Partial<TestkitState>, ...steps: LowLevelStatus[]): Decision {
  const last = steps[steps.length - 1];
  return { ok: true, steps, next: { ...s, ...patch, ...(last ? { low: last } : {}) } };
}

export function decide(s: TestkitState, cmd: TestkitCommand): Decision {
  if (TERMINAL.has(s.low)) return { ok: false, reason: `the order is already ${s.low}` };
  switch (cmd.kind) {
    case 'activate':
      // registered kit: the requisition is created when the order activates (at once, or at activate_by)
      if (s.low !== 'ordered') return reject(s, 'activation');
      return s.registered ? to(s, { requisition: true }, 'requisition_created') : to(s, {}, 'awaiting_registration');
    case 'register':
      if (s.registered) return { ok: false, reason: 'the kit is already registered' };
      if (s.shipping === 'transit_lab' || s.shipping === 'delivered_to_lab') return reject(s, 'registration');
      return to(s, { registered: true, requisition: true }, 'registered', 'requisition_created');
    case 'cancel':
      return CANCELLABLE.has(s.low) ? to(s, {}, cmd.as) : reject(s, 'cancellation');
    case 'results':
      if (s.shipping !== 'delivered_to_lab') return reject(s, 'reporting results');
      return cmd.final ? to(s, { results: 'final' }, 'completed') : to(s, { results: 'partial' }, 'partial_results');
    case 'sample_error':
      return s.shipping === 'delivered_to_lab' ? to(s, {}, 'sample_error') : reject(s, 'a sample error');
    case 'shipment':
      return decideShipment(s, cmd.event);
  }
}

function decideShipment(s: TestkitState, event: ShipmentEvent): Decision {
  const outbound = s.shipping === 'none' || s.shipping === 'transit_customer' || s.shipping === 'out_for_delivery';
  const ready = s.low !== 'ordered'; // the kit ships once the order is activated (requisition or awaiting registration)
  switch (event) {
    case 'transit_customer':
      return s.shipping === 'none' && ready ? to(s, { shipping: 'transit_customer' }, 'transit_customer') : reject(s, 'shipping the kit');
    case 'out_for_delivery':
      return s.shipping === 'transit_customer' ? to(s, { shipping: 'out_for_delivery' }, 'out_for_delivery') : reject(s, 'out for delivery');
    case 'with_customer':
      return (s.shipping === 'transit_customer' || s.shipping === 'out_for_delivery')
        ? to(s, { shipping: 'with_customer' }, 'with_customer')
        : reject(s, 'delivery to the customer');
    case 'problem_in_transit_customer':
      return s.shipping === 'transit_customer' || s.shipping === 'out_for_delivery'
        ? to(s, {}, 'problem_in_transit_customer')
        : reject(s, 'a problem in transit to the customer');
    case 'failure_to_deliver_to_customer':
      return outbound && s.shipping !== 'none' ? to(s, {}, 'failure_to_deliver_to_customer') : reject(s, 'failure to deliver to the customer');
    case 'transit_lab':
      if (!s.registered || !s.requisition) return { ok: false, reason: 'the kit must be registered before it travels to the lab' };
      return s.shipping === 'with_customer' || s.shipping === 'out_for_delivery'
        ? to(s, { shipping: 'transit_lab' }, 'transit_lab')
        : reject(s, 'sending the sample to the lab');
    case 'problem_in_transit_lab':
      return s.shipping === 'transit_lab' ? to(s, {}, 'problem_in_transit_lab') : reject(s, 'a problem in transit to the lab');
    case 'failure_to_deliver_to_lab':
      return s.shipping === 'transit_lab' ? to(s, {}, 'failure_to_deliver_to_lab') : reject(s, 'failure to deliver to the lab');
    case 'lost':
      return s.shipping === 'transit_customer' || s.shipping === 'out_for_delivery' || s.shipping === 'transit_lab'
        ? to(s, {}, 'lost')
        : reject(s, 'losing the kit');
    case 'delivered_to_lab':
      return s.shipping === 'transit_lab' ? to(s, { shipping: 'delivered_to_lab' }, 'delivered_to_lab') : reject(s, 'delivery to the lab');
  }
}

/**
 * The next command that moves the order toward `target` along the real path (sandbox simulation),
 * or null when the target is reached or cannot be reached from here without outside input
 * (an unregistered kit needs POST /v3/order/testkit/register before it can travel to the lab).
 */
export function nextTowards(s: TestkitState, target: LowLevelStatus): TestkitCommand | null {
  if (TERMINAL.has(s.low) || s.low === target) return null;
  if (target === 'cancelled' || target === 'do_not_process') return CANCELLABLE.has(s.low) ? { kind: 'cancel', as: target } : null;
  if (s.low === 'ordered') return { kind: 'activate' };
  const failAt: Partial<Record<LowLevelStatus, { leg: ShippingLeg; cmd: TestkitCommand }>> = {
    failure_to_deliver_to_customer: { leg: 'transit_customer', cmd: { kind: 'shipment', event: 'failure_to_deliver_to_customer' } },
    problem_in_transit_customer: { leg: 'transit_customer', cmd: { kind: 'shipment', event: 'problem_in_transit_customer' } },
    failure_to_deliver_to_lab: { leg: 'transit_lab', cmd: { kind: 'shipment', event: 'failure_to_deliver_to_lab' } },
    problem_in_transit_lab: { leg: 'transit_lab', cmd: { kind: 'shipment', event: 'problem_in_transit_lab' } },
    lost: { leg: 'transit_lab', cmd: { kind: 'shipment', event: 'lost' } },
    sample_error: { leg: 'delivered_to_lab', cmd: { kind: 'sample_error' } },
  };
  const failure = failAt[target];
  if (failure && s.shipping === failure.leg) return failure.cmd;
  switch (s.shipping) {
    case 'none':
      return { kind: 'shipment', event: 'transit_customer' };
    case 'transit_customer':
      return { kind: 'shipment', event: 'out_for_delivery' };
    case 'out_for_delivery':
      return { kind: 'shipment', event: 'with_customer' };
    case 'with_customer':
      return s.registered ? { kind: 'shipment', event: 'transit_lab' } : null;
    case 'transit_lab':
      return { kind: 'shipment', event: 'delivered_to_lab' };
    case 'delivered_to_lab':
      if (target === 'partial_results') return s.results === 'none' ? { kind: 'results', final: false } : null;
      return target === 'completed' ? { kind: 'results', final: true } : null;
  }
}

const TESTKIT_COMMANDS: ReadonlySet<OrderCommand['kind']> = new Set(['activate', 'register', 'shipment', 'results', 'sample_error', 'cancel']);
const isTestkitCommand = (cmd: OrderCommand): cmd is TestkitCommand => TESTKIT_COMMANDS.has(cmd.kind);

function waitingFor(s: TestkitState): string {
  if (s.low === 'completed' || s.low === 'corrected') return 'corrected results, if any';
  if (TERMINAL.has(s.low)) return 'nothing: the order is finished';
  if (s.low === 'ordered') return 'activation (activate_by date)';
  if (!s.registered && s.shipping !== 'transit_lab' && s.shipping !== 'delivered_to_lab') {
    return s.shipping === 'with_customer' ? 'kit registration by the customer' : 'kit shipment to the customer and registration';
  }
  switch (s.shipping) {
    case 'none':
      return 'kit shipment to the customer';
    case 'transit_customer':
    case 'out_for_delivery':
      return 'delivery of the kit to the customer';
    case 'with_customer':
      return 'the sample to be sent to the lab';
    case 'transit_lab':
      return 'delivery of the sample to the lab';
    case 'delivered_to_lab':
      return s.results === 'partial' ? 'final results' : 'results from the lab';
  }
}

function deadline(s: TestkitState, d: OrderDeadlines = DEFAULT_DEADLINES): Deadline | null {
  if (s.low === 'ordered') return { from: 'activation', seconds: 0, cmd: { kind: 'activate' }, statusDetail: null };
  if (TERMINAL.has(s.low)) return null;
  if (s.shipping === 'transit_customer' || s.shipping === 'out_for_delivery') {
    return { from: 'leg', seconds: d.outboundTransitSeconds, cmd: { kind: 'shipment', event: 'failure_to_deliver_to_customer' }, statusDetail: 'delivery_deadline_exceeded' };
  }
  if (s.shipping === 'transit_lab') {
    return { from: 'leg', seconds: d.inboundTransitSeconds, cmd: { kind: 'shipment', event: 'lost' }, statusDetail: 'delivery_deadline_exceeded' };
  }
  return null;
}

/** The testkit rules above behind the one lifecycle interface (domain/orders/lifecycle.ts). */
export const testkitLifecycle: Lifecycle<TestkitState> = {
  method: 'testkit',
  decide(s, cmd) {
    if (cmd.kind === 'correct') {
      return s.low === 'completed' || s.low === 'corrected' ? moveTo(s, {}, ['corrected']) : { ok: false, reason: `correcting results is not possible while the order is ${s.low}` };
    }
    if (cmd.kind === 'processing_error') return TERMINAL.has(s.low) ? { ok: false, reason: `the order is already ${s.low}` } : moveTo(s, {}, ['do_not_process']);
    return isTestkitCommand(cmd) ? decide(s, cmd) : { ok: false, reason: `a testkit order has no ${cmd.kind.replace('_', ' ')} step` };
  },
  afterCreation,
  isTerminal,
  takesCorrections: (s) => s.low === 'completed' || s.low === 'corrected',
  canCancel,
  leg: (s) => s.shipping,
  deadline,
  waitingFor,
  nextTowards,
};
