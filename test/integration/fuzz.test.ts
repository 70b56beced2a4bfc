import { request } from 'node:http';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPartnerKey } from '../../db/queries/partners.js';
import { testkitLabTest } from '../support/catalog-fixture.js';
import { DashboardClient, newOperator } from '../browser/dashboard-client.js';
import { servedRoutes } from '../support/fuzz-served-routes.js';
import { http, newTeam, startTestStack, type TestStack } from '../support/harness.js';
import { baseRequest, specFor, type Fixture, type RouteSpec } from './fuzz-routes.js';
import { DEEP, badFormValue, badJsonValue, badMultipart, badPathValue, badQueryValue } from './fuzz-values.js';

/**
 * Property-based fuzz of every route (issue 10 item 6): fast-check generates, from each route's schema
 * (fuzz-routes.ts), requests broken in one place — wrong types, huge and deep bodies, NUL and control
 * characters, extreme dates and integers, crafted cursors, path traversal, bad multipart, bad keys —
 * with a fixed seed. Every answer must be a 4xx with a JSON `{detail}`, nothing may be stored, /health
 * stays 200 throughout, and another team's ids answer 404 without its data.
 */

const SEED = 20_261_123;
/** Requests per route; routes of a family (one schema, many paths: timeseries, summaries) get fewer each. */
const RUNS_PER_ROUTE = 60;
const RUNS_PER_FAMILY_ROUTE = 12;
const CONCURRENCY = 4;

let stack: TestStack;
let team: { teamId: string; apiKey: string };
let other: { teamId: string; apiKey: string };
let partnerKey: string;
let fixture: Fixture;
let otherIds: { userId: string; clientUserId: string; endpointId: string; labTestId: string; orderId: string; teamId: string };
let dash: DashboardClient;
let served: { method: string; path: string }[];
let routes: RouteSpec[];

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
    teamId: team.teamId,
    linkToken: '',
  };
  const link = await http(stack, 'POST', '/v2/link/token', { apiKey: team.apiKey, body: { user_id: fixture.userId } });
  expect(link.status).toBe(200);
  fixture.linkToken = link.json.link_token as string;
  const operator = await newOperator(stack);
  dash = await DashboardClient.login(stack, operator.email, operator.password);
  served = await servedRoutes();
  routes = served.map((r) => specFor(r.method, r.path)).filter((r): r is RouteSpec => r !== undefined);
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
    labTestId: otherLab.labTestId, orderId: (order.json.order as { id: string }).id, teamId: other.teamId,
  };
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

// ---- requests ------------------------------------------------------------------------------------

interface FuzzRequest {
  route: string;
  what: string;
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: string;
  /** A browser without a session: a 303 to the login page is the right answer. */
  loginRedirect?: true;
  /** The route may accept it (nothing to refuse: a static page, /health). */
  mayAccept?: true;
  /** A bad link token on a link password call: 200 with `state: "error"` is the SDK's answer. */
  stateError?: true;
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
  if (route.auth === 'link') return { 'x-vital-link-token': fixture.linkToken };
  if (route.auth === 'session') return { cookie: dash.cookie, 'x-csrf-token': dash.csrf };
  return {};
}

