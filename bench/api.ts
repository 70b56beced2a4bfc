/**
 * npm run bench:api — GET /v2/user/{id} under autocannon (BENCH_CONNECTIONS 64, BENCH_DURATION 10 s) against
 * the full API (auth with its key cache, request logging at info to /dev/null, validation, team-scoped
 * query) and, in the same run, a bare Hono route doing the same primary-key select with postgres.js.
 * Each server runs in its own child process with the same pool size, on the same scratch Postgres.
 * Prints req/s, p50/p99 latency and the ratio full/bare (target ≥ 0.8). Every answer must be a 200.
 */
import { cpus } from 'node:os';
import autocannon from 'autocannon';
import { createDb } from '../db/client.js';
import { createTeam } from '../db/queries/teams.js';
import { users } from '../db/schema/index.js';
import { benchLog, cleanupStack, scratchServices, spawnService } from './support.js';

const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 64);
const DURATION = Number(process.env.BENCH_DURATION ?? 10);
const WARMUP = Number(process.env.BENCH_WARMUP ?? 2);
const log = benchLog('bench:api');

interface Figures {
  rps: number;
  p50: number;
  p99: number;
  requests: number;
}

async function load(url: string, headers: Record<string, string>, duration: number): Promise<Figures> {
  const result = await autocannon({ url, connections: CONNECTIONS, duration, headers });
  const bad = result.non2xx + result.errors + result.timeouts;
  if (bad > 0) throw new Error(`${url}: ${result.non2xx} non-2xx, ${result.errors} errors, ${result.timeouts} timeouts`);
  return { rps: result.requests.average, p50: result.latency.p50, p99: result.latency.p99, requests: result.requests.total };
}

async function main() {
  const cleanups = cleanupStack();
  try {
    log('starting a scratch Postgres and a Temporal dev server…');
    const { databaseUrl, temporalAddress } = await scratchServices(log, cleanups, { temporal: true });
    const db = createDb(databaseUrl, { max: 2 });
    cleanups.push(() => db.close());
    const team = await createTeam(db.db, { name: 'bench', environment: 'sandbox', region: 'us' });
    const [user] = await db.db.insert(users).values({ teamId: team.teamId, clientUserId: 'bench-user' }).returning();
    const userId = user!.id;

    log('starting the full API and the bare route, each in a child process…');
    const env = { DATABASE_URL: databaseUrl, TEMPORAL_ADDRESS: temporalAddress!, LOG_LEVEL: process.env.BENCH_LOG_LEVEL ?? 'info', API_KEY_CACHE_TTL_SECONDS: '10' };
    const full = await spawnService('bench/api-service.ts', env, cleanups, 'ignore');
    const bare = await spawnService('bench/api-bare.ts', env, cleanups);
    const fullUrl = `http://127.0.0.1:${full.port}/v2/user/${userId}`;
    const bareUrl = `http://127.0.0.1:${bare.port}/v2/user/${userId}`;
    const key = { 'x-service-api-key': team.apiKey };

    // Same shape of answer: check both once before loading them.
    for (const [url, headers] of [[fullUrl, key], [bareUrl, {}]] as const) {
      const res = await fetch(url, { headers });
      if (res.status !== 200) throw new Error(`${url} answered ${res.status}: ${await res.text()}`);
    }

    const results: Record<'full' | 'bare', Figures> = {} as never;
    for (const [name, url, headers] of [['bare', bareUrl, {}], ['full', fullUrl, key]] as const) {
      log(`${name}: warming up ${WARMUP} s…`);
      await load(url, headers, WARMUP);
      log(`${name}: ${CONNECTIONS} connections for ${DURATION} s…`);
      results[name] = await load(url, headers, DURATION);
    }

    const ratio = results.full.rps / results.bare.rps;
    const row = (name: string, f: Figures) =>
      `  ${name.padEnd(34)} ${f.rps.toFixed(0).padStart(7)} req/s   p50 ${String(f.p50).padStart(3)} ms   p99 ${String(f.p99).padStart(3)} ms   (${f.requests} requests)`;
    process.stdout.write(
      [
        '',
        `bench:api — GET /v2/user/{id}, ${CONNECTIONS} connections, ${DURATION} s each, ${cpus().length} cores, node ${process.version}`,
        row('full API (auth, logs, validation)', results.full),
        row('bare Hono + postgres.js', results.bare),
        `  ratio full/bare ${ratio.toFixed(2)} (target ≥ 0.8: ${ratio >= 0.8 ? 'met' : 'NOT met'})`,
        '',
      ].join('\n'),
    );
  } finally {
    await cleanups.run();
  }
}

main().catch((err: unknown) => {
  process.stderr.write(`bench:api failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  process.exit(1);
});
