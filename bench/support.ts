import { randomUUID } from 'node:crypto';
import { spawn, type ChildProcess } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import postgres from 'postgres';
import { runMigrations } from '../db/migrate.js';
import { startEmbeddedPostgres } from '../lib/embedded-postgres.js';
import { startTemporalDevServer } from '../lib/temporal-dev-server.js';
import { freePort } from '../lib/startup.js';

export { freePort };

/** Shared plumbing of the benchmarks: a scratch Postgres + Temporal, child services, cleanup, percentiles. */
export function benchLog(name: string) {
  return (m: string) => process.stderr.write(`[${name}] ${m}\n`);
}

/** A positive integer setting from the environment (e.g. BENCH_ROUNDS), or the fallback when unset. */
export function positiveInt(name: string, fallback: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 1) throw new Error(`${name} must be a positive integer, got ${JSON.stringify(raw)}`);
  return n;
}

/** p-th percentile of an ascending array. */
export const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;

/** The median of the values, in any order (the mean of the middle two for an even count): BENCH_ROUNDS' summary. */
export const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
};

/** Runs `fn(0…count-1)` with at most `concurrency` in flight; results in index order. */
export async function pool<T>(count: number, concurrency: number, fn: (i: number) => Promise<T>): Promise<T[]> {
  const out: T[] = new Array(count);
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(concurrency, count) }, async () => {
      while (next < count) {
        const i = next++;
        out[i] = await fn(i);
      }
    }),
  );
  return out;
}

export type Cleanups = ReturnType<typeof cleanupStack>;

/**
 * Cleanups run in reverse order, once, on success, failure, Ctrl-C or SIGTERM. `run()` called while a
 * signal's cleanup is under way waits for that same run, so the main flow cannot exit half way through it.
 */
export function cleanupStack() {
  const fns: (() => Promise<unknown>)[] = [];
  let running: Promise<void> | undefined;
  let interrupted = false;
  const run = () =>
    (running ??= (async () => {
      for (const fn of fns.reverse()) await fn().catch(() => {});
    })());
  const onSignal = (code: number) => () => {
    interrupted = true;
    process.stderr.write('\ninterrupted: stopping child processes and removing temp dirs…\n');
    void run().then(() => process.exit(code));
  };
  process.once('SIGINT', onSignal(130));
  process.once('SIGTERM', onSignal(143));
  return {
    push: (fn: () => Promise<unknown>) => fns.push(fn),
    run,
    /** True once Ctrl-C or SIGTERM started the cleanup (the main flow's errors are then expected). */
    get interrupted() {
      return interrupted;
    },
  };
}

/**
 * A scratch Postgres (migrated) and, if asked, a Temporal dev server. Postgres: a fresh database on the
 * server of `opts.databaseUrl` when given (dropped afterwards), else an embedded cluster in a temp dir.
 * `dir` is a temp dir removed on cleanup (for data and child logs).
 */
export async function scratchServices(
  log: (m: string) => void,
  cleanups: Cleanups,
  opts: { temporal: boolean; databaseUrl?: string | undefined; pgSettings?: Record<string, string> | undefined },
) {
  const dir = mkdtempSync(join(tmpdir(), 'labflow-bench-'));
  const removeDir = () => rmSync(dir, { recursive: true, force: true });
  cleanups.push(() => Promise.resolve(removeDir()));
  // A private temp dir is fine as root too: lib/embedded-postgres places what the postgres user must reach.
  process.once('exit', removeDir); // also when the process exits before the cleanup ran
  let databaseUrl: string;
  if (opts.databaseUrl) {
    databaseUrl = await freshDatabase(opts.databaseUrl, cleanups);
    log(`Postgres: fresh database ${new URL(databaseUrl).pathname.slice(1)} on the given server`);
  } else {
    const pg = await startEmbeddedPostgres({ dataDir: join(dir, 'pg'), port: await freePort(), database: 'bench', persistent: false, log, settings: opts.pgSettings });
    cleanups.push(() => pg.stop());
    databaseUrl = pg.url;
  }
  await runMigrations(databaseUrl, log);
  if (!opts.temporal) return { databaseUrl, temporalAddress: null, dir };
  const temporal = await startTemporalDevServer({ port: await freePort(), uiPort: null, namespace: 'default', log });
  cleanups.push(() => temporal.stop());
  return { databaseUrl, temporalAddress: temporal.address, dir };
}