/** Wrong or missing credentials for a route: each must be refused (401/403), or sent to the login page. */
function badCredentials(route: RouteSpec): { what: string; headers: Record<string, string>; loginRedirect?: true }[] {
  const key = (k: string) => k.slice(0, 20);
  if (route.auth === 'team' || route.auth === 'partner') {
    const header = route.auth === 'team' ? 'x-service-api-key' : 'x-partner-api-key';
    const cases: { what: string; headers: Record<string, string> }[] = ['', 'garbage', 'sk_us_prod_'.padEnd(60, 'x'), 'k'.repeat(8000), '\u00ff\u00fe'].map((k) => ({
      what: `${header}=${key(k)}`, headers: k ? { [header]: k } : {},
    }));
    // A team key on the partner API (and a partner key on the team API) must not open it either.
    cases.push({ what: 'the other kind of key', headers: route.auth === 'team' ? { 'x-partner-api-key': partnerKey } : { 'x-service-api-key': team.apiKey } });
    cases.push({ what: 'a link token instead of a key', headers: { 'x-vital-link-token': fixture.linkToken } });
    return cases;
  }
  if (route.auth === 'link') {
    return [
      ...['', 'garbage', 'l'.repeat(5000), fixture.linkToken.slice(0, -2)].map((k) => ({
        what: `link token ${key(k)}`, headers: (k ? { 'x-vital-link-token': k } : {}) as Record<string, string>,
      })),
      { what: 'a team key instead of a link token', headers: { 'x-service-api-key': team.apiKey } },
    ];
  }
  if (route.auth === 'session') {
    const cases: { what: string; headers: Record<string, string>; loginRedirect?: true }[] = [
      { what: 'no session', headers: {} },
      { what: 'forged session', headers: { cookie: 'lf_session=forged-token' } },
      { what: 'huge session cookie', headers: { cookie: `lf_session=${'c'.repeat(6000)}` } },
      { what: 'a team key instead of a session', headers: { 'x-service-api-key': team.apiKey } },
    ];
    if (route.method === 'GET') cases.push({ what: 'browser without a session', headers: { accept: 'text/html' }, loginRedirect: true });
    else if (route.path !== '/dashboard/codec/decode') {
      // The session is good, the CSRF token is not (the codec takes none: it changes nothing).
      cases.push({ what: 'session without a CSRF token', headers: { cookie: dash.cookie } });
      cases.push({ what: 'session with a wrong CSRF token', headers: { cookie: dash.cookie, 'x-csrf-token': 'x'.repeat(dash.csrf.length) } });
    }
    return cases;
  }
  return [];
}

const formEncode = (body: unknown) =>
  new URLSearchParams(
    Object.entries((body ?? {}) as Record<string, unknown>).map(([k, v]): [string, string] => [k, typeof v === 'string' ? v : (JSON.stringify(v) ?? '')]),
  ).toString();

