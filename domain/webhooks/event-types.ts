/**
 * The event catalogue (BEHAVIOUR §3, spec "Events") and endpoint filters. A filter is an exact event
 * type or a prefix ending with a dot (`labtest.`, `daily.data.`); an endpoint with no filters gets
 * every event.
 */
export const EVENT_TYPES = [
  'labtest.order.created',
  'labtest.order.updated',
  'labtest.appointment.created',
  'labtest.appointment.updated',
  'labtest.result.critical',
  'provider.connection.created',
  'provider.connection.error',
  'daily.data.workout_stream.created',
  'lab_report.parsing_job.created',
  'lab_report.parsing_job.updated',
  'webhook.endpoint.disabled',
] as const;

/** `daily.data.<resource>.created|updated` for any wearable resource. */
const DAILY_DATA = /^daily\.data\.[a-z0-9_]+\.(created|updated)$/;
/** `historical.data.<resource>.created`: a historical pull (backfill) of that resource finished. */
const HISTORICAL_DATA = /^historical\.data\.[a-z0-9_]+\.created$/;
const PREFIX = /^[a-z0-9_]+(\.[a-z0-9_]+)*\.$/;

export function isKnownEventType(type: string): boolean {
  return (EVENT_TYPES as readonly string[]).includes(type) || DAILY_DATA.test(type) || HISTORICAL_DATA.test(type);
}

/** Whether a filter value is acceptable: a known event type or a dotted prefix of one. */
export function isValidFilter(filter: string): boolean {
  if (isKnownEventType(filter)) return true;
  if (!PREFIX.test(filter)) return false;
  return EVENT_TYPES.some((t) => t.startsWith(filter)) || 'daily.data.'.startsWith(filter) || filter.startsWith('daily.data.') || 'historical.data.'.startsWith(filter) || filter.startsWith('historical.data.');
}

export function matchesFilters(eventType: string, filters: readonly string[]): boolean {
  if (filters.length === 0) return true;
  return filters.some((f) => (f.endsWith('.') ? eventType.startsWith(f) : eventType === f));
}
