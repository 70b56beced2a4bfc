import { drawLifecycle, type DrawState } from './draw-lifecycle.js';
import type { OrderCommand } from './lifecycle.js';
import type { LowLevelStatus } from './status.js';

/**
 * At-home phlebotomy (BEHAVIOUR §1, §5): ordered → requisition_created → appointment_pending →
 * appointment_scheduled (↺ reschedule) → draw_completed → (partial_results →) completed. An appointment
 * cancelled after the requisition leaves the order `appointment_cancelled`, from where it is booked again
 * or cancelled. Cancelling the order cancels its appointment. Results only after the draw.
 */
export const phlebotomyLifecycle = drawLifecycle({
  method: 'at_home_phlebotomy',
  appointments: true,
  drawFrom: ['appointment_scheduled'],
  resultsFrom: ['draw_completed', 'partial_results'],
  cancellableFrom: [
    'ordered', 'requisition_created', 'requisition_bypassed', 'appointment_pending', 'appointment_scheduled', 'appointment_cancelled',
    'draw_completed',
  ],
  cancelCascades: true,
  simulate,
});

function simulate(s: DrawState, target: LowLevelStatus): OrderCommand | null {
  switch (s.low) {
    case 'requisition_created':
    case 'requisition_bypassed':
    case 'appointment_cancelled':
      return { kind: 'appointment', event: target === 'appointment_pending' ? 'pending' : 'scheduled' };
    case 'appointment_pending':
      return target === 'appointment_cancelled' ? { kind: 'appointment', event: 'cancelled' } : { kind: 'appointment', event: 'scheduled' };
    case 'appointment_scheduled':
      if (target === 'appointment_cancelled') return { kind: 'appointment', event: 'cancelled' };
      return target === 'appointment_pending' ? null : { kind: 'draw_completed' };
    case 'draw_completed':
      return { kind: 'results', final: target !== 'partial_results' };
    default:
      return null;
  }
}
