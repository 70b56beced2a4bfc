import { spawn, type ChildProcess } from 'node:child_process';
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { runMigrations } from '../db/migrate.js';
import { startEmbeddedPostgres } from '../lib/embedded-postgres.js';
import { startTemporalDevServer } from '../lib/temporal-dev-server.js';

/** Shared plumbing of the benchmarks: a scratch Postgres + Temporal, child services, cleanup, percentiles. */
export function benchLog(name: string) {
  return (m: string) => process.stderr.write(`[${name}] ${m}\n`);
}

export async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
  });
}

/** p-th percentile of an ascending array. */
export const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;

/** Cleanups run in reverse order, once, on success, failure or Ctrl-C. */
export function cleanupStack() {
  const fns: (() => Promise<unknown>)[] = [];
  let done = false;
  const run = async () => {
    if (done) return;
    done = true;
    for (const fn of fns.reverse()) await fn().catch(() => {});
  };
  process.once('SIGINT', () => void run().then(() => process.exit(130)));
  return { push: (fn: () => Promise<unknown>) => fns.push(fn), run };
}

/** A scratch embedded Postgres (migrated) and, if asked, a Temporal dev server, in a temp dir. */
export async function scratchServices(log: (m: string) => void, cleanups: ReturnType<typeof cleanupStack>, opts: { temporal: boolean }) {
  const dir = mkdtempSync(join(tmpdir(), 'labflow-bench-'));
  chmodSync(dir, 0o755); // the embedded Postgres runs as its own user when we are root
  cleanups.push(() => Promise.resolve(rmSync(dir, { recursive: true, force: true })));
  const pg = await startEmbeddedPostgres({ dataDir: join(dir, 'pg'), port: await freePort(), database: 'bench', persistent: false, log });
  cleanups.push(() => pg.stop());
  await runMigrations(pg.url, log);
  if (!opts.temporal) return { databaseUrl: pg.url, temporalAddress: null };
  const temporal = await startTemporalDevServer({ port: await freePort(), uiPort: null, namespace: 'default', log });
  cleanups.push(() => temporal.stop());
  return { databaseUrl: pg.url, temporalAddress: temporal.address };
}

/** Starts `node --import tsx <file>` and resolves with the port it prints as its first stdout line ({"port": N}). */
export async function spawnService(
  file: string,
  env: Record<string, string>,
  cleanups: ReturnType<typeof cleanupStack>,
  stderr: 'inherit' | 'ignore' = 'inherit',
): Promise<{ port: number; child: ChildProcess }> {
  const child = spawn(process.execPath, ['--import', 'tsx', file], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', stderr] });
  cleanups.push(async () => {
    child.kill('SIGKILL');
  });
  const port = await new Promise<number>((resolve, reject) => {
    createInterface({ input: child.stdout! }).once('line', (line) => resolve((JSON.parse(line) as { port: number }).port));
    child.once('exit', (code) => reject(new Error(`${file} exited with ${code}`)));
  });
  return { port, child };
}
