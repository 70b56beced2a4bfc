import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fuzzRequests, pool, prepareFuzzWorld, send, type FuzzWorld, type Outcome } from '../support/fuzz-cases.js';
import { servedRoutes } from '../support/fuzz-served-routes.js';
import { http, startTestStack, type TestStack } from '../support/harness.js';
import { specFor, type Fixture, type RouteSpec } from './fuzz-routes.js';

/**
 * Property-based fuzz of every route the app serves (issue 10 item 6), the list read from the app's
 * router so that a route without a fuzz spec fails here: fast-check generates, from each route's schema
 * (fuzz-routes.ts, fuzz-values.ts; requests built in test/support/fuzz-cases.ts), requests broken in one
 * place — wrong types, huge and deep bodies, NUL and control characters, extreme dates and integers,
 * crafted cursors, path traversal, bad multipart and forms, bad keys, tokens and sessions — with a fixed
 * seed. Every answer must be a 4xx with a JSON `{detail}` (a browser without a dashboard session: a 303 to
 * the login page), nothing may be stored, /health stays 200 throughout, and another team's ids answer
 * 404 (or 403) without its data. The 1 s latency goal is measured by `npm run bench:fuzz`, not here.
 */

const SEED = 20_261_123;
/** Requests per route; routes of a family (one schema, many paths: timeseries, summaries) get fewer each. */
const RUNS_PER_ROUTE = 60;
const RUNS_PER_FAMILY_ROUTE = 12;
const CONCURRENCY = 4;

let stack: TestStack;
let world: FuzzWorld;
let team: FuzzWorld['team'];
let other: FuzzWorld['other'];
let fixture: Fixture;
let otherIds: FuzzWorld['otherIds'];
let served: { method: string; path: string }[];
let routes: RouteSpec[];

beforeAll(async () => {
  // Rate limits off: every malformed request must reach the input boundary, not a 429 (rate-limit.test.ts covers those).
  stack = await startTestStack({ RATE_LIMIT_TEAM_PER_SECOND: '0', RATE_LIMIT_IP_PER_SECOND: '0' });
  world = await prepareFuzzWorld(stack);
  ({ team, other, fixture, otherIds } = world);
  served = await servedRoutes();
  routes = served.map((r) => specFor(r.method, r.path)).filter((r): r is RouteSpec => r !== undefined);
}, 60_000);

afterAll(async () => {
  await stack?.close();
});

/**
 * Every row of a team, as one fingerprint per table with a `team_id` column (all of them, found in the
 * catalogue, so a new table is watched too): any insert, update or delete changes it. Columns that record
 * only that a credential was used are left out.
 */
const BOOKKEEPING = new Set(['last_used_at']);
async function snapshot(teamId: string): Promise<Record<string, string>> {
  const tables = await stack.db.sql<{ table_name: string }[]>`
    select c.table_name from information_schema.columns c join information_schema.tables t using (table_schema, table_name)
    where c.table_schema = 'public' and c.column_name = 'team_id' and t.table_type = 'BASE TABLE' order by 1`;
  const out: Record<string, string> = {};
  for (const { table_name: t } of tables) {
    const cols = await stack.db.sql<{ column_name: string }[]>`
      select column_name from information_schema.columns where table_schema = 'public' and table_name = ${t} order by ordinal_position`;
    const kept = cols.map((c) => c.column_name).filter((c) => !BOOKKEEPING.has(c));
    const [row] = await stack.db.sql<{ n: number; h: string | null }[]>`
      select count(*)::int as n, md5(string_agg(x::text, ',' order by x::text)) as h
      from (select ${stack.db.sql(kept)} from ${stack.db.sql(t)} where team_id = ${teamId}) x`;
    out[t] = `${row!.n}:${row!.h ?? ''}`;
  }
  return out;
}


