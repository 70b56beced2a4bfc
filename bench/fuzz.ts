/**
 * npm run bench:fuzz — the latency of the fuzz's malformed requests (issue 10: "no request over 1 s"),
 * measured on a quiet stack instead of asserted in a timed test. The same cases as
 * test/integration/fuzz.test.ts (every route the app serves, from its router; requests from
 * test/support/fuzz-cases.ts with the same seed) are sent to the service in its own process
 * (bench/orders-service.ts: API and worker, a scratch Postgres, a Temporal dev server, rate limits off),
 * and in the same run
 * two baselines with the same client and concurrency: `GET /health` of the same API, and a bare Hono
 * route doing one primary-key select (bench/api-bare.ts).
 *
 * Settings: BENCH_DATABASE_URL / DATABASE_URL (a server to make a scratch database on; else embedded
 * Postgres), BENCH_FUZZ_RUNS (60 per route; a fifth of it per timeseries/summary route),
 * BENCH_CONCURRENCY (4), BENCH_BASELINE (2000 requests per baseline).
 * Prints p50/p99/max per route class and overall, the slowest requests, and the ratios against the
 * baselines. Exits 1 if any answer is wrong (a 5xx, a 4xx without `{detail}`, an accepted bad request);
 * a request over 1 s is reported, and still exits 0 (the target is a figure, not a gate).
 */
import { cpus, loadavg } from 'node:os';
import { join } from 'node:path';
import { createDb } from '../db/client.js';
import { createTeam } from '../db/queries/teams.js';
import { insertUser } from '../db/queries/users.js';
import { specFor, type RouteSpec } from '../test/integration/fuzz-routes.js';
import { exchange, fuzzRequests, pool, prepareFuzzWorld, send, type FuzzRequest, type Outcome } from '../test/support/fuzz-cases.js';
import { servedRoutes } from '../test/support/fuzz-served-routes.js';
import { benchLog, cleanupStack, percentile, positiveInt, scratchServices, spawnService } from './support.js';

const TARGET_MS = 1000;
const SEED = 20_261_123;
const log = benchLog('bench:fuzz');
const cleanups = cleanupStack();

/** `/v3/order/{order_id}/psc/...` → `/v3/order`; `/dashboard/...` → `/dashboard`; families by name. */
function classOf(route: RouteSpec): string {
  if (route.family) return `${route.family} (family)`;
  const parts = route.path.split('/').filter(Boolean);
  if (parts[0] === 'dashboard' || parts[0] === 'health' || parts[0] === 'documents') return `/${parts[0]}`;
  return `/${parts.slice(0, 2).join('/')}`;
}

interface Stats {
  n: number;
  p50: number;
  p99: number;
  max: number;
}
function stats(ms: number[]): Stats {
  const sorted = [...ms].sort((a, b) => a - b);
  return { n: sorted.length, p50: percentile(sorted, 50), p99: percentile(sorted, 99), max: sorted.at(-1) ?? 0 };
}
const fmt = (v: number) => v.toFixed(1).padStart(8);
const row = (label: string, s: Stats) => `  ${label.padEnd(36)} ${String(s.n).padStart(6)} ${fmt(s.p50)} ${fmt(s.p99)} ${fmt(s.max)}`;

/** `count` plain GETs through the fuzz's own client, at the fuzz's concurrency: the baseline. */
async function baseline(url: string, path: string, headers: Record<string, string>, count: number, concurrency: number): Promise<number[]> {
  const req: FuzzRequest = { route: `GET ${path}`, what: 'baseline', method: 'GET', path, headers };
  const times = await pool(Array.from({ length: count }, () => req), concurrency, async (r) => {
    const start = performance.now();
    const answer = await exchange(url, r);
    if (answer.status !== 200) throw new Error(`baseline ${path}: ${answer.status} ${answer.text.slice(0, 200)}`);
    return performance.now() - start;
  });
  return times;
}

