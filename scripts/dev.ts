/**
 * `npm run dev`: the whole service on one machine. Postgres (DATABASE_URL or embedded), a Temporal
 * dev server (TEMPORAL_ADDRESS or the CLI, built on first use), migrations, the worker (its own process,
 * worker.ts) and the API.
 * A start-up failure prints one line (what failed, what to do), stops what had started and exits 1.
 * Ctrl-C stops the API, then the worker (in-flight activities get 10 s), then Temporal and Postgres;
 * a second Ctrl-C, or 30 s without an end, kills what is left.
 */
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { WORKER_SHUTDOWN_GRACE } from '../domain/temporal.js';
import { ConfigError, loadConfig, type Config } from '../lib/config.js';
import { createLogger } from '../lib/logger.js';
import { assertPortFree, oneLine, StartupError } from '../lib/startup.js';

/** The service's modules, loaded once config and ports are known good (a bad setting fails in a second). */
async function loadService() {
  const [payloadCodec, secrets, server, teams, stack, temporalClient] = await Promise.all([
    import('../lib/payload-codec.js'),
    import('../db/queries/service-secrets.js'),
    import('../api/server.js'),
    import('../db/queries/teams.js'),
    import('../lib/service-stack.js'),
    import('../lib/temporal-client.js'),
  ]);
  return {
    serviceDataConverter: payloadCodec.serviceDataConverter,
    lazyMasterKey: secrets.lazyMasterKey,
    startApi: server.startApi,
    countTeams: teams.countTeams,
    createTeam: teams.createTeam,
    migrate: stack.migrate,
    startPostgres: stack.startPostgres,
    startTemporal: stack.startTemporal,
    codecOrigins: stack.codecOrigins,
    connectClient: temporalClient.connectClient,
  };
}

/**
 * `worker.ts` as a child process with this stack's Postgres and Temporal; resolves once it polls (it says so
 * over the IPC channel). Its log lines go to this terminal. `stop` sends SIGTERM (the SDK lets in-flight activities finish within the
 * grace time) and kills it if it is not gone shortly after.
 */
