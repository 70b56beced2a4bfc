import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { accessSync, closeSync, constants, mkdirSync, openSync, readFileSync, renameSync } from 'node:fs';
import { homedir } from 'node:os';
import { delimiter, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { Connection } from '@temporalio/client';
import { SEARCH_ATTRIBUTES } from '../domain/search-attributes.js';
import { StartupError } from './startup.js';

/**
 * The real Temporal server (not the dev server) on Postgres, as in production: `temporal-server` and
 * `temporal-sql-tool` built from the server's Go module at one pinned release (the compose file pins the same
 * images), the schema set up by deploy/temporal/setup-schema.sh, the namespace and the service's search
 * attributes by deploy/temporal/create-namespace.sh and register-search-attributes.sh — the very scripts the
 * compose file runs. The server reads its configuration from environment variables (its embedded config
 * template, the one the `temporalio/server` image uses), so this file and docker-compose.yml set the same ones.
 */

const run = promisify(execFile);
type Log = (msg: string) => void;

/** The newest release that builds with this machine's Go (1.26); v1.32 needs a newer Go. */
export const TEMPORAL_SERVER_VERSION = 'v1.31.2';
const MODULE = 'go.temporal.io/server';
/** `go install` package → the name the binary gets (the names of the official images). */
const PACKAGES = [
  [`${MODULE}/cmd/server`, 'server', 'temporal-server'],
  [`${MODULE}/cmd/tools/sql`, 'sql', 'temporal-sql-tool'],
] as const;
export const EXPECTED_SERVER_BUILD = '~12 min on 2 cores';

const deployDir = fileURLToPath(new URL('../deploy/temporal/', import.meta.url));

export interface TemporalServerBinaries {
  server: string;
  sqlTool: string;
}

const isExecutable = (path: string) => {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
};

/** Where the binaries are kept: TEMPORAL_SERVER_BIN_DIR, else ~/.cache/labflow/temporal-server/<version>. */
export function serverBinDir(env: NodeJS.ProcessEnv = process.env): string {
  return env.TEMPORAL_SERVER_BIN_DIR || join(homedir(), '.cache', 'labflow', 'temporal-server', TEMPORAL_SERVER_VERSION);
}

/** The cached binaries, or null when either is missing. */
export function findTemporalServer(dir = serverBinDir()): TemporalServerBinaries | null {
  const server = join(dir, 'temporal-server');
  const sqlTool = join(dir, 'temporal-sql-tool');
  return isExecutable(server) && isExecutable(sqlTool) ? { server, sqlTool } : null;
}

/**
 * Builds both binaries with `go install -v` into `dir` (first start only; minutes), printing every `tickMs`
 * how far it got: modules downloaded, then packages compiled.
 */
export async function buildTemporalServer(log: Log, dir = serverBinDir(), tickMs = 15_000): Promise<TemporalServerBinaries> {
  try {
    await run('go', ['version']);
  } catch {
    throw new StartupError(`the Temporal server is not built in ${dir} and Go is not installed to build it (https://go.dev/dl)`);
  }
  mkdirSync(dir, { recursive: true });
  const targets = PACKAGES.map(([pkg]) => `${pkg}@${TEMPORAL_SERVER_VERSION}`);
  log(`building the Temporal server ${TEMPORAL_SERVER_VERSION} with \`go install ${targets.join(' ')}\` into ${dir} (first start only; ${EXPECTED_SERVER_BUILD})…`);
  const started = Date.now();
  let downloads = 0;
  let compiled = 0;
  let last = '';
  let tail = '';
  const code = await new Promise<number | null>((resolve) => {
    const child = spawn('go', ['install', '-v', ...targets], { env: { ...process.env, GOBIN: dir }, stdio: ['ignore', 'ignore', 'pipe'] });
    let partial = '';
    child.stderr.on('data', (chunk: Buffer) => {
      tail = (tail + chunk.toString()).slice(-4000);
      const lines = (partial + chunk.toString()).split('\n');
      partial = lines.pop() ?? '';
      for (const line of lines.map((l) => l.trim()).filter(Boolean)) {
        if (line.startsWith('go: downloading ')) downloads++;
        else if (!line.includes(' ')) compiled++;
        else continue;
        last = line.replace(/^go: downloading /, '');
      }
    });
    const ticker = setInterval(() => {
      const s = Math.round((Date.now() - started) / 1000);
      log(`  building the Temporal server: ${Math.floor(s / 60)}m${String(s % 60).padStart(2, '0')}s of ${EXPECTED_SERVER_BUILD} — ${compiled} packages compiled, ${downloads} modules downloaded, last ${last || '(resolving)'}`);
    }, tickMs);
    child.once('error', () => resolve(-1));
    child.once('close', (c) => {
      clearInterval(ticker);
      resolve(c);
    });
  });
  if (code !== 0) throw new StartupError(`building the Temporal server failed (go install exit ${code}): ${tail.trim().split('\n').slice(-3).join(' | ')}`);
  for (const [, built, name] of PACKAGES) renameSync(join(dir, built), join(dir, name));
  log(`Temporal server ${TEMPORAL_SERVER_VERSION} built in ${Math.round((Date.now() - started) / 1000)}s: ${dir}`);
  return findTemporalServer(dir)!;
}

export async function findOrBuildTemporalServer(log: Log, dir = serverBinDir()): Promise<TemporalServerBinaries> {
  return findTemporalServer(dir) ?? buildTemporalServer(log, dir);
}

/** A Postgres server as Temporal's persistence sees it. */
export interface TemporalPostgres {
  host: string;
  port: number;
  user: string;
  password: string;
  /** Databases (created by setup-schema.sh when missing). */
  database: string;
  visibilityDatabase: string;
}

/** Runs a deploy/temporal script with `binDir` first on PATH; rejects with the end of its output. */
function runScript(script: string, binDir: string, env: Record<string, string>, log: Log): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn('sh', [join(deployDir, script)], {
      env: { ...process.env, ...env, PATH: `${binDir}${delimiter}${process.env.PATH ?? ''}` },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.on('data', (c: Buffer) => {
      for (const line of c.toString().split('\n').filter(Boolean)) log(`  ${script}: ${line}`);
    });
    child.stderr.on('data', (c: Buffer) => (out = (out + c.toString()).slice(-3000)));
    child.once('error', (err) => reject(new StartupError(`cannot run ${script}: ${err.message}`)));
    child.once('close', (code) =>
      code === 0 ? resolve() : reject(new StartupError(`deploy/temporal/${script} failed (exit ${code}): ${out.trim().split('\n').slice(-3).join(' | ')}`)),
    );
  });
}

