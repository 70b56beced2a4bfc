import { existsSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { parseArgs } from 'node:util';
import { fileURLToPath } from 'node:url';
import { DefaultLogger, NativeConnection, Worker, bundleWorkflowCode, type WorkerOptions } from '@temporalio/worker';
import { createActivities, type Activities, type ActivityDeps } from './activities/index.js';
import { createDb, type Db } from './db/client.js';
import { QUEUE_NAMES, SERVICE_TASK_QUEUE, TASK_QUEUES, WORKER_SHUTDOWN_GRACE, parseQueues, type QueueName } from './domain/temporal.js';
import { loadConfigOrExit } from './lib/config.js';
import { activityErrorInterceptor } from './lib/activity-errors.js';
import { activityMetricsInterceptor } from './lib/activity-metrics.js';
import { activityLogContextInterceptor } from './lib/activity-log-context.js';
import { metricsText } from './lib/metrics.js';
import { installWorkerRuntime } from './lib/runtime.js';
import { startTracing, stopTracing, tracingWorkerOptions } from './lib/tracing.js';
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

/** Activity slots per queue: OCR and PDF work is CPU-heavy, so few at a time; the rest is I/O. */
const ACTIVITY_SLOTS: Record<QueueName, number> = { orders: 100, webhooks: 50, parsing: 2, users: 50, ingestion: 4 };

/** The workers of one process, one per task queue it polls: run and stop together. */
export interface ServiceWorker {
  /** The task queues polled (the legacy one included). */
  readonly taskQueues: string[];
  run(): Promise<void>;
  shutdown(): void;
}

/**
 * The service's workers: one per task queue of `deps.queues` (default all), plus the queue of earlier
 * versions (SERVICE_TASK_QUEUE) so runs started there finish. Every worker has every workflow and activity
 * (a workflow's activities run on its own queue); they differ in queue and concurrency. The workflow code is
 * bundled once. `options.taskQueue` (tests) makes one worker on that queue instead.
 */
export async function createWorker(deps: WorkerDeps & { queues?: QueueName[] }): Promise<ServiceWorker> {
  const activities = {
    ...createActivities({ db: deps.db, logger: deps.logger, ...(deps.config ? { config: deps.config } : {}) }),
    ...deps.activityOverrides,
  };
  // Traces continue from the API into workflows and activities when tracing is on (lib/tracing.ts).
  const tracing = tracingWorkerOptions();
  const base = {
    connection: deps.connection,
    namespace: deps.namespace,
    activities,
    // Payloads are encrypted with the service's key (shared with the API through env or Postgres).
    dataConverter: serviceDataConverter(lazyMasterKey(deps.db, deps.config?.SECRET_ENCRYPTION_KEY)),
    ...(tracing.sinks ? { sinks: tracing.sinks } : {}),
  };
  const interceptors = {
    ...deps.options?.interceptors,
    workflowModules: [...tracing.workflowModules, ...(deps.options?.interceptors?.workflowModules ?? [])],
    // Refused data (Postgres 22xxx, constraints no retry heals, zod) fails an activity for good instead of
    // being retried for ever; messages never carry the refused value (lib/activity-errors.ts).
    activity: [...tracing.activity, activityLogContextInterceptor, activityMetricsInterceptor, activityErrorInterceptor, ...(deps.options?.interceptors?.activity ?? [])],
  };
  if (deps.options?.taskQueue) {
    const single = await Worker.create({ ...base, workflowsPath: workflowsPath(), ...deps.options, taskQueue: deps.options.taskQueue, interceptors });
    return { taskQueues: [deps.options.taskQueue], run: () => single.run(), shutdown: () => single.shutdown() };
  }
  const workflowBundle = await bundleWorkflowCode({ workflowsPath: workflowsPath(), workflowInterceptorModules: interceptors.workflowModules, logger: quietBundlerLogger });
  const queues: [string, number | undefined][] = [
    ...(deps.queues ?? QUEUE_NAMES).map((q): [string, number] => [TASK_QUEUES[q], ACTIVITY_SLOTS[q]]),
    [SERVICE_TASK_QUEUE, undefined],
  ];
  const workers = await Promise.all(
    queues.map(([taskQueue, slots]) =>
      Worker.create({
        ...base,
        workflowBundle,
        ...(slots ? { maxConcurrentActivityTaskExecutions: slots } : {}),
        ...deps.options,
        taskQueue,
        // The workflow interceptor modules are in the bundle already.
        interceptors: { ...interceptors, workflowModules: [] },
      }),
    ),
  );
  return {
    taskQueues: queues.map(([q]) => q),
    async run() {
      // One worker failing stops the others: the process then exits as one worker would.
      await Promise.all(
        workers.map((w) =>
          w.run().catch((err: unknown) => {
            for (const other of workers) if (other !== w && other.getState() === 'RUNNING') other.shutdown();
            throw err;
          }),
        ),
      );
    },
    shutdown() {
      for (const w of workers) if (w.getState() === 'RUNNING') w.shutdown();
    },
  };
}

/** The bundler's own chatter stays out of the service's logs; its warnings and errors do not. */
const quietBundlerLogger = new DefaultLogger('WARN');

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
  // `--queues orders,webhooks`: the workloads this process runs (default all of them).
  let queues: QueueName[] | undefined;
  try {
    const { values } = parseArgs({ options: { queues: { type: 'string' } }, strict: true });
    queues = values.queues === undefined ? undefined : parseQueues(values.queues);
  } catch (err) {
    logger.fatal(`${err instanceof Error ? err.message : String(err)} (usage: npm run start:worker -- [--queues ${QUEUE_NAMES.join(',')}])`);
    process.exit(2);
  }
  // The SDK stops the workers on SIGINT/SIGTERM; its own metrics join this process's /metrics.
  await installWorkerRuntime('WARN', { shutdownSignals: ['SIGINT', 'SIGTERM'] });
  startTracing('labflow-worker'); // when OTEL_EXPORTER_OTLP_ENDPOINT is set (README "Traces")
  const dbh = createDb(config.DATABASE_URL, { max: config.DATABASE_POOL_SIZE });
  const connection = await NativeConnection.connect({ address: config.TEMPORAL_ADDRESS });
  const worker = await createWorker({
    connection,
    namespace: config.TEMPORAL_NAMESPACE,
    db: dbh.db,
    logger,
    config,
    ...(queues ? { queues } : {}),
    // On SIGTERM/SIGINT, running activities get this long to finish, then they are cancelled.
    options: { shutdownGraceTime: WORKER_SHUTDOWN_GRACE },
  });
  logger.info({ task_queues: worker.taskQueues, namespace: config.TEMPORAL_NAMESPACE }, 'worker polling');
  process.send?.({ polling: true }); // to a parent that started this process (npm run dev)
  // This process's activity and delivery metrics (the API's /metrics shows only the API process's).
  const metrics = config.METRICS_PORT ? await serveMetrics(config.METRICS_PORT, { token: config.METRICS_TOKEN }) : null;
  if (metrics) logger.info({ port: config.METRICS_PORT }, 'worker metrics at /metrics');
  await worker.run(); // resolves after SIGINT/SIGTERM (the SDK installs shutdown signal handlers)
  metrics?.close();
  await connection.close();
  await dbh.close();
  await stopTracing();
  logger.info('worker stopped');
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  main().catch((err: unknown) => {
    process.stderr.write(`worker failed: ${err instanceof Error ? err.stack : String(err)}\n`);
    process.exit(1);
  });
}
