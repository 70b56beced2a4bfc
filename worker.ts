import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { NativeConnection, Worker, type WorkerOptions } from '@temporalio/worker';
import { createActivities, type Activities, type ActivityDeps } from './activities/index.js';
import { createDb, type Db } from './db/client.js';
import { SERVICE_TASK_QUEUE } from './domain/temporal.js';
import { loadConfigOrExit } from './lib/config.js';
import { activityErrorInterceptor } from './lib/activity-errors.js';
import { serviceDataConverter } from './lib/payload-codec.js';
import { lazyMasterKey } from './db/queries/service-secrets.js';
import { createLogger, type Logger } from './lib/logger.js';

/** Path of the workflows entry, as TypeScript source (tsx, tests) or compiled JavaScript. */
export function workflowsPath(): string {
  const ts = fileURLToPath(new URL('./workflows/index.ts', import.meta.url));
  return existsSync(ts) ? ts : fileURLToPath(new URL('./workflows/index.js', import.meta.url));
}

export interface WorkerDeps {
  connection: NativeConnection;
  namespace: string;
  db: Db;
  logger: Logger;
  /** Webhook delivery settings and the secret key (defaults when absent). */
  config?: ActivityDeps['config'];
  /** Tests replace single activities here; production passes nothing. */
  activityOverrides?: Partial<Activities>;
  options?: Partial<WorkerOptions>;
}

export async function createWorker(deps: WorkerDeps): Promise<Worker> {
  const activities = {
    ...createActivities({ db: deps.db, logger: deps.logger, ...(deps.config ? { config: deps.config } : {}) }),
    ...deps.activityOverrides,
  };
  return Worker.create({
    connection: deps.connection,
    namespace: deps.namespace,
    taskQueue: SERVICE_TASK_QUEUE,
    workflowsPath: workflowsPath(),
    activities,
    // Payloads are encrypted with the service's key (shared with the API through env or Postgres).
    dataConverter: serviceDataConverter(lazyMasterKey(deps.db, deps.config?.SECRET_ENCRYPTION_KEY)),
    ...deps.options,
    // Refused data (Postgres 22xxx, constraints no retry heals, zod) fails an activity for good instead of
    // being retried for ever; messages never carry the refused value (lib/activity-errors.ts).
    interceptors: { ...deps.options?.interceptors, activity: [activityErrorInterceptor, ...(deps.options?.interceptors?.activity ?? [])] },
  });
}

async function main(): Promise<void> {
  const config = loadConfigOrExit();
  const logger = createLogger({ level: config.LOG_LEVEL, name: 'worker' });
  if (!config.DATABASE_URL || !config.TEMPORAL_ADDRESS) {
    logger.fatal('worker.ts needs DATABASE_URL and TEMPORAL_ADDRESS (npm run dev starts everything for you)');
    process.exit(1);
  }
  const dbh = createDb(config.DATABASE_URL, { max: config.DATABASE_POOL_SIZE });
  const connection = await NativeConnection.connect({ address: config.TEMPORAL_ADDRESS });
  const worker = await createWorker({ connection, namespace: config.TEMPORAL_NAMESPACE, db: dbh.db, logger, config });
  logger.info({ task_queue: SERVICE_TASK_QUEUE, namespace: config.TEMPORAL_NAMESPACE }, 'worker polling');
  await worker.run(); // resolves after SIGINT/SIGTERM (the SDK installs shutdown signal handlers)
  await connection.close();
  await dbh.close();
  logger.info('worker stopped');
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  main().catch((err: unknown) => {
    process.stderr.write(`worker failed: ${err instanceof Error ? err.stack : String(err)}\n`);
    process.exit(1);
  });
}
