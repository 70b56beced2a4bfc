import { defineQuery, defineSignal } from '@temporalio/workflow';
import { SERVICE_TASK_QUEUE, TASK_QUEUES } from '../../domain/temporal.js';

/** The queue new runs start on (their activities run there too). */
export const taskQueue = TASK_QUEUES.webhooks;
/** The queue of runs started before per-workload queues (children of such runs start there). */
export const legacyTaskQueue = SERVICE_TASK_QUEUE;
export const webhookEndpointWorkflowType = 'webhookEndpointWorkflow';

/**
 * One long-lived delivery workflow per endpoint. Deliveries themselves are rows in Postgres
 * (webhook_deliveries): the workflow delivers whatever is due, sleeps durably until the next retry is
 * due, and is woken early by a signal when new work arrives (new events, resends, recovery, re-enable).
 */
export const webhookEndpointWorkflowId = (endpointId: string): string => `webhook-endpoint-${endpointId}`;

export interface WebhookEndpointInput {
  endpointId: string;
}

export interface DeliverDueResult {
  /** `gone`: the endpoint was deleted; `disabled`: it receives nothing until re-enabled. */
  state: 'active' | 'disabled' | 'gone';
  delivered: number;
  failed: number;
  /** More deliveries were due than one round takes. */
  more: boolean;
  /** Epoch ms of the next pending delivery's due time; null when nothing is pending. */
  nextDueAt: number | null;
}

export interface EndpointWorkflowState {
  rounds: number;
  lastRound: DeliverDueResult | null;
  waitingUntil: number | null;
  /** Why the last round failed for good (it is held until woken or the hourly check); null otherwise. */
  held: string | null;
}

export const wakeSignal = defineSignal('wake');
export const endpointStateQuery = defineQuery<EndpointWorkflowState>('state');
