import { defineQuery, defineUpdate } from '@temporalio/workflow';
import type { LinkMethod } from '../../domain/link/catalog.js';
import type { LinkOutcome } from '../../domain/link/outcomes.js';
import { SERVICE_TASK_QUEUE, TASK_QUEUES } from '../../domain/temporal.js';

/** The queue new runs start on (their activities run there too). */
export const taskQueue = TASK_QUEUES.users;
/** The queue of runs started before per-workload queues (children of such runs start there). */
export const legacyTaskQueue = SERVICE_TASK_QUEUE;
export const connectionWorkflowType = 'connectionWorkflow';

/** One link attempt per (user, provider) at a time; a new attempt replaces a pending one. */
export const connectionWorkflowId = (userId: string, provider: string): string => `connection-${userId}-${provider}`;

/** The wearable-data workflow a new connection starts (registered by the ingestion work, by name). */
export const ingestionWorkflowType = 'ingestionWorkflow';
export const ingestionWorkflowId = (connectionId: string): string => `ingestion-${connectionId}`;

export interface IngestionInput {
  teamId: string;
  userId: string;
  connectionId: string;
  provider: string;
  demo: boolean;
}

export interface ConnectionInput {
  teamId: string;
  userId: string;
  provider: string;
  method: LinkMethod;
  /** The link token the attempt came with (password/email/oauth); MFA completion must present the same one. */
  linkTokenId?: string | null;
  /**
   * Sealed by the API with the service master key: password providers' credentials, e-mail providers'
   * `{email, region}`, bulk-imported OAuth tokens (kept on the connection).
   */
  sealedCredentials?: string | null;
  /** Manual providers: the id the app gives the source. */
  externalUserId?: string | null;
  /** Start the ingestion child once connected (WEARABLE_INGESTION_ENABLED). */
  startIngestion: boolean;
  /** How long an MFA challenge waits for its code (default 10 minutes). */
  mfaDeadlineSeconds?: number;
}

export type ConnectionPhase = 'attempting' | 'pending_mfa' | 'verifying' | 'connected' | 'failed' | 'expired';

/** The outcome of the attempt the workflow was started for (waits until it is known). */
export const linkOutcomeUpdate = defineUpdate<LinkOutcome>('linkOutcome');
/** The MFA code for a pending challenge; refused (validator) when none is pending or the token differs. */
export const completeMfaUpdate = defineUpdate<LinkOutcome, [{ code: string; linkTokenId: string }]>('completeMfa');
export const connectionStateQuery = defineQuery<{ phase: ConnectionPhase; connectionId: string | null }>('connectionState');

export const DEFAULT_MFA_DEADLINE_SECONDS = 600;
/** Wrong codes accepted before the challenge is given up. */
export const MAX_MFA_ATTEMPTS = 5;

/**
 * Sent to `ingestion-<connection_id>` by `POST /v2/user/refresh/{user_id}`: pull new data now. The same
 * signal the ingestion workflow handles (one definition: its name once differed, and refresh did nothing).
 */
export { pullNowSignal as ingestionRefreshSignal } from '../ingestion/definitions.js';