/** Creates Temporal's databases and brings their schema up to date (deploy/temporal/setup-schema.sh). */
export async function setupTemporalSchema(bins: TemporalServerBinaries, pg: TemporalPostgres, log: Log): Promise<void> {
  await runScript('setup-schema.sh', dirname(bins.sqlTool), {
    SQL_PLUGIN: 'postgres12',
    SQL_HOST: pg.host,
    SQL_PORT: String(pg.port),
    SQL_USER: pg.user,
    SQL_PASSWORD: pg.password,
    DBNAME: pg.database,
    VISIBILITY_DBNAME: pg.visibilityDatabase,
  }, log);
}

/** Registers the namespace and the service's search attributes with the CLI (the compose file's temporal-setup). */
export async function setupTemporalNamespace(cli: string, address: string, namespace: string, log: Log): Promise<void> {
  const env = {
    TEMPORAL_ADDRESS: address,
    TEMPORAL_NAMESPACE: namespace,
    SEARCH_ATTRIBUTES: Object.values(SEARCH_ATTRIBUTES).map((a) => `${a.name}=${a.type}`).join(' '),
  };
  await runScript('create-namespace.sh', dirname(cli), env, log);
  await runScript('register-search-attributes.sh', dirname(cli), env, log);
}

/** The ports one server process takes: its four services' gRPC and membership ports, the frontend's HTTP port. */
export interface TemporalServerPorts {
  frontend: number;
  frontendHttp: number;
  frontendMembership: number;
  history: number;
  historyMembership: number;
  matching: number;
  matchingMembership: number;
  worker: number;
  workerMembership: number;
  /** Prometheus metrics of the server (`/metrics`). */
  metrics: number;
}

/** Temporal's Postgres schema stores membership ports as smallint. */
export const MAX_MEMBERSHIP_PORT = 32767;

/** Ports from `base` upward, in a fixed order (base = frontend gRPC). */
export function serverPorts(base: number): TemporalServerPorts {
  const keys: (keyof TemporalServerPorts)[] = ['frontend', 'frontendHttp', 'frontendMembership', 'history', 'historyMembership', 'matching', 'matchingMembership', 'worker', 'workerMembership', 'metrics'];
  return Object.fromEntries(keys.map((k, i) => [k, base + i])) as unknown as TemporalServerPorts;
}

/**
 * The environment of `temporal-server start` (its embedded config template): the same variables the compose
 * file gives the `temporalio/server` image, with loopback addresses and this stack's ports.
 */
