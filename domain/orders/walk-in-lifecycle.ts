import { drawLifecycle, type DrawState } from './draw-lifecycle.js';
import type { OrderCommand } from './lifecycle.js';
import type { LowLevelStatus } from './status.js';

const APPOINTMENT_TARGETS: ReadonlySet<LowLevelStatus> = new Set(['appointment_pending', 'appointment_scheduled', 'appointment_cancelled']);

/**
 * Walk-in at a patient service centre (BEHAVIOUR §1, §5): ordered → requisition_created →
 * [appointment_pending ⇄ appointment_scheduled → appointment_cancelled] → (partial_results →) completed.
 * The appointment is optional: the patient may walk in, and results may arrive from any collection
 * status. Cancelling the order does NOT cancel the PSC appointment. With redraws (opt-in, initial
 * orders only), final results with missing markers end `redraw_available` instead of `completed`.
 */
export const walkInLifecycle = drawLifecycle({
  method: 'walk_in_test',
  appointments: true,
  drawFrom: [],
  resultsFrom: [
    'requisition_created', 'requisition_bypassed', 'appointment_pending', 'appointment_scheduled', 'appointment_cancelled', 'partial_results',
  ],
  cancellableFrom: ['ordered', 'requisition_created', 'requisition_bypassed', 'appointment_pending', 'appointment_scheduled', 'appointment_cancelled'],
  cancelCascades: false,
  simulate,
});

/** The sandbox path books a PSC appointment, then the lab reports partial and final results. */
function simulate(s: DrawState, target: LowLevelStatus): OrderCommand | null {
  const results: OrderCommand = { kind: 'results', final: false };
  switch (s.low) {
    case 'requisition_created':
    case 'requisition_bypassed':
      return { kind: 'appointment', event: target === 'appointment_pending' ? 'pending' : 'scheduled' };
    case 'appointment_pending':
      if (target === 'appointment_cancelled') return { kind: 'appointment', event: 'cancelled' };
      return { kind: 'appointment', event: 'scheduled' };
    case 'appointment_scheduled':
      if (target === 'appointment_cancelled') return { kind: 'appointment', event: 'cancelled' };
      return APPOINTMENT_TARGETS.has(target) ? null : results;
    case 'appointment_cancelled':
      return APPOINTMENT_TARGETS.has(target) ? { kind: 'appointment', event: target === 'appointment_pending' ? 'pending' : 'scheduled' } : results;
    default:
      return null;
  }
}