describe('fuzz: every route, malformed requests', () => {
  it('has a fuzz spec for every route the app serves (read from its router)', () => {
    const missing = served.filter((r) => !specFor(r.method, r.path)).map((r) => `${r.method} ${r.path}`);
    expect(missing).toEqual([]);
    expect(routes.length).toBe(served.length);
    expect(served.length).toBeGreaterThan(200);
  });

  it('answers each with a 4xx and a JSON {detail}, stores nothing, keeps /health 200, none slow', { timeout: 900_000 }, async () => {
    const requests = fuzzRequests(routes, world, { seed: SEED, runs: RUNS_PER_ROUTE, familyRuns: RUNS_PER_FAMILY_ROUTE });
    const before = { team: await snapshot(team.teamId), other: await snapshot(other.teamId) };

    const healthFailures: string[] = [];
    let healthChecks = 0;
    let stop = false;
    const health = (async () => {
      while (!stop) {
        const res = await http(stack, 'GET', '/health');
        healthChecks++;
        if (res.status !== 200) healthFailures.push(`${res.status} ${res.text.slice(0, 200)}`);
        await new Promise((r) => setTimeout(r, 250));
      }
    })();

    const started = performance.now();
    let outcomes: Outcome[];
    try {
      outcomes = await pool(requests, CONCURRENCY, (r) => send(stack.url, r));
    } finally {
      stop = true;
      await health;
    }
    const seconds = (performance.now() - started) / 1000;

    const times = outcomes.map((o) => o.ms).sort((a, b) => a - b);
    const slowest = outcomes.reduce((a, b) => (b.ms > a.ms ? b : a));
    const byStatus = outcomes.reduce<Record<number, number>>((acc, o) => ({ ...acc, [o.status]: (acc[o.status] ?? 0) + 1 }), {});
    console.info(
      `[fuzz] ${outcomes.length} requests over ${routes.length} routes in ${seconds.toFixed(1)} s; statuses ${JSON.stringify(byStatus)}; ` +
        `p50 ${times[Math.floor(times.length / 2)]!.toFixed(0)} ms, p99 ${times[Math.floor(times.length * 0.99)]!.toFixed(0)} ms, ` +
        `max ${slowest.ms.toFixed(0)} ms (${slowest.req.route}: ${slowest.req.what}); /health checked ${healthChecks}×`,
    );

    const closed = outcomes.filter((o) => o.status === 0).map((o) => `${o.req.route} [${o.req.what}]`);
    if (closed.length) console.info(`[fuzz] ${closed.length} oversized bodies refused by closing the connection, e.g. ${closed.slice(0, 3).join('; ')}`);
    const problems = outcomes.filter((o) => o.problem).map((o) => `${o.req.route} [${o.req.what}] → ${o.problem}`);
    if (problems.length) console.info(`[fuzz] problems:\n${problems.map((p) => p.slice(0, 300)).join('\n')}`);
    expect(problems.slice(0, 40), `${problems.length} of ${outcomes.length} requests`).toEqual([]);
    expect(healthFailures).toEqual([]);
    expect(healthChecks).toBeGreaterThan(0);
    // The goal is under 1 s (issue 10); on a shared 2-core test machine the bound is generous.
    expect(slowest.ms).toBeLessThan(5_000);
    expect(await snapshot(team.teamId)).toEqual(before.team);
    expect(await snapshot(other.teamId)).toEqual(before.other);
  });

  it('builds the dashboard URL from PUBLIC_URL, never from the Host header', async () => {
    const configured = await startTestStack({ PUBLIC_URL: 'https://labs.example.com' });
    try {
      for (const host of ['evil.example', 'attacker.test:8443']) {
        const res = await http(configured, 'GET', '/v2/team/svix/url', { apiKey: team.apiKey, headers: { host } });
        expect(res.status).toBe(200);
        expect(res.json.url).toBe('https://labs.example.com/dashboard/webhooks');
      }
    } finally {
      await configured.close();
    }
  });

  it("answers 404 (or 403) to another team's ids and never shows or changes its data", { timeout: 120_000 }, async () => {
    const before = await snapshot(other.teamId);
    const o = otherIds;
    const attempts: [string, string, unknown?][] = [
      ['GET', `/v2/user/${o.userId}`], ['GET', `/v2/user/resolve/${o.clientUserId}`], ['PATCH', `/v2/user/${o.userId}`, { fallback_time_zone: 'UTC' }],
      ['DELETE', `/v2/user/${o.userId}`], ['GET', `/v2/user/providers/${o.userId}`], ['POST', `/v2/user/undo_delete?user_id=${o.userId}`],
      ['GET', `/v3/order/${o.orderId}`], ['GET', `/v3/order/${o.orderId}/requisition/pdf`], ['GET', `/v3/order/${o.orderId}/result`],
      ['GET', `/v3/order/${o.orderId}/result/metadata`], ['GET', `/v3/order/${o.orderId}/result/pdf`], ['POST', `/v3/order/${o.orderId}/cancel`],
      ['POST', `/v3/order/${o.orderId}/test`],
      ['GET', `/v2/webhooks/endpoints/${o.endpointId}`], ['PATCH', `/v2/webhooks/endpoints/${o.endpointId}`, { description: 'taken' }],
      ['DELETE', `/v2/webhooks/endpoints/${o.endpointId}`], ['GET', `/v2/webhooks/endpoints/${o.endpointId}/secret`],
      ['POST', `/v2/webhooks/endpoints/${o.endpointId}/rotate_secret`], ['POST', `/v2/webhooks/endpoints/${o.endpointId}/recover`, { since: new Date(0).toISOString() }],
      ['GET', `/v3/lab_tests/${o.labTestId}`], ['PATCH', `/v3/lab_tests/${o.labTestId}`, { name: 'taken' }], ['GET', `/v3/lab_tests/${o.labTestId}/markers`],
      ['POST', '/v3/order/testkit', { user_id: o.userId, lab_test_id: fixture.labTestId, shipping_details: { receiver_name: 'X', first_line: '1 A St', city: 'B', state: 'CA', zip: '94105', country: 'US', phone_number: '+14155552671' } }],
      // orders' documents, draws and appointments
      ['PATCH', `/v3/order/${o.orderId}/draw_completed`], ['GET', `/v3/order/${o.orderId}/labels/pdf?collection_date=2024-01-01T08:00:00Z`],
      ['GET', `/v3/order/${o.orderId}/abn_pdf`], ['GET', `/v3/order/${o.orderId}/collection_instruction_pdf`], ['GET', `/v3/order/${o.orderId}/psc/info`],
      ...(['phlebotomy', 'psc'] as const).flatMap((k): [string, string, unknown?][] => [
        ['GET', `/v3/order/${o.orderId}/${k}/appointment`], ['POST', `/v3/order/${o.orderId}/${k}/appointment/book`, { booking_key: 'x' }],
        ['PATCH', `/v3/order/${o.orderId}/${k}/appointment/reschedule`, { booking_key: 'x' }],
        ['PATCH', `/v3/order/${o.orderId}/${k}/appointment/cancel`, k === 'psc' ? { cancellationReasonId: 'x' } : { cancellation_reason_id: 'x' }],
      ]),
      ['POST', `/v3/order/${o.orderId}/phlebotomy/appointment/request`, { address: { first_line: '1 A St', city: 'B', state: 'CA', zip_code: '94105' }, provider: 'getlabs' }],
      [
        'POST', '/v3/order/import',
        {
          user_id: o.userId, billing_type: 'client_bill', order_set: { lab_test_ids: [fixture.labTestId] }, collection_method: 'testkit', sample_id: 'CROSS-TEAM-1',
          patient_details: { first_name: 'X', last_name: 'Y', dob: '1990-01-01', gender: 'female', phone_number: '+14155552671', email: 'x@example.com' },
          patient_address: { first_line: '1 A St', city: 'B', state: 'CA', zip: '94105', country: 'US' },
        },
      ],
      // the other team itself, its users' insurance, info, devices, connections and link flows
      ['GET', `/v2/team/${o.teamId}`], ['GET', `/v2/team/${o.teamId}/physicians`],
      ['GET', `/v2/user/${o.userId}/insurance/latest`], ['GET', `/v2/user/${o.userId}/info/latest`], ['GET', `/v2/user/${o.userId}/device`],
      ['GET', `/v2/user/${o.userId}/device/${crypto.randomUUID()}`], ['DELETE', `/v2/user/${o.userId}/fitbit`], ['POST', `/v2/user/refresh/${o.userId}`],
      ['PATCH', `/v2/user/${o.userId}/info`, { first_name: 'Taken', last_name: 'Over', email: 'x@example.com', phone_number: '+14155552671', gender: 'female', dob: '1990-01-01', address: { first_line: '1 A St', city: 'B', state: 'CA', zip: '94105', country: 'US' } }],
      [
        'POST', `/v2/user/${o.userId}/insurance`,
        { payor_code: 'AETNA', member_id: 'M1', relationship: 'Self', insured: { first_name: 'X', last_name: 'Y', gender: 'female', dob: '1990-01-01', email: 'x@example.com', phone_number: '+14155552671', address: { first_line: '1 A St', city: 'B', state: 'CA', zip: '94105', country: 'US' } } },
      ],
      ['POST', '/v2/link/token', { user_id: o.userId }], ['POST', `/v2/link/code/create?user_id=${o.userId}`], ['POST', '/v2/link/connect/demo', { user_id: o.userId, provider: 'oura' }],
      ['POST', '/v2/link/provider/manual/apple_health_kit', { user_id: o.userId }],
      // its users' wearable data
      ['GET', `/v2/timeseries/${o.userId}/heartrate?start_date=2024-01-01`], ['GET', `/v2/timeseries/${o.userId}/steps/grouped?start_date=2024-01-01`],
      ['GET', `/v2/summary/sleep/${o.userId}?start_date=2024-01-01`], ['GET', `/v2/summary/profile/${o.userId}`], ['GET', `/v2/summary/workouts/${o.userId}/raw?start_date=2024-01-01`],
      ['POST', `/aggregate/v1/user/${o.userId}/query`, { timeframe: { type: 'relative', anchor: '2024-01-31', past: { value: 1, unit: 'year' } }, queries: [{ select: [{ sleep: 'id' }] }] }],
      ['GET', `/aggregate/v1/user/${o.userId}/continuous_query/weekly-sleep/result_table`], ['GET', `/aggregate/v1/user/${o.userId}/continuous_query/weekly-sleep/task_history`],
    ];
    for (const [method, path, body] of attempts) {
      const res = await http(stack, method, path, { apiKey: team.apiKey, ...(body !== undefined ? { body } : {}) });
      expect([403, 404], `${method} ${path} answered ${res.status}`).toContain(res.status);
      expect(res.json?.detail, `${method} ${path}`).toBeTruthy();
      for (const secret of [o.clientUserId, 'other endpoint', 'Other Patient']) expect(res.text, `${method} ${path}`).not.toContain(secret);
    }
    // Lists show only the caller's own records.
    for (const path of [
      '/v2/user', '/v3/orders', '/v2/webhooks/endpoints', '/v2/webhooks/events', '/v3/lab_tests', '/v2/user/metrics', '/v3/lab_test/lab_account',
      `/v2/introspect/resources?user_id=${o.userId}`, `/v2/introspect/historical_pull?user_id=${o.userId}`, `/v2/team/users/search?query_id=${o.clientUserId}`,
    ]) {
      const res = await http(stack, 'GET', path, { apiKey: team.apiKey });
      // A filter naming another team's user finds nothing: an empty list or a 404.
      expect([200, 404], `${path} answered ${res.status}`).toContain(res.status);
      for (const id of [o.userId, o.orderId, o.endpointId, o.labTestId, o.clientUserId]) expect(res.text, path).not.toContain(id);
    }
    expect(await snapshot(other.teamId)).toEqual(before);
  });
});
