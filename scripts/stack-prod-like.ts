/**
 * npm run stack:prod-like — the service as the compose file runs it, on this machine, without Docker:
 *
 *   Postgres        an embedded PostgreSQL 17 of its own (lib/embedded-postgres.ts) holding the service's
 *                   database `labflow` and Temporal's `temporal` + `temporal_visibility`
 *   Temporal        the real server (`temporal-server` v1.31.2, built from its Go module once and
 *                   cached; lib/temporal-server.ts) on that Postgres; schema, namespace and search attributes
 *                   set up by the scripts under deploy/temporal/, as in docker-compose.yml
 *   2 API           `api/server.ts` processes (put any load balancer in front; each prints its URL)
 *   3 workers       `worker.ts --queues …`: two general ones (orders, webhooks, users) and one for the CPU-heavy
 *                   queues (parsing, ingestion)
 *
 * Every port comes from --base-port (PROD_LIKE_BASE_PORT, default 17300): Postgres base, Temporal base+1…base+10,
 * APIs base+11…, worker metrics base+21…; never the defaults 7233/8233/3000/8000 others use. A process that dies is
 * started again (as compose's `restart: unless-stopped` does). Ctrl-C stops the APIs, the workers, Temporal and
 * Postgres, in that order. Data stays in --data-dir (default .data/prod-like) unless --fresh.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createWriteStream, existsSync, mkdirSync, readFileSync, realpathSync, rmSync, writeFileSync, type WriteStream } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { runMigrations } from '../db/migrate.js';
import { parseQueues, type QueueName } from '../domain/temporal.js';
import { ensureDatabase, startEmbeddedPostgres, type RunningPostgres } from '../lib/embedded-postgres.js';
import { portIsFree, StartupError } from '../lib/startup.js';
import { findOrInstallTemporalCli } from '../lib/temporal-cli.js';
import {
  findOrBuildTemporalServer,
  serverPorts,
  setupTemporalNamespace,
  setupTemporalSchema,
  startTemporalServer,
  TEMPORAL_SERVER_VERSION,
  type RunningTemporalServer,
  type TemporalPostgres,
} from '../lib/temporal-server.js';

type Log = (msg: string) => void;
const root = fileURLToPath(new URL('../', import.meta.url));
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export const DEFAULT_BASE_PORT = 17300;
const READY_TIMEOUT_MS = 180_000;
export const DEFAULT_WORKERS = 'orders,webhooks,users;orders,webhooks,users;parsing,ingestion';
const RESERVED_PORTS = [3000, 7233, 8000, 8080, 8233];

export interface ProdLikeOptions {
  basePort: number;
  dataDir: string;
  /** Remove the data directory on stop (tests, chaos). */
  fresh: boolean;
  /** Where the processes' logs go (default <dataDir>/logs; kept when --fresh removes the data). */
  logDir?: string;
  apis: number;
  /** One entry per worker process: the queues it polls. */
  workers: QueueName[][];
  /** More environment for the API and worker processes (e.g. WEBHOOK_RETRY_SCHEDULE). */
  serviceEnv?: Record<string, string>;
  log: Log;
}

/** Every port the stack takes, from the base port up. */
export function stackPorts(basePort: number, apis: number, workers: number) {
  return {
    postgres: basePort,
    temporal: serverPorts(basePort + 1),
    apis: Array.from({ length: apis }, (_, i) => basePort + 11 + i),
    workerMetrics: Array.from({ length: workers }, (_, i) => basePort + 21 + i),
  };
}

/** A child process kept running: started again after an exit nobody asked for. */
export class Supervised {
  child: ChildProcess | null = null;
  restarts = 0;
  /** Date.now() when it last became ready. */
  readyAt = 0;
  private stopping = false;
  private out: WriteStream;
  private readyWaiters: (() => void)[] = [];

  constructor(
    readonly name: string,
    private readonly args: string[],
    private readonly env: Record<string, string>,
    private readonly logFile: string,
    private readonly log: Log,
    /** Ready once this URL answers HTTP (any status). */
    private readonly ready: { url: string },
  ) {
    this.out = createWriteStream(this.logFile, { flags: 'a' });
  }

  get pid(): number | undefined {
    return this.child?.pid;
  }

