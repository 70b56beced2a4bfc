import { moveTo, refuse, type AppointmentEvent, type Decision, type Deadline, type Lifecycle, type OrderCommand, type OrderDeadlines } from './lifecycle.js';
import type { CollectionMethod, LowLevelStatus } from './status.js';

/**
 * What the three draw methods (at-home phlebotomy, walk-in, on-site) share: a requisition, an optional
 * appointment, a draw, results. Each method's module (phlebotomy-, walk-in-, on-site-lifecycle.ts)
 * states its own rules; this module applies them. BEHAVIOUR §1 and §5.
 */

export type AppointmentState = 'none' | 'pending' | 'scheduled' | 'cancelled';

export interface DrawState {
  low: LowLevelStatus;
  /** Imported orders (`POST /v3/order/import`): the requisition already exists, so `requisition_bypassed`. */
  imported: boolean;
  /** The order's appointment as the order knows it. */
  appointment: AppointmentState;
  /** Booked before the requisition existed (status `reserved`): confirmed when the order activates. */
  reserved: boolean;
  drawn: boolean;
  results: 'none' | 'partial' | 'final';
  /** An initial walk-in order at a lab that offers redraws (opt-in): final results with missing markers → `redraw_available`. */
  redraw: boolean;
}

export interface DrawRules {
  method: CollectionMethod;
  /** Does this method book appointments (phlebotomy, PSC)? */
  appointments: boolean;
  /** Statuses from which a draw may be reported (`draw_completed`). Empty: the method has no draw event. */
  drawFrom: readonly LowLevelStatus[];
  /** Statuses from which lab results (and sample errors) may arrive. */
  resultsFrom: readonly LowLevelStatus[];
  cancellableFrom: readonly LowLevelStatus[];
  /** Cancelling the order also cancels its appointment (phlebotomy yes, walk-in no). */
  cancelCascades: boolean;
  /** The real path toward a simulation target, from a state where the generic rules do not decide. */
  simulate(s: DrawState, target: LowLevelStatus): OrderCommand | null;
}

const TERMINAL: ReadonlySet<LowLevelStatus> = new Set([
  'completed', 'corrected', 'redraw_available', 'cancelled', 'do_not_process', 'sample_error',
]);
const AFTER_REQUISITION: readonly LowLevelStatus[] = [
  'requisition_created', 'requisition_bypassed', 'appointment_pending', 'appointment_scheduled', 'appointment_cancelled',
];

export function initialDrawState(options: { imported: boolean; redraw: boolean }): DrawState {
  return { low: 'ordered', imported: options.imported, appointment: 'none', reserved: false, drawn: false, results: 'none', redraw: options.redraw };
}

