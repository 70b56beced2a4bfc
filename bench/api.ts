/**
 * npm run bench:api — GET /v2/user/{id} under autocannon against the full API (bench/api-service.ts:
 * auth with its key cache, request logging, validation, team-scoped queries) and, in the same run, a bare
 * Hono route doing the same primary-key select with postgres.js (bench/api-bare.ts). Each server runs in
 * its own child process with the same pool size, on the same scratch Postgres (embedded, or a fresh
 * database on BENCH_DATABASE_URL's / DATABASE_URL's server) and a Temporal dev server.
 *
 * Settings: BENCH_CONNECTIONS (64), BENCH_DURATION (10 s), BENCH_WARMUP (2 s), BENCH_POOL (10),
 * BENCH_LOG_LEVEL (info, the service's default: a line per request to its log file), BENCH_ROUNDS (1; more rounds alternate the order),
 * BENCH_CPU_PROFILE=<file.cpuprofile> (a CPU profile of the full API's process over the whole run, and the bare
 * route's in <file.cpuprofile>.bare.cpuprofile).
 * Prints req/s, p50/p99 latency, the servers' CPU time per request, the ratio full/bare req/s
 * (target ≥ 0.8) and the ratio of CPU per request bare/full (steadier on a shared machine). Every answer
 * must be a 200 (else exit 1); a missed target still exits 0.
 */
import { cpus, loadavg } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import autocannon from 'autocannon';
import { createDb } from '../db/client.js';
import { createTeam } from '../db/queries/teams.js';
import { insertUser } from '../db/queries/users.js';
import { benchLog, cleanupStack, median, positiveInt, processCpuMs, scratchServices, spawnService } from './support.js';

const TARGET = 0.8;
const log = benchLog('bench:api');
const cleanups = cleanupStack();

interface Figures {
  rps: number;
  p50: number;
  p99: number;
  requests: number;
  /** The server process's CPU time per request (µs), where /proc tells it. */
  cpuUs: number | undefined;
}

type Target = { name: 'full' | 'bare'; label: string; url: string; headers: Record<string, string>; pid: number | undefined };

async function load(target: Target, connections: number, duration: number): Promise<Figures> {
  const cpuBefore = processCpuMs(target.pid);
  const result = await autocannon({ url: target.url, connections, duration, headers: target.headers });
  const cpuAfter = processCpuMs(target.pid);
  const bad = result.non2xx + result.errors + result.timeouts;
  if (bad > 0 || result.requests.total === 0) {
    throw new Error(
      `${target.label}: ${result.non2xx} non-2xx answers, ${result.errors} errors, ${result.timeouts} timeouts ` +
        `out of ${result.requests.total} requests (every answer must be a 200)`,
    );
  }
  const cpuUs = cpuBefore !== undefined && cpuAfter !== undefined ? ((cpuAfter - cpuBefore) * 1000) / result.requests.total : undefined;
  return { rps: result.requests.average, p50: result.latency.p50, p99: result.latency.p99, requests: result.requests.total, cpuUs };
}

/** One request each before loading: a 200 with the bench user in it, so both answer the same thing. */
async function checkOnce(target: Target, userId: string): Promise<void> {
  const res = await fetch(target.url, { headers: target.headers });
  const text = await res.text();
  if (res.status !== 200) throw new Error(`${target.label} answered ${res.status}: ${text}`);
  const body = JSON.parse(text) as { user_id?: string; id?: string };
  if ((body.user_id ?? body.id) !== userId) throw new Error(`${target.label} answered another user: ${text}`);
}


