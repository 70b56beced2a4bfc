import { patched } from '@temporalio/workflow';
import { SERVICE_TASK_QUEUE, TASK_QUEUES, type QueueName } from '../../domain/temporal.js';

/**
 * The queue a child workflow starts on: its workload's queue, or, in a run recorded before per-workload
 * queues, the one queue of then (a replayed history must issue the same commands).
 */
export function childTaskQueue(workload: QueueName): string {
  return patched('per-workload-task-queues') ? TASK_QUEUES[workload] : SERVICE_TASK_QUEUE;
}
