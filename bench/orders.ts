/**
 * npm run bench:orders — after a warm-up of BENCH_WARMUP (64) orders (not measured), creates BENCH_ORDERS (1,000) testkit orders through the API at BENCH_CONCURRENCY
 * (32), drives every one through its full lifecycle (sandbox simulation to `completed`), and in the same
 * run, against the same Temporal server, runs a bare baseline workflow with the same number of starts,
 * signals and activity calls. Prints create p50/p99, creates/s, lifecycles/s and the ratio to the baseline.
 * BENCH_CPU_PROFILE=<file.cpuprofile> also profiles the service process during the orders phase and prints
 * where its CPU went per order (bench/cpu-budget.ts). BENCH_ROUNDS=3 measures three rounds of (orders, baseline) on
 * the same stack, alternating which runs first, and prints each round and the medians (profile and statement
 * times: the first round's orders phase).
 */
import { spawn } from 'node:child_process';
import { chmodSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { Client, Connection } from '@temporalio/client';
import { eq, sql } from 'drizzle-orm';
import { createDb } from '../db/client.js';
import { runMigrations } from '../db/migrate.js';
import { createTeam } from '../db/queries/teams.js';
import { orders } from '../db/schema/index.js';
import { startEmbeddedPostgres } from '../lib/embedded-postgres.js';
import { startTemporalDevServer } from '../lib/temporal-dev-server.js';
import { testkitLabTest } from '../test/support/catalog-fixture.js';
import { freePort, median, percentile, pool, positiveInt } from './support.js';
import type { CpuProfile } from './cpu-budget.js';
import { type Classify, ProcessCpu, formatCpuPerItem, formatThreadCpu, threadCpu, threadCpuSince } from './process-cpu.js';

const N = Number(process.env.BENCH_ORDERS ?? 1000);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 32);
/** BENCH_WARMUP: orders created and completed before the measured run (and as many bare workflows before the baseline's). */
const WARMUP = Number(process.env.BENCH_WARMUP ?? 64);
/**
 * The baseline's activity calls: the order lifecycle's shape when the goal was set (createOrderRecord, 7 ×
 * recordTransition, simulatedResults). Kept fixed so ratios compare across versions: since the simulated
 * walk is one local activity (SIMULATED_WALK_IN_ONE_STEP) the service makes 2 for the same lifecycle.
 */
const ACTIVITY_CALLS = 9;
const BASELINE_TASK_QUEUE = 'bench-baseline';
/** BENCH_TOPOLOGY: `split` (default: API and worker as two processes, as production runs them) or `single`. */
const TOPOLOGY = process.env.BENCH_TOPOLOGY ?? 'split';
if (TOPOLOGY !== 'split' && TOPOLOGY !== 'single') throw new Error(`BENCH_TOPOLOGY must be split or single, not ${TOPOLOGY}`);
const SPLIT = TOPOLOGY === 'split';
/** BENCH_PG_STATEMENTS=1: Postgres's own time per statement shape over the orders phase (pg_stat_statements). */
const PG_STATEMENTS = process.env.BENCH_PG_STATEMENTS === '1';
/** BENCH_ROUNDS: measured rounds of (orders, baseline), alternating which runs first; prints each and the medians. */
const ROUNDS = positiveInt('BENCH_ROUNDS', 1);
const log = (m: string) => process.stderr.write(`[bench:orders] ${m}\n`);

const pct = percentile;
const verdicts = (ratio: number, p99: number, creates: number) =>
  `${ratio.toFixed(2)} (target ≥ 0.6: ${ratio >= 0.6 ? 'met' : 'NOT met'}); create p99 target < 500 ms: ${p99 < 500 ? 'met' : 'NOT met'}; ≥ 100 creates/s: ${creates >= 100 ? 'met' : 'NOT met'}`;

