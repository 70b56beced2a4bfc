/**
 * npx tsx bench/webhooks-record.ts — what recording an event costs Postgres, apart from everything else:
 * on its own embedded Postgres (pg_stat_statements loaded), one connection records BENCH_EVENTS (5,000)
 * events of bench:webhooks' shape with `recordTeamEvent`, in transactions of BENCH_BATCH (100), for one
 * endpoint; then the worker's side of them: claims of 256 (`dueDeliveries`) and their answers
 * (`recordAttempts`). Prints per event: the backend's CPU (from /proc), WAL bytes, and pg_stat_statements'
 * execution time per statement. Nothing else runs on that Postgres, so its backend's CPU is the statement's.
 * BENCH_REPEAT (3): the recording is repeated (fresh rows each time) and every repetition printed.
 */
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import { createDb } from '../db/client.js';
import { recordTeamEvent } from '../db/queries/events.js';
import { createTeam } from '../db/queries/teams.js';
import { dueDeliveries, insertEndpoint, recordAttempts } from '../db/queries/webhooks.js';
import { runMigrations } from '../db/migrate.js';
import { startEmbeddedPostgres } from '../lib/embedded-postgres.js';
import { freePort, orderLikeData } from './support.js';

const N = Number(process.env.BENCH_EVENTS ?? 5000);
const BATCH = Number(process.env.BENCH_BATCH ?? 100);
const REPEAT = Number(process.env.BENCH_REPEAT ?? 3);
const log = (m: string) => process.stderr.write(`[bench:webhooks-record] ${m}\n`);

const TICKS = 100;
const cpuOf = (pid: number) => {
  const text = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const rest = text.slice(text.lastIndexOf(')') + 2).split(' ');
  return (Number(rest[11]) + Number(rest[12])) / TICKS;
};

async function main() {
  const dir = mkdtempSync(join(tmpdir(), 'labflow-bench-'));
  const pg = await startEmbeddedPostgres({
    dataDir: join(dir, 'pg'),
    port: await freePort(),
    database: 'bench',
    persistent: false,
    log,
    settings: { shared_preload_libraries: 'pg_stat_statements', 'pg_stat_statements.track': 'all', 'pg_stat_statements.track_planning': 'on' },
  });
  try {
    await runMigrations(pg.url, log);
    const db = createDb(pg.url, { max: 1 });
    await db.db.execute(sql`create extension if not exists pg_stat_statements`);
    const team = await createTeam(db.db, { name: 'bench', environment: 'sandbox', region: 'us' });
    const endpoint = await insertEndpoint(db.db, { id: randomUUID(), teamId: team.teamId, url: 'http://127.0.0.1:1/', description: 'bench', eventTypes: [], secretEnc: 'x' });
    // a few other teams' endpoints, as a real table would have
    for (let t = 0; t < 20; t++) {
      const other = await createTeam(db.db, { name: `other ${t}`, environment: 'sandbox', region: 'us' });
      await insertEndpoint(db.db, { id: randomUUID(), teamId: other.teamId, url: 'http://127.0.0.1:1/', description: 'x', eventTypes: ['labtest.'], secretEnc: 'x' });
    }
    const [{ pid } = { pid: 0 }] = await db.sql<{ pid: number }[]>`select pg_backend_pid() as pid`;
    const wal = async () => {
      const [r] = await db.sql<{ lsn: string }[]>`select pg_current_wal_lsn()::text as lsn`;
      const [hi, lo] = r!.lsn.split('/').map((x) => parseInt(x, 16));
      return hi! * 2 ** 32 + lo!;
    };
    const top = async (per: number) => {
      const rows = await db.sql<{ query: string; calls: number; ms: number; plan_ms: number }[]>`
        select left(regexp_replace(query, '[[:space:]]+', ' ', 'g'), 110) as query, calls::int, total_exec_time::float8 as ms, total_plan_time::float8 as plan_ms
        from pg_stat_statements where query not ilike '%pg_stat_statements%' and query not ilike '%pg_current_wal%' order by total_exec_time desc limit 6`;
      for (const r of rows) log(`    ${((r.ms * 1000) / per).toFixed(0).padStart(5)} µs exec + ${((r.plan_ms * 1000) / per).toFixed(0)} plan per event, ${r.calls} calls: ${r.query}`);
    };
    let i = 0;
    // BENCH_PERF=<file>: `perf record -g` of the backend over the first recording
    const perf = process.env.BENCH_PERF ? spawn('perf', ['record', '-g', '-p', String(pid), '-o', process.env.BENCH_PERF], { stdio: 'inherit' }) : null;
    if (perf) await new Promise((r) => setTimeout(r, 1000));
    // BENCH_DDL="sql1;;sql2;;…": statements run before repetition 2, 3, … (to measure what a schema change saves)
    const ddl = (process.env.BENCH_DDL ?? '').split(';;').filter((x) => x.trim());
    for (let rep = 0; rep < REPEAT; rep++) {
      if (rep > 0 && ddl[rep - 1]) {
        log(`DDL: ${ddl[rep - 1]}`);
        await db.sql.unsafe(ddl[rep - 1]!);
      }
      await db.sql`select pg_stat_statements_reset()`;
      const w0 = await wal();
      const c0 = cpuOf(pid);
      const u0 = process.cpuUsage();
      const t0 = performance.now();
      for (let b = 0; b < N / BATCH; b++) {
        await db.db.transaction(async (tx) => {
          for (let k = 0; k < BATCH; k++, i++) {
            const got = await recordTeamEvent(tx, { id: randomUUID(), teamId: team.teamId, eventType: 'labtest.order.updated', data: orderLikeData(i, team.teamId), subjectId: null, createdAt: new Date() });
            if (got.length !== 1 || got[0] !== endpoint.id) throw new Error(`queued for ${JSON.stringify(got)}`);
          }
        });
      }
      const c1 = cpuOf(pid);
      const u1 = process.cpuUsage(u0);
      if (perf && rep === 0) {
        perf.kill('SIGINT');
        await new Promise((r) => perf.once('exit', r));
      }
      const w1 = await wal();
      log(`record ${rep + 1}: backend CPU ${(((c1 - c0) * 1e6) / N).toFixed(0)} µs/event, this process ${((u1.user + u1.system) / N).toFixed(0)} µs/event, WAL ${((w1 - w0) / N).toFixed(0)} B/event, ${((performance.now() - t0) * 1000 / N).toFixed(0)} µs wall/event`);
      await top(N);
      // the worker's side: claim and answer everything that is due
      await db.sql`select pg_stat_statements_reset()`;
      const w2 = await wal();
      const c2 = cpuOf(pid);
      let done = 0;
      for (;;) {
        const due = await dueDeliveries(db.db, endpoint.id, new Date(), 256);
        if (due.length === 0) break;
        const at = new Date();
        await recordAttempts(
          db.db,
          due.map((d) => ({ deliveryId: d.deliveryId, attemptedAt: at, statusCode: 204, durationMs: 2, responseBody: '', error: null, attempts: d.attempts + 1, outcome: { status: 'delivered' } })),
        );
        done += due.length;
      }
      const c3 = cpuOf(pid);
      const w3 = await wal();
      log(`deliver ${rep + 1}: ${done} claimed and answered: backend CPU ${(((c3 - c2) * 1e6) / N).toFixed(0)} µs/event, WAL ${((w3 - w2) / N).toFixed(0)} B/event`);
      await top(N);
    }
    await db.close();
  } finally {
    await pg.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((err: unknown) => {
  process.stderr.write(`bench:webhooks-record failed: ${err instanceof Error ? err.stack : String(err)}\n`);
  process.exit(1);
});
