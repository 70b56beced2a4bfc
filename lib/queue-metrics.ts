import type { Client } from '@temporalio/client';
import { Gauge } from 'prom-client';
import { TASK_QUEUES } from '../domain/temporal.js';
import { registry } from './metrics.js';

/** Temporal's task queue kinds (enums.v1.TaskQueueType). */
const KINDS = [
  ['workflow', 1],
  ['activity', 2],
] as const;

let source: { client: Client; namespace: string } | null = null;

/**
 * Tasks waiting on each of the service's task queues, as Temporal estimates them (DescribeTaskQueue with
 * stats), read when /metrics is scraped: `labflow_task_queue_backlog{task_queue="labflow-parsing",kind="activity"}`
 * is the OCR and parsing queue's depth. A queue Temporal cannot describe is left out of that scrape.
 */
new Gauge({
  name: 'labflow_task_queue_backlog',
  help: "Approximate number of tasks waiting on each of the service's task queues (the parsing queue's activity backlog is the OCR queue depth)",
  labelNames: ['task_queue', 'kind'] as const,
  registers: [registry],
  async collect() {
    this.reset();
    if (!source) return;
    const { client, namespace } = source;
    await Promise.all(
      Object.values(TASK_QUEUES).flatMap((name) =>
        KINDS.map(async ([kind, taskQueueType]) => {
          try {
            const res = await client.workflowService.describeTaskQueue(
              { namespace, taskQueue: { name }, taskQueueType, reportStats: true },
            );
            const backlog = Number(res.stats?.approximateBacklogCount ?? 0);
            this.set({ task_queue: name, kind }, backlog);
          } catch {
            // unknown to this server version or unreachable: not reported this time
          }
        }),
      ),
    );
  },
});

/** The client the backlog gauge asks (the API process's). */
export function reportTaskQueueBacklog(client: Client, namespace: string): void {
  source = { client, namespace };
}