export function serverEnv(pg: TemporalPostgres, ports: TemporalServerPorts): Record<string, string> {
  return {
    DB: 'postgres12',
    POSTGRES_SEEDS: pg.host,
    DB_PORT: String(pg.port),
    POSTGRES_USER: pg.user,
    POSTGRES_PWD: pg.password,
    DBNAME: pg.database,
    VISIBILITY_DBNAME: pg.visibilityDatabase,
    BIND_ON_IP: '127.0.0.1',
    TEMPORAL_BROADCAST_ADDRESS: '127.0.0.1',
    FRONTEND_GRPC_PORT: String(ports.frontend),
    FRONTEND_HTTP_PORT: String(ports.frontendHttp),
    FRONTEND_MEMBERSHIP_PORT: String(ports.frontendMembership),
    HISTORY_GRPC_PORT: String(ports.history),
    HISTORY_MEMBERSHIP_PORT: String(ports.historyMembership),
    MATCHING_GRPC_PORT: String(ports.matching),
    MATCHING_MEMBERSHIP_PORT: String(ports.matchingMembership),
    WORKER_GRPC_PORT: String(ports.worker),
    WORKER_MEMBERSHIP_PORT: String(ports.workerMembership),
    PROMETHEUS_ENDPOINT: `127.0.0.1:${ports.metrics}`,
    DYNAMIC_CONFIG_FILE_PATH: join(deployDir, 'dynamicconfig', 'production-sql.yaml'),
    LOG_LEVEL: 'warn',
  };
}

export interface RunningTemporalServer {
  address: string;
  pid: number | undefined;
  /** Resolves when the process exits (for whatever reason). */
  exited: Promise<void>;
  /** SIGTERM, then SIGKILL after `graceMs`. */
  stop(graceMs?: number): Promise<void>;
}

/** Waits until the frontend answers GetSystemInfo, or fails if the process exits first. */
async function waitServing(address: string, child: ChildProcess, logFile: string, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let lastError: unknown;
  while (Date.now() < deadline) {
    if (child.exitCode !== null || child.signalCode !== null) {
      const tail = readFileSync(logFile, 'utf8').trim().split('\n').slice(-2).map((l) => l.slice(0, 300)).join(' | ');
      throw new StartupError(`temporal-server exited at start (${child.signalCode ?? child.exitCode}): ${tail} — see ${logFile}`);
    }
    try {
      const conn = await Connection.connect({ address, connectTimeout: 1000 });
      try {
        await conn.workflowService.getSystemInfo({});
      } finally {
        await conn.close();
      }
      return;
    } catch (err) {
      lastError = err;
      await new Promise((r) => setTimeout(r, 250));
    }
  }
  throw new StartupError(`temporal-server at ${address} did not answer within ${timeoutMs / 1000} s (${String(lastError)}) — see ${logFile}`);
}

/** Starts `temporal-server start` (all four services in one process); its log goes to `logFile` (appended). */
export async function startTemporalServer(opts: {
  bins: TemporalServerBinaries;
  pg: TemporalPostgres;
  ports: TemporalServerPorts;
  logFile: string;
  log: Log;
}): Promise<RunningTemporalServer> {
  // Temporal's SQL schema keeps membership ports in a smallint column: above 32767 the server exits at start.
  const tooHigh = [opts.ports.frontendMembership, opts.ports.historyMembership, opts.ports.matchingMembership, opts.ports.workerMembership].filter((p) => p > MAX_MEMBERSHIP_PORT);
  if (tooHigh.length) throw new StartupError(`Temporal membership port ${tooHigh.join(', ')} is above ${MAX_MEMBERSHIP_PORT} (a smallint in its Postgres schema): use lower ports`);
  const address = `127.0.0.1:${opts.ports.frontend}`;
  opts.log(`starting temporal-server ${TEMPORAL_SERVER_VERSION} on ${address} (Postgres ${opts.pg.host}:${opts.pg.port}, log ${opts.logFile})`);
  const fd = openSync(opts.logFile, 'a');
  // Its own process group: a terminal's Ctrl-C reaches only the stack script, which stops it after the workers.
  const child = spawn(opts.bins.server, ['--allow-no-auth', 'start'], {
    env: { ...process.env, ...serverEnv(opts.pg, opts.ports) },
    stdio: ['ignore', fd, fd],
    detached: true,
  });
  closeSync(fd);
  child.once('error', () => {});
  const killOnExit = () => child.kill('SIGKILL');
  process.once('exit', killOnExit);
  const exited = new Promise<void>((resolve) =>
    child.once('exit', () => {
      process.removeListener('exit', killOnExit);
      resolve();
    }),
  );
  const stop = async (graceMs = 15_000) => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    child.kill('SIGTERM');
    const killer = setTimeout(() => child.kill('SIGKILL'), graceMs);
    await exited;
    clearTimeout(killer);
  };
  try {
    await waitServing(address, child, opts.logFile, 90_000);
  } catch (err) {
    await stop(1000);
    throw err;
  }
  return { address, pid: child.pid, exited, stop };
}
