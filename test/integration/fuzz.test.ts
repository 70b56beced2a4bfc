import { request } from 'node:http';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPartnerKey } from '../../db/queries/partners.js';
import { testkitLabTest } from '../support/catalog-fixture.js';
import { http, newTeam, startTestStack, type TestStack } from '../support/harness.js';
import { ROUTES, baseRequest, type Fixture, type RouteSpec } from './fuzz-routes.js';
import { DEEP, badJsonValue, badMultipart, badPathValue, badQueryValue } from './fuzz-values.js';

/**
 * Property-based fuzz of every route (issue 10 item 6): fast-check generates, from each route's schema
 * (fuzz-routes.ts), requests broken in one place — wrong types, huge and deep bodies, NUL and control
 * characters, extreme dates and integers, crafted cursors, path traversal, bad multipart, bad keys —
 * with a fixed seed. Every answer must be a 4xx with a JSON `{detail}`, nothing may be stored, /health
 * stays 200 throughout, and another team's ids answer 404 without its data.
 */

const SEED = 20_261_123;
const RUNS_PER_ROUTE = 60;
const CONCURRENCY = 4;

let stack: TestStack;
let team: { teamId: string; apiKey: string };
let other: { teamId: string; apiKey: string };
let partnerKey: string;
let fixture: Fixture;
let otherIds: { userId: string; clientUserId: string; endpointId: string; labTestId: string; orderId: string };

async function createUser(apiKey: string, clientUserId: string): Promise<string> {
  const res = await http(stack, 'POST', '/v2/user', { apiKey, body: { client_user_id: clientUserId } });
  expect(res.status).toBe(200);
  return res.json.user_id as string;
}

async function createEndpoint(apiKey: string, description: string): Promise<string> {
  const res = await http(stack, 'POST', '/v2/webhooks/endpoints', { apiKey, body: { url: 'http://127.0.0.1:9/hook', description } });
  expect(res.status).toBe(201);
  return res.json.id as string;
}

beforeAll(async () => {
  // Rate limits off: every malformed request must reach the input boundary, not a 429 (rate-limit.test.ts covers those).
  stack = await startTestStack({ RATE_LIMIT_TEAM_PER_SECOND: '0', RATE_LIMIT_IP_PER_SECOND: '0' });
  team = await newTeam(stack, 'fuzzed team');
  other = await newTeam(stack, 'other team');
  partnerKey = (await createPartnerKey(stack.db.db, { name: 'fuzz operator', kind: 'operator', labId: null, environment: 'sandbox', region: 'us' })).apiKey;
  const clientUserId = `fuzz-${crypto.randomUUID()}`;
  const lab = await testkitLabTest(stack.db.db, team.teamId);
  const markers = await stack.db.sql<{ id: number; provider_id: string }[]>`
    select m.id, m.provider_id from markers m join lab_test_markers l on l.marker_id = m.id where l.lab_test_id = ${lab.labTestId} limit 1`;
  fixture = {
    userId: await createUser(team.apiKey, clientUserId),
    clientUserId,
    labTestId: lab.labTestId,
    labId: lab.labId,
    markerId: markers[0]!.id,
    providerId: markers[0]!.provider_id,
    endpointId: await createEndpoint(team.apiKey, 'fuzzed endpoint'),
  };
  const otherClientUserId = `secret-${crypto.randomUUID()}`;
  const otherUserId = await createUser(other.apiKey, otherClientUserId);
  const otherLab = await testkitLabTest(stack.db.db, other.teamId);
  const order = await http(stack, 'POST', '/v3/order/testkit', {
    apiKey: other.apiKey,
    body: {
      user_id: otherUserId, lab_test_id: otherLab.labTestId,
      shipping_details: { receiver_name: 'Other Patient', first_line: '1 Elm St', city: 'Austin', state: 'TX', zip: '78701', country: 'US', phone_number: '+14155552671' },
    },
  });
  expect(order.status).toBe(200);
  otherIds = {
    userId: otherUserId, clientUserId: otherClientUserId, endpointId: await createEndpoint(other.apiKey, 'other endpoint'),
    labTestId: otherLab.labTestId, orderId: (order.json.order as { id: string }).id,
  };
}, 60_000);

afterAll(async () => {
  await stack?.close();
});

/** Every row of a team, as one fingerprint per table: any insert, update or delete changes it. */
async function snapshot(teamId: string): Promise<Record<string, string>> {
  const tables = ['users', 'orders', 'webhook_endpoints', 'parsing_jobs', 'lab_tests', 'idempotency_keys', 'outbox_events', 'webhook_deliveries'];
  const out: Record<string, string> = {};
  for (const t of tables) {
    const [row] = await stack.db.sql<{ n: number; h: string | null }[]>`
      select count(*)::int as n, md5(string_agg(x::text, ',' order by x::text)) as h from ${stack.db.sql(t)} x where team_id = ${teamId}`;
    out[t] = `${row!.n}:${row!.h ?? ''}`;
  }
  return out;
}

// ---- requests ------------------------------------------------------------------------------------

interface FuzzRequest {
  route: string;
  what: string;
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: string;
}

