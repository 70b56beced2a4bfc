import { PHLEBOTOMY_CANCELLATION_REASONS, PSC_CANCELLATION_REASONS } from './reasons.js';
import type { DrawState } from '../orders/draw-lifecycle.js';
import type { AppointmentEvent } from '../orders/lifecycle.js';

export type AppointmentAction = 'book' | 'request' | 'reschedule' | 'cancel';

/** What an appointment change means for the order (its lifecycle command). */
export function appointmentEventOf(action: AppointmentAction): AppointmentEvent {
  return action === 'request' ? 'pending' : action === 'cancel' ? 'cancelled' : 'scheduled';
}

/** The draw's own progress, as the appointment's provider reports it (partner API). */
export type AppointmentProgress = 'in_progress' | 'completed' | 'no_show';

/** Cancellation reason for a patient who did not come: "no longer available" (phlebotomy), "Other" (PSC). */
export function noShowReasonId(type: 'phlebotomy' | 'patient_service_center'): string {
  return type === 'phlebotomy' ? PHLEBOTOMY_CANCELLATION_REASONS[0].id : PSC_CANCELLATION_REASONS[0].id;
}

/**
 * The documented refusals (BEHAVIOUR §5, PSC errors) that depend on the appointment rather than on the
 * order's status; null when the change fits. The order's lifecycle is checked as well.
 */
export function appointmentRefusal(s: DrawState, action: AppointmentAction): string | null {
  switch (action) {
    case 'cancel':
      if (s.appointment === 'none') return "This order doesn't have an appointment yet.";
      return s.appointment === 'cancelled' ? 'This appointment has already been cancelled.' : null;
    case 'reschedule':
      if (s.appointment === 'none') return "This order doesn't have an appointment yet.";
      return s.appointment === 'scheduled' ? null : 'This appointment cannot be rescheduled.';
    case 'book':
    case 'request':
      return s.appointment === 'pending' || s.appointment === 'scheduled' ? 'This order already has an active appointment; reschedule or cancel it.' : null;
  }
}
