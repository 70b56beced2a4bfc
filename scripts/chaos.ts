/**
 * npm run chaos — fault injection under load, on a prod-like stack of its own (scripts/stack-prod-like.ts:
 * Temporal v1.31.2 on an embedded Postgres, 2 API and 3 worker processes), loopback only, bounded.
 *
 * Load: --orders (1,000) testkit orders created through both APIs (round robin, X-Idempotency-Key, retried
 * through faults) and each walked to `completed` by the sandbox simulation with --step-delay (45) seconds per
 * step, so they are all in flight together; every order event goes out as a webhook to a verifying receiver
 * (bench/webhooks-receiver.ts) on loopback.
 * Faults, one after another while the orders run: SIGKILL a worker (its supervisor starts it again), SIGKILL the
 * Temporal server and start it again, restart Postgres (fast shutdown: every session is cut), stop the receiver
 * for --receiver-down (30) seconds. After each: time until the stack serves again (both APIs healthy and an
 * order event recorded after a baseline taken 1 s into the fault; for the receiver, a new delivery received).
 * Figures at the end: orders completed, order events recorded, webhook events recorded and delivered, lost (must
 * be 0), duplicated order events (must be 0), duplicated deliveries (same webhook-id; at-least-once) counted.
 * Exit 1 when an order did not complete, an event was lost, or an order event was recorded twice.
 */
import { randomUUID } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { sql as dsql } from 'drizzle-orm';
import { createDb, type Db } from '../db/client.js';
import { createTeam } from '../db/queries/teams.js';
import { StartupError } from '../lib/startup.js';
import { testkitLabTest } from '../test/support/catalog-fixture.js';
import { freePort } from '../bench/support.js';
import { BenchReceiver } from '../bench/webhooks-receiver.js';
import { DEFAULT_WORKERS, parseWorkers, startProdLikeStack, stackPorts, type ProdLikeStack } from './stack-prod-like.js';
import { portIsFree } from '../lib/startup.js';

const log = (m: string) => process.stderr.write(`[chaos] ${new Date().toISOString().slice(11, 19)} ${m}\n`);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const secs = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

function flags() {
  const { values } = parseArgs({
    options: {
      orders: { type: 'string', default: '1000' },
      concurrency: { type: 'string', default: '16' },
      'step-delay': { type: 'string', default: '45' },
      'receiver-down': { type: 'string', default: '30' },
      gap: { type: 'string', default: '10' },
      timeout: { type: 'string', default: '1200' },
      'base-port': { type: 'string' },
    },
    strict: true,
  });
  const num = (name: keyof typeof values, min: number, max: number) => {
    const n = Number(values[name]);
    if (!Number.isInteger(n) || n < min || n > max) throw new StartupError(`--${name} must be an integer ${min}…${max}, got ${values[name]}`);
    return n;
  };
  return {
    orders: num('orders', 1, 100_000),
    concurrency: num('concurrency', 1, 256),
    stepDelay: num('step-delay', 0, 600),
    receiverDown: num('receiver-down', 1, 3600),
    gap: num('gap', 0, 600),
    timeout: num('timeout', 60, 24 * 3600),
    basePort: values['base-port'] === undefined ? undefined : num('base-port', 1024, 32700),
  };
}

/** A base port whose whole range (about 25 ports) is free, away from the well-known ones. */
async function freeBase(): Promise<number> {
  for (let attempt = 0; attempt < 50; attempt++) {
    const base = 20_000 + Math.floor(Math.random() * 12_000);
    const p = stackPorts(base, 2, 3);
    const ports = [p.postgres, ...Object.values(p.temporal), ...p.apis, ...p.workerMetrics];
    if ((await Promise.all(ports.map((x) => portIsFree(x)))).every(Boolean)) return base;
  }
  throw new StartupError('no free range of ports found for the stack');
}

/** A query retried through a Postgres restart (the chaos client's own connections are cut too). */
async function query<T>(fn: () => Promise<T>): Promise<T> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await fn();
    } catch (err) {
      if (attempt >= 60) throw err;
      await sleep(1000);
    }
  }
}

/** Retries what a fault may break: network errors, 5xx and 429. Returns the final response. */
async function retrying(urls: string[], start: number, make: (base: string) => Promise<Response>, stats: { retries: number }): Promise<{ res: Response; retried: boolean }> {
  let delay = 250;
  for (let attempt = 0; ; attempt++) {
    const base = urls[(start + attempt) % urls.length]!;
    try {
      const res = await make(base);
      if (res.status < 500 && res.status !== 429) return { res, retried: attempt > 0 };
      await res.body?.cancel();
    } catch {
      // connection refused or reset: an API process or its dependencies are down
    }
    stats.retries++;
    if (attempt > 400) throw new Error('gave up after 400 attempts');
    await sleep(delay);
    delay = Math.min(delay * 2, 4000);
  }
}

