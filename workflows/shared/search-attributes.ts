import { defineSearchAttributeKey, SearchAttributeType, type SearchAttributeUpdatePair } from '@temporalio/common';
import { SEARCH_ATTRIBUTES } from '../../domain/search-attributes.js';

/**
 * Typed keys of the service's custom search attributes (names in domain/search-attributes.ts, registered on
 * the Temporal server), so operators can list workflows by team, status, collection method or user
 * (`LabflowStatus = 'completed'`, the dashboard's Workflows view).
 */
export const SA = {
  team: defineSearchAttributeKey(SEARCH_ATTRIBUTES.team.name, SearchAttributeType.KEYWORD),
  status: defineSearchAttributeKey(SEARCH_ATTRIBUTES.status.name, SearchAttributeType.KEYWORD),
  method: defineSearchAttributeKey(SEARCH_ATTRIBUTES.method.name, SearchAttributeType.KEYWORD),
  user: defineSearchAttributeKey(SEARCH_ATTRIBUTES.user.name, SearchAttributeType.KEYWORD),
} as const;

/** The pairs to upsert: only the attributes given (a status change sets the status alone). */
export function searchAttributePairs(values: { team?: string; status?: string; method?: string; user?: string }): SearchAttributeUpdatePair[] {
  const pairs: SearchAttributeUpdatePair[] = [];
  for (const k of ['team', 'status', 'method', 'user'] as const) {
    const v = values[k];
    if (v !== undefined) pairs.push({ key: SA[k], value: v });
  }
  return pairs;
}
