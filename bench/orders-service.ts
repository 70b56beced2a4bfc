/**
 * The service under test for bench:orders, in its own process: the real worker and API, plus a worker
 * for the bare baseline workflow on its own task queue. Prints {"port": N} when ready.
 */
import { fileURLToPath } from 'node:url';
import { NativeConnection, Worker } from '@temporalio/worker';
import { startApi } from '../api/server.js';
import { createDb } from '../db/client.js';
import { loadConfig } from '../lib/config.js';
import { createLogger } from '../lib/logger.js';
import { installWorkerRuntime } from '../lib/runtime.js';
import { connectClient } from '../lib/temporal-client.js';
import { serviceDataConverter } from '../lib/payload-codec.js';
import { lazyMasterKey } from '../db/queries/service-secrets.js';
import { createWorker } from '../worker.js';
import { baselineActivities } from './baseline/activities.js';

export const BASELINE_TASK_QUEUE = 'bench-baseline';

const config = loadConfig({ ...process.env, LOG_LEVEL: 'warn' });
const logger = createLogger({ level: 'warn', pretty: false, toStderr: true });
await installWorkerRuntime();
// With a CPU profile, every statement is counted by its shape too (bench:orders prints statements per order).
const statements = new Map<string, number>();
const countStatement = (q: string) => {
  const shape = q.replace(/\s+/g, ' ').trim().slice(0, 90);
  statements.set(shape, (statements.get(shape) ?? 0) + 1);
};
const db = createDb(config.DATABASE_URL!, { max: 20, ...(process.env.BENCH_CPU_PROFILE ? { onQuery: countStatement } : {}) });
const connection = await NativeConnection.connect({ address: config.TEMPORAL_ADDRESS! });
const worker = await createWorker({ connection, namespace: 'default', db: db.db, logger });
const baseline = await Worker.create({
  connection,
  namespace: 'default',
  taskQueue: BASELINE_TASK_QUEUE,
  workflowsPath: fileURLToPath(new URL('./baseline/workflows.ts', import.meta.url)),
  activities: baselineActivities,
});
const temporal = await connectClient(config.TEMPORAL_ADDRESS!, 'default', serviceDataConverter(lazyMasterKey(db.db, config.SECRET_ENCRYPTION_KEY)));
const api = await startApi({ db, temporal, logger, config }, 0, '127.0.0.1');
// BENCH_CPU_PROFILE=<file>: a CPU profile of this process from now until SIGUSR2 (bench:orders sends it when
// the orders' lifecycles are done, before its baseline), written as a .cpuprofile; then {"profile": file}.
const profilePath = process.env.BENCH_CPU_PROFILE;
if (profilePath) {
  const { Session } = await import('node:inspector/promises');
  const { writeFileSync } = await import('node:fs');
  const session = new Session();
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.setSamplingInterval', { interval: 500 });
  await session.post('Profiler.start');
  process.once('SIGUSR2', () => {
    void session.post('Profiler.stop').then(({ profile }) => {
      writeFileSync(profilePath, JSON.stringify(profile));
      const top = [...statements].sort((a, b) => b[1] - a[1]);
      process.stdout.write(`${JSON.stringify({ profile: profilePath, statements: top })}\n`);
    });
  });
}
process.stdout.write(`${JSON.stringify({ port: api.port })}\n`);
await Promise.all([worker.run(), baseline.run()]);