interface Fault {
  name: string;
  /** Breaks the part (resolves once it is down). */
  inject: () => Promise<void>;
  /** Brings it back (a supervisor's restart, a server start). */
  heal: () => Promise<void>;
  /** For the receiver: recovery needs a new delivery received after the fault healed. */
  needsDelivery?: boolean;
}

async function main() {
  const opts = flags();
  const runId = randomUUID().slice(0, 8);
  const basePort = opts.basePort ?? (await freeBase());
  const dataDir = mkdtempSync(join(tmpdir(), 'labflow-chaos-'));
  const logDir = join(tmpdir(), `labflow-chaos-logs-${runId}`); // kept: the processes' logs of this run
  // Every attempt of a delivery within the receiver's outage plus two minutes, then the production schedule's tail.
  const schedule = ['0', '1', '2', '4', '8', ...Array.from({ length: Math.ceil((opts.receiverDown + 120) / 10) }, () => '10'), '300', '1800'];
  log(`run ${runId}: ${opts.orders} orders, step delay ${opts.stepDelay} s, receiver down ${opts.receiverDown} s; stack on ports ${basePort}…${basePort + 23}, data in ${dataDir}`);
  let stack: ProdLikeStack | null = null;
  let db: ReturnType<typeof createDb> | null = null;
  const receiver = { current: null as BenchReceiver | null };
  let interrupted = false;
  const cleanup = async () => {
    await receiver.current?.stop().catch(() => {});
    await db?.close().catch(() => {});
    await stack?.stop();
  };
  process.once('SIGINT', () => {
    interrupted = true;
    log('interrupted: stopping the stack…');
    void cleanup().then(() => process.exit(130));
  });
  try {
    stack = await startProdLikeStack({
      basePort,
      dataDir,
      fresh: true,
      logDir,
      apis: 2,
      workers: parseWorkers(DEFAULT_WORKERS),
      serviceEnv: { WEBHOOK_RETRY_SCHEDULE: schedule.join(','), WEBHOOK_TIMEOUT_SECONDS: '10', RATE_LIMIT_TEAM_PER_SECOND: '0', LOG_LEVEL: 'warn' },
      log,
    });
    const st = stack;
    db = createDb(st.databaseUrl, { max: 4 });
    const dbh: Db = db.db;
    const team = await createTeam(dbh, { name: `chaos-${runId}`, environment: 'sandbox', region: 'us' });
    const { labTestId } = await testkitLabTest(dbh, team.teamId);
    const headers = { 'x-service-api-key': team.apiKey, 'content-type': 'application/json' };
    const api = st.apiUrls;

    const receiverPort = await freePort();
    const endpointRes = await fetch(`${api[0]}/v2/webhooks/endpoints`, { method: 'POST', headers, body: JSON.stringify({ url: `http://127.0.0.1:${receiverPort}/hooks`, description: 'chaos' }) });
    if (endpointRes.status !== 201) throw new Error(`webhook endpoint: ${endpointRes.status} ${await endpointRes.text()}`);
    const { secret } = (await endpointRes.json()) as { secret: string };
    const rx = new BenchReceiver(secret);
    receiver.current = rx;
    await rx.start(receiverPort);
    const userRes = await fetch(`${api[0]}/v2/user`, { method: 'POST', headers, body: JSON.stringify({ client_user_id: `chaos-${runId}` }) });
    const { user_id: userId } = (await userRes.json()) as { user_id: string };
    const body = JSON.stringify({
      user_id: userId,
      order_set: { lab_test_ids: [labTestId] },
      patient_details: { first_name: 'Chaos', last_name: 'Patient', dob: '1980-01-01', gender: 'other', phone_number: '+14155552671', email: 'c@example.com' },
      patient_address: { first_line: '1 Main St', city: 'Austin', state: 'TX', zip: '78701', country: 'US' },
    });

    const counts = async () =>
      query(async () => {
        const [row] = await dbh.execute<{ orders: number; completed: number; events: number; outbox: number }>(dsql`
          select (select count(*)::int from orders where team_id = ${team.teamId}) as orders,
                 (select count(*)::int from orders where team_id = ${team.teamId} and status = 'completed') as completed,
                 (select count(*)::int from order_events e join orders o on o.id = e.order_id where o.team_id = ${team.teamId}) as events,
                 (select count(*)::int from outbox_events where team_id = ${team.teamId}) as outbox`);
        return row!;
      });

    // The load: create every order (idempotent retries), then start its simulated lifecycle.
    const stats = { retries: 0, simulateRefusedAfterRetry: 0 };
    const orderIds: string[] = [];
    let next = 0;
    const started = Date.now();
    const load = Promise.all(
      Array.from({ length: opts.concurrency }, async () => {
        while (next < opts.orders) {
          const i = next++;
          const key = `chaos-${runId}-${i}`;
          const created = await retrying(api, i, (b) => fetch(`${b}/v3/order`, { method: 'POST', headers: { ...headers, 'x-idempotency-key': key }, body, signal: AbortSignal.timeout(30_000) }), stats);
          const json = (await created.res.json()) as { order?: { id: string } };
          if (created.res.status !== 200 || !json.order) throw new Error(`order ${i}: ${created.res.status} ${JSON.stringify(json)}`);
          orderIds.push(json.order.id);
          const sim = await retrying(
            api,
            i + 1,
            (b) => fetch(`${b}/v3/order/${json.order!.id}/test?final_status=completed.testkit.completed&delay=${opts.stepDelay}`, { method: 'POST', headers, signal: AbortSignal.timeout(30_000) }),
            stats,
          );
          if (sim.res.status !== 200) {
            const text = await sim.res.text();
            // A retry after an attempt whose answer was lost finds the simulation already running.
            if (sim.retried && sim.res.status === 400) stats.simulateRefusedAfterRetry++;
            else throw new Error(`simulate ${json.order.id}: ${sim.res.status} ${text}`);
          }
        }
      }),
    );
    let loadError: unknown = null;
    const loadDone = load.catch((err: unknown) => (loadError = err));

    let peakInFlight = 0;
    const ticker = setInterval(() => {
      void counts().then((c) => {
        peakInFlight = Math.max(peakInFlight, c.orders - c.completed);
        log(`orders ${c.orders} created, ${c.completed} completed (${c.orders - c.completed} in flight); order events ${c.events}; webhook events ${c.outbox}, received ${rx.receipts.size}; client retries ${stats.retries}`);
      }, () => {});
    }, 10_000);

    // Faults start once a fifth of the orders exist, so all of them hit orders in flight.
    while (orderIds.length < Math.min(opts.orders, Math.max(1, Math.floor(opts.orders / 5))) && !loadError) await sleep(500);
    const victim = st.workers[0]!;
    const faults: Fault[] = [
      {
        name: `SIGKILL ${victim.name}`,
        inject: async () => {
          const ready = victim.nextReady();
          victim.kill();
          faultHeal = ready;
        },
        heal: () => faultHeal,
      },
      { name: 'SIGKILL the Temporal server, start it again', inject: () => st.killTemporal(), heal: () => st.startTemporal() },
      { name: 'restart Postgres (fast shutdown)', inject: () => st.stopPostgres(), heal: () => st.startPostgres() },
      {
        name: `webhook receiver down ${opts.receiverDown} s`,
        needsDelivery: true,
        inject: () => rx.stop(),
        heal: async () => {
          await sleep(opts.receiverDown * 1000);
          await rx.start(receiverPort);
        },
      },
    ];
    let faultHeal: Promise<void> = Promise.resolve();
    const recoveries: { name: string; inFlight: number; outage: number; recovered: number }[] = [];
    for (const fault of faults) {
      if (loadError || interrupted) break;
      const before = await counts();
      log(`FAULT: ${fault.name} (${before.orders - before.completed} orders in flight)`);
      const t0 = Date.now();
      await fault.inject();
      let healedAt = 0;
      const healing = fault.heal().then(() => {
        healedAt = Date.now();
      });
      // Recovered: both APIs healthy and an order event recorded after a baseline taken 1 s into the fault (so
      // commits already under way when it struck do not count); for the receiver, a delivery received after it
      // came back. With a second replica, a killed worker may never stop the service.
      await sleep(1000);
      const eventsAtFault = (await counts()).events;
      for (;;) {
        const healthy = (await Promise.all(api.map((u) => fetch(`${u}/health`, { signal: AbortSignal.timeout(3000) }).then((r) => r.ok, () => false)))).every(Boolean);
        const progressed = (await counts()).events > eventsAtFault;
        const delivered = !fault.needsDelivery || (healedAt > 0 && [...rx.receipts.values()].some((r) => r.at >= healedAt));
        if (healthy && progressed && delivered) break;
        if (Date.now() - t0 > 600_000) throw new Error(`${fault.name}: no recovery within 10 minutes`);
        await sleep(250);
      }
      const recovered = Date.now() - t0;
      await healing;
      recoveries.push({ name: fault.name, inFlight: before.orders - before.completed, outage: healedAt - t0, recovered });
      log(`service recovered from "${fault.name}" after ${secs(recovered)} (the part was back after ${secs(healedAt - t0)})`);
      await sleep(opts.gap * 1000);
    }

    await loadDone;
    if (loadError) throw loadError;
    log('all faults injected; waiting for every order to complete and every event to arrive…');
    const deadline = started + opts.timeout * 1000;
    let last = await counts();
    while (Date.now() < deadline) {
      last = await counts();
      const ids = await query(() => dbh.execute<{ id: string }>(dsql`select id from outbox_events where team_id = ${team.teamId}`));
      if (last.completed === opts.orders && rx.countOf(ids.map((r) => r.id)) === ids.length) break;
      await sleep(2000);
    }
    clearInterval(ticker);
    const elapsed = Date.now() - started;

    // Figures, straight from Postgres and the receiver.
    const outbox = (await dbh.execute<{ id: string }>(dsql`select id from outbox_events where team_id = ${team.teamId}`)).map((r) => r.id);
    const summary = rx.summary(outbox);
    const extraDeliveries = [...rx.receipts.values()].reduce((n, r) => n + r.count - 1, 0);
    const [dupes] = await dbh.execute<{ n: number }>(dsql`
      select count(*)::int as n from (select e.order_id, e.status from order_events e join orders o on o.id = e.order_id
        where o.team_id = ${team.teamId} group by 1, 2 having count(*) > 1) d`);
    // Every order takes the same path: a status some order has and another lacks is a lost order event.
    const [missing] = await dbh.execute<{ n: number }>(dsql`
      with ev as (select e.order_id, e.status from order_events e join orders o on o.id = e.order_id where o.team_id = ${team.teamId}),
           statuses as (select distinct status from ev), ords as (select distinct order_id from ev)
      select count(*)::int as n from ords cross join statuses s where not exists (select 1 from ev where ev.order_id = ords.order_id and ev.status = s.status)`);
    const deliveries = await dbh.execute<{ status: string; n: number }>(dsql`select status, count(*)::int as n from webhook_deliveries where team_id = ${team.teamId} group by 1 order by 1`);
    const restarts = [...st.workers, ...st.apis].map((p) => `${p.name} ${p.restarts}`).join(', ');
    const ok = last.completed === opts.orders && summary.missing.length === 0 && dupes!.n === 0 && missing!.n === 0 && rx.invalid === 0;
    const lines = [
      '',
      `chaos — ${opts.orders} orders (step delay ${opts.stepDelay} s, peak ${peakInFlight} in flight), 2 API + 3 worker processes, Temporal v1.31.2 on Postgres, ${secs(elapsed)}`,
      '  fault                                              in flight   part back after   service recovered after',
      ...recoveries.map((r) => `  ${r.name.padEnd(50)} ${String(r.inFlight).padStart(9)}   ${secs(r.outage).padStart(15)}   ${secs(r.recovered).padStart(23)}`),
      `  orders          ${last.orders} created, ${last.completed} completed (${opts.orders - last.completed} not completed)`,
      `  order events    ${last.events} recorded, duplicated ${dupes!.n}, lost ${missing!.n}`,
      `  webhook events  ${outbox.length} recorded, ${outbox.length - summary.missing.length} delivered, lost ${summary.missing.length}; duplicated deliveries (same webhook-id) ${extraDeliveries} extra arrivals of ${summary.duplicates} events; bad signatures ${rx.invalid}`,
      `  deliveries      ${deliveries.map((d) => `${d.status} ${d.n}`).join(', ')}`,
      `  client          ${stats.retries} request retries through the faults; ${stats.simulateRefusedAfterRetry} simulate retries found the simulation already started`,
      `  restarts        ${restarts}`,
      `  logs            ${logDir}`,
      `  result          ${ok ? 'PASS: 0 lost, 0 duplicated order events' : 'FAIL'}`,
      '',
    ];
    process.stdout.write(lines.join('\n'));
    process.exitCode = ok ? 0 : 1;
  } finally {
    if (!interrupted) await cleanup();
  }
}

main().catch((err: unknown) => {
  process.stderr.write(`chaos failed: ${err instanceof StartupError ? err.message : err instanceof Error ? err.stack : String(err)}\n`);
  process.exit(1);
});