  /** Starts the process and resolves once it is ready (rejects if it exits first). */
  async start(): Promise<void> {
    const child = spawn(process.execPath, ['--import', 'tsx', ...this.args], {
      cwd: root,
      env: { ...process.env, ...this.env },
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true, // Ctrl-C reaches only the stack script, which stops the processes in order
    });
    this.child = child;
    const killOnExit = () => child.kill('SIGKILL');
    process.once('exit', killOnExit);
    child.stderr!.pipe(this.out, { end: false });
    let ready = false;
    const markReady = () => {
      if (ready) return;
      ready = true;
      this.readyAt = Date.now();
      for (const w of this.readyWaiters.splice(0)) w();
    };
    child.stdout!.pipe(this.out, { end: false });
    const exited = new Promise<string>((res) =>
      child.once('exit', (code, signal) => {
        process.removeListener('exit', killOnExit);
        res(signal ?? `code ${code}`);
      }),
    );
    void exited.then((how) => {
      if (this.stopping || this.child !== child) return;
      this.restarts++;
      this.log(`${this.name} (pid ${child.pid}) exited (${how}): starting it again`);
      void sleep(1000).then(() => (this.stopping ? undefined : this.start().catch((err: unknown) => this.log(`${this.name} restart failed: ${String(err)}`))));
    });
    const deadline = Date.now() + READY_TIMEOUT_MS;
    while (!ready && child.exitCode === null && child.signalCode === null && Date.now() < deadline) {
      try {
        await fetch(this.ready.url, { signal: AbortSignal.timeout(2000) });
        markReady();
      } catch {
        await sleep(200);
      }
    }
    if (!ready) {
      child.kill('SIGKILL');
      throw new StartupError(`${this.name} was not ready at ${this.ready.url} within ${READY_TIMEOUT_MS / 1000} s (or exited): see ${this.logFile}`);
    }
  }

  /** Resolves the next time the process becomes ready (after a restart). */
  nextReady(): Promise<void> {
    return new Promise((res) => this.readyWaiters.push(res));
  }

  /** Fault injection: SIGKILL now; the supervisor starts it again. */
  kill(): void {
    this.child?.kill('SIGKILL');
  }

  /** SIGTERM (in-flight work finishes), SIGKILL after `graceMs`; no restart. */
  async stop(graceMs = 30_000): Promise<void> {
    this.stopping = true;
    const child = this.child;
    if (child && child.exitCode === null && child.signalCode === null) {
      const gone = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      const killer = setTimeout(() => child.kill('SIGKILL'), graceMs);
      await gone;
      clearTimeout(killer);
    }
    await new Promise((r) => this.out.end(r));
  }
}

/** The secrets every API and worker process must share, made once per data directory (file mode 0600). */
function stackSecrets(dataDir: string): { SECRET_ENCRYPTION_KEY: string; URL_SIGNING_SECRET: string } {
  const file = join(dataDir, 'secrets.json');
  if (existsSync(file)) return JSON.parse(readFileSync(file, 'utf8')) as ReturnType<typeof stackSecrets>;
  const secrets = { SECRET_ENCRYPTION_KEY: randomBytes(32).toString('base64'), URL_SIGNING_SECRET: randomBytes(32).toString('base64') };
  writeFileSync(file, JSON.stringify(secrets), { mode: 0o600 });
  return secrets;
}

export interface ProdLikeStack {
  databaseUrl: string;
  temporalAddress: string;
  apiUrls: string[];
  apis: Supervised[];
  workers: Supervised[];
  secrets: ReturnType<typeof stackSecrets>;
  logDir: string;
  /** Fault injection: SIGKILL the Temporal server (resolves once it is gone); startTemporal() brings it back. */
  killTemporal(): Promise<void>;
  startTemporal(): Promise<void>;
  /** Fault injection: stop Postgres (fast shutdown: every session is cut); startPostgres() on the same data. */
  stopPostgres(): Promise<void>;
  startPostgres(): Promise<void>;
  stop(): Promise<void>;
}