export function drawLifecycle(rules: DrawRules): Lifecycle<DrawState> {
  const resultsFrom = new Set<LowLevelStatus>([...rules.resultsFrom, 'lab_processing_blocked']);
  const cancellable = new Set(rules.cancellableFrom);

  function decideAppointment(s: DrawState, event: AppointmentEvent): Decision<DrawState> {
    if (!rules.appointments) return { ok: false, reason: `a ${rules.method} order has no appointments` };
    if (event === 'in_progress') {
      if (!AFTER_REQUISITION.includes(s.low) || s.appointment !== 'scheduled') return { ok: false, reason: 'the order has no scheduled appointment to start' };
      return moveTo(s, {}, []);
    }
    if (s.low === 'ordered') {
      // Before the requisition: the appointment is held (`reserved`); the order shows nothing yet.
      if (event === 'cancelled') return s.appointment === 'none' ? { ok: false, reason: 'the order has no appointment' } : moveTo(s, { appointment: 'none', reserved: false }, []);
      return moveTo(s, { appointment: event === 'pending' ? 'pending' : 'scheduled', reserved: true }, []);
    }
    if (!AFTER_REQUISITION.includes(s.low)) return refuse(s.low, 'changing the appointment');
    switch (event) {
      case 'pending':
        if (s.appointment === 'pending' || s.appointment === 'scheduled') return { ok: false, reason: `the order already has a ${s.appointment} appointment` };
        return moveTo(s, { appointment: 'pending' }, ['appointment_pending']);
      case 'reserved':
      case 'scheduled':
        // booked, or rescheduled (appointment_scheduled again)
        return moveTo(s, { appointment: 'scheduled' }, s.appointment === 'pending' || s.appointment === 'scheduled' ? ['appointment_scheduled'] : ['appointment_pending', 'appointment_scheduled']);
      case 'cancelled':
        if (s.appointment !== 'pending' && s.appointment !== 'scheduled') return { ok: false, reason: 'the order has no active appointment' };
        return moveTo(s, { appointment: 'cancelled' }, ['appointment_cancelled']);
    }
  }

  function decide(s: DrawState, cmd: OrderCommand): Decision<DrawState> {
    if (cmd.kind === 'correct') {
      return s.low === 'completed' || s.low === 'corrected' ? moveTo(s, {}, ['corrected']) : refuse(s.low, 'correcting results');
    }
    if (TERMINAL.has(s.low)) return { ok: false, reason: `the order is already ${s.low}` };
    switch (cmd.kind) {
      case 'activate': {
        if (s.low !== 'ordered') return refuse(s.low, 'activation');
        const steps: LowLevelStatus[] = [s.imported ? 'requisition_bypassed' : 'requisition_created'];
        // A reserved appointment is confirmed with the requisition: three order events at once.
        if (s.reserved) steps.push(...(s.appointment === 'scheduled' ? (['appointment_pending', 'appointment_scheduled'] as const) : (['appointment_pending'] as const)));
        return moveTo(s, { reserved: false }, steps);
      }
      case 'appointment':
        return decideAppointment(s, cmd.event);
      case 'draw_completed':
        if (rules.drawFrom.length === 0) return { ok: false, reason: `a ${rules.method} order has no draw_completed step` };
        return rules.drawFrom.includes(s.low) ? moveTo(s, { drawn: true }, ['draw_completed']) : refuse(s.low, 'completing the draw');
      case 'results':
        if (!resultsFrom.has(s.low)) return refuse(s.low, 'reporting results');
        if (!cmd.final) return moveTo(s, { results: 'partial' }, ['partial_results']);
        return moveTo(s, { results: 'final' }, [s.redraw && cmd.missing ? 'redraw_available' : 'completed']);
      case 'sample_error':
        return resultsFrom.has(s.low) ? moveTo(s, {}, ['sample_error']) : refuse(s.low, 'a sample error');
      case 'processing_blocked':
        return resultsFrom.has(s.low) && s.low !== 'lab_processing_blocked' ? moveTo(s, {}, ['lab_processing_blocked']) : refuse(s.low, 'blocking lab processing');
      case 'cancel': {
        if (!cancellable.has(s.low)) return refuse(s.low, 'cancellation');
        const active = s.appointment === 'pending' || s.appointment === 'scheduled';
        return moveTo(s, active && rules.cancelCascades ? { appointment: 'cancelled' } : {}, [cmd.as], active && rules.cancelCascades ? ['cancel_appointment'] : []);
      }
      case 'processing_error':
        return moveTo(s, {}, ['do_not_process']);
      case 'register':
      case 'shipment':
        return { ok: false, reason: `a ${rules.method} order has no kit to ${cmd.kind === 'register' ? 'register' : 'ship'}` };
    }
  }

  function leg(s: DrawState): string {
    if (s.low === 'ordered') return 'ordered';
    if (TERMINAL.has(s.low)) return 'done';
    return s.drawn || s.results !== 'none' || s.low === 'lab_processing_blocked' ? 'lab' : 'collection';
  }

  function deadline(s: DrawState, d: OrderDeadlines): Deadline | null {
    switch (leg(s)) {
      case 'ordered':
        return { from: 'activation', seconds: 0, cmd: { kind: 'activate' }, statusDetail: null };
      case 'collection':
        return cancellable.has(s.low) ? { from: 'leg', seconds: d.collectionWindowSeconds, cmd: { kind: 'cancel', as: 'cancelled' }, statusDetail: 'order_expired' } : null;
      case 'lab':
        return { from: 'leg', seconds: d.drawToResultsSeconds, cmd: { kind: 'sample_error' }, statusDetail: 'results_not_received' };
      default:
        return null;
    }
  }

  function waitingFor(s: DrawState): string {
    if (TERMINAL.has(s.low)) return s.low === 'completed' || s.low === 'corrected' ? 'corrected results, if any' : 'nothing: the order is finished';
    if (s.low === 'ordered') return s.reserved ? 'activation (activate_by date); the appointment is reserved' : 'activation (activate_by date)';
    if (leg(s) === 'lab') return s.low === 'lab_processing_blocked' ? 'the lab to resume processing' : s.results === 'partial' ? 'final results' : 'results from the lab';
    if (rules.appointments && s.appointment !== 'scheduled') return rules.drawFrom.length ? 'an appointment to be booked' : 'the patient to visit the site (booking optional), or results';
    return rules.drawFrom.length ? 'the draw' : 'the patient to visit the site, or results';
  }

  function nextTowards(s: DrawState, target: LowLevelStatus): OrderCommand | null {
    if (TERMINAL.has(s.low) || s.low === target) return null;
    if (target === 'cancelled' || target === 'do_not_process') return cancellable.has(s.low) ? { kind: 'cancel', as: target } : null;
    if (s.low === 'ordered') return { kind: 'activate' };
    if (target === 'sample_error' && resultsFrom.has(s.low) && (s.drawn || s.results !== 'none')) return { kind: 'sample_error' };
    if (s.low === 'partial_results' || s.low === 'lab_processing_blocked') {
      return target === 'partial_results' ? null : { kind: 'results', final: true, missing: target === 'redraw_available' };
    }
    return rules.simulate(s, target);
  }

  return {
    method: rules.method,
    decide,
    afterCreation: () => null,
    isTerminal: (s) => TERMINAL.has(s.low),
    takesCorrections: (s) => s.low === 'completed' || s.low === 'corrected',
    canCancel: (s) => cancellable.has(s.low),
    leg,
    deadline,
    waitingFor,
    nextTowards,
  };
}
