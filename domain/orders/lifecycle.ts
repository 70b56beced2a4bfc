import type { CollectionMethod, LowLevelStatus } from './status.js';
import type { ShipmentEvent } from './testkit-lifecycle.js';

/**
 * The one interface every collection method's lifecycle implements (BEHAVIOUR §1). A lifecycle is pure:
 * it decides whether a command fits the order's state, which statuses that records and what state
 * follows; it names the next timed step (the deadline) and what the order waits for. The order's
 * workflow (workflows/lab-order/) is generic over it: it only records what a decision says.
 */

/** Appointment changes as the order sees them (the appointment's own life is in domain/appointments). */
export type AppointmentEvent = 'reserved' | 'pending' | 'scheduled' | 'cancelled'
  /** The provider reports the draw under way: the appointment changes, the order records nothing. */
  | 'in_progress';

export type OrderCommand =
  | { kind: 'activate' }
  | { kind: 'register' }
  | { kind: 'shipment'; event: ShipmentEvent }
  | { kind: 'appointment'; event: AppointmentEvent }
  | { kind: 'draw_completed' }
  /** `missing`: some expected markers have no result (a walk-in order may then offer a redraw). */
  | { kind: 'results'; final: boolean; missing?: boolean }
  | { kind: 'correct' }
  | { kind: 'sample_error' }
  | { kind: 'processing_blocked' }
  | { kind: 'cancel'; as: 'cancelled' | 'do_not_process' }
  /** Our own processing failed on data that cannot be written (a poison value): the order stops, visibly. */
  | { kind: 'processing_error' };

/** What else a decision asks of the workflow besides recording its steps. */
export type Effect = 'cancel_appointment';

export type Decision<S> =
  | { ok: true; steps: LowLevelStatus[]; next: S; effects?: Effect[] }
  | { ok: false; reason: string };

/** Durable deadlines, in seconds (defaults below; tests shorten them). */
export interface OrderDeadlines {
  /** A kit not delivered to the customer within this time ends `failure_to_deliver_to_customer`. */
  outboundTransitSeconds: number;
  /** A sample not delivered to the lab within this time ends `lost`. */
  inboundTransitSeconds: number;
  /** A drawn sample without final results after this long ends `sample_error` (`results_not_received`). */
  drawToResultsSeconds: number;
  /** A draw order never drawn within this long after its requisition is cancelled (`order_expired`). */
  collectionWindowSeconds: number;
  /** How long a completed order still takes corrected results before its workflow ends. */
  correctionWindowSeconds: number;
  /**
   * An appointment booked before the requisition (`reserved`) is cancelled when the order has no
   * requisition this long after it was placed, or 2 hours before the appointment (BEHAVIOUR §5).
   */
  reservationHoldSeconds: number;
}

export const DEFAULT_DEADLINES: OrderDeadlines = {
  outboundTransitSeconds: 30 * 24 * 3600,
  inboundTransitSeconds: 21 * 24 * 3600,
  drawToResultsSeconds: 30 * 24 * 3600,
  collectionWindowSeconds: 180 * 24 * 3600,
  correctionWindowSeconds: 30 * 24 * 3600,
  reservationHoldSeconds: 8 * 3600,
};

/**
 * The timed step an order waits for: at `activate_by` (`from: 'activation'`), or `seconds` after the
 * current leg began (`from: 'leg'`; a leg is what `leg(state)` names, e.g. a shipping leg).
 */
export interface Deadline {
  from: 'activation' | 'leg';
  seconds: number;
  cmd: OrderCommand;
  statusDetail: string | null;
}

export interface Lifecycle<S extends { low: LowLevelStatus }> {
  readonly method: CollectionMethod;
  decide(s: S, cmd: OrderCommand): Decision<S>;
  /** The command that follows creation at once (in the same transaction), if any. */
  afterCreation(s: S): OrderCommand | null;
  /** No command will ever be accepted again. */
  isTerminal(s: S): boolean;
  /** The order is done but still takes corrections (completed orders) until the correction window ends. */
  takesCorrections(s: S): boolean;
  /** May the customer cancel now (BEHAVIOUR §1 Cancellation)? */
  canCancel(s: S): boolean;
  /** The stretch of the order's life its deadlines count from; a new leg restarts the clock. */
  leg(s: S): string;
  deadline(s: S, deadlines: OrderDeadlines): Deadline | null;
  /** What the order is waiting for now, in words (operators, the state query). */
  waitingFor(s: S): string;
  /** Sandbox simulation: the next command along the real path toward `target`, or null (reached, or needs outside input). */
  nextTowards(s: S, target: LowLevelStatus): OrderCommand | null;
}

export function refuse(low: LowLevelStatus, what: string): { ok: false; reason: string } {
  return { ok: false, reason: `${what} is not possible while the order is ${low}` };
}

/** A transition through `steps` (the last one is the new status) with `patch` applied to the state. */
export function moveTo<S extends { low: LowLevelStatus }>(s: S, patch: Partial<S>, steps: LowLevelStatus[], effects?: Effect[]): Decision<S> {
  const last = steps[steps.length - 1];
  return { ok: true, steps, next: { ...s, ...patch, ...(last ? { low: last } : {}) }, ...(effects?.length ? { effects } : {}) };
}