async function main() {
  const connections = positiveInt('BENCH_CONNECTIONS', 64);
  const duration = positiveInt('BENCH_DURATION', 10);
  const warmup = positiveInt('BENCH_WARMUP', 2);
  const pool = positiveInt('BENCH_POOL', 10);
  const rounds = positiveInt('BENCH_ROUNDS', 1);
  const logLevel = process.env.BENCH_LOG_LEVEL ?? 'info';
  try {
    const external = process.env.BENCH_DATABASE_URL ?? process.env.DATABASE_URL;
    log(external ? 'starting: a scratch database and a Temporal dev server…' : 'starting: embedded Postgres and a Temporal dev server…');
    const { databaseUrl, temporalAddress, dir } = await scratchServices(log, cleanups, { temporal: true, databaseUrl: external });

    log('creating a team and a user…');
    const db = createDb(databaseUrl, { max: 2 });
    cleanups.push(() => db.close());
    const team = await createTeam(db.db, { name: 'bench', environment: 'sandbox', region: 'us' });
    const created = await insertUser(db.db, team.teamId, { clientUserId: 'bench-user' }, new Date());
    if (!('created' in created)) throw new Error('the bench user already exists in a fresh database');
    const userId = created.created.id;

    log(`starting the full API and the bare route, each in its own process (pool ${pool}, log level ${logLevel})…`);
    const env = {
      DATABASE_URL: databaseUrl,
      TEMPORAL_ADDRESS: temporalAddress!,
      TEMPORAL_NAMESPACE: 'default',
      SERVICE_ENVIRONMENT: 'sandbox',
      SERVICE_REGION: 'us',
      LOG_LEVEL: logLevel,
      API_KEY_CACHE_TTL_SECONDS: process.env.API_KEY_CACHE_TTL_SECONDS ?? '10',
      BENCH_POOL: String(pool),
      DATA_DIR: join(dir, 'data'),
    };
    const [full, bare] = await Promise.all([
      spawnService('bench/api-service.ts', env, cleanups, { logFile: join(dir, 'api-service.log') }),
      spawnService('bench/api-bare.ts', env, cleanups, { logFile: join(dir, 'api-bare.log') }),
    ]);
    const targets: Record<'full' | 'bare', Target> = {
      full: {
        name: 'full',
        label: 'full API (auth, logging, validation)',
        url: `${full.line}/v2/user/${userId}`,
        headers: { 'x-service-api-key': team.apiKey },
        pid: full.child.pid,
      },
      bare: { name: 'bare', label: 'bare Hono + postgres.js', url: `${bare.line}/v2/user/${userId}`, headers: {}, pid: bare.child.pid },
    };
    await checkOnce(targets.full, userId);
    await checkOnce(targets.bare, userId);

    const loadBefore = loadavg()[0]!;
    const results: Record<'full' | 'bare', Figures>[] = [];
    for (let round = 0; round < rounds; round++) {
      const r = {} as Record<'full' | 'bare', Figures>;
      // Later rounds swap the order, so a change in the machine's load does not favour one side.
      for (const t of round % 2 === 0 ? [targets.bare, targets.full] : [targets.full, targets.bare]) {
        const tag = rounds > 1 ? `round ${round + 1}, ${t.name}` : t.name;
        log(`${tag}: warming up ${warmup} s…`);
        await load(t, connections, warmup);
        log(`${tag}: ${connections} connections for ${duration} s…`);
        r[t.name] = await load(t, connections, duration);
      }
      results.push(r);
    }
    const loadAfter = loadavg()[0]!;
    if (process.env.BENCH_CPU_PROFILE) {
      // The full API's profile since it started (warm-ups included); open it in Chrome's DevTools or re-read it.
      for (const [server, name] of [[full, 'full API'], [bare, 'bare route']] as const) {
        const written = new Promise<string>((resolve) => createInterface({ input: server.child.stdout! }).once('line', resolve));
        server.child.kill('SIGUSR2');
        log(`CPU profile of the ${name} written to ${await written}`);
      }
    }

    const cpu = (f: Figures) => (f.cpuUs === undefined ? '—' : `${f.cpuUs.toFixed(0)} µs`);
    const row = (label: string, f: Figures) =>
      `  ${label.padEnd(40)} ${f.rps.toFixed(0).padStart(7)}  ${String(f.p50).padStart(6)}  ${String(f.p99).padStart(6)}  ${String(f.requests).padStart(9)}  ${cpu(f).padStart(14)}`;
    const ratios = results.map((r) => r.full.rps / r.bare.rps);
    const lines = [
      '',
      `bench:api — GET /v2/user/{id}: ${connections} connections, ${duration} s per run after ${warmup} s warm-up, pool ${pool}, service log level ${logLevel}`,
      `  ${cpus().length} cores, node ${process.version}, 1-min load average ${loadBefore.toFixed(1)} before / ${loadAfter.toFixed(1)} after`,
      '',
      `  ${'server'.padEnd(40)} ${'req/s'.padStart(7)}  ${'p50 ms'.padStart(6)}  ${'p99 ms'.padStart(6)}  ${'requests'.padStart(9)}  ${'server CPU/req'.padStart(14)}`,
    ];
    results.forEach((r, i) => {
      const prefix = rounds > 1 ? `#${i + 1} ` : '';
      lines.push(row(prefix + targets.full.label, r.full), row(prefix + targets.bare.label, r.bare));
    });
    const ratio = rounds > 1 ? median(ratios) : ratios[0]!;
    // The servers' CPU per request moves much less with the machine's load than req/s does (bare/full: 1 is "as cheap as bare").
    const cpuRatios = results.flatMap((r) => (r.full.cpuUs && r.bare.cpuUs ? [r.bare.cpuUs / r.full.cpuUs] : []));
    lines.push(
      '',
      rounds > 1
        ? `  ratio full/bare req/s: ${ratios.map((x) => x.toFixed(2)).join(', ')}; median ${ratio.toFixed(2)}`
        : `  ratio full/bare req/s: ${ratio.toFixed(2)}`,
      ...(cpuRatios.length
        ? [`  server CPU per request, bare/full: ${cpuRatios.map((x) => x.toFixed(2)).join(', ')}${cpuRatios.length > 1 ? `; median ${median(cpuRatios).toFixed(2)}` : ''}`]
        : []),
      `  target ≥ ${TARGET}: ${ratio >= TARGET ? 'met' : 'NOT met'}`,
      '',
    );
    process.stdout.write(lines.join('\n'));
  } finally {
    await cleanups.run();
  }
}

main().catch((err: unknown) => {
  // After Ctrl-C the servers are gone and the load fails: the signal handler reports and exits.
  if (cleanups.interrupted) return;
  process.stderr.write(`bench:api failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  process.exit(1);
});
