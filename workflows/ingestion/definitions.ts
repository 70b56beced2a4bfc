import { defineSignal } from '@temporalio/workflow';
import { SERVICE_TASK_QUEUE, TASK_QUEUES } from '../../domain/temporal.js';

/** The queue new runs start on (their activities run there too). */
export const taskQueue = TASK_QUEUES.ingestion;
/** The queue of runs started before per-workload queues (children of such runs start there). */
export const legacyTaskQueue = SERVICE_TASK_QUEUE;
/** Started as a child by the connection workflow (workflows/connection) when a connection becomes active. */
export const ingestionWorkflowType = 'ingestionWorkflow';
export const ingestionWorkflowId = (connectionId: string): string => `ingestion-${connectionId}`;

export interface IngestionInput {
  teamId: string;
  userId: string;
  connectionId: string;
  provider: string;
  /** Demo connections backfill 30 days whatever the provider's history limit. */
  demo: boolean;
  /** Time between periodic pulls (default DEFAULT_PULL_INTERVAL_SECONDS). */
  pullIntervalSeconds?: number;
}

/** Carried across continueAsNew. */
export interface IngestionCarry {
  backfilled: boolean;
  pulls: number;
}

export type IngestionOutcome = 'connection_gone' | 'stopped' | 'paused';

export const DEFAULT_PULL_INTERVAL_SECONDS = 3 * 3600;
/** Days per backfill activity: one activity's work stays well under its timeout. */
export const BACKFILL_CHUNK_DAYS = 5;
export const DEMO_BACKFILL_DAYS = 30;
/** After ingestion_end, data may still arrive this long; then the connection is paused. */
export const LATE_DELIVERY_DAYS = 7;

/** Pull now instead of waiting for the next periodic pull. */
export const pullNowSignal = defineSignal('pullNow');
