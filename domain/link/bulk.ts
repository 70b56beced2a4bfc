/** Bulk link operations (CONTRACT §2: listBulkOps, bulkImport, bulkTriggerHistoricalPull, bulkExport, bulkPause). */

/** The SDK's BulkOpType values this service records. */
export type BulkOpType = 'link_bulk_import' | 'link_bulk_historical_trigger';

/** One user's outcome in a bulk op. */
export interface BulkItemResult {
  /** imported / triggered: done; failed: refused (see detail); not_running: connected, but no ingestion runs for it. */
  outcome: 'imported' | 'triggered' | 'failed' | 'not_running';
  detail?: string;
}

/** At most this many users per bulk import / trigger / pause / export filter. */
export const MAX_BULK_ITEMS = 500;
/** `wait_for_completion`: how long the request waits for the op before answering 202. */
export const BULK_WAIT_SECONDS = 20;
export const BULK_OPS_PAGE_DEFAULT = 50;
export const BULK_OPS_PAGE_MAX = 100;
export const BULK_EXPORT_PAGE = 100;

/** OAuth tokens of an imported connection, sealed into `provider_connections.sealed_credentials`. */
export interface OAuthTokens {
  kind: 'oauth_tokens';
  access_token: string;
  refresh_token: string;
  expires_at: number;
  oauth_scopes: string[] | null;
}