/** Requests for one route, each broken in one place. */
function requestsFor(route: RouteSpec): fc.Arbitrary<FuzzRequest> {
  const { params, query: baseQuery, body: base } = baseRequest(route, fixture);
  const encode = (b: unknown) => (route.form ? formEncode(b) : JSON.stringify(b));
  const build = (
    what: string,
    o: { params?: Record<string, string>; query?: [string, string]; rawQuery?: string; body?: string; headers?: Record<string, string>; contentType?: string; replaceHeaders?: true },
  ): FuzzRequest => {
    const p = { ...Object.fromEntries(Object.entries(params).map(([k, v]) => [k, encodeURIComponent(v)])), ...o.params };
    const q = Object.entries(baseQuery).filter(([k]) => k !== o.query?.[0]).map(([k, v]) => `${k}=${encodeURIComponent(v)}`);
    if (o.query) q.push(`${o.query[0]}=${o.query[1]}`);
    if (o.rawQuery) q.push(o.rawQuery);
    const path = route.path.replace(/\{(\w+)\}/g, (_, k: string) => p[k]!) + (q.length ? `?${q.join('&')}` : '');
    const body = o.body ?? (base === undefined ? undefined : encode(base));
    const contentType = o.contentType ?? (route.form ? 'application/x-www-form-urlencoded' : 'application/json');
    const auth = o.replaceHeaders ? {} : authHeaders(route);
    const headers = { ...auth, ...o.headers, ...(body !== undefined ? { 'content-type': contentType } : {}) };
    return { route: `${route.method} ${route.path}`, what, method: route.method, path, headers, ...(body !== undefined ? { body } : {}), ...(route.accepts ? { mayAccept: true as const } : {}) };
  };
  const families: fc.WeightedArbitrary<FuzzRequest>[] = [];
  const add = (arbitrary: fc.Arbitrary<FuzzRequest>, weight = 3) => families.push({ arbitrary, weight });
  // In the dashboard's forms and filters an empty field means "not given" (what a browser sends for it).
  const emptyIsAbsent = route.path.startsWith('/dashboard');
  const given = <T>(a: fc.Arbitrary<T>) => (emptyIsAbsent ? a.filter((v) => v !== '') : a);
  const paramKinds = Object.entries(route.params ?? {});
  if (paramKinds.length) {
    add(fc.constantFrom(...paramKinds).chain(([k, kind]) => badPathValue(kind).map((v) => build(`path ${k}=${v.slice(0, 40)}`, { params: { [k]: v } }))));
  }
  const queryKinds = Object.entries(route.query ?? {});
  if (queryKinds.length) {
    add(fc.constantFrom(...queryKinds).chain(([k, kind]) => given(badQueryValue(kind)).map((v) => build(`query ${k}=${v.slice(0, 40)}`, { query: [k, v] }))));
  }
  // Control characters and a huge value in any query key, named or not: refused at the URL boundary.
  add(
    fc.constantFrom('%00', 'a%00b', '%1b', '%7f', '%0d%0a').map((v) => build(`query junk=${v}`, { rawQuery: `junk${v}=${v}` })),
    1,
  );
  const fieldKinds = Object.entries(route.body ?? {});
  if (fieldKinds.length && route.form) {
    add(fc.constantFrom(...fieldKinds).chain(([field, kind]) => given(badFormValue(kind)).map((v) => build(`form ${field}=${v.slice(0, 40)}`, { body: formEncode(setPath(base, field, v)) }))));
  } else if (fieldKinds.length) {
    add(
      fc.constantFrom(...fieldKinds).chain(([field, kind]) =>
        badJsonValue(kind).map((v) => {
          const deep = v === '__DEEP__';
          const text = JSON.stringify(setPath(base, field, v)).replace('"__DEEP__"', deep ? `${'['.repeat(10_000)}${']'.repeat(10_000)}` : '"__DEEP__"');
          return build(`body ${field}=${JSON.stringify(v)?.slice(0, 40) ?? 'undefined'}`, { body: text });
        }),
      ),
    );
  }
  if (route.body && !route.form) {
    add(
      fc
        .oneof(
          DEEP.map((b) => ({ what: `deep body (${b.length / 2})`, b })),
          fc.integer({ min: 65, max: 5000 }).map((n) => ({ what: `deep object body (${n})`, b: `${'{"a":'.repeat(n)}1${'}'.repeat(n)}` })),
          fc.constantFrom('{', '{"a":', 'not json', '[1,2', '\u0000', '{"a":"\\u0000"}', 'null', '1', '"x"', '[]', 'true').map((b) => ({ what: `raw ${b}`, b })),
          // (The codec may carry large payloads: its big body is 900 kB of data that is not base64.)
          fc.constant({
            what: 'body of 900 kB',
            b: JSON.stringify(route.path === '/dashboard/codec/decode' ? { payloads: [{ data: '!'.repeat(900_000) }] } : { ...(base as object), pad: 'p'.repeat(900_000) }),
          }),
          fc.constant({ what: 'body of 3 MB', b: JSON.stringify({ ...(base as object), pad: 'p'.repeat(3_000_000) }) }),
        )
        .map(({ what, b }) => build(what, { body: b })),
    );
    add(fc.constantFrom('text/plain', 'application/xml', 'multipart/form-data').map((t) => build(`content-type ${t}`, { body: '{"a"', contentType: t })), 1);
  }
  if (route.form) {
    add(
      fc
        .constantFrom(
          { what: 'form with a NUL byte', b: 'email=a%00b&password=x%00' },
          { what: 'form with broken escapes', b: '%%%&=&==&%zz' },
          { what: 'form of 900 kB', b: `pad=${'p'.repeat(900_000)}` },
          { what: 'form of 3 MB', b: `pad=${'p'.repeat(3_000_000)}` },
          { what: 'JSON as a form', b: '{"_csrf":"x"}' },
        )
        .map(({ what, b }) => build(what, { body: b })),
      1,
    );
  }
  if (route.multipart) add(badMultipart(fixture.userId).map((m) => build(m.what, { body: m.body, contentType: m.contentType })));
  const credentials = badCredentials(route);
  if (credentials.length) {
    add(
      fc.constantFrom(...credentials).map((c) => {
        const r = build(c.what, { headers: c.headers, replaceHeaders: true });
        return { ...r, ...(c.loginRedirect ? { loginRedirect: true as const } : {}), ...(route.stateErrors ? { stateError: true as const } : {}) };
      }),
      families.length ? 1 : 3,
    );
  }
  // A route without input it could refuse: still fuzz its URL (it may answer 2xx, never 5xx).
  if (!families.length) add(fc.constantFrom('%00', '%2e%2e%2f').map((v) => build(`query junk=${v}`, { rawQuery: `x=${v}` })));
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
function exchange(req: FuzzRequest): Promise<{ status: number; contentType: string; location: string; text: string }> {
  return new Promise((resolve, reject) => {
    const url = new URL(`${stack.url}${req.path}`);
    const headers: Record<string, string | number> = { ...req.headers };
    if (req.body !== undefined) headers['content-length'] = Buffer.byteLength(req.body);
    let answered = false;
    const r = request({ host: url.hostname, port: url.port, path: `${url.pathname}${url.search}`, method: req.method, headers, agent: false }, (res) => {
      answered = true;
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () =>
        resolve({
          status: res.statusCode ?? 0, contentType: String(res.headers['content-type'] ?? ''), location: String(res.headers.location ?? ''),
          text: Buffer.concat(chunks).toString('utf8'),
        }),
      );
      res.on('error', reject);
    });
    r.on('error', (err) => {
      if (!answered) reject(err);
    });
    r.end(req.body);
  });
}