export async function startProdLikeStack(opts: ProdLikeOptions): Promise<ProdLikeStack> {
  const { log } = opts;
  const ports = stackPorts(opts.basePort, opts.apis, opts.workers.length);
  const all = [ports.postgres, ...Object.values(ports.temporal), ...ports.apis, ...ports.workerMetrics];
  const reserved = all.filter((p) => RESERVED_PORTS.includes(p));
  if (reserved.length) throw new StartupError(`--base-port ${opts.basePort} would take port ${reserved.join(', ')}, which other stacks use: pick another`);
  const taken = [];
  for (const p of all) if (!(await portIsFree(p))) taken.push(p);
  if (taken.length) throw new StartupError(`port ${taken.join(', ')} already in use (ports ${opts.basePort}…${Math.max(...all)}): stop what holds it or pass --base-port`);

  const dataDir = resolve(opts.dataDir);
  const logDir = opts.logDir ? resolve(opts.logDir) : join(dataDir, 'logs');
  mkdirSync(logDir, { recursive: true });
  const cleanups: (() => Promise<void>)[] = [];
  const stop = async () => {
    for (const fn of cleanups.splice(0).reverse()) await fn().catch((err: unknown) => log(`stop: ${String(err)}`));
    if (opts.fresh) {
      // The cluster may live elsewhere, linked from here (lib/postgres-placement.ts, when we run as root).
      const pgDir = join(dataDir, 'postgres');
      if (existsSync(pgDir)) rmSync(realpathSync(pgDir), { recursive: true, force: true });
      rmSync(dataDir, { recursive: true, force: true });
    }
  };
  try {
    // Both builds may take minutes on a first start: the server's (Go) and the CLI's, side by side.
    const [bins, cli] = await Promise.all([findOrBuildTemporalServer(log), findOrInstallTemporalCli(log)]);
    if (!cli) throw new StartupError('no Temporal CLI and no Go to build it: the namespace and search attributes are registered with it');

    const startPg = () => startEmbeddedPostgres({ dataDir: join(dataDir, 'postgres'), port: ports.postgres, database: 'labflow', persistent: true, log });
    let pg: RunningPostgres = await startPg();
    cleanups.push(() => pg.stop());
    const temporalPg: TemporalPostgres = { host: '127.0.0.1', port: ports.postgres, user: 'postgres', password: 'postgres', database: 'temporal', visibilityDatabase: 'temporal_visibility' };
    await setupTemporalSchema(bins, temporalPg, log);
    const serverLog = join(logDir, 'temporal-server.log');
    const startServer = () => startTemporalServer({ bins, pg: temporalPg, ports: ports.temporal, logFile: serverLog, log });
    let temporal: RunningTemporalServer = await startServer();
    cleanups.push(() => temporal.stop());
    await setupTemporalNamespace(cli, temporal.address, 'default', log);
    await ensureDatabase(pg.adminUrl, 'labflow');
    await runMigrations(pg.url, log);

    const secrets = stackSecrets(dataDir);
    const common = {
      DATABASE_URL: pg.url,
      TEMPORAL_ADDRESS: temporal.address,
      TEMPORAL_NAMESPACE: 'default',
      DATABASE_POOL_SIZE: '8',
      SERVICE_ENVIRONMENT: 'sandbox',
      LOG_LEVEL: 'info',
      // One directory for every API and worker process: uploaded lab reports (blobs/) written by an API are
      // parsed by a worker and served by any API (README "State shared between processes").
      DATA_DIR: join(dataDir, 'service'),
      // One rate-limit budget per team across the APIs, not one per process.
      RATE_LIMIT_STORE: 'postgres',
      ...secrets,
      ...opts.serviceEnv,
    };
    const workers = opts.workers.map(
      (queues, i) =>
        // Ready once its /metrics answers: worker.ts serves it after its workers are created, whatever LOG_LEVEL.
        new Supervised(`worker-${i + 1} (${queues.join(',')})`, ['worker.ts', '--queues', queues.join(',')], { ...common, METRICS_PORT: String(ports.workerMetrics[i]) }, join(logDir, `worker-${i + 1}.log`), log, { url: `http://127.0.0.1:${ports.workerMetrics[i]}/metrics` }),
    );
    const apiUrls = ports.apis.map((p) => `http://127.0.0.1:${p}`);
    const apis = ports.apis.map(
      (port, i) =>
        new Supervised(`api-${i + 1}`, ['api/server.ts'], { ...common, PORT: String(port), PUBLIC_URL: apiUrls[0]! }, join(logDir, `api-${i + 1}.log`), log, { url: `${apiUrls[i]}/health` }),
    );
    // Stopped in reverse: APIs (no new work), then workers (finish what they run), then Temporal, then Postgres.
    cleanups.push(() => Promise.all(workers.map((w) => w.stop())).then(() => {}));
    cleanups.push(() => Promise.all(apis.map((a) => a.stop())).then(() => {}));
    log(`starting ${workers.length} workers and ${apis.length} API processes…`);
    await Promise.all([...workers, ...apis].map((p) => p.start()));
    // Healthy: each API reaches Postgres and Temporal, and every task queue has a poller.
    for (const url of apiUrls) await waitHealthy(url, 60_000);

    return {
      databaseUrl: pg.url,
      temporalAddress: temporal.address,
      apiUrls,
      apis,
      workers,
      secrets,
      logDir,
      async killTemporal() {
        process.kill(temporal.pid!, 'SIGKILL');
        await temporal.exited;
      },
      async startTemporal() {
        temporal = await startServer();
      },
      async stopPostgres() {
        await pg.stop();
      },
      async startPostgres() {
        pg = await startPg();
      },
      stop,
    };
  } catch (err) {
    await stop();
    throw err;
  }
}

