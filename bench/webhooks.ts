/**
 * npm run bench:webhooks — webhook delivery from "event recorded" to "event received", on its own
 * embedded Postgres and Temporal dev server, with the real worker (worker.ts, production settings and
 * retry schedule) in a child process and a verifying receiver (bench/webhooks-receiver.ts) in this one.
 *
 *   A  throughput: BENCH_EVENTS (10,000) events for one endpoint, recorded as fast as possible in
 *      transactions of BENCH_BATCH (100) events (BENCH_WRITERS (4) at a time), each followed by a wake;
 *      a transaction's events in one statement (BENCH_RECORD=event: one statement per event);
 *      events/s until the last one arrives, and latency p50/p99 (created_at → received).
 *   B  latency at offered load: BENCH_RATE (100) events/s for BENCH_SECONDS (20) s, each in its own
 *      transaction and woken, as the order activities do; latency p50/p99/max; target p99 < 1 s.
 *   bare: the same number of envelopes as A, signed and POSTed to the same receiver by a plain loop
 *      (the activity's own signing and HTTP code, undici's request without the SSRF guard) with the
 *      activity's concurrency; ratio A / bare ≥ 0.5.
 *   CPU: after A and the bare loop, the CPU time per 1,000 events of this process (recorder, receiver, bare
 *      loop), the worker, Postgres and the Temporal server (from /proc; on a shared machine it says where the
 *      work goes better than wall time).
 *   BENCH_WORKER_PROFILE=<dir>: a CPU profile of the worker over the whole run, written there as it stops.
 *   BENCH_ROUNDS (1): more rounds of A, B and bare on the same stack; prints each round, the median ratio
 *      and whether B's p99 stayed under 1 s in every round.
 *   BENCH_WARMUP (2,000): before the first round, that many events recorded and delivered as in A, and as many
 *      envelopes POSTed by the bare loop, none measured (as bench:orders warms up: code compiled, statements
 *      prepared, the endpoint's workflow running, as in a service that has been up for a while).
 *
 * Every event must arrive (missing ones are an error, exit 1); duplicates are reported. Progress on
 * stderr, results on stdout. Scratch Postgres + Temporal, cleanup and percentiles: bench/support.ts.
 */
import { spawn } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { cpus, loadavg } from 'node:os';
import { createInterface } from 'node:readline';
import { Client, Connection } from '@temporalio/client';
import { webhookSettings } from '../activities/index.js';
import { postEvent } from '../activities/webhooks/http.js';
import { createDb } from '../db/client.js';
import { recordTeamEvents } from '../db/queries/events.js';
import { lazyMasterKey, loadSecretBox } from '../db/queries/service-secrets.js';
import { createTeam } from '../db/queries/teams.js';
import { insertEndpoint, roundUnderWay } from '../db/queries/webhooks.js';
import { newEndpointSecret, webhookSigner } from '../domain/webhooks/signing.js';
import { serviceDataConverter } from '../lib/payload-codec.js';
import { wakeEndpoints } from '../lib/webhook-wake.js';
import { webhookEndpointWorkflowId } from '../workflows/webhooks/definitions.js';
import { type Classify, ProcessCpu, formatCpuPerItem, parentOf } from './process-cpu.js';
import { benchLog, cleanupStack, median, orderLikeData, percentile, pool, scratchServices } from './support.js';
import { BenchReceiver } from './webhooks-receiver.js';

const N = Number(process.env.BENCH_EVENTS ?? 10_000);
const BATCH = Number(process.env.BENCH_BATCH ?? 100);
const WRITERS = Number(process.env.BENCH_WRITERS ?? 4);
const RATE = Number(process.env.BENCH_RATE ?? 100);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 20);
const TIMEOUT_MS = Number(process.env.BENCH_TIMEOUT_SECONDS ?? 300) * 1000;
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 1);
const WARMUP = Number(process.env.BENCH_WARMUP ?? 2_000);
/**
 * BENCH_RECORD: how A's recorder writes a transaction's events. `batch` (default): one `recordTeamEvents` statement
 * for the transaction's events, as order creation and a simulated walk record theirs; `event`: one statement per
 * event (A's recorder before the eleventh session). B always records one event per transaction.
 */
