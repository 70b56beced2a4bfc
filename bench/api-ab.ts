/**
 * npx tsx bench/api-ab.ts <checkout>[#KEY=value,…] [<checkout>…] — an in-process A/B of the full API's CPU per request: the apps of
 * the checkouts given (directories holding this repository at some commits, each with its node_modules) built in one
 * process (bench/api-inprocess.ts) against one scratch Postgres and Temporal dev server (as bench:api makes them:
 * BENCH_DATABASE_URL / DATABASE_URL's server, or embedded), taking turns round by round, so that the machine's load
 * weighs on each alike. No sockets: `app.fetch` with a `Request`, so what it measures is the app (middleware,
 * router, handler, logging, driver), not node-server's HTTP; the apps share the process's async hooks (each
 * checkout has its own log context). Prints each app's median CPU µs per request and its ratio to the first's.
 * `<checkout>#LOG_LEVEL=warn,RATE_LIMIT_TEAM_PER_SECOND=0` gives one app settings of its own (the same checkout
 * twice compares settings). LOG_LEVEL (info), RATE_LIMIT_*, BENCH_ROUNDS, BENCH_REQUESTS, BENCH_CONCURRENCY pass through; the apps' log
 * lines go to a file in the scratch directory, as bench:api's do.
 */
import { closeSync, openSync, readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join, resolve } from 'node:path';
import { spawn } from 'node:child_process';
import { createDb } from '../db/client.js';
import { createTeam } from '../db/queries/teams.js';
import { insertUser } from '../db/queries/users.js';
import { benchLog, cleanupStack, median, scratchServices } from './support.js';

const log = benchLog('bench:api-ab');
const cleanups = cleanupStack();

function runChild(checkouts: string[], env: Record<string, string>, logFile: string): Promise<number[][]> {
  const logFd = openSync(logFile, 'a');
  const child = spawn(process.execPath, ['--import', 'tsx', join(import.meta.dirname, 'api-inprocess.ts'), ...checkouts], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', logFd],
  });
  closeSync(logFd);
  return new Promise((done, fail) => {
    let out = '';
    child.stdout!.on('data', (d: Buffer) => (out += d.toString()));
    child.once('exit', (code) => {
      const line = out.trim().split('\n').pop() ?? '';
      if (code !== 0 || !line.startsWith('{')) fail(new Error(`bench/api-inprocess.ts exited ${code}: ${out.slice(-1000)}\n${readFileSync(logFile, 'utf8').slice(-2000)}`));
      else done((JSON.parse(line) as { cpuUs: number[][] }).cpuUs);
    });
  });
}

async function main() {
  // `<checkout>#KEY=value,…`: settings of that app only (bench/api-inprocess.ts).
  const checkouts = process.argv.slice(2).map((arg) => {
    const [dir, settings] = arg.split('#');
    return settings === undefined ? resolve(dir!) : `${resolve(dir!)}#${settings}`;
  });
  if (checkouts.length === 0) throw new Error('usage: npx tsx bench/api-ab.ts <checkout> [<checkout>…]');
  try {
    const { databaseUrl, temporalAddress, dir } = await scratchServices(log, cleanups, { temporal: true, databaseUrl: process.env.BENCH_DATABASE_URL ?? process.env.DATABASE_URL });
    const db = createDb(databaseUrl, { max: 2 });
    cleanups.push(() => db.close());
    const team = await createTeam(db.db, { name: 'bench', environment: 'sandbox', region: 'us' });
    const created = await insertUser(db.db, team.teamId, { clientUserId: 'bench-user' }, new Date());
    if (!('created' in created)) throw new Error('the bench user already exists in a fresh database');
    const env = {
      DATABASE_URL: databaseUrl,
      TEMPORAL_ADDRESS: temporalAddress!,
      TEMPORAL_NAMESPACE: 'default',
      SERVICE_ENVIRONMENT: 'sandbox',
      SERVICE_REGION: 'us',
      LOG_LEVEL: process.env.LOG_LEVEL ?? 'info',
      API_KEY_CACHE_TTL_SECONDS: '10',
      DATA_DIR: join(dir, 'data'),
      BENCH_USER_ID: created.created.id,
      BENCH_API_KEY: team.apiKey,
    };
    const loadBefore = loadavg()[0]!;
    const cpuUs = await runChild(checkouts, env, join(dir, 'api.log'));
    const first = median(cpuUs[0]!);
    process.stdout.write(
      `\nbench:api-ab — GET /v2/user/{id} through app.fetch, log level ${env.LOG_LEVEL}, ${cpuUs[0]!.length} rounds each; ` +
        `1-min load average ${loadBefore.toFixed(1)} before / ${loadavg()[0]!.toFixed(1)} after\n`,
    );
    checkouts.forEach((checkout, i) => {
      const xs = cpuUs[i]!;
      process.stdout.write(
        `  ${checkout.padEnd(36)} median ${median(xs).toFixed(1).padStart(6)} µs CPU per request, ×${(median(xs) / first).toFixed(2)}` +
          // Each round against the first app's round next to it: the machine's load moves both alike.
          (i > 0 ? `, median of the rounds' ratios ×${median(xs.map((x, r) => x / cpuUs[0]![r]!)).toFixed(2)}` : '') +
          `  (rounds ${xs.map((x) => x.toFixed(0)).join(' ')})\n`,
      );
    });
  } finally {
    await cleanups.run();
  }
}

main().catch((err: unknown) => {
  process.stderr.write(`bench:api-ab failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  process.exit(1);
});