function setPath(target: unknown, dotted: string, value: unknown): unknown {
  const copy = structuredClone(target ?? {}) as Record<string, unknown>;
  const keys = dotted.split('.');
  let node: Record<string, unknown> = copy;
  for (let i = 0; i < keys.length - 1; i++) {
    const k = keys[i]!;
    if (typeof node[k] !== 'object' || node[k] === null) node[k] = /^\d+$/.test(keys[i + 1]!) ? [{}] : {};
    node = node[k] as Record<string, unknown>;
  }
  node[keys.at(-1)!] = value;
  return copy;
}

function authHeaders(route: RouteSpec): Record<string, string> {
  if (route.auth === 'team') return { 'x-service-api-key': team.apiKey };
  if (route.auth === 'partner') return { 'x-partner-api-key': partnerKey };
  return {};
}

/** Requests for one route, each broken in one place. */
function requestsFor(route: RouteSpec): fc.Arbitrary<FuzzRequest> {
  const { params, body: base } = baseRequest(route, fixture);
  const build = (what: string, o: { params?: Record<string, string>; query?: string; body?: string; headers?: Record<string, string>; contentType?: string }): FuzzRequest => {
    const p = { ...Object.fromEntries(Object.entries(params).map(([k, v]) => [k, encodeURIComponent(v)])), ...o.params };
    const path = route.path.replace(/\{(\w+)\}/g, (_, k: string) => p[k]!) + (o.query ? `?${o.query}` : '');
    const body = o.body ?? (base === undefined ? undefined : JSON.stringify(base));
    const headers = { ...authHeaders(route), ...o.headers, ...(body !== undefined ? { 'content-type': o.contentType ?? 'application/json' } : {}) };
    return { route: `${route.method} ${route.path}`, what, method: route.method, path, headers, ...(body !== undefined ? { body } : {}) };
  };
  const families: fc.WeightedArbitrary<FuzzRequest>[] = [];
  const add = (arbitrary: fc.Arbitrary<FuzzRequest>, weight = 3) => families.push({ arbitrary, weight });
  const paramKinds = Object.entries(route.params ?? {});
  if (paramKinds.length) {
    add(fc.constantFrom(...paramKinds).chain(([k, kind]) => badPathValue(kind).map((v) => build(`path ${k}=${v.slice(0, 40)}`, { params: { [k]: v } }))));
  }
  const queryKinds = Object.entries(route.query ?? {});
  if (queryKinds.length) {
    add(fc.constantFrom(...queryKinds).chain(([k, kind]) => badQueryValue(kind).map((v) => build(`query ${k}=${v.slice(0, 40)}`, { query: `${k}=${v}` }))));
  }
  const fieldKinds = Object.entries(route.body ?? {});
  if (fieldKinds.length) {
    add(
      fc.constantFrom(...fieldKinds).chain(([field, kind]) =>
        badJsonValue(kind).map((v) => {
          const deep = v === '__DEEP__';
          const text = JSON.stringify(setPath(base, field, v)).replace('"__DEEP__"', deep ? `${'['.repeat(10_000)}${']'.repeat(10_000)}` : '"__DEEP__"');
          return build(`body ${field}=${JSON.stringify(v)?.slice(0, 40) ?? 'undefined'}`, { body: text });
        }),
      ),
    );
    add(
      fc
        .oneof(
          DEEP.map((b) => ({ what: `deep body (${b.length / 2})`, b })),
          fc.integer({ min: 65, max: 5000 }).map((n) => ({ what: `deep object body (${n})`, b: `${'{"a":'.repeat(n)}1${'}'.repeat(n)}` })),
          fc.constantFrom('{', '{"a":', 'not json', '[1,2', '\u0000', '{"a":"\\u0000"}', 'null', '1', '"x"', '[]', 'true').map((b) => ({ what: `raw ${b}`, b })),
          fc.constant({ what: 'body of 900 kB', b: JSON.stringify({ ...(base as object), pad: 'p'.repeat(900_000) }) }),
        )
        .map(({ what, b }) => build(what, { body: b })),
    );
  }
  if (route.multipart) add(badMultipart(fixture.userId).map((m) => build(m.what, { body: m.body, contentType: m.contentType })));
  if (route.auth !== 'none') {
    const header = route.auth === 'team' ? 'x-service-api-key' : 'x-partner-api-key';
    add(
      fc.constantFrom('', 'garbage', 'sk_us_prod_'.padEnd(60, 'x'), 'k'.repeat(8000), other.apiKey).map((key) => {
        const r = build(`${header}=${key.slice(0, 20)}`, {});
        const headers = { ...r.headers };
        delete headers['x-service-api-key'];
        delete headers['x-partner-api-key'];
        // A team key on the partner API (or nothing at all) must not open it either.
        if (key === other.apiKey) headers[route.auth === 'team' ? 'x-partner-api-key' : 'x-service-api-key'] = key;
        else if (key) headers[header] = key;
        return { ...r, headers };
      }),
      1,
    );
  }
  return fc.oneof(...families);
}

interface Outcome {
  req: FuzzRequest;
  status: number;
  ms: number;
  problem: string | null;
}

