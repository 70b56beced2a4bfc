import type { DbOrTx } from '../../db/client.js';
import { endpointsPendingFor } from '../../db/queries/webhooks.js';

/**
 * For writers of events, after their transaction committed: wake the endpoints the events were queued
 * for. Looked up rather than passed along, so a retried activity (whose write found everything done)
 * still wakes them.
 */
export function eventAnnouncer(db: DbOrTx, wake: (endpointIds: string[]) => Promise<void>) {
  return async (...eventIds: string[]): Promise<void> => {
    const endpoints = await endpointsPendingFor(db, eventIds);
    if (endpoints.length) await wake(endpoints);
  };
}
