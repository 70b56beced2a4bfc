/**
 * The service under test for bench:orders, in its own process(es): `api` (the real API), `worker` (the real
 * worker plus a worker for the bare baseline workflow on its own task queue), or `both` in one process.
 * Prints {"port": N} (api, both) or {"port": null} (worker) when ready.
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
import { profileUntilSigusr2 } from './support.js';

export const BASELINE_TASK_QUEUE = 'bench-baseline';

const role = process.argv[2] ?? 'both';
if (role !== 'api' && role !== 'worker' && role !== 'both') throw new Error(`role must be api, worker or both, not ${role}`);
// The team limiter runs as in production but at a ceiling the bench never reaches (the default, 100/s with a
// burst of 300, refuses a run creating faster than that for long); RATE_LIMIT_TEAM_* in the environment still win.
const config = loadConfig({ RATE_LIMIT_TEAM_PER_SECOND: '100000', RATE_LIMIT_TEAM_BURST: '1000000', ...process.env, LOG_LEVEL: 'warn' });
const logger = createLogger({ level: 'warn', pretty: false, toStderr: true });
if (role !== 'api') await installWorkerRuntime();
// With a CPU profile, every statement is counted by its shape too (bench:orders prints statements per order).
const statements = new Map<string, number>();
const countStatement = (q: string) => {
  const shape = q.replace(/\s+/g, ' ').trim().slice(0, 90);
  statements.set(shape, (statements.get(shape) ?? 0) + 1);
};
const db = createDb(config.DATABASE_URL!, { max: Number(process.env.BENCH_POOL ?? 20), ...(process.env.BENCH_CPU_PROFILE ? { onQuery: countStatement } : {}) });
const running: Promise<void>[] = [];
if (role !== 'api') {
  const connection = await NativeConnection.connect({ address: config.TEMPORAL_ADDRESS! });
  const worker = await createWorker({ connection, namespace: 'default', db: db.db, logger });
  const baseline = await Worker.create({
    connection,
    namespace: 'default',
    taskQueue: BASELINE_TASK_QUEUE,
    workflowsPath: fileURLToPath(new URL('./baseline/workflows.ts', import.meta.url)),
    activities: baselineActivities,
  });
  running.push(worker.run(), baseline.run());
}
let port: number | null = null;
if (role !== 'worker') {
  const temporal = await connectClient(config.TEMPORAL_ADDRESS!, 'default', serviceDataConverter(lazyMasterKey(db.db, config.SECRET_ENCRYPTION_KEY)));
  port = (await startApi({ db, temporal, logger, config }, 0, '127.0.0.1')).port;
}
// BENCH_CPU_PROFILE=<file>: a CPU profile of this process from now until SIGUSR2 (bench:orders sends it when
// the orders' lifecycles are done, before its baseline), written as a .cpuprofile (suffixed with the role
// when split); then {"profile": file}.
const profilePath = process.env.BENCH_CPU_PROFILE ? (role === 'both' ? process.env.BENCH_CPU_PROFILE : process.env.BENCH_CPU_PROFILE.replace(/(\.cpuprofile)?$/, `.${role}.cpuprofile`)) : undefined;
if (profilePath) {
  await profileUntilSigusr2(profilePath, 500, () => {
    const top = [...statements].sort((a, b) => b[1] - a[1]);
    process.stdout.write(`${JSON.stringify({ profile: profilePath, statements: top })}\n`);
  });
}
process.stdout.write(`${JSON.stringify({ port })}\n`);
await Promise.all(running);
