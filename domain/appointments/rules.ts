import type { DrawState } from '../orders/draw-lifecycle.js';
import type { AppointmentEvent } from '../orders/lifecycle.js';

export type AppointmentAction = 'book' | 'request' | 'reschedule' | 'cancel';

/** What an appointment change means for the order (its lifecycle command). */
export function appointmentEventOf(action: AppointmentAction): AppointmentEvent {
  return action === 'request' ? 'pending' : action === 'cancel' ? 'cancelled' : 'scheduled';
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