async function startWorkerProcess(env: Record<string, string>, logger: ReturnType<typeof createLogger>) {
  const child = spawn(process.execPath, ['--import', 'tsx', fileURLToPath(new URL('../worker.ts', import.meta.url))], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  process.once('exit', () => child.kill('SIGKILL')); // never leave it behind, whatever ends this process
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const polling = new Promise<void>((resolve, reject) => {
    child.on('message', (msg: { polling?: boolean }) => {
      if (msg.polling) resolve();
    });
    void exited.then((code) => reject(new StartupError(`the worker process exited (${code}) before it polled its task queues; its log is above`)));
  });
  await polling;
  logger.debug({ pid: child.pid }, 'worker process polling');
  return {
    exited,
    stop: async () => {
      if (child.exitCode !== null) return;
      child.kill('SIGTERM');
      const killer = setTimeout(() => child.kill('SIGKILL'), 15_000);
      await exited;
      clearTimeout(killer);
    },
  };
}

const STOP_DEADLINE_MS = 30_000;

const failLine = (msg: string) => process.stderr.write(`\nstart-up failed: ${msg}\n`);

function configOrExit(): Config {
  try {
    return loadConfig();
  } catch (err) {
    if (!(err instanceof ConfigError)) throw err;
    const bad = err.message.split('\n').slice(1).map((l) => l.trim()).join('; ');
    failLine(`invalid configuration (${bad}): fix or unset these variables (see the README's configuration table)`);
    process.exit(1);
  }
}

/** Every port this stack would listen on must be free before anything starts. */
async function checkPorts(config: Config): Promise<void> {
  await assertPortFree(config.PORT, 'API', 'PORT', '0.0.0.0');
  if (!config.DATABASE_URL) await assertPortFree(config.EMBEDDED_POSTGRES_PORT, 'embedded PostgreSQL', 'EMBEDDED_POSTGRES_PORT');
  if (!config.TEMPORAL_ADDRESS) {
    await assertPortFree(config.TEMPORAL_DEV_PORT, 'Temporal dev server', 'TEMPORAL_DEV_PORT');
    await assertPortFree(config.TEMPORAL_UI_PORT, 'Temporal UI', 'TEMPORAL_UI_PORT');
  }
}

async function main(): Promise<void> {
  const started = Date.now();
  const config = configOrExit();
  const logger = createLogger({ level: config.LOG_LEVEL, name: 'dev' });
  const stops: { name: string; stop: () => Promise<unknown> }[] = [];
  let stopping = false;
  /** Stops what started, in reverse order; `lastLine` (a failure) is printed at the very end, after the stop logs. */
  const shutdown = async (code: number, lastLine?: string) => {
    if (stopping) return;
    stopping = true;
    logger.info('stopping… (Ctrl-C again to kill at once)');
    const timer = setTimeout(() => {
      process.stderr.write(`parts did not stop within ${STOP_DEADLINE_MS / 1000} s: killing what is left\n`);
      process.exit(1);
    }, STOP_DEADLINE_MS);
    for (const { name, stop } of stops.reverse()) {
      logger.info(`stopping ${name}`);
      await stop().catch((err: unknown) => logger.warn({ err }, `error while stopping ${name}`));
    }
    clearTimeout(timer);
    logger.info('stopped');
    if (lastLine) {
      logger.flush?.();
      await new Promise((r) => setTimeout(r, 100)); // let a pretty-printing log transport write first
      failLine(lastLine);
    }
    process.exit(code);
  };
  const onSignal = () => {
    if (!stopping) return void shutdown(0);
    process.stderr.write('second interrupt: killing what is left\n');
    process.exit(130); // exit hooks kill the Temporal server and stop Postgres
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  const fail = async (err: unknown) => {
    if (stopping) return;
    if (!(err instanceof StartupError)) logger.debug({ err }, 'start-up failed');
    await shutdown(1, err instanceof StartupError ? err.message : `${oneLine(err)} (unexpected; LOG_LEVEL=debug shows the stack trace)`);
  };
  process.on('uncaughtException', (err) => void fail(err));
  process.on('unhandledRejection', (err) => void fail(err));

  try {
    await checkPorts(config);
    const { serviceDataConverter, lazyMasterKey, startApi, countTeams, createTeam, migrate, startPostgres, startTemporal, codecOrigins, connectClient } = await loadService();
    const pg = await startPostgres(config, logger, { shared: false });
    stops.push({ name: 'Postgres', stop: () => pg.stop() });
    const db = await migrate(pg.url, logger);
    stops.push({ name: 'database pool', stop: () => db.close() });

    const temporal = await startTemporal(config, logger);
    stops.push({ name: 'Temporal server', stop: () => temporal.stop() });
    temporal.onUnexpectedExit?.((detail) => {
      process.stderr.write(`\nthe Temporal dev server exited (${detail}): stopping the stack; start it again with npm run dev\n`);
      void shutdown(1);
    });

    let firstKey: string | null = null;
    if ((await countTeams(db.db)) === 0) {
      const team = await createTeam(db.db, {
        name: 'Sandbox team',
        environment: config.SERVICE_ENVIRONMENT,
        region: config.SERVICE_REGION,
      });
      firstKey = team.apiKey;
    }

    // The worker is a process of its own (worker.ts, as in production): order steps, deliveries and OCR
    // get the second core instead of sharing the API's event loop.
    const worker = await startWorkerProcess({ DATABASE_URL: pg.url, TEMPORAL_ADDRESS: temporal.address }, logger);
    stops.push({ name: `worker process (in-flight activities get ${WORKER_SHUTDOWN_GRACE})`, stop: () => worker.stop() });
    void worker.exited.then((code) => {
      if (stopping) return;
      process.stderr.write(`\nthe worker process exited (${code}): stopping the stack\n`);
      void shutdown(1);
    });

    // Traces when OTEL_EXPORTER_OTLP_ENDPOINT is set (README "Traces").
    const tracing = await import('../lib/tracing.js');
    if (tracing.startTracing('labflow')) stops.push({ name: 'trace exporter', stop: () => tracing.stopTracing() });

    const client = await connectClient(
      temporal.address,
      config.TEMPORAL_NAMESPACE,
      serviceDataConverter(lazyMasterKey(db.db, config.SECRET_ENCRYPTION_KEY)),
    );
    stops.push({ name: 'Temporal client', stop: () => client.connection.close() });
    await assertPortFree(config.PORT, 'API', 'PORT', '0.0.0.0'); // still free after the minutes above?
    const apiConfig = { ...config, DASHBOARD_CODEC_ORIGINS: codecOrigins(config, temporal.uiUrl) };
    const api = await startApi({ db, temporal: client, logger: logger.child({ component: 'api' }), config: apiConfig }, config.PORT);
    stops.push({ name: 'API', stop: () => api.close() });

    const lines = [
      '',
      `  API          ${api.url}   (health: ${api.url}/health)`,
      `  Dashboard    ${api.url}/dashboard   (operators: npm run admin -- create-operator --email E --password P)`,
      `  Temporal UI  ${temporal.uiUrl ? `${temporal.uiUrl}   (payloads decoded for operators logged into the dashboard: README "Temporal UI codec")` : '(external Temporal: see its own UI)'}`,
      `  Temporal     ${temporal.address}  namespace ${config.TEMPORAL_NAMESPACE}`,
      `  Postgres     ${config.DATABASE_URL ? 'DATABASE_URL' : `embedded, 127.0.0.1:${config.EMBEDDED_POSTGRES_PORT}`}`,
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
    await fail(err);
  }
}

void main();