async function waitHealthy(url: string, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let last = '';
  while (Date.now() < deadline) {
    try {
      const res = await fetch(`${url}/health`, { signal: AbortSignal.timeout(5000) });
      if (res.ok) return;
      last = `${res.status} ${await res.text()}`;
    } catch (err) {
      last = String(err);
    }
    await sleep(500);
  }
  throw new StartupError(`${url}/health not healthy after ${timeoutMs / 1000} s: ${last}`);
}

/** `orders,webhooks;parsing` → one queue list per worker process. */
export function parseWorkers(spec: string): QueueName[][] {
  return spec.split(';').map((s) => parseQueues(s));
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      'base-port': { type: 'string', default: process.env.PROD_LIKE_BASE_PORT ?? String(DEFAULT_BASE_PORT) },
      'data-dir': { type: 'string', default: join('.data', 'prod-like') },
      fresh: { type: 'boolean', default: false },
      apis: { type: 'string', default: '2' },
      workers: { type: 'string', default: DEFAULT_WORKERS },
    },
    strict: true,
  });
  const basePort = Number(values['base-port']);
  const apis = Number(values.apis);
  if (!Number.isInteger(basePort) || basePort < 1024 || basePort > 32700) throw new StartupError(`--base-port must be 1024…32700 (Temporal keeps membership ports in a smallint), got ${values['base-port']}`);
  if (!Number.isInteger(apis) || apis < 1 || apis > 9) throw new StartupError(`--apis must be 1…9, got ${values.apis}`);
  const log: Log = (m) => process.stderr.write(`[stack:prod-like] ${m}\n`);
  const stack = await startProdLikeStack({ basePort, dataDir: values['data-dir'], fresh: values.fresh, apis, workers: parseWorkers(values.workers), log });
  let stopping = false;
  const shutdown = (code: number) => () => {
    if (stopping) return;
    stopping = true;
    log('stopping: APIs, workers, Temporal, Postgres…');
    void stack.stop().then(() => {
      log('stopped');
      process.exit(code);
    });
  };
  process.on('SIGINT', shutdown(130));
  process.on('SIGTERM', shutdown(143));
  process.stdout.write(
    [
      '',
      `labflow prod-like stack is up (Temporal ${TEMPORAL_SERVER_VERSION} on Postgres):`,
      ...stack.apiUrls.map((u, i) => `  API ${i + 1}        ${u}  (health: ${u}/health)`),
      `  Temporal     ${stack.temporalAddress}  (namespace default)`,
      `  Postgres     ${stack.databaseUrl}  (embedded; + databases temporal, temporal_visibility)`,
      ...stack.workers.map((w) => `  ${w.name}  pid ${w.pid}`),
      `  logs         ${stack.logDir}`,
      `  first team:  DATABASE_URL=${stack.databaseUrl} npm run admin -- create-team --name Acme`,
      'Ctrl-C stops everything.',
      '',
    ].join('\n'),
  );
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  main().catch((err: unknown) => {
    process.stderr.write(`stack:prod-like failed: ${err instanceof StartupError ? err.message : err instanceof Error ? err.stack : String(err)}\n`);
    process.exit(1);
  });
}
