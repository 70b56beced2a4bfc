import type { DrawState } from '../../domain/orders/draw-lifecycle.js';
import type { Lifecycle, OrderCommand } from '../../domain/orders/lifecycle.js';
import type { CollectionMethod, LowLevelStatus } from '../../domain/orders/status.js';
import type { TestkitState } from '../../domain/orders/testkit-lifecycle.js';
import { noShowReasonId } from '../../domain/appointments/rules.js';
import type { AppointmentChange, PartnerReport, RegistrationInput, ResultsInput, ShipmentUpdate } from './definitions.js';

export type Outcome = { ok: true; low: LowLevelStatus } | { ok: false; reason: string };

/** One change for the order's main loop: what the lifecycle decides on, and the data that goes with it. */
export interface Job {
  cmd: OrderCommand;
  appointment?: AppointmentChange;
  appointmentId?: string;
  registration?: RegistrationInput;
  shipment?: ShipmentUpdate;
  results?: ResultsInput;
  statusDetail?: string | null;
  /** The order's own change (a reserved appointment released): a provider's refusal does not stop it. */
  ownChange?: boolean;
  outcome?: Outcome;
}

export const isTestkitState = (s: TestkitState | DrawState): s is TestkitState => 'registered' in s;

/** Results from a lab: final results for an order already completed are a correction. */
export function resultsJob<S extends TestkitState | DrawState>(lc: Lifecycle<S>, state: S, results: ResultsInput): Job {
  const cmd: OrderCommand = lc.takesCorrections(state) && results.final
    ? { kind: 'correct' }
    : { kind: 'results', final: results.final, missing: (results.missingResults?.length ?? 0) > 0 };
  return { cmd, results };
}

/** A partner's report as a job (pure, so the validator and the handler build the same one). */
export function partnerJob<S extends TestkitState | DrawState>(lc: Lifecycle<S>, state: S, method: CollectionMethod, report: PartnerReport): Job {
  switch (report.kind) {
    case 'shipment':
      return { cmd: { kind: 'shipment', event: report.update.event }, shipment: report.update, statusDetail: report.update.statusDetail ?? null };
    case 'results':
      return resultsJob(lc, state, report.results);
    case 'sample_error':
      return { cmd: { kind: 'sample_error' }, statusDetail: report.statusDetail };
    case 'appointment': {
      const type = method === 'walk_in_test' ? 'patient_service_center' : 'phlebotomy';
      if (report.status === 'no_show') {
        const notes = report.notes ? `no-show: ${report.notes}` : 'no-show: the patient did not come';
        return { cmd: { kind: 'appointment', event: 'cancelled' }, appointment: { action: 'cancel', type, reasonId: noShowReasonId(type), notes } };
      }
      const appointment: AppointmentChange = { action: 'progress', status: report.status, notes: report.notes };
      return report.status === 'in_progress'
        ? { cmd: { kind: 'appointment', event: 'in_progress' }, appointment }
        : { cmd: { kind: 'draw_completed' }, appointment };
    }
  }
}
