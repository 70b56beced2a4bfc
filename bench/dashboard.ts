/**
 * `tsx bench/dashboard.ts [--orders 10000] [--runs 30]`: page timings of the operations dashboard with N orders
 * in a scratch database (BENCH_DATABASE_URL's server, else an embedded Postgres) and a scratch Temporal
 * dev server. Orders are bulk-inserted (no workflows: the order page's describe()/history calls answer
 * "not found" from Temporal — the real round trip, not a full history). Pages are served in process by
 * the real app with a real operator session; prints p50/p95/max per page.
 */
import { parseArgs } from 'node:util';
import { Client, Connection } from '@temporalio/client';
import { createApp } from '../api/app.js';
import { hashPassword } from '../api/dashboard/password.js';
import { createDb } from '../db/client.js';
import { createSession, insertOperator } from '../db/queries/dashboard/operators.js';
import { createLogger } from '../lib/logger.js';
import { benchLog, cleanupStack, percentile, scratchServices } from './support.js';

const { values } = parseArgs({ options: { orders: { type: 'string', default: '10000' }, runs: { type: 'string', default: '30' } } });
const N = Number(values.orders);
const RUNS = Number(values.runs);
const log = benchLog('bench:dashboard');

async function main() {
  const cleanups = cleanupStack();
  try {
    const { databaseUrl, temporalAddress } = await scratchServices(log, cleanups, { temporal: true, databaseUrl: process.env.BENCH_DATABASE_URL });
    const db = createDb(databaseUrl, { max: 5 });
    cleanups.push(() => db.close());
    log(`inserting ${N} orders (5 teams, ${Math.ceil(N / 10)} users, 3 events, 1 webhook event + delivery + attempt each)`);
    await db.sql.unsafe(`
      insert into teams (id, name, environment, region) select gen_random_uuid(), 'team ' || g, 'sandbox', 'us' from generate_series(1, 5) g;
      insert into users (id, team_id, client_user_id)
        select gen_random_uuid(), (select id from teams order by id offset (g % 5) limit 1), 'client-' || g from generate_series(1, ${Math.ceil(N / 10)}) g;
      insert into webhook_endpoints (id, team_id, url, secret_enc, created_at, updated_at)
        select gen_random_uuid(), id, 'https://example.com/hooks/' || name, 'x', now(), now() from teams;
      create temp table bench_orders as
        with u as (select id, team_id, row_number() over () as n from users),
             src as (select g, gen_random_uuid() as o from generate_series(1, ${N}) g)
        select src.g, src.o, u.id as user_id, u.team_id, now() - (src.g || ' minutes')::interval as created_at
        from src join u on u.n = 1 + (src.g % ${Math.ceil(N / 10)});
      insert into order_transactions (id, team_id, created_at) select o, team_id, created_at from bench_orders;
      insert into orders (id, team_id, user_id, lab_test_id, method, status, low_level_status, low_level_status_created_at, sample_id,
                          details_id, patient_details, workflow_id, transaction_id, created_at, updated_at)
        select o, team_id, user_id, (select id from lab_tests limit 1), (array['testkit','walk_in_test','at_home_phlebotomy'])[1 + g % 3],
               (array['received','collecting_sample','completed','cancelled'])[1 + g % 4], 'ordered', now(), 'S' || lpad(g::text, 11, '0'),
               gen_random_uuid(), jsonb_build_object('first_name', 'Pat' || (g % 97), 'last_name', 'Name' || g), 'lab-order-' || o,
               o, created_at, now()
        from bench_orders;
      insert into order_events (order_id, id, status, created_at) select id, k, 'received.testkit.ordered', created_at from orders, generate_series(1, 3) k;
      insert into outbox_events (id, team_id, user_id, event_type, subject_id, data, created_at)
        select gen_random_uuid(), team_id, user_id, 'labtest.order.created', id, '{}', created_at from orders;
      insert into webhook_deliveries (id, event_id, endpoint_id, team_id, status, attempts, created_at)
        select gen_random_uuid(), e.id, w.id, e.team_id, 'delivered', 1, e.created_at from outbox_events e join webhook_endpoints w on w.team_id = e.team_id;
      insert into webhook_attempts (delivery_id, attempted_at, status_code, duration_ms) select id, created_at, 204, 80 from webhook_deliveries;
      analyze;`);
    const op = await insertOperator(db.db, { email: 'bench@example.com', passwordHash: await hashPassword('bench password'), role: 'operator' });
    const token = await createSession(db.db, op!.id, 3600);
    const connection = await Connection.connect({ address: temporalAddress! });
    cleanups.push(() => connection.close());
    const temporal = new Client({ connection, namespace: 'default' });
    const app = createApp({
      db,
      temporal,
      logger: createLogger({ level: 'silent', pretty: false }),
      config: { SERVICE_ENVIRONMENT: 'sandbox', SERVICE_REGION: 'us', TEMPORAL_NAMESPACE: 'default', USER_DELETION_GRACE_SECONDS: 60, API_KEY_CACHE_TTL_SECONDS: 0 },
    });
    const [sample] = await db.sql<{ id: string; sample_id: string; team_id: string; created_at: Date }[]>`select id, sample_id, team_id, created_at from orders order by created_at desc offset 137 limit 1`;
    const [client] = await db.sql<{ client_user_id: string }[]>`select client_user_id from users offset 42 limit 1`;
    const cursor = `${new Date(sample!.created_at).toISOString()}_${sample!.id}`;
    const pages: [string, string][] = [
      ['orders, first page', '/dashboard/orders'],
      ['orders, next page (keyset)', `/dashboard/orders?before=${encodeURIComponent(cursor)}`],
      ['search: sample id', `/dashboard/orders?q=${sample!.sample_id}`],
      ['search: order id', `/dashboard/orders?q=${sample!.id}`],
      ['search: client_user_id', `/dashboard/orders?q=${client!.client_user_id}`],
      ['search: patient name prefix', '/dashboard/orders?q=name42'],
      ['filter: team + status', `/dashboard/orders?team=${sample!.team_id}&status=completed`],
      ['filter: method + dates', `/dashboard/orders?method=walk_in_test&from=2020-01-01&to=2100-01-01`],
      ['order page', `/dashboard/orders/${sample!.id}`],
      ['webhooks', '/dashboard/webhooks'],
      ['parsing jobs', '/dashboard/parsing'],
      ['overview charts, 14 days', '/dashboard/overview'],
      ['overview charts, 90 days', '/dashboard/overview?days=90'],
      ['teams and keys', '/dashboard/teams'],
      ['workflows: running, by team', `/dashboard/workflows?view=running&team=${sample!.team_id}`],
    ];
    const headers = { cookie: `lf_session=${token}`, accept: 'text/html' };
    process.stdout.write(`dashboard pages with ${N} orders (${RUNS} runs each, in process, ms)\n`);
    process.stdout.write(`${'page'.padEnd(32)} ${'p50'.padStart(7)} ${'p95'.padStart(7)} ${'max'.padStart(7)}\n`);
    for (const [name, path] of pages) {
      const times: number[] = [];
      for (let i = 0; i < RUNS + 3; i++) {
        const t = performance.now();
        const res = await app.request(path, { headers });
        await res.text();
        if (res.status !== 200) throw new Error(`${path}: ${res.status}`);
        if (i >= 3) times.push(performance.now() - t); // three warm-ups
      }
      times.sort((a, b) => a - b);
      const f = (x: number) => x.toFixed(1).padStart(7);
      process.stdout.write(`${name.padEnd(32)} ${f(percentile(times, 50))} ${f(percentile(times, 95))} ${f(times.at(-1)!)}\n`);
    }
  } finally {
    await cleanups.run();
  }
}

main().catch((err: unknown) => {
  process.stderr.write(`bench failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  process.exit(1);
});