async function main() {
  const dir = mkdtempSync(join(tmpdir(), 'labflow-bench-'));
  chmodSync(dir, 0o755); // the embedded Postgres runs as its own user when we are root
  const cleanups: (() => Promise<unknown>)[] = [() => Promise.resolve(rmSync(dir, { recursive: true, force: true }))];
  const cleanup = async () => {
    for (const fn of cleanups.reverse()) await fn().catch(() => {});
  };
  process.once('SIGINT', () => void cleanup().then(() => process.exit(130)));
  try {
    log('starting embedded Postgres and a Temporal dev server…');
    const pg = await startEmbeddedPostgres({
      dataDir: join(dir, 'pg'),
      port: await freePort(),
      database: 'bench',
      persistent: false,
      log,
      ...(PG_STATEMENTS ? { settings: { shared_preload_libraries: 'pg_stat_statements', 'pg_stat_statements.track': 'all' } } : {}),
    });
    cleanups.push(() => pg.stop());
    await runMigrations(pg.url, log);
    const temporal = await startTemporalDevServer({ port: await freePort(), uiPort: null, namespace: 'default', log });
    cleanups.push(() => temporal.stop());

    log(`starting the service (${SPLIT ? 'API and worker (+ baseline worker) as two processes' : 'API + worker + baseline worker in one process'})…`);
    const services = await Promise.all(
      (SPLIT ? (['api', 'worker'] as const) : (['both'] as const)).map(async (role) => {
        const child = spawn(process.execPath, ['--import', 'tsx', 'bench/orders-service.ts', role], {
          env: { ...process.env, DATABASE_URL: pg.url, TEMPORAL_ADDRESS: temporal.address, API_KEY_CACHE_TTL_SECONDS: '10' },
          stdio: ['ignore', 'pipe', 'inherit'],
        });
        cleanups.push(async () => {
          child.kill('SIGKILL');
        });
        const lines = createInterface({ input: child.stdout! });
        const port = await new Promise<number | null>((resolve, reject) => {
          lines.once('line', (line) => resolve((JSON.parse(line) as { port: number | null }).port));
          child.once('exit', (code) => reject(new Error(`service (${role}) exited with ${code}`)));
        });
        return { role, child, lines, port };
      }),
    );
    const port = services.find((s) => s.port !== null)!.port!;
    const base = `http://127.0.0.1:${port}`;

    const db = createDb(pg.url);
    cleanups.push(() => db.close());
    const team = await createTeam(db.db, { name: 'bench', environment: 'sandbox', region: 'us' });
    const { labTestId } = await testkitLabTest(db.db, team.teamId);
    const headers = { 'x-service-api-key': team.apiKey, 'content-type': 'application/json' };
    const userRes = await fetch(`${base}/v2/user`, { method: 'POST', headers, body: JSON.stringify({ client_user_id: 'bench-patient' }) });
    const userId = ((await userRes.json()) as { user_id: string }).user_id;
    const body = JSON.stringify({
      user_id: userId,
      order_set: { lab_test_ids: [labTestId] },
      patient_details: { first_name: 'Bench', last_name: 'Patient', dob: '1980-01-01', gender: 'other', phone_number: '+14155552671', email: 'b@example.com' },
      patient_address: { first_line: '1 Main St', city: 'Austin', state: 'TX', zip: '78701', country: 'US' },
    });

    // which process spent the machine's CPU, per phase (the service's processes, Temporal, Postgres, this one)
    const roleByPid = new Map(services.map((s) => [s.child.pid!, s.role === 'both' ? 'service' : s.role]));
    const classify: Classify = ({ pid, comm }) => roleByPid.get(pid) ?? (comm === 'temporal' ? 'temporal' : comm === 'postgres' ? 'postgres' : null);
    if (PG_STATEMENTS) {
      await db.db.execute(sql`create extension if not exists pg_stat_statements`);
      await db.db.execute(sql`select pg_stat_statements_reset()`);
    }
    /** Creates `count` orders at CONCURRENCY; ids and latencies. */
    const createOrders = (count: number) =>
      pool(count, CONCURRENCY, async () => {
        const t = performance.now();
        const res = await fetch(`${base}/v3/order`, { method: 'POST', headers, body });
        const json = (await res.json()) as { order?: { id: string } };
        if (res.status !== 200 || !json.order) throw new Error(`create failed: ${res.status} ${JSON.stringify(json)}`);
        return { id: json.order.id, ms: performance.now() - t };
      });
    /** Simulates every order to `completed`, then waits until `completedTotal` orders are completed. */
    const driveToCompletion = async (ids: string[], completedTotal: number) => {
      await pool(ids.length, CONCURRENCY, async (i) => {
        const res = await fetch(`${base}/v3/order/${ids[i]!}/test?final_status=completed.testkit.completed&delay=0`, { method: 'POST', headers });
        if (res.status !== 200) throw new Error(`simulate failed: ${res.status} ${await res.text()}`);
      });
      for (;;) {
        const [row] = await db.db.select({ n: sql<number>`count(*)::int` }).from(orders).where(eq(orders.status, 'completed'));
        if ((row?.n ?? 0) >= completedTotal) break;
        await new Promise((r) => setTimeout(r, 200));
      }
    };
    if (WARMUP > 0) {
      // a warm service, as in production: connections open, statements prepared, code compiled (not measured)
      log(`warm-up: ${WARMUP} orders created and completed (not measured)…`);
      await driveToCompletion((await createOrders(WARMUP)).map((c) => c.id), WARMUP);
    }
    const workerPid = services.find((s) => s.role !== 'api')!.child.pid!;
    let completedSoFar = WARMUP;

    /** One measured orders phase: N orders created, then every one driven to `completed`. */
    const ordersPhase = async (tag: string) => {
      const cpuAtCreate = ProcessCpu.read(classify);
      // the worker's threads (its JS main thread, the workflow threads, V8's helpers, the Temporal core's runtime)
      const threadsAtCreate = threadCpu(workerPid);
      log(`${tag}creating ${N} orders at concurrency ${CONCURRENCY}…`);
      const tCreate = performance.now();
      const created = await createOrders(N);
      const createSecs = (performance.now() - tCreate) / 1000;
      const cpuAtLife = ProcessCpu.read(classify);
      const lat = created.map((c) => c.ms).sort((a, b) => a - b);
      log(`${tag}driving every order through its lifecycle (simulation to completed)…`);
      const tLife = performance.now();
      completedSoFar += N;
      await driveToCompletion(created.map((c) => c.id), completedSoFar);
      const lifeSecs = (performance.now() - tLife) / 1000;
      const cpuAtEnd = ProcessCpu.read(classify);
      const threads = threadCpuSince(threadCpu(workerPid), threadsAtCreate);
      return { lat, createSecs, lifeSecs, cpuCreate: cpuAtLife.since(cpuAtCreate), cpuLife: cpuAtEnd.since(cpuAtLife), cpuBoth: cpuAtEnd.since(cpuAtCreate), threads };
    };

    log('connecting the baseline client…');
    const connection = await Connection.connect({ address: temporal.address });
    cleanups.push(() => connection.close());
    const client = new Client({ connection, namespace: 'default' });
    const bareLifecycles = (count: number, tag: string) =>
      pool(count, CONCURRENCY, async (i) => {
        const handle = await client.workflow.start('baselineLifecycle', {
          taskQueue: BASELINE_TASK_QUEUE,
          workflowId: `baseline-${tag}-${i}-${Date.now()}`,
          args: [ACTIVITY_CALLS],
        });
        await handle.signal('go');
        return handle;
      }).then((handles) => pool(handles.length, CONCURRENCY, (i) => handles[i]!.result()));
    let baselineWarm = WARMUP === 0;
    /** One measured baseline phase: N bare workflows with the same starts, signals and activity calls. */
    const baselinePhase = async (tag: string, round: number) => {
      if (!baselineWarm) {
        await bareLifecycles(WARMUP, 'warmup'); // warmed up as the service was
        baselineWarm = true;
      }
      log(`${tag}baseline: ${N} bare workflows (start, signal, ${ACTIVITY_CALLS} no-op activities) at concurrency ${CONCURRENCY}…`);
      const tBase = performance.now();
      const cpuAtBase = ProcessCpu.read(classify);
      const threadsAtBase = threadCpu(workerPid);
      await bareLifecycles(N, `measured${round}`);
      const baseSecs = (performance.now() - tBase) / 1000;
      return { baseSecs, cpuBase: ProcessCpu.read(classify).since(cpuAtBase), threadsBase: threadCpuSince(threadCpu(workerPid), threadsAtBase) };
    };

    /** What only the first orders phase measures: its CPU profiles and Postgres's own statement times. */
    const firstPhaseExtras = async (o: { createSecs: number; lifeSecs: number }) => {
      const pgStatements: string[] = [];
      if (PG_STATEMENTS) {
        const top = await db.db.execute<{ query: string; calls: number; ms: number }>(
          sql`select left(regexp_replace(query, '[[:space:]]+', ' ', 'g'), 90) as query, calls::int, total_exec_time::float8 as ms
              from pg_stat_statements where query not ilike '%pg_stat_statements%' order by total_exec_time desc limit 12`,
        );
        const all = top.reduce((s, r) => s + r.ms, 0);
        pgStatements.push(`  Postgres    execution time per order by statement (pg_stat_statements, top 12: ${(all / N).toFixed(2)} ms/order):`);
        for (const r of top) pgStatements.push(`    ${(r.ms / N).toFixed(2).padStart(6)} ms  ${(r.calls / N).toFixed(2).padStart(5)}×  ${r.query}`);
      }
      let budget: string[] = [];
      if (process.env.BENCH_CPU_PROFILE) {
        // every service process writes its profile and statement counts on SIGUSR2; the budget is their sum
        const written = await Promise.all(
          services.map(
            ({ child, lines }) =>
              new Promise<{ profile: string; statements: [string, number][] }>((resolve) => {
                lines.on('line', (line) => {
                  const msg = JSON.parse(line) as { profile?: string; statements?: [string, number][] };
                  if (msg.profile) resolve({ profile: msg.profile, statements: msg.statements ?? [] });
                });
                child.kill('SIGUSR2');
              }),
          ),
        );
        const { cpuBudget, formatBudget, sumBudgets } = await import('./cpu-budget.js');
        const budgets = written.map(({ profile }) => cpuBudget(JSON.parse(readFileSync(profile, 'utf8')) as CpuProfile));
        budget = formatBudget(sumBudgets(budgets), N, o.createSecs + o.lifeSecs, services.map((s) => s.role).join(' + '));
        const counts = new Map<string, number>();
        for (const { statements } of written) for (const [shape, n] of statements) counts.set(shape, (counts.get(shape) ?? 0) + n);
        const statements = [...counts].sort((a, b) => b[1] - a[1]);
        const total = statements.reduce((s, [, n]) => s + n, 0);
        budget.push(`  SQL         ${(total / N).toFixed(1)} statements per order (the service's pools; the ten most frequent, per order):`);
        for (const [shape, n] of statements.slice(0, 10)) budget.push(`    ${(n / N).toFixed(2).padStart(6)}  ${shape}`);
        log(`CPU profiles of the service (orders phase) written to ${written.map((w) => w.profile).join(', ')}`);
      }
      return [...budget, ...pgStatements];
    };

    type OrdersFigures = Awaited<ReturnType<typeof ordersPhase>>;
    type BaselineFigures = Awaited<ReturnType<typeof baselinePhase>>;
    const results: { o: OrdersFigures; b: BaselineFigures }[] = [];
    let extras: string[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      const tag = ROUNDS > 1 ? `round ${round + 1}: ` : '';
      let o: OrdersFigures | undefined;
      let b: BaselineFigures | undefined;
      // Later rounds swap the order, so a change in the machine's load does not favour one side.
      for (const side of round % 2 === 0 ? (['orders', 'baseline'] as const) : (['baseline', 'orders'] as const)) {
        if (side === 'orders') {
          o = await ordersPhase(tag);
          if (round === 0) extras = await firstPhaseExtras(o);
        } else b = await baselinePhase(tag, round);
      }
      results.push({ o: o!, b: b! });
    }

    const figures = results.map(({ o, b }) => {
      const ours = N / (o.createSecs + o.lifeSecs);
      const baseline = N / b.baseSecs;
      return { ours, baseline, ratio: ours / baseline, p50: pct(o.lat, 50), p99: pct(o.lat, 99), creates: N / o.createSecs, lifecycles: N / o.lifeSecs };
    });
    const lines = [
      '',
      `bench:orders — ${N} orders (after ${WARMUP} warm-up orders, not measured), concurrency ${CONCURRENCY}, ${cpus().length} cores, node ${process.version}${ROUNDS > 1 ? `, ${ROUNDS} rounds (orders and baseline alternate which runs first)` : ''}`,
    ];
    results.forEach(({ o, b }, i) => {
      const f = figures[i]!;
      if (ROUNDS > 1) lines.push(`  round ${i + 1}`);
      lines.push(
        `  create      p50 ${f.p50.toFixed(1)} ms   p99 ${f.p99.toFixed(1)} ms   ${f.creates.toFixed(1)} creates/s`,
        `  lifecycle   ${f.lifecycles.toFixed(1)} lifecycles/s after creation (${o.lifeSecs.toFixed(1)} s)`,
        `  end to end  ${f.ours.toFixed(1)} orders/s (create + full lifecycle, ${(o.createSecs + o.lifeSecs).toFixed(1)} s)`,
        `  baseline    ${f.baseline.toFixed(1)} lifecycles/s (bare workflow: the same starts and signals, ${ACTIVITY_CALLS} activity calls as the lifecycle made them when the goal was set; ${b.baseSecs.toFixed(1)} s)`,
        `  ratio       ${verdicts(f.ratio, f.p99, f.creates)}`,
        `  CPU         creation: ${formatCpuPerItem(o.cpuCreate, N, 'order')}`,
        `              lifecycle: ${formatCpuPerItem(o.cpuLife, N, 'order')}`,
        `              both: ${formatCpuPerItem(o.cpuBoth, N, 'order')}`,
        `              baseline: ${formatCpuPerItem(b.cpuBase, N, 'lifecycle')}`,
        `  ${SPLIT ? 'worker' : 'service'} threads  orders (both phases): ${formatThreadCpu(o.threads, N, 'order')}`,
        `              baseline: ${formatThreadCpu(b.threadsBase, N, 'lifecycle')}`,
      );
    });
    if (ROUNDS > 1) {
      const med = (pick: (f: (typeof figures)[number]) => number) => median(figures.map(pick));
      lines.push(
        `  median of ${ROUNDS} rounds: ratio ${figures.map((f) => f.ratio.toFixed(2)).join(', ')} → ${med((f) => f.ratio).toFixed(2)}; ` +
          `creates/s ${figures.map((f) => f.creates.toFixed(1)).join(', ')} → ${med((f) => f.creates).toFixed(1)}; ` +
          `create p99 ${figures.map((f) => f.p99.toFixed(0)).join(', ')} → ${med((f) => f.p99).toFixed(0)} ms`,
        `  medians     ${verdicts(med((f) => f.ratio), med((f) => f.p99), med((f) => f.creates))}`,
      );
    }
    lines.push(
      `  topology    ${SPLIT ? 'API and worker as two processes' : 'API and worker in one process'} (bench/orders-service.ts, BENCH_TOPOLOGY=${TOPOLOGY}); Temporal dev server and embedded Postgres beside it`,
      ...(extras.length ? [ROUNDS > 1 ? '  (profile and statements: round 1\'s orders phase)' : '', ...extras].filter(Boolean) : []),
      '',
    );
    process.stdout.write(lines.join('\n'));
  } finally {
    await cleanup();
  }
}

main().catch((err: unknown) => {
  const cause = err instanceof Error && err.cause ? `\ncaused by: ${err.cause instanceof Error ? err.cause.stack : String(err.cause)}` : '';
  process.stderr.write(`bench:orders failed: ${err instanceof Error ? err.stack : String(err)}${cause}\n`);
  process.exit(1);
});