async function main() {
  const runs = positiveInt('BENCH_FUZZ_RUNS', 60);
  const concurrency = positiveInt('BENCH_CONCURRENCY', 4);
  const baselineCount = positiveInt('BENCH_BASELINE', 2000);
  try {
    const external = process.env.BENCH_DATABASE_URL ?? process.env.DATABASE_URL;
    log(external ? 'starting: a scratch database and a Temporal dev server…' : 'starting: embedded Postgres and a Temporal dev server…');
    const { databaseUrl, temporalAddress, dir } = await scratchServices(log, cleanups, { temporal: true, databaseUrl: external });
    const db = createDb(databaseUrl, { max: 2 });
    cleanups.push(() => db.close());

    const env = {
      DATABASE_URL: databaseUrl,
      TEMPORAL_ADDRESS: temporalAddress!,
      TEMPORAL_NAMESPACE: 'default',
      SERVICE_ENVIRONMENT: 'sandbox',
      SERVICE_REGION: 'us',
      LOG_LEVEL: process.env.BENCH_LOG_LEVEL ?? 'warn',
      RATE_LIMIT_TEAM_PER_SECOND: '0',
      RATE_LIMIT_IP_PER_SECOND: '0',
      DATA_DIR: join(dir, 'data'),
    };
    log('starting the service (API and worker, bench/orders-service.ts) and the bare route, each in its own process…');
    const [full, bare] = await Promise.all([
      spawnService('bench/orders-service.ts', env, cleanups, { logFile: join(dir, 'service.log') }),
      spawnService('bench/api-bare.ts', env, cleanups, { logFile: join(dir, 'api-bare.log') }),
    ]);
    const url = `http://127.0.0.1:${(JSON.parse(full.line) as { port: number }).port}`;

    log('preparing two teams, a partner key, a link token, an operator session…');
    const world = await prepareFuzzWorld({ url, db });
    const routes = (await servedRoutes()).map((r) => specFor(r.method, r.path));
    const missing = routes.filter((r) => r === undefined).length;
    if (missing) throw new Error(`${missing} served routes have no fuzz spec (test/integration/fuzz-routes.ts)`);
    const specs = routes as RouteSpec[];
    const requests = fuzzRequests(specs, world, { seed: SEED, runs, familyRuns: Math.max(1, Math.round(runs / 5)) });
    const benchTeam = await createTeam(db.db, { name: 'bench baseline', environment: 'sandbox', region: 'us' });
    const created = await insertUser(db.db, benchTeam.teamId, { clientUserId: 'bench-user' }, new Date());
    if (!('created' in created)) throw new Error('the bench user already exists in a fresh database');

    log('warming up: one request per route and 200 of each baseline…');
    await pool(specs.map((_, i) => requests[i * Math.floor(requests.length / specs.length)]!), concurrency, (r) => send(url, r));
    await baseline(url, '/health', {}, 200, concurrency);
    await baseline(bare.line, `/v2/user/${created.created.id}`, {}, 200, concurrency);

    const loadBefore = loadavg()[0]!;
    log(`health baseline: ${baselineCount} × GET /health…`);
    const health = stats(await baseline(url, '/health', {}, baselineCount, concurrency));
    log(`fuzz: ${requests.length} requests over ${specs.length} routes, ${concurrency} at a time…`);
    const started = performance.now();
    const outcomes: Outcome[] = await pool(requests, concurrency, (r) => send(url, r));
    const seconds = (performance.now() - started) / 1000;
    log(`bare baseline: ${baselineCount} × GET /v2/user/{id} on bare Hono…`);
    const bareStats = stats(await baseline(bare.line, `/v2/user/${created.created.id}`, {}, baselineCount, concurrency));
    const loadAfter = loadavg()[0]!;

    const specOf = new Map(specs.map((s) => [`${s.method} ${s.path}`, s]));
    const byClass = new Map<string, number[]>();
    for (const o of outcomes) {
      const c = classOf(specOf.get(o.req.route)!);
      byClass.set(c, [...(byClass.get(c) ?? []), o.ms]);
    }
    const all = stats(outcomes.map((o) => o.ms));
    const problems = outcomes.filter((o) => o.problem);
    const over = outcomes.filter((o) => o.ms > TARGET_MS);
    const statuses = outcomes.reduce<Record<number, number>>((acc, o) => ({ ...acc, [o.status]: (acc[o.status] ?? 0) + 1 }), {});

    console.log(`\nbench:fuzz — ${outcomes.length} malformed requests over ${specs.length} routes in ${seconds.toFixed(1)} s, ${concurrency} at a time`);
    console.log(`machine: ${cpus().length} cores, load ${loadBefore.toFixed(2)} before, ${loadAfter.toFixed(2)} after`);
    console.log(`statuses: ${JSON.stringify(statuses)}\n`);
    console.log(`  ${'class'.padEnd(36)} ${'n'.padStart(6)} ${'p50 ms'.padStart(8)} ${'p99 ms'.padStart(8)} ${'max ms'.padStart(8)}`);
    for (const [c, ms] of [...byClass.entries()].sort(([a], [b]) => a.localeCompare(b))) console.log(row(c, stats(ms)));
    console.log(row('all fuzz requests', all));
    console.log(row('baseline: GET /health (same API)', health));
    console.log(row('baseline: bare Hono select', bareStats));
    console.log('\nslowest requests:');
    for (const o of [...outcomes].sort((a, b) => b.ms - a.ms).slice(0, 5)) console.log(`  ${o.ms.toFixed(1).padStart(8)} ms  ${o.req.route} [${o.req.what.slice(0, 60)}] → ${o.status}`);
    const ratio = (a: number, b: number) => (b > 0 ? (a / b).toFixed(1) : '—');
    console.log(
      `\nratio fuzz/health: p50 ${ratio(all.p50, health.p50)}×, p99 ${ratio(all.p99, health.p99)}×; ` +
        `fuzz/bare: p50 ${ratio(all.p50, bareStats.p50)}×, p99 ${ratio(all.p99, bareStats.p99)}×`,
    );
    console.log(`target: no request over ${TARGET_MS} ms — ${over.length === 0 ? `met (max ${all.max.toFixed(0)} ms)` : `MISSED by ${over.length} requests`}`);
    if (problems.length) {
      console.log(`\n${problems.length} wrong answers:`);
      for (const o of problems.slice(0, 20)) console.log(`  ${o.req.route} [${o.req.what.slice(0, 60)}] → ${o.problem!.slice(0, 200)}`);
      process.exitCode = 1;
    } else console.log('answers: all right (no 5xx, every 4xx a JSON {detail}, no bad request accepted)');
  } finally {
    await cleanups.run();
  }
}

await main();
