import { request } from 'node:http';
import { connect } from 'node:net';
import fc from 'fast-check';
import type { DbHandle } from '../../db/client.js';
import { createPartnerKey } from '../../db/queries/partners.js';
import { createTeam } from '../../db/queries/teams.js';
import { MAX_BODY_BYTES } from '../../api/app.js';
import { DashboardClient, newOperator } from '../browser/dashboard-client.js';
import { baseRequest, type Fixture, type RouteSpec } from '../integration/fuzz-routes.js';
import { DEEP, badFormValue, badJsonValue, badMultipart, badPathValue, badQueryValue } from '../integration/fuzz-values.js';
import { testkitLabTest } from './catalog-fixture.js';
import type { TestStack } from './harness.js';

/**
 * The fuzz's requests and its judgement of the answers, shared by the fuzz test
 * (test/integration/fuzz.test.ts) and its benchmark (bench/fuzz.ts): a world of two teams, a partner
 * key, a link token and an operator session on a running API; per route (fuzz-routes.ts) requests
 * each broken in one place; what is a right answer.
 */

export interface FuzzWorld {
  url: string;
  team: { teamId: string; apiKey: string };
  other: { teamId: string; apiKey: string };
  partnerKey: string;
  fixture: Fixture;
  /** The other team's records: a cross-team attempt names them. */
  otherIds: { userId: string; clientUserId: string; endpointId: string; labTestId: string; orderId: string; teamId: string };
  dash: { cookie: string; csrf: string };
}

