import type { Client } from '@temporalio/client';
import { Hono } from 'hono';
import type postgres from 'postgres';
import { TASK_QUEUES } from '../../domain/temporal.js';
import type { AppEnv } from '../env.js';

export interface HealthDeps {
  sql: postgres.Sql;
  temporal: Client;
  namespace: string;
}

type Check = { ok: true } | { ok: false; error: string };

const WORKFLOW_TASK_QUEUE = 1; // temporal.api.enums.v1.TaskQueueType.TASK_QUEUE_TYPE_WORKFLOW
const POLLER_FRESH_MS = 90_000;

async function check(fn: () => Promise<void>): Promise<Check> {
  try {
    await fn();
    return { ok: true };
  } catch (err) {
    return { ok: false, error: err instanceof Error ? err.message : String(err) };
  }
}

/** GET /health: Postgres answers, Temporal answers, and a worker is polling every task queue of the service. */
export function healthRoutes({ sql, temporal, namespace }: HealthDeps) {
  const app = new Hono<AppEnv>({ strict: false });
  app.get('/', async (c) => {
    const deadline = Date.now() + 3000;
    const [postgresCheck, temporalCheck, workerCheck] = await Promise.all([
      check(async () => {
        await sql`select 1`;
      }),
      check(async () => {
        await temporal.connection.withDeadline(deadline, () => temporal.workflowService.getSystemInfo({}));
      }),
      check(async () => {
        // Every workload's queue needs a worker (processes may split them: npm run start:worker -- --queues …).
        const idle = await Promise.all(
          Object.values(TASK_QUEUES).map(async (name) => {
            const res = await temporal.connection.withDeadline(deadline, () =>
              temporal.workflowService.describeTaskQueue({ namespace, taskQueue: { name }, taskQueueType: WORKFLOW_TASK_QUEUE }),
            );
            const now = Date.now();
            const fresh = (res.pollers ?? []).filter((p) => now - Number(p.lastAccessTime?.seconds ?? 0) * 1000 < POLLER_FRESH_MS);
            return fresh.length === 0 ? name : null;
          }),
        );
        const missing = idle.filter((q) => q !== null);
        if (missing.length) throw new Error(`no worker is polling task queue ${missing.join(', ')}`);
      }),
    ]);
    const checks = { postgres: postgresCheck, temporal: temporalCheck, worker: workerCheck };
    const healthy = Object.values(checks).every((ch) => ch.ok);
    const body = {
      status: healthy ? 'ok' : 'unavailable',
      checks: Object.fromEntries(Object.entries(checks).map(([k, v]) => [k, v.ok ? 'ok' : v.error])),
    };
    return healthy ? c.json(body, 200) : c.json({ ...body, detail: 'one or more dependencies are unavailable' }, 503);
  });
  return app;
}
