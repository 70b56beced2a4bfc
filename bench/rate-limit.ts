/**
 * npx tsx bench/rate-limit.ts — what one request pays for the shared rate limit (RATE_LIMIT_STORE=postgres):
 * `take()` of postgresRateLimiter (one upsert on rate_limit_buckets) against a bare `select 1` on the same pool,
 * in the same run, at 1 and at BENCH_CONCURRENCY (64) requests in flight; the memory limiter beside them.
 * Keys as in production: BENCH_KEYS (50) teams, requests spread over them; budgets never run out.
 *
 * Settings: BENCH_DATABASE_URL / DATABASE_URL (a fresh database on that server; else an embedded Postgres),
 * BENCH_OPS (20000 per measurement), BENCH_POOL (10), BENCH_CONCURRENCY (64).
 */
import { cpus, loadavg } from 'node:os';
import postgres from 'postgres';
import { postgresRateLimiter, tokenBucketLimiter } from '../api/middleware/rate-limit.js';
import { benchLog, cleanupStack, pool, positiveInt, scratchServices } from './support.js';

const log = benchLog('bench:rate-limit');
const cleanups = cleanupStack();

/** µs per op: wall time, and this process's CPU time (what an API process pays; Postgres's own is not in it). */
async function measure(ops: number, concurrency: number, fn: (i: number) => Promise<unknown>): Promise<{ wall: number; cpu: number }> {
  const started = process.hrtime.bigint();
  const cpu = process.cpuUsage();
  await pool(ops, concurrency, fn);
  const used = process.cpuUsage(cpu);
  return { wall: Number(process.hrtime.bigint() - started) / 1000 / ops, cpu: (used.user + used.system) / ops };
}
const mean = (a: { wall: number; cpu: number }, b: { wall: number; cpu: number }) => ({ wall: (a.wall + b.wall) / 2, cpu: (a.cpu + b.cpu) / 2 });

async function main() {
  const ops = positiveInt('BENCH_OPS', 20_000);
  const size = positiveInt('BENCH_POOL', 10);
  const concurrency = positiveInt('BENCH_CONCURRENCY', 64);
  const keys = positiveInt('BENCH_KEYS', 50);
  try {
    const { databaseUrl } = await scratchServices(log, cleanups, { temporal: false, databaseUrl: process.env.BENCH_DATABASE_URL ?? process.env.DATABASE_URL });
    const sql = postgres(databaseUrl, { max: size, onnotice: () => {} });
    cleanups.push(() => sql.end({ timeout: 5 }));
    const shared = postgresRateLimiter({ sql, perSecond: 100_000, burst: 1_000_000, onError: (err) => { throw err; } });
    const memory = tokenBucketLimiter({ perSecond: 100_000, burst: 1_000_000 });
    const key = (i: number) => `team:${i % keys}`;
    const bare = (): Promise<unknown> => sql`select 1`;
    const take = async (i: number) => {
      const d = await shared.take(key(i));
      if (!d.ok) throw new Error('the bench budget ran out');
    };
    // Warm up: connections open, statements prepared.
    await measure(2000, concurrency, bare);
    await measure(2000, concurrency, take);

    const loadBefore = loadavg()[0]!;
    const rows: [string, { wall: number; cpu: number }, { wall: number; cpu: number }][] = [];
    for (const c of [1, concurrency]) {
      const n = c === 1 ? Math.ceil(ops / 4) : ops;
      // Alternated, twice, so drift in the machine's load does not favour one.
      const b1 = await measure(n, c, bare);
      const t1 = await measure(n, c, take);
      const t2 = await measure(n, c, take);
      const b2 = await measure(n, c, bare);
      rows.push([`${c} in flight`, mean(b1, b2), mean(t1, t2)]);
    }
    const memUs = await measure(ops, 1, async (i) => memory.take(key(i)));
    const loadAfter = loadavg()[0]!;
    const n = (await sql<{ n: number }[]>`select count(*)::int as n from rate_limit_buckets`)[0]?.n;

    const lines = [
      '',
      `bench:rate-limit — postgresRateLimiter.take() vs select 1, pool ${size}, ${keys} keys`,
      `  ${cpus().length} cores, node ${process.version}, 1-min load average ${loadBefore.toFixed(1)} before / ${loadAfter.toFixed(1)} after`,
      '',
      `  ${''.padEnd(14)} ${'wall µs/op: select 1'.padStart(21)} ${'take'.padStart(6)} ${'ratio'.padStart(6)}   ${'client CPU µs/op: select 1'.padStart(27)} ${'take'.padStart(6)} ${'ratio'.padStart(6)}`,
      ...rows.map(
        ([label, b, t]) =>
          `  ${label.padEnd(14)} ${b.wall.toFixed(1).padStart(21)} ${t.wall.toFixed(1).padStart(6)} ${(t.wall / b.wall).toFixed(2).padStart(6)}   ${b.cpu.toFixed(1).padStart(27)} ${t.cpu.toFixed(1).padStart(6)} ${(t.cpu / b.cpu).toFixed(2).padStart(6)}`,
      ),
      `  memory limiter take(): ${memUs.wall.toFixed(2)} µs/op; rows in rate_limit_buckets: ${n}`,
      '',
    ];
    process.stdout.write(lines.join('\n'));
  } finally {
    await cleanups.run();
  }
}

main().catch((err: unknown) => {
  process.stderr.write(`bench:rate-limit failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  process.exit(1);
});
