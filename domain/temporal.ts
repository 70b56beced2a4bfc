/**
 * Task queues by workload (issue 15): a worker process polls any subset (`npm run start:worker -- --queues
 * orders,webhooks`), each with its own concurrency, so OCR can never take the slots of order steps or
 * deliveries. Every workflow's activities run on the workflow's own queue.
 */
export const TASK_QUEUES = {
  orders: 'labflow-orders',
  webhooks: 'labflow-webhooks',
  parsing: 'labflow-parsing',
  users: 'labflow-users',
  ingestion: 'labflow-ingestion',
} as const;
export type QueueName = keyof typeof TASK_QUEUES;
export const QUEUE_NAMES = Object.keys(TASK_QUEUES) as QueueName[];

/**
 * The one queue of earlier versions: workflows started there keep running there (a run keeps its task
 * queue, continue-as-new too), so every worker process also polls it until none is left.
 */
export const SERVICE_TASK_QUEUE = 'labflow-service';

/** `orders,webhooks` → the queue names, or an error naming what is wrong. */
export function parseQueues(spec: string): QueueName[] {
  const names = spec.split(',').map((s) => s.trim()).filter(Boolean);
  if (!names.length) throw new Error(`--queues needs one or more of ${QUEUE_NAMES.join(', ')}`);
  const unknown = names.filter((n) => !(QUEUE_NAMES as string[]).includes(n));
  if (unknown.length) throw new Error(`unknown queue ${unknown.join(', ')}: choose from ${QUEUE_NAMES.join(', ')}`);
  return [...new Set(names)] as QueueName[];
}

/** How long in-flight activities may run on after a worker is told to stop (SIGTERM, Ctrl-C), then they are cancelled. */
export const WORKER_SHUTDOWN_GRACE = '10s';