const RECORD = process.env.BENCH_RECORD ?? 'batch';
if (RECORD !== 'batch' && RECORD !== 'event') throw new Error(`BENCH_RECORD must be batch or event, not ${RECORD}`);
const PER_EVENT = RECORD === 'event';
/** BENCH_PG_STATEMENTS=1: Postgres's own time and calls per statement over A (pg_stat_statements; it costs Postgres some CPU). */
const PG_STATEMENTS = process.env.BENCH_PG_STATEMENTS === '1';
const settings = webhookSettings();
const log = benchLog('bench:webhooks');
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

const pct = (sorted: number[], p: number) => (sorted.length ? percentile(sorted, p) : NaN);

async function main() {
  const cleanups = cleanupStack();
  const loadStart = loadavg()[0]!;
  try {
    log('starting embedded Postgres and a Temporal dev server…');
    const { databaseUrl, temporalAddress } = await scratchServices(log, cleanups, {
      temporal: true,
      pgSettings: PG_STATEMENTS ? { shared_preload_libraries: 'pg_stat_statements', 'pg_stat_statements.track': 'all' } : undefined,
    });

    // One key for this run, shared with the worker: it seals the endpoint secret and the Temporal payloads.
    const key = randomBytes(32).toString('base64');
    const db = createDb(databaseUrl, { max: WRITERS + 6 });
    cleanups.push(() => db.close());
    const connection = await Connection.connect({ address: temporalAddress! });
    cleanups.push(() => connection.close());
    const client = new Client({ connection, namespace: 'default', dataConverter: serviceDataConverter(lazyMasterKey(db.db, key)) });

    const team = await createTeam(db.db, { name: 'bench', environment: 'sandbox', region: 'us' });
    const secret = newEndpointSecret();
    const receiver = new BenchReceiver(secret);
    const url = await receiver.start();
    cleanups.push(() => receiver.stop());
    const box = await loadSecretBox(db.db, key);
    const endpoint = await insertEndpoint(db.db, { id: randomUUID(), teamId: team.teamId, url, description: 'bench', eventTypes: [], secretEnc: box.seal(secret) });

    log('starting the worker (worker.ts, production settings) in a child process…');
    // Production delivery settings: none of the caller's WEBHOOK_* overrides.
    const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('WEBHOOK_')));
    // BENCH_WORKER_PROFILE=<dir>: the worker writes a V8 CPU profile there when it stops (after the last phase).
    const profileDir = process.env.BENCH_WORKER_PROFILE;
    const profileArgs = profileDir ? ['--cpu-prof', `--cpu-prof-dir=${profileDir}`] : [];
    const worker = spawn(process.execPath, [...profileArgs, '--import', 'tsx', 'worker.ts'], {
      env: { ...env, DATABASE_URL: databaseUrl, TEMPORAL_ADDRESS: temporalAddress!, SECRET_ENCRYPTION_KEY: key, LOG_LEVEL: 'info' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    // The SDK's own lines (state changes on shutdown…) are shown only if the worker dies on its own.
    let workerStderr = '';
    let stopping = false;
    worker.stderr!.on('data', (c: Buffer) => (workerStderr = (workerStderr + c.toString('utf8')).slice(-20_000)));
    worker.once('exit', (code) => {
      if (!stopping) log(`worker exited with ${code}:\n${workerStderr}`);
    });
    cleanups.push(async () => {
      stopping = true;
      if (worker.exitCode !== null) return;
      worker.kill('SIGTERM');
      const exited = new Promise((r) => worker.once('exit', r));
      if (!(await Promise.race([exited.then(() => true), sleep(10_000).then(() => false)]))) worker.kill('SIGKILL');
    });
    await new Promise<void>((resolve, reject) => {
      createInterface({ input: worker.stdout! }).on('line', (line) => {
        let entry: { level?: number; msg?: string } = {};
        try {
          entry = JSON.parse(line) as typeof entry;
        } catch {
          // not a log line
        }
        if (entry.msg === 'worker polling') resolve();
        else if ((entry.level ?? 0) >= 40) log(`worker: ${line}`);
      });
      worker.once('exit', (code) => reject(new Error(`worker exited with ${code}`)));
    });

    // Where the CPU goes (bench/process-cpu.ts): this process (recorder, receiver, bare loop), the worker, the
    // Temporal server, and Postgres, found by a backend's parent (the postmaster), whether embedded or not.
    const [{ pid: backendPid } = { pid: 0 }] = await db.sql<{ pid: number }[]>`select pg_backend_pid() as pid`;
    const postmasterPid = parentOf(backendPid);
    const classify: Classify = ({ pid, comm }) =>
      pid === worker.pid ? 'worker' : comm.startsWith('temporal') ? 'temporal' : pid === postmasterPid || comm === 'postgres' ? 'postgres' : null;
    const cpu = () => ProcessCpu.read(classify, postmasterPid ? [postmasterPid] : []);
    /** CPU per 1,000 events of each side between two readings. */
    const cpuPer1000 = (before: ProcessCpu, after: ProcessCpu, count: number, what = 'events') => formatCpuPerItem(after.since(before), count / 1000, `1,000 ${what}`);

    /** One transaction of `count` events (each statement checked to queue for the bench endpoint alone; every event must arrive), then a wake. */
    const record = async (count: number, first: number, ids: string[], created: Map<string, number>, perEvent = PER_EVENT) => {
      const endpoints = await db.db.transaction(async (tx) => {
        const events = Array.from({ length: count }, (_, k) => {
          const id = randomUUID();
          const createdAt = new Date();
          ids.push(id);
          created.set(id, createdAt.getTime());
          return { id, teamId: team.teamId, eventType: 'labtest.order.updated', data: orderLikeData(first + k, team.teamId), subjectId: null, createdAt };
        });
        const statements = perEvent ? events.map((e) => [e]) : [events];
        for (const batch of statements) {
          const { recorded, endpoints: got } = await recordTeamEvents(tx, batch);
          if (recorded.length !== batch.length || got.length !== 1 || got[0] !== endpoint.id)
            throw new Error(`${batch.length} events recorded as ${recorded.length} and queued for ${JSON.stringify(got)}, not the bench endpoint alone`);
        }
        return [endpoint.id];
      });
      // As the order activities wake: no signal while the endpoint's delivery round is under way.
      await wakeEndpoints(client, endpoints, (id) => roundUnderWay(db.db, id));
    };

    /** Waits until every id arrived (or the timeout); progress every 2 s. */
    const awaitAll = async (name: string, ids: string[], expected: number) => {
      const deadline = Date.now() + TIMEOUT_MS;
      let lastLog = Date.now();
      for (;;) {
        const got = receiver.countOf(ids);
        if (got >= expected || Date.now() > deadline) return;
        if (Date.now() - lastLog > 2000) {
          log(`${name}: ${got}/${expected} received`);
          lastLog = Date.now();
        }
        await sleep(20);
      }
    };

    const latencies = (ids: string[], created: Map<string, number>) =>
      ids
        .filter((id) => receiver.receipts.has(id))
        .map((id) => receiver.receipts.get(id)!.at - created.get(id)!)
        .sort((a, b) => a - b);

    const problems: string[] = [];
    const check = (name: string, ids: string[]) => {
      const s = receiver.summary(ids);
      if (s.missing.length) problems.push(`${name}: ${s.missing.length} of ${ids.length} events never arrived (e.g. ${s.missing[0]})`);
      return s;
    };

    /** The service's own record of the phase's attempts (once every delivery has left `pending`). */
    const attemptStats = async (ids: string[]) => {
      // A receipt comes just before the activity records its attempt: let the last ones land.
      for (let i = 0; i < 100; i++) {
        const [row] = await db.sql<{ n: number }[]>`
          select count(*)::int as n from webhook_deliveries where event_id = any(${ids}::uuid[]) and status <> 'pending'`;
        if ((row?.n ?? 0) >= ids.length) break;
        await sleep(100);
      }
      const [row] = await db.sql<{ attempts: number; failed: number; avg_ms: number; p99_ms: number }[]>`
        select count(*)::int as attempts, count(*) filter (where a.status_code is null or a.status_code >= 300)::int as failed,
               avg(a.duration_ms)::float as avg_ms, percentile_cont(0.99) within group (order by a.duration_ms)::float as p99_ms
        from webhook_attempts a join webhook_deliveries d on d.id = a.delivery_id
        where d.event_id = any(${ids}::uuid[])`;
      const r = row!;
      return `${r.attempts} attempts (${r.failed} failed); POST as timed by the activity avg ${(r.avg_ms ?? 0).toFixed(1)} ms, p99 ${(r.p99_ms ?? 0).toFixed(0)} ms`;
    };

    /** Envelopes as the bare loop sends them, built before it starts (building them is not the loop's work). */
    const bareEnvelopes = (count: number) =>
      Array.from({ length: count }, (_, i) => ({
        id: randomUUID(),
        body: JSON.stringify({ event_type: 'labtest.order.updated', data: orderLikeData(i, team.teamId), team_id: team.teamId, user_id: null, client_user_id: null }),
      }));
    // The activity's own signer (secrets decoded once) and HTTP code (undici's request, without the SSRF guard).
    const bareSign = webhookSigner([secret]);
    /** Signs and POSTs the envelopes with the activity's concurrency; how many were not answered 204. */
    const bareLoop = async (envelopes: { id: string; body: string }[]) => {
      let failures = 0;
      await pool(envelopes.length, settings.concurrency, async (i) => {
        const { id, body } = envelopes[i]!;
        const sent = await postEvent(url, bareSign(id, new Date(), body), body, settings.timeoutMs);
        if (sent.result.statusCode !== 204) failures++;
      });
      return failures;
    };

    /** One round: A, B and the bare loop, on the same stack and endpoint; its figures as printed lines. */
    const round = async () => {
      // ---- A: throughput ---------------------------------------------------------------------------
      log(`A: recording ${N} events in transactions of ${BATCH} (${WRITERS} writers, ${PER_EVENT ? 'a statement per event' : 'a statement per transaction'}), each followed by a wake…`);
      const aIds: string[] = [];
      const aCreated = new Map<string, number>();
      if (PG_STATEMENTS) {
        await db.sql`create extension if not exists pg_stat_statements`;
        await db.sql`select pg_stat_statements_reset()`;
      }
      const cpuA = cpu();
      const tA = Date.now();
      const batches = Math.ceil(N / BATCH);
      await pool(batches, WRITERS, (b) => record(Math.min(BATCH, N - b * BATCH), b * BATCH, aIds, aCreated));
      const recordSecs = (Date.now() - tA) / 1000;
      const receivedWhileRecording = receiver.countOf(aIds);
      log(`A: recorded in ${recordSecs.toFixed(1)} s (${(N / recordSecs).toFixed(0)} events/s); waiting for deliveries…`);
      await awaitAll('A', aIds, N);
      const aCpu = cpuPer1000(cpuA, cpu(), N);
      const aStatements: string[] = [];
      if (PG_STATEMENTS) {
        const top = await db.sql<{ query: string; calls: number; ms: number }[]>`
          select left(regexp_replace(query, '[[:space:]]+', ' ', 'g'), 100) as query, calls::int, total_exec_time::float8 as ms
          from pg_stat_statements where query not ilike '%pg_stat_statements%' order by total_exec_time desc limit 10`;
        aStatements.push(`                  Postgres execution time per event by statement (pg_stat_statements, top 10):`);
        for (const r of top) aStatements.push(`                  ${((r.ms * 1e3) / N).toFixed(0).padStart(6)} µs  ${(r.calls / N).toFixed(3).padStart(6)}×  ${r.query}`);
      }
      const a = check('A', aIds);
      const aSecs = (a.lastAt - tA) / 1000;
      const aRate = N / aSecs;
      // Delivery alone: the backlog left when recording ended, drained at this rate.
      const drainRate = (N - receivedWhileRecording) / Math.max(0.001, aSecs - recordSecs);
      const aLat = latencies(aIds, aCreated);
      const aAttempts = await attemptStats(aIds);

      // ---- B: latency at offered load -------------------------------------------------------------
      const bCount = RATE * SECONDS;
      log(`B: ${RATE} events/s for ${SECONDS} s (${bCount} events), each in its own transaction and woken…`);
      const bIds: string[] = [];
      const bCreated = new Map<string, number>();
      const inflight: Promise<void>[] = [];
      const tB = performance.now();
      for (let i = 0; i < bCount; i++) {
        const wait = tB + (i * 1000) / RATE - performance.now();
        if (wait > 0) await sleep(wait);
        inflight.push(record(1, N + i, bIds, bCreated));
      }
      await Promise.all(inflight);
      const offered = bCount / ((performance.now() - tB) / 1000);
      await awaitAll('B', bIds, bCount);
      const b = check('B', bIds);
      const bLat = latencies(bIds, bCreated);
      const bAttempts = await attemptStats(bIds);
      // Stalls: seconds (by creation time) whose slowest event took over 1 s, and runs of the endpoint's workflow.
      const worstBySecond = new Map<number, number>();
      const bStart = Math.min(...bCreated.values());
      for (const id of bIds) {
        const r = receiver.receipts.get(id);
        if (!r) continue;
        const second = Math.floor((bCreated.get(id)! - bStart) / 1000);
        worstBySecond.set(second, Math.max(worstBySecond.get(second) ?? 0, r.at - bCreated.get(id)!));
      }
      const slowSeconds = [...worstBySecond].filter(([, worst]) => worst > 1000).map(([second]) => second).sort((x, y) => x - y);
      // Failed and timed-out workflow tasks over the endpoint's runs so far: each one makes the worker replay that run's history.
      let runs = 0;
      const taskTrouble = { failed: 0, timedOut: 0 };
      for await (const run of client.workflow.list({ query: `WorkflowId = '${webhookEndpointWorkflowId(endpoint.id)}'` })) {
        runs++;
        const history = await client.workflow.getHandle(run.workflowId, run.runId).fetchHistory();
        const events = history.events ?? [];
        for (const [i, e] of events.entries()) {
          if (e.workflowTaskFailedEventAttributes) {
            taskTrouble.failed++;
            const ms = (x: (typeof events)[number]) => Number(x.eventTime?.seconds ?? 0) * 1000 + (x.eventTime?.nanos ?? 0) / 1e6;
            const around = events.slice(Math.max(0, i - 3), i + 6).map((x) => `${x.eventId}:${x.eventType}@${(ms(x) - ms(e)).toFixed(0)}`);
            log(`endpoint workflow task failed: cause ${e.workflowTaskFailedEventAttributes.cause}, ${e.workflowTaskFailedEventAttributes.failure?.message}; ${around.join(' ')}`);
          }
          if (e.workflowTaskTimedOutEventAttributes) taskTrouble.timedOut++;
        }
      }

      // ---- bare: signed POSTs in a plain loop ----------------------------------------------------
      log(`bare: signing and POSTing ${N} envelopes, ${settings.concurrency} in flight…`);
      const envelopes = bareEnvelopes(N);
      const bareIds = envelopes.map((e) => e.id);
      const cpuBare = cpu();
      const tBare = Date.now();
      const bareFailures = await bareLoop(envelopes);
      const bareSecs = (Date.now() - tBare) / 1000;
      const bareCpu = cpuPer1000(cpuBare, cpu(), N, 'POSTs');
      const bareRate = N / bareSecs;
      const bare = check('bare', bareIds);
      if (bareFailures) problems.push(`bare: ${bareFailures} POSTs were not answered 204`);
      if (receiver.invalid) problems.push(`${receiver.invalid} requests did not verify`);
      const ratio = aRate / bareRate;
      const bP99 = bLat.length ? pct(bLat, 99) : Infinity;
      const ms = (v: number) => `${v.toFixed(0)} ms`;
      const lines = [
        `  A  throughput   ${N} events, ${PER_EVENT ? 'a statement per event' : `${BATCH} per statement`}: ${aRate.toFixed(0)} events/s (recorded in ${recordSecs.toFixed(1)} s = ${(N / recordSecs).toFixed(0)}/s, all received after ${aSecs.toFixed(1)} s)`,
        `                  delivery alone: ${receivedWhileRecording} arrived while recording, the other ${N - receivedWhileRecording} at ${drainRate.toFixed(0)} events/s`,
        `                  latency p50 ${ms(pct(aLat, 50))}  p99 ${ms(pct(aLat, 99))}  max ${ms(aLat.at(-1) ?? 0)}; duplicates ${a.duplicates}, missing ${a.missing.length}`,
        `                  ${aAttempts}`,
        `                  CPU, recording to last arrival: ${aCpu}`,
        ...aStatements,
        `  B  at ${RATE}/s     ${bCount} events offered at ${offered.toFixed(1)}/s: latency p50 ${ms(pct(bLat, 50))}  p99 ${ms(bP99)}  max ${ms(bLat.at(-1) ?? 0)}; duplicates ${b.duplicates}, missing ${b.missing.length}`,
        `                  ${bAttempts}`,
        `                  seconds with an event slower than 1 s: ${slowSeconds.length ? slowSeconds.map((x) => `+${x}`).join(' ') : 'none'}; endpoint workflow runs so far (continue-as-new): ${runs}, workflow tasks failed ${taskTrouble.failed}, timed out ${taskTrouble.timedOut}`,
        `  bare loop      ${N} signed POSTs, ${settings.concurrency} in flight: ${bareRate.toFixed(0)} events/s (${bareSecs.toFixed(1)} s); duplicates ${bare.duplicates}`,
        `                  CPU: ${bareCpu}`,
        `  ratio          ${ratio.toFixed(2)} service/bare (target ≥ 0.5: ${ratio >= 0.5 ? 'met' : 'NOT met'}); p99 at ${RATE}/s < 1 s: ${bP99 < 1000 ? 'met' : 'NOT met'}`,
      ];
      return { ratio, bP99, lines };
    };

    if (WARMUP > 0) {
      log(`warm-up: ${WARMUP} events recorded and delivered as in A, and ${WARMUP} bare POSTs (not measured)…`);
      const wIds: string[] = [];
      await pool(Math.ceil(WARMUP / BATCH), WRITERS, (b) => record(Math.min(BATCH, WARMUP - b * BATCH), b * BATCH, wIds, new Map()));
      await awaitAll('warm-up', wIds, WARMUP);
      check('warm-up', wIds);
      const wBare = bareEnvelopes(WARMUP);
      await bareLoop(wBare);
      check('warm-up bare', wBare.map((e) => e.id));
      // and statistics on the tables the warm-up filled, as autovacuum keeps them on a service that has been up a while
      await db.sql`analyze`;
    }

    const results: Awaited<ReturnType<typeof round>>[] = [];
    for (let r = 0; r < ROUNDS; r++) {
      if (ROUNDS > 1) log(`round ${r + 1} of ${ROUNDS}…`);
      results.push(await round());
    }

    const [{ size } = { size: 0 }] = await db.sql<{ size: number }[]>`select avg(octet_length(data::text))::int as size from outbox_events`;
    const ratios = results.map((r) => r.ratio);
    const p99s = results.map((r) => r.bP99);
    const ratio = median(ratios);
    const everyP99 = p99s.every((v) => v < 1000);
    process.stdout.write(
      [
        '',
        `bench:webhooks — ${cpus().length} cores, node ${process.version}; delivery batch ${settings.batchSize}, concurrency ${settings.concurrency}, retries ${settings.retrySchedule.join(',')} s; event data ~${size} B`,
        `  load average (1 min) ${loadStart.toFixed(1)} at start, ${loadavg()[0]!.toFixed(1)} at end: other work on this machine skews every figure`,
        ...results.flatMap((r, i) => (ROUNDS > 1 ? [`  round ${i + 1}`, ...r.lines] : r.lines)),
        ...(ROUNDS > 1
          ? [
              `  over ${ROUNDS} rounds: ratio ${ratios.map((x) => x.toFixed(2)).join(', ')}, median ${ratio.toFixed(2)} (target ≥ 0.5: ${ratio >= 0.5 ? 'met' : 'NOT met'}); ` +
                `B p99 ${p99s.map((v) => `${v.toFixed(0)} ms`).join(', ')}, median ${median(p99s).toFixed(0)} ms (< 1 s in every round: ${everyP99 ? 'met' : 'NOT met'})`,
            ]
          : []),
        '',
      ].join('\n'),
    );
    if (problems.length) throw new Error(problems.join('; '));
  } finally {
    await cleanups.run();
  }
}

main().catch((err: unknown) => {
  process.stderr.write(`bench:webhooks failed: ${err instanceof Error ? err.stack : String(err)}\n`);
  process.exit(1);
});
