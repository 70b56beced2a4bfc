import { existsSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { fileURLToPath } from 'node:url';
import { NativeConnection, Worker, type WorkerOptions } from '@temporalio/worker';
import { createActivities, type Activities, type ActivityDeps } from './activities/index.js';
import { createDb, type Db } from './db/client.js';
import { SERVICE_TASK_QUEUE } from './domain/temporal.js';
import { loadConfigOrExit } from './lib/config.js';
import { activityErrorInterceptor } from './lib/activity-errors.js';
import { activityMetricsInterceptor } from './lib/activity-metrics.js';
import { metricsText } from './lib/metrics.js';
import { sameSecret } from './api/middleware/metrics.js';
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
    interceptors: {
      ...deps.options?.interceptors,
      activity: [activityMetricsInterceptor, activityErrorInterceptor, ...(deps.options?.interceptors?.activity ?? [])],
    },
  });
}

/** A bare HTTP server answering GET /metrics (Prometheus text) and 404 otherwise. */
export async function serveMetrics(port: number, options: { host?: string; token?: string | undefined } = {}): Promise<Server> {
  const server = createServer((req, res) => {
    if (req.method !== 'GET' || req.url?.split('?')[0] !== '/metrics') {
      res.writeHead(404, { 'content-type': 'application/json' }).end('{"detail":"Only GET /metrics is served here."}');
      return;
    }
    if (options.token && !sameSecret(req.headers.authorization, `Bearer ${options.token}`)) {
      res.writeHead(401, { 'content-type': 'application/json' }).end('{"detail":"Send the metrics token as Authorization: Bearer <METRICS_TOKEN>."}');
      return;
    }
    metricsText().then(
      ({ contentType, body }) => res.writeHead(200, { 'content-type': contentType }).end(body),
      () => res.writeHead(500, { 'content-type': 'application/json' }).end('{"detail":"metrics unavailable"}'),
    );
  });
  await new Promise<void>((resolve, reject) => server.once('error', reject).listen(port, options.host ?? '0.0.0.0', resolve));
  return server;
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
  // This process's activity and delivery metrics (the API's /metrics shows only the API process's).
  const metrics = config.METRICS_PORT ? await serveMetrics(config.METRICS_PORT, { token: config.METRICS_TOKEN }) : null;
  if (metrics) logger.info({ port: config.METRICS_PORT }, 'worker metrics at /metrics');
  await worker.run(); // resolves after SIGINT/SIGTERM (the SDK installs shutdown signal handlers)
  metrics?.close();
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
