/** Order status vocabulary (CONTRACT §4), defined once for the API, workflows and activities. */

export const COLLECTION_METHODS = ['testkit', 'walk_in_test', 'at_home_phlebotomy', 'on_site_collection'] as const;
export type CollectionMethod = (typeof COLLECTION_METHODS)[number];

export const TOP_LEVEL_STATUSES = ['received', 'collecting_sample', 'sample_with_lab', 'completed', 'cancelled', 'failed'] as const;
export type TopLevelStatus = (typeof TOP_LEVEL_STATUSES)[number];

export const LOW_LEVEL_STATUSES = [
  'ordered', 'requisition_created', 'requisition_bypassed', 'transit_customer', 'out_for_delivery', 'with_customer',
  'transit_lab', 'delivered_to_lab', 'completed', 'failure_to_deliver_to_lab', 'failure_to_deliver_to_customer',
  'problem_in_transit_lab', 'problem_in_transit_customer', 'sample_error', 'appointment_scheduled',
  'appointment_cancelled', 'appointment_pending', 'draw_completed', 'cancelled', 'lost', 'do_not_process',
  'partial_results', 'awaiting_registration', 'registered', 'redraw_available', 'corrected', 'lab_processing_blocked',
] as const;
export type LowLevelStatus = (typeof LOW_LEVEL_STATUSES)[number];

const TOP_OF: Record<LowLevelStatus, TopLevelStatus> = {
  ordered: 'received',
  requisition_created: 'received',
  requisition_bypassed: 'received',
  awaiting_registration: 'received',
  registered: 'received',
  transit_customer: 'collecting_sample',
  out_for_delivery: 'collecting_sample',
  with_customer: 'collecting_sample',
  transit_lab: 'collecting_sample',
  problem_in_transit_customer: 'collecting_sample',
  problem_in_transit_lab: 'collecting_sample',
  appointment_pending: 'collecting_sample',
  appointment_scheduled: 'collecting_sample',
  appointment_cancelled: 'collecting_sample',
  draw_completed: 'collecting_sample',
  redraw_available: 'collecting_sample',
  delivered_to_lab: 'sample_with_lab',
  partial_results: 'sample_with_lab',
  lab_processing_blocked: 'sample_with_lab',
  completed: 'completed',
  corrected: 'completed',
  failure_to_deliver_to_customer: 'failed',
  failure_to_deliver_to_lab: 'failed',
  sample_error: 'failed',
  lost: 'failed',
  cancelled: 'cancelled',
  do_not_process: 'cancelled',
};

export function topLevelOf(method: CollectionMethod, low: LowLevelStatus): TopLevelStatus {
  if (method === 'on_site_collection' && low === 'draw_completed') return 'sample_with_lab';
  return TOP_OF[low];
}

/** The dotted event status `<top>.<method>.<low>`, e.g. `received.testkit.awaiting_registration`. */
export function eventStatus(method: CollectionMethod, low: LowLevelStatus): string {
  return `${topLevelOf(method, low)}.${method}.${low}`;
}

/** Splits a dotted event status; null when it is not one of ours. */
export function parseEventStatus(value: string): { method: CollectionMethod; low: LowLevelStatus } | null {
  const [top, method, low] = value.split('.');
  if (!top || !method || !low) return null;
  if (!(COLLECTION_METHODS as readonly string[]).includes(method)) return null;
  if (!(LOW_LEVEL_STATUSES as readonly string[]).includes(low)) return null;
  const parsed = { method: method as CollectionMethod, low: low as LowLevelStatus };
  return topLevelOf(parsed.method, parsed.low) === top ? parsed : null;
}

/** Where an order came from (CONTRACT order.origin): the first order of a transaction, a redraw, or a recreation. */
export const ORDER_ORIGINS = ['initial', 'redraw', 'recreation'] as const;
export type OrderOrigin = (typeof ORDER_ORIGINS)[number];

export const ORDER_EVENT_TYPES = { created: 'labtest.order.created', updated: 'labtest.order.updated' } as const;
