import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { NativeConnection } from '@temporalio/worker';
import postgres from 'postgres';
import type {} from 'vitest';
import type { TestProject } from 'vitest/node';
import { createDb, type DbHandle } from '../../db/client.js';
import { runMigrations } from '../../db/migrate.js';
import { startEmbeddedPostgres, type RunningPostgres } from '../../lib/embedded-postgres.js';
import { createLogger } from '../../lib/logger.js';
import { installWorkerRuntime } from '../../lib/runtime.js';
import { freePort } from '../../lib/startup.js';
import { startTemporalDevServer, type TemporalDevServer } from '../../lib/temporal-dev-server.js';
import { createWorker, serveMetrics, type ServiceWorker } from '../../worker.js';
import { TEST_SECRET_ENCRYPTION_KEY } from './constants.js';

export const TEST_WEBHOOK_RETRY_SCHEDULE = '0,0.2,0.5,0.5,1,1,1,1,1,1,1,1';

declare module 'vitest' {
  export interface ProvidedContext {
    databaseUrl: string;
    temporalAddress: string;
    temporalNamespace: string;
    /** The shared test worker's own metrics server (its activities and webhook deliveries). */
    workerMetricsUrl: string;
  }
}

const log = (msg: string) => process.stderr.write(`[test setup] ${msg}\n`);


/**
 * One real Postgres database and one real Temporal dev server for the integration run, plus the
 * service worker polling it. Postgres: a fresh database on the server of TEST_DATABASE_URL when set,
 * else an embedded cluster in a temp dir. Temporal: the CLI (found or built with `go install`).
 */
export default async function setup(project: TestProject) {
  const cleanups: (() => Promise<unknown>)[] = [];
  const teardown = async () => {
    for (const fn of cleanups.reverse()) await fn().catch((err: unknown) => log(`cleanup error: ${String(err)}`));
  };
  try {
    let databaseUrl: string;
    const external = process.env.TEST_DATABASE_URL;
    const dbName = `labflow_test_${process.pid}_${Date.now()}`;
    if (external) {
      const admin = postgres(external, { max: 1, onnotice: () => {} });
      await admin.unsafe(`create database ${dbName}`);
      await admin.end();
      const url = new URL(external);
      url.pathname = `/${dbName}`;
      databaseUrl = url.toString();
      cleanups.push(async () => {
        const a = postgres(external, { max: 1, onnotice: () => {} });
        await a.unsafe(`drop database if exists ${dbName} with (force)`);
        await a.end();
      });
      log(`Postgres: fresh database ${dbName} on TEST_DATABASE_URL`);
    } else {
      const dir = mkdtempSync(join(tmpdir(), 'labflow-test-pg-'));
      const pg: RunningPostgres = await startEmbeddedPostgres({
        dataDir: dir,
        port: await freePort(),
        database: dbName,
        persistent: false,
        log,
      });
      databaseUrl = pg.url;
      cleanups.push(async () => {
        await pg.stop();
        rmSync(dir, { recursive: true, force: true });
      });
    }
    await runMigrations(databaseUrl, log);

    const temporal: TemporalDevServer = await startTemporalDevServer({
      port: await freePort(),
      uiPort: null,
      namespace: 'default',
      // Namespaces no shared worker polls: each durability test runs (and kills) a worker process of its own there.
      extraNamespaces: ['durability', 'durability-webhooks', 'small-pool', 'traces', 'unpolled'],
      cliPath: process.env.TEMPORAL_CLI_PATH,
      log,
    });
    cleanups.push(() => temporal.stop());
    log(`Temporal dev server at ${temporal.address}`);

    // The real service worker, with the real activities, against the test database.
    await installWorkerRuntime();
    const dbh: DbHandle = createDb(databaseUrl);
    cleanups.push(() => dbh.close());
    const connection = await NativeConnection.connect({ address: temporal.address });
    const worker: ServiceWorker = await createWorker({
      connection,
      namespace: 'default',
      db: dbh.db,
      logger: createLogger({ level: process.env.TEST_LOG_LEVEL ?? 'silent', pretty: false }),
      // Webhook retries in seconds rather than hours; 12 attempts so a receiver failing 30% of the
      // time at random still gets everything (0.3^12 per event).
      config: {
        WEBHOOK_RETRY_SCHEDULE: TEST_WEBHOOK_RETRY_SCHEDULE,
        WEBHOOK_TIMEOUT_SECONDS: 3,
        WEBHOOK_DISABLE_AFTER_SECONDS: 3600,
        SECRET_ENCRYPTION_KEY: TEST_SECRET_ENCRYPTION_KEY,
      },
    });
    const running = worker.run();
    cleanups.push(async () => {
      worker.shutdown();
      await running;
      await connection.close();
    });

    const metricsPort = await freePort();
    const metricsServer = await serveMetrics(metricsPort, { host: '127.0.0.1' });
    cleanups.push(() => new Promise<void>((resolve) => metricsServer.close(() => resolve())));

    project.provide('databaseUrl', databaseUrl);
    project.provide('temporalAddress', temporal.address);
    project.provide('temporalNamespace', 'default');
    project.provide('workerMetricsUrl', `http://127.0.0.1:${metricsPort}/metrics`);
  } catch (err) {
    await teardown();
    throw err;
  }
  return teardown;
}
