import type { BulkItemResult, BulkOpType } from '../../domain/link/bulk.js';
import { SERVICE_TASK_QUEUE, TASK_QUEUES } from '../../domain/temporal.js';

/** The queue new runs start on (their activities run there too). */
export const taskQueue = TASK_QUEUES.users;
/** The queue of runs started before per-workload queues (children of such runs start there). */
export const legacyTaskQueue = SERVICE_TASK_QUEUE;
export const linkBulkOpWorkflowType = 'linkBulkOpWorkflow';
export const linkBulkOpWorkflowId = (bulkOpId: string): string => `link-bulk-op-${bulkOpId}`;

export interface BulkImportItem {
  userId: string;
  /** The provider's user id (`provider_id`): the connection's external user id. */
  providerId: string;
  /** The OAuth tokens (domain/link/bulk OAuthTokens) sealed by the API with the service master key. */
  sealedTokens: string;
}

export interface LinkBulkOpInput {
  bulkOpId: string;
  teamId: string;
  type: BulkOpType;
  provider: string;
  /** link_bulk_import: one connection per user. */
  imports?: BulkImportItem[];
  /** link_bulk_historical_trigger: the users whose connection to pull now. */
  userIds?: string[];
  /** Imported connections start ingestion (WEARABLE_INGESTION_ENABLED). */
  startIngestion: boolean;
}

export interface LinkBulkOpResult {
  status: string;
  results: Record<string, BulkItemResult>;
}