/** Creates an empty database beside the one `serverUrl` names and drops it (with its connections) on cleanup. */
async function freshDatabase(serverUrl: string, cleanups: Cleanups): Promise<string> {
  const name = `labflow_bench_${process.pid}_${Date.now()}`;
  const admin = postgres(serverUrl, { max: 1, onnotice: () => {} });
  try {
    await admin.unsafe(`create database ${name}`);
  } catch (err) {
    throw new Error(`cannot create a scratch database on the given Postgres server (needs CREATEDB): ${String(err)}`);
  } finally {
    await admin.end();
  }
  cleanups.push(async () => {
    const a = postgres(serverUrl, { max: 1, onnotice: () => {} });
    await a.unsafe(`drop database if exists ${name} with (force)`).finally(() => a.end());
  });
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

/**
 * Starts `node --import tsx <file>` and resolves with the first line it prints on stdout (its URL or
 * `{"port": N}`) once it prints it. Its stderr goes to `logFile` when given (else to ours); if it exits
 * before it is ready, the error carries the end of that log. Cleanup kills it and waits for its exit.
 */
export async function spawnService(
  file: string,
  env: Record<string, string>,
  cleanups: Cleanups,
  opts: { logFile?: string } = {},
): Promise<{ line: string; child: ChildProcess }> {
  const logFd = opts.logFile ? openSync(opts.logFile, 'a') : undefined;
  const child = spawn(process.execPath, ['--import', 'tsx', file], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', logFd ?? 'inherit'],
  });
  if (logFd !== undefined) closeSync(logFd); // the child has its own copy
  const killOnExit = () => child.kill('SIGKILL'); // also when the process exits before cleanup ran
  process.once('exit', killOnExit);
  const exited = new Promise<void>((resolve) =>
    child.once('exit', () => {
      process.removeListener('exit', killOnExit);
      resolve();
    }),
  );
  cleanups.push(async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    await exited;
  });
  const line = await new Promise<string>((resolve, reject) => {
    createInterface({ input: child.stdout! }).once('line', resolve);
    child.once('exit', (code, signal) => {
      const tail = opts.logFile ? `\n--- end of ${opts.logFile} ---\n${readFileSync(opts.logFile, 'utf8').slice(-2000)}` : '';
      reject(new Error(`${file} exited (${signal ?? `code ${code}`}) before it was ready${tail}`));
    });
  });
  return { line, child };
}

/** CPU time (user + system, ms) a process has used so far, from /proc; undefined where there is none. */
export function processCpuMs(pid: number | undefined): number | undefined {
  if (pid === undefined) return undefined;
  try {
    // Fields after "(comm) ": state is [0], utime [11], stime [12], in clock ticks (100 per second on Linux).
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return undefined;
  }
}

/**
 * A CPU profile of this process (V8's sampling profiler, one sample per `intervalUs`) from now until SIGUSR2,
 * written to `path` as a .cpuprofile; then `written()` (a service tells its bench where the file is).
 */
export async function profileUntilSigusr2(path: string, intervalUs: number, written: () => void): Promise<void> {
  const { Session } = await import('node:inspector/promises');
  const { writeFileSync } = await import('node:fs');
  const session = new Session();
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.setSamplingInterval', { interval: intervalUs });
  await session.post('Profiler.start');
  process.once('SIGUSR2', () => {
    void session.post('Profiler.stop').then(({ profile }) => {
      writeFileSync(path, JSON.stringify(profile));
      written();
    });
  });
}

/** An event body about the size and shape of an order update (about 1.5 KB as delivered). */
export function orderLikeData(i: number, teamId: string): Record<string, unknown> {
  const at = new Date().toISOString();
  return {
    id: randomUUID(),
    team_id: teamId,
    user_id: randomUUID(),
    status: 'collecting_sample',
    sample_id: `BENCH${String(i).padStart(8, '0')}`,
    details: { type: 'testkit', data: { id: randomUUID(), shipment: { outbound_tracking_number: `1Z${i}`, outbound_courier: 'usps' } } },
    events: ['ordered', 'requisition_created', 'transit_customer', 'out_for_delivery', 'with_customer'].map((s, n) => ({
      id: n + 1,
      created_at: at,
      status: `collecting_sample.testkit.${s}`,
    })),
    patient_address: { first_line: '1 Main St', city: 'Austin', state: 'TX', zip: '78701', country: 'US' },
    lab_test: { id: randomUUID(), slug: 'bench-panel', name: 'Bench panel', sample_type: 'dried blood spot', method: 'testkit' },
    created_at: at,
    updated_at: at,
  };
}