async function call(url: string, method: string, path: string, apiKey: string, body: unknown): Promise<{ status: number; json: Record<string, unknown> }> {
  const res = await fetch(`${url}${path}`, { method, headers: { 'x-service-api-key': apiKey, 'content-type': 'application/json' }, body: JSON.stringify(body) });
  const text = await res.text();
  let json: Record<string, unknown> = {};
  try {
    json = JSON.parse(text) as Record<string, unknown>;
  } catch {
    // judged by the status below
  }
  if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${text.slice(0, 300)}`);
  return { status: res.status, json };
}

/** Two teams with a user, an endpoint and a lab test each, one order of the other team, a partner key, a link token, an operator session. */
export async function prepareFuzzWorld(stack: { url: string; db: DbHandle }): Promise<FuzzWorld> {
  const { url, db } = stack;
  const team = await createTeam(db.db, { name: 'fuzzed team', environment: 'sandbox', region: 'us' });
  const other = await createTeam(db.db, { name: 'other team', environment: 'sandbox', region: 'us' });
  const partnerKey = (await createPartnerKey(db.db, { name: 'fuzz operator', kind: 'operator', labId: null, environment: 'sandbox', region: 'us' })).apiKey;
  const user = async (apiKey: string, clientUserId: string) => (await call(url, 'POST', '/v2/user', apiKey, { client_user_id: clientUserId })).json.user_id as string;
  const endpoint = async (apiKey: string, description: string) =>
    (await call(url, 'POST', '/v2/webhooks/endpoints', apiKey, { url: 'http://127.0.0.1:9/hook', description })).json.id as string;
  const clientUserId = `fuzz-${crypto.randomUUID()}`;
  const lab = await testkitLabTest(db.db, team.teamId);
  const [marker] = await db.sql<{ id: number; provider_id: string }[]>`
    select m.id, m.provider_id from markers m join lab_test_markers l on l.marker_id = m.id where l.lab_test_id = ${lab.labTestId} limit 1`;
  const userId = await user(team.apiKey, clientUserId);
  const fixture: Fixture = {
    userId, clientUserId, labTestId: lab.labTestId, labId: lab.labId, markerId: marker!.id, providerId: marker!.provider_id,
    endpointId: await endpoint(team.apiKey, 'fuzzed endpoint'), teamId: team.teamId,
    linkToken: (await call(url, 'POST', '/v2/link/token', team.apiKey, { user_id: userId })).json.link_token as string,
  };
  const asStack = stack as unknown as TestStack; // the dashboard client reads only `url` and `db`
  const operator = await newOperator(asStack);
  const dash = await DashboardClient.login(asStack, operator.email, operator.password);
  const otherClientUserId = `secret-${crypto.randomUUID()}`;
  const otherUserId = await user(other.apiKey, otherClientUserId);
  const otherLab = await testkitLabTest(db.db, other.teamId);
  const order = await call(url, 'POST', '/v3/order/testkit', other.apiKey, {
    user_id: otherUserId, lab_test_id: otherLab.labTestId,
    shipping_details: { receiver_name: 'Other Patient', first_line: '1 Elm St', city: 'Austin', state: 'TX', zip: '78701', country: 'US', phone_number: '+14155552671' },
  });
  return {
    url, team, other, partnerKey, fixture, dash: { cookie: dash.cookie, csrf: dash.csrf },
    otherIds: {
      userId: otherUserId, clientUserId: otherClientUserId, endpointId: await endpoint(other.apiKey, 'other endpoint'),
      labTestId: otherLab.labTestId, orderId: (order.json.order as { id: string }).id, teamId: other.teamId,
    },
  };
}

/** The requests of a fuzz run: per route, `runs` (or `familyRuns` for a route of a family) requests from a fixed seed. */
export function fuzzRequests(routes: RouteSpec[], w: FuzzWorld, o: { seed: number; runs: number; familyRuns: number }): FuzzRequest[] {
  return routes.flatMap((route, i) => fc.sample(requestsFor(route, w), { seed: o.seed + i, numRuns: route.family ? o.familyRuns : o.runs }));
}

export interface FuzzRequest {
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
  /** Sent as raw bytes (a control character in a header, which Node's client would not send). */
  raw?: true;
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

function authHeaders(route: RouteSpec, w: FuzzWorld): Record<string, string> {
  if (route.auth === 'team') return { 'x-service-api-key': w.team.apiKey };
  if (route.auth === 'partner') return { 'x-partner-api-key': w.partnerKey };
  if (route.auth === 'link') return { 'x-vital-link-token': w.fixture.linkToken };
  if (route.auth === 'session') return { cookie: w.dash.cookie, 'x-csrf-token': w.dash.csrf };
  return {};
}

/** Wrong or missing credentials for a route: each must be refused (401/403), or sent to the login page. */
function badCredentials(route: RouteSpec, w: FuzzWorld): { what: string; headers: Record<string, string>; loginRedirect?: true }[] {
  const key = (k: string) => k.slice(0, 20);
  if (route.auth === 'team' || route.auth === 'partner') {
    const header = route.auth === 'team' ? 'x-service-api-key' : 'x-partner-api-key';
    const cases: { what: string; headers: Record<string, string> }[] = ['', 'garbage', 'sk_us_prod_'.padEnd(60, 'x'), 'k'.repeat(8000), '\u00ff\u00fe'].map((k) => ({
      what: `${header}=${key(k)}`, headers: k ? { [header]: k } : {},
    }));
    // A team key on the partner API (and a partner key on the team API) must not open it either.
    cases.push({ what: 'the other kind of key', headers: route.auth === 'team' ? { 'x-partner-api-key': w.partnerKey } : { 'x-service-api-key': w.team.apiKey } });
    cases.push({ what: 'a link token instead of a key', headers: { 'x-vital-link-token': w.fixture.linkToken } });
    return cases;
  }
  if (route.auth === 'link') {
    return [
      ...['', 'garbage', 'l'.repeat(5000), w.fixture.linkToken.slice(0, -2)].map((k) => ({
        what: `link token ${key(k)}`, headers: (k ? { 'x-vital-link-token': k } : {}) as Record<string, string>,
      })),
      { what: 'a team key instead of a link token', headers: { 'x-service-api-key': w.team.apiKey } },
    ];
  }
  if (route.auth === 'session') {
    const cases: { what: string; headers: Record<string, string>; loginRedirect?: true }[] = [
      { what: 'no session', headers: {} },
      { what: 'forged session', headers: { cookie: 'lf_session=forged-token' } },
      { what: 'huge session cookie', headers: { cookie: `lf_session=${'c'.repeat(6000)}` } },
      { what: 'a team key instead of a session', headers: { 'x-service-api-key': w.team.apiKey } },
    ];
    if (route.method === 'GET') cases.push({ what: 'browser without a session', headers: { accept: 'text/html' }, loginRedirect: true });
    else if (route.path !== '/dashboard/codec/decode') {
      // The session is good, the CSRF token is not (the codec takes none: it changes nothing).
      cases.push({ what: 'session without a CSRF token', headers: { cookie: w.dash.cookie } });
      cases.push({ what: 'session with a wrong CSRF token', headers: { cookie: w.dash.cookie, 'x-csrf-token': 'x'.repeat(w.dash.csrf.length) } });
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
export function requestsFor(route: RouteSpec, w: FuzzWorld): fc.Arbitrary<FuzzRequest> {
  const { params, query: baseQuery, body: base } = baseRequest(route, w.fixture);
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
    const auth = o.replaceHeaders ? {} : authHeaders(route, w);
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
  if (route.multipart) add(badMultipart(w.fixture.userId).map((m) => build(m.what, { body: m.body, contentType: m.contentType })));
  // Control characters and oversize in the credential header itself, sent raw: Node's parser (400/431) or
  // the credential check (401/403) refuses them, with a JSON {detail} either way.
  const credentialHeader = { team: 'x-service-api-key', partner: 'x-partner-api-key', link: 'x-vital-link-token', session: 'cookie', none: null }[route.auth];
  if (credentialHeader) {
    add(
      fc.constantFrom('a\u0000b', '\u0001', 'x\u001b[31m', 'del\u007f', 'a\rb', 'h'.repeat(20_000)).map((v) => {
        const r = build(`raw header ${credentialHeader}=${JSON.stringify(v.slice(0, 12))}`, {});
        const value = credentialHeader === 'cookie' ? `lf_session=${v}` : v;
        return { ...r, headers: { ...r.headers, [credentialHeader]: value }, raw: true as const };
      }),
      1,
    );
  }
  const credentials = badCredentials(route, w);
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

export interface Outcome {
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
type Answer = { status: number; contentType: string; location: string; text: string };

/** A request written as raw bytes on a socket, the answer read until the server closes (it sends `Connection: close`). */
function rawExchange(baseUrl: string, req: FuzzRequest): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const url = new URL(`${baseUrl}${req.path}`);
    const body = Buffer.from(req.body ?? '');
    const head = [`${req.method} ${url.pathname}${url.search} HTTP/1.1`, `Host: ${url.host}`, 'Connection: close', `Content-Length: ${body.length}`];
    for (const [k, v] of Object.entries(req.headers)) head.push(`${k}: ${v}`);
    const socket = connect({ host: url.hostname, port: Number(url.port) });
    const chunks: Buffer[] = [];
    socket.on('data', (c: Buffer) => chunks.push(c));
    socket.on('error', (err) => (chunks.length ? undefined : reject(err)));
    socket.on('close', () => {
      const text = Buffer.concat(chunks).toString('latin1');
      const end = text.indexOf('\r\n\r\n');
      const lines = text.slice(0, end === -1 ? text.length : end).split('\r\n');
      const header = (name: string) => lines.find((l) => l.toLowerCase().startsWith(`${name}:`))?.slice(name.length + 1).trim() ?? '';
      const status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(lines[0] ?? '')?.[1] ?? 0);
      if (!status) return reject(new Error(`no HTTP answer to a raw request: ${JSON.stringify(text.slice(0, 100))}`));
      const chunked = header('transfer-encoding').toLowerCase() === 'chunked';
      let payload = end === -1 ? '' : text.slice(end + 4);
      if (chunked) payload = payload.replace(/(?:^|\r\n)[0-9a-f]+\r\n/gi, '').replace(/\r\n$/, '');
      resolve({ status, contentType: header('content-type'), location: header('location'), text: Buffer.from(payload, 'latin1').toString('utf8') });
    });
    socket.end(Buffer.concat([Buffer.from(`${head.join('\r\n')}\r\n\r\n`, 'latin1'), body]));
  });
}

export function exchange(baseUrl: string, req: FuzzRequest): Promise<Answer> {
  if (req.raw) return rawExchange(baseUrl, req);
  return new Promise((resolve, reject) => {
    const url = new URL(`${baseUrl}${req.path}`);
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
      if (answered) return;
      // An oversized body may be refused by closing the connection before the client read the 413:
      // reported as status 0 (send() judges it), any other failure is the fuzz's failure.
      const code = (err as NodeJS.ErrnoException).code;
      if ((code === 'EPIPE' || code === 'ECONNRESET') && Buffer.byteLength(req.body ?? '') > MAX_BODY_BYTES) {
        resolve({ status: 0, contentType: '', location: '', text: `connection closed while sending (${code})` });
      } else reject(err);
    });
    if (req.body === undefined || req.body.length <= BODY_CHUNK) {
      r.end(req.body);
      return;
    }
    // A large body goes in chunks, yielding between them, and stops once the answer is in: the server
    // answers an oversized body (413) without reading it and closes, and a client still writing all of it
    // would meet a broken pipe before it had read that answer.
    const body = Buffer.from(req.body);
    void (async () => {
      for (let at = 0; at < body.length && !answered && !r.destroyed; at += BODY_CHUNK) {
        if (!r.write(body.subarray(at, at + BODY_CHUNK))) {
          await new Promise<void>((ok) => {
            const done = () => {
              r.off('drain', done).off('close', done);
              ok();
            };
            r.on('drain', done).on('close', done);
          });
        }
        await new Promise((ok) => setImmediate(ok));
      }
      if (!r.destroyed) r.end();
    })();
  });
}

const BODY_CHUNK = 64 * 1024;

/**
 * What is right: never a 5xx; a refusal is a 4xx with a JSON `{detail}` (the dashboard answers JSON to
 * clients that do not ask for HTML); a browser without a dashboard session is sent to the login page
 * (303); only a route with nothing to refuse may accept.
 */
export async function send(baseUrl: string, req: FuzzRequest): Promise<Outcome> {
  const start = performance.now();
  const answer = await exchange(baseUrl, req);
  const ms = performance.now() - start;
  const { status, text } = answer;
  let problem: string | null = null;
  if (status >= 500) problem = `${status}: ${text.slice(0, 200)}`;
  else if (status === 0) problem = null; // an oversized body refused by closing the connection (exchange)
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

export async function pool<T, R>(items: T[], size: number, fn: (item: T) => Promise<R>): Promise<R[]> {
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