/**
 * One request on a connection of its own, read as soon as the answer arrives: a server may answer an
 * oversized body (413, `Connection: close`) and close before the client has sent it all, which `fetch`
 * reports as a socket error instead of the answer. A write error after the answer is not a failure.
 */
function exchange(req: FuzzRequest): Promise<{ status: number; contentType: string; text: string }> {
  return new Promise((resolve, reject) => {
    const url = new URL(`${stack.url}${req.path}`);
    const headers: Record<string, string | number> = { ...req.headers };
    if (req.body !== undefined) headers['content-length'] = Buffer.byteLength(req.body);
    let answered = false;
    const r = request({ host: url.hostname, port: url.port, path: `${url.pathname}${url.search}`, method: req.method, headers, agent: false }, (res) => {
      answered = true;
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, contentType: String(res.headers['content-type'] ?? ''), text: Buffer.concat(chunks).toString('utf8') }));
      res.on('error', reject);
    });
    r.on('error', (err) => {
      if (!answered) reject(err);
    });
    r.end(req.body);
  });
}

async function send(req: FuzzRequest): Promise<Outcome> {
  const start = performance.now();
  const answer = await exchange(req);
  const res = { status: answer.status, headers: { get: (name: string) => (name === 'content-type' ? answer.contentType : null) } };
  const text = answer.text;
  const ms = performance.now() - start;
  let problem: string | null = null;
  if (res.status >= 500) problem = `${res.status}: ${text.slice(0, 200)}`;
  else if (res.status < 400) problem = `accepted (${res.status}): ${text.slice(0, 200)}`;
  else {
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      json = undefined;
    }
    if (!res.headers.get('content-type')?.includes('application/json') || typeof json !== 'object' || json === null || !('detail' in json)) {
      problem = `${res.status} without a JSON {detail}: ${text.slice(0, 200)}`;
    }
  }
  return { req, status: res.status, ms, problem };
}

async function pool<T, R>(items: T[], size: number, fn: (item: T) => Promise<R>): Promise<R[]> {
  const out: R[] = [];
  let next = 0;
  await Promise.all(
    Array.from({ length: size }, async () => {
      while (next < items.length) {
        const i = next++;
        out[i] = await fn(items[i]!);
      }
    }),
  );
  return out;
}

describe('fuzz: every route, malformed requests', () => {
  it('answers each with a 4xx and a JSON {detail}, stores nothing, keeps /health 200, none slow', { timeout: 300_000 }, async () => {
    const requests = ROUTES.flatMap((route, i) => fc.sample(requestsFor(route), { seed: SEED + i, numRuns: RUNS_PER_ROUTE }));
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
      outcomes = await pool(requests, CONCURRENCY, send);
    } finally {
      stop = true;
      await health;
    }
    const seconds = (performance.now() - started) / 1000;

    const times = outcomes.map((o) => o.ms).sort((a, b) => a - b);
    const slowest = outcomes.reduce((a, b) => (b.ms > a.ms ? b : a));
    const byStatus = outcomes.reduce<Record<number, number>>((acc, o) => ({ ...acc, [o.status]: (acc[o.status] ?? 0) + 1 }), {});
    console.info(
      `[fuzz] ${outcomes.length} requests over ${ROUTES.length} routes in ${seconds.toFixed(1)} s; statuses ${JSON.stringify(byStatus)}; ` +
        `p50 ${times[Math.floor(times.length / 2)]!.toFixed(0)} ms, p99 ${times[Math.floor(times.length * 0.99)]!.toFixed(0)} ms, ` +
        `max ${slowest.ms.toFixed(0)} ms (${slowest.req.route}: ${slowest.req.what}); /health checked ${healthChecks}×`,
    );

    const problems = outcomes.filter((o) => o.problem).map((o) => `${o.req.route} [${o.req.what}] → ${o.problem}`);
    expect(problems.slice(0, 20), `${problems.length} of ${outcomes.length} requests`).toEqual([]);
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

  it("answers 404 to another team's ids and never shows or changes its data", { timeout: 60_000 }, async () => {
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
    ];
    for (const [method, path, body] of attempts) {
      const res = await http(stack, method, path, { apiKey: team.apiKey, ...(body !== undefined ? { body } : {}) });
      expect(res.status, `${method} ${path}`).toBe(404);
      expect(res.json?.detail, `${method} ${path}`).toBeTruthy();
      for (const secret of [o.clientUserId, 'other endpoint', 'Other Patient']) expect(res.text, `${method} ${path}`).not.toContain(secret);
    }
    // Lists show only the caller's own records.
    for (const path of ['/v2/user', '/v3/orders', '/v2/webhooks/endpoints', '/v2/webhooks/events', '/v3/lab_tests']) {
      const res = await http(stack, 'GET', path, { apiKey: team.apiKey });
      expect(res.status, path).toBe(200);
      for (const id of [o.userId, o.orderId, o.endpointId, o.labTestId, o.clientUserId]) expect(res.text, path).not.toContain(id);
    }
    expect(await snapshot(other.teamId)).toEqual(before);
  });
});