/**
 * What is right: never a 5xx; a refusal is a 4xx with a JSON `{detail}` (the dashboard answers JSON to
 * clients that do not ask for HTML); a browser without a dashboard session is sent to the login page
 * (303); only a route with nothing to refuse may accept.
 */
async function send(req: FuzzRequest): Promise<Outcome> {
  const start = performance.now();
  const answer = await exchange(req);
  const ms = performance.now() - start;
  const { status, text } = answer;
  let problem: string | null = null;
  if (status >= 500) problem = `${status}: ${text.slice(0, 200)}`;
  else if (req.loginRedirect) {
    if (status !== 303 || !answer.location.startsWith('/dashboard/login')) problem = `a browser without a session got ${status} ${answer.location}`;
  } else if (status < 400) {
    const stateError = req.stateError && status === 200 && (JSON.parse(text) as { state?: string }).state === 'error';
    if (!req.mayAccept && !stateError) problem = `accepted (${status}): ${text.slice(0, 200)}`;
  } else {
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      json = undefined;
    }
    if (!answer.contentType.includes('application/json') || typeof json !== 'object' || json === null || !('detail' in json)) {
      problem = `${status} without a JSON {detail}: ${text.slice(0, 200)}`;
    }
  }
  return { req, status, ms, problem };
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
  it('has a fuzz spec for every route the app serves (read from its router)', () => {
    const missing = served.filter((r) => !specFor(r.method, r.path)).map((r) => `${r.method} ${r.path}`);
    expect(missing).toEqual([]);
    expect(routes.length).toBe(served.length);
    expect(served.length).toBeGreaterThan(200);
  });

  it('answers each with a 4xx and a JSON {detail}, stores nothing, keeps /health 200, none slow', { timeout: 900_000 }, async () => {
    const requests = routes.flatMap((route, i) =>
      fc.sample(requestsFor(route), { seed: SEED + i, numRuns: route.family ? RUNS_PER_FAMILY_ROUTE : RUNS_PER_ROUTE }),
    );
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
      `[fuzz] ${outcomes.length} requests over ${routes.length} routes in ${seconds.toFixed(1)} s; statuses ${JSON.stringify(byStatus)}; ` +
        `p50 ${times[Math.floor(times.length / 2)]!.toFixed(0)} ms, p99 ${times[Math.floor(times.length * 0.99)]!.toFixed(0)} ms, ` +
        `max ${slowest.ms.toFixed(0)} ms (${slowest.req.route}: ${slowest.req.what}); /health checked ${healthChecks}×`,
    );

    const problems = outcomes.filter((o) => o.problem).map((o) => `${o.req.route} [${o.req.what}] → ${o.problem}`);
    if (problems.length) console.info(`[fuzz] problems:\n${problems.map((p) => p.slice(0, 300)).join("\n")}`);
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
