import { drawLifecycle, type DrawState } from './draw-lifecycle.js';
import type { OrderCommand } from './lifecycle.js';
import type { LowLevelStatus } from './status.js';

/**
 * On-site collection (beta; BEHAVIOUR §1): ordered → requisition_created → draw_completed →
 * (partial_results →) completed. The customer's own staff draw and report it with
 * `PATCH /v3/order/{id}/draw_completed`; there are no appointments. Cancellable until results arrive.
 */
export const onSiteLifecycle = drawLifecycle({
  method: 'on_site_collection',
  appointments: false,
  drawFrom: ['requisition_created', 'requisition_bypassed'],
  resultsFrom: ['draw_completed', 'partial_results'],
  cancellableFrom: ['ordered', 'requisition_created', 'requisition_bypassed', 'draw_completed'],
  cancelCascades: false,
  simulate,
});

function simulate(s: DrawState, target: LowLevelStatus): OrderCommand | null {
  switch (s.low) {
    case 'requisition_created':
    case 'requisition_bypassed':
      return { kind: 'draw_completed' };
    case 'draw_completed':
      return { kind: 'results', final: target !== 'partial_results' };
    default:
      return null;
  }
}
