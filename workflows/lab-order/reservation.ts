import type { DrawState } from '../../domain/orders/draw-lifecycle.js';
import type { CollectionMethod } from '../../domain/orders/status.js';
import { PHLEBOTOMY_CANCELLATION_REASONS, PSC_CANCELLATION_REASONS } from '../../domain/appointments/reasons.js';
import type { Job } from './jobs.js';

/** A reserved appointment is released this long before it starts if the order still has no requisition. */
export const RELEASE_BEFORE_START_MS = 2 * 3600_000;

/**
 * When an appointment booked before the requisition (`reserved`) is cancelled (BEHAVIOUR §5): the order
 * placed more than `holdSeconds` ago without a requisition, or less than 2 hours before the appointment.
 * Null when the order holds no reserved appointment.
 */
export function reservationExpiry(s: DrawState, placedAt: number, holdSeconds: number, startAt: number | null): number | null {
  if (s.low !== 'ordered' || !s.reserved || (s.appointment !== 'scheduled' && s.appointment !== 'pending')) return null;
  const byAge = placedAt + holdSeconds * 1000;
  return startAt === null ? byAge : Math.min(byAge, startAt - RELEASE_BEFORE_START_MS);
}

/** The expiry as a job: the appointment is cancelled ("Other"), the order stays `ordered`. */
export function reservationExpiryJob(method: CollectionMethod): Job {
  const type = method === 'walk_in_test' ? 'patient_service_center' : 'phlebotomy';
  const reasonId = type === 'phlebotomy' ? PHLEBOTOMY_CANCELLATION_REASONS[3].id : PSC_CANCELLATION_REASONS[0].id;
  return {
    cmd: { kind: 'appointment', event: 'cancelled' },
    appointment: { action: 'cancel', type, reasonId, notes: 'released: the order had no requisition in time' },
    ownChange: true,
  };
}
