import { createConnection, createServer, type Socket } from 'node:net';
import { Hono } from 'hono';
import postgres from 'postgres';
import { eq, sql as dsql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { KEY_REVOKED_CHANNEL, KeyCache, teamAuth } from '../../api/middleware/auth.js';
import { postgresRateLimiter } from '../../api/middleware/rate-limit.js';
import type { AppEnv } from '../../api/env.js';
import { onError } from '../../api/errors.js';
import { createDb, type DbHandle } from '../../db/client.js';
import { createTeam, rotateTeamKey } from '../../db/queries/teams.js';
import { apiKeys, teams } from '../../db/schema/index.js';
import { http, newTeam, startTestStack, type TestStack } from '../support/harness.js';

/**
 * What several API processes share through Postgres (README "State shared between processes"): one rate-limit
 * budget per team, and revocation of API keys seen by every process's key cache at once. Each "process" here is
 * an API server with its own connection pool and its own caches, as a separate process would have.
 */
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function until(fn: () => Promise<boolean>, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await fn()) return true;
    await sleep(50);
  }
  return fn();
}

describe('RATE_LIMIT_STORE=postgres: one budget for every API process', () => {
  // 4 at once, then one every 2 s: the few hundred ms of the test refill nothing.
  const limits = { RATE_LIMIT_TEAM_PER_SECOND: '0.5', RATE_LIMIT_TEAM_BURST: '4', RATE_LIMIT_IP_PER_SECOND: '0.5', RATE_LIMIT_IP_BURST: '4' };
  let a: TestStack;
  let b: TestStack;
  let memA: TestStack;
  let memB: TestStack;
  beforeAll(async () => {
    [a, b, memA, memB] = await Promise.all([
      startTestStack({ ...limits, RATE_LIMIT_STORE: 'postgres' }),
      startTestStack({ ...limits, RATE_LIMIT_STORE: 'postgres' }),
      startTestStack({ ...limits, RATE_LIMIT_STORE: 'memory' }),
      startTestStack({ ...limits, RATE_LIMIT_STORE: 'memory' }),
    ]);
  });
  afterAll(async () => {
    await Promise.all([a, b, memA, memB].map((s) => s?.close()));
  });

  it('a burst split across two API processes gets 429 at the shared limit, from either', async () => {
    const team = await newTeam(a);
    const answers = [];
    for (let i = 0; i < 8; i++) answers.push(await http(i % 2 ? b : a, 'GET', '/v2/user', { apiKey: team.apiKey }));
    expect(answers.map((r) => r.status)).toEqual([200, 200, 200, 200, 429, 429, 429, 429]);
    const limited = answers[5]!; // from b
    expect(limited.headers.get('retry-after')).toBe('2');
    expect(limited.json.detail).toBe('Too many requests for this API key; retry after 2 s.');
    // Another team has its own budget.
    const other = await newTeam(b);
    expect((await http(a, 'GET', '/v2/user', { apiKey: other.apiKey })).status).toBe(200);
  });

  it('concurrent requests through both processes never pass more than the budget', async () => {
    const team = await newTeam(a);
    const answers = await Promise.all(Array.from({ length: 20 }, (_, i) => http(i % 2 ? b : a, 'GET', '/v2/user', { apiKey: team.apiKey })));
    const statuses = answers.map((r) => r.status);
    expect(statuses.filter((s) => s === 200)).toHaveLength(4);
    expect(statuses.filter((s) => s === 429)).toHaveLength(16);
  });

  it('the address limit is shared too', async () => {
    const statuses = [];
    for (let i = 0; i < 6; i++) statuses.push((await http(i % 2 ? b : a, 'GET', '/documents/orders/x/requisition.pdf')).status);
    expect(statuses.slice(0, 4)).not.toContain(429);
    expect(statuses.slice(4)).toEqual([429, 429]);
  });

  it('with RATE_LIMIT_STORE=memory each process has its own budget (what the postgres store fixes)', async () => {
    const team = await newTeam(memA);
    const statuses = [];
    for (let i = 0; i < 10; i++) statuses.push((await http(i % 2 ? memB : memA, 'GET', '/v2/user', { apiKey: team.apiKey })).status);
    expect(statuses.filter((s) => s === 200)).toHaveLength(8);
  });
});

describe('postgresRateLimiter', () => {
  let db: DbHandle;
  beforeAll(() => {
    db = createDb(inject('databaseUrl'), { max: 2 });
  });
  afterAll(async () => {
    await db?.close();
  });
  const key = () => `test:${crypto.randomUUID()}`;

  it('tells how long to wait, at most one emission interval', async () => {
    const limiter = postgresRateLimiter({ sql: db.sql, perSecond: 2, burst: 1 });
    const k = key();
    expect(await limiter.take(k)).toEqual({ ok: true });
    const refused = await limiter.take(k);
    expect(refused.ok).toBe(false);
    const wait = (refused as { retryAfterMs: number }).retryAfterMs;
    expect(wait).toBeGreaterThan(0);
    expect(wait).toBeLessThanOrEqual(500);
    await sleep(wait + 20);
    expect(await limiter.take(k)).toEqual({ ok: true });
  });

  it('lets exactly the burst through when 1/rate is not a round number of milliseconds', async () => {
    const limiter = postgresRateLimiter({ sql: db.sql, perSecond: 0.3, burst: 7 }); // T = 3333.33… ms
    const k = key();
    const passed = [];
    for (let i = 0; i < 9; i++) passed.push((await limiter.take(k)).ok);
    expect(passed).toEqual([true, true, true, true, true, true, true, false, false]);
  });

  it('deletes buckets that are full again, so the table does not grow', async () => {
    const limiter = postgresRateLimiter({ sql: db.sql, perSecond: 100, burst: 1, cleanupEveryMs: 100 });
    const k = key();
    await limiter.take(k);
    const rows = () => db.sql<{ n: number }[]>`select count(*)::int as n from rate_limit_buckets where key = ${k}`.then((r) => r[0]!.n);
    expect(await rows()).toBe(1);
    expect(await until(async () => (await rows()) === 0, 3000)).toBe(true);
  });

  it('fails open when Postgres cannot be reached, and says so', async () => {
    const dead = postgres('postgres://postgres@127.0.0.1:1/nothing', { max: 1, connect_timeout: 2, onnotice: () => {} });
    const errors: unknown[] = [];
    const limiter = postgresRateLimiter({ sql: dead, perSecond: 1, burst: 1, onError: (err) => errors.push(err) });
    try {
      expect(await limiter.take('a')).toEqual({ ok: true });
      expect(await limiter.take('a')).toEqual({ ok: true });
      expect(errors).toHaveLength(1); // reported, not once per request
    } finally {
      await dead.end();
    }
  });
});

describe('revoked API keys stop working in every API process at once', () => {
  // The key cache trusts a key for 300 s: only the revocation notice can make a second process refuse it sooner.
  let a: TestStack;
  let b: TestStack;
  beforeAll(async () => {
    [a, b] = await Promise.all([startTestStack({ API_KEY_CACHE_TTL_SECONDS: '300' }), startTestStack({ API_KEY_CACHE_TTL_SECONDS: '300' })]);
    // Each caches keys only once it listens for revocations: wait for both subscriptions.
    const listening = async () =>
      (await a.db.sql<{ n: number }[]>`select count(*)::int as n from pg_stat_activity where datname = current_database() and query ilike 'listen%'`)[0]!.n >= 2;
    expect(await until(listening, 5000)).toBe(true);
  });
  afterAll(async () => {
    await Promise.all([a, b].map((s) => s?.close()));
  });
  const status = (s: TestStack, apiKey: string) => http(s, 'GET', '/v2/user', { apiKey }).then((r) => r.status);

  it('rotate-key: the old key gets 401 from both processes, the new one works', async () => {
    const team = await newTeam(a);
    expect(await status(a, team.apiKey)).toBe(200);
    expect(await status(b, team.apiKey)).toBe(200); // cached in both
    const rotated = await rotateTeamKey(a.db.db, team.teamId);
    expect(await until(async () => (await status(a, team.apiKey)) === 401 && (await status(b, team.apiKey)) === 401, 2000)).toBe(true);
    expect(await status(b, rotated!.apiKey)).toBe(200);
  });

  it('a deleted team: its key gets 401 from both processes', async () => {
    const team = await newTeam(a);
    expect(await status(a, team.apiKey)).toBe(200);
    expect(await status(b, team.apiKey)).toBe(200);
    await a.db.db.delete(teams).where(eq(teams.id, team.teamId));
    expect(await until(async () => (await status(a, team.apiKey)) === 401 && (await status(b, team.apiKey)) === 401, 2000)).toBe(true);
  });
});

describe('teamAuth key cache and its revocation listener', () => {
  let db: DbHandle;
  let listener: postgres.Sql;
  beforeAll(() => {
    db = createDb(inject('databaseUrl'), { max: 2 });
    listener = postgres(inject('databaseUrl'), { max: 1, onnotice: () => {} });
  });
  afterAll(async () => {
    await listener?.end();
    await db?.close();
  });
  function app(listen?: postgres.Sql) {
    const a = new Hono<AppEnv>();
    a.onError(onError);
    a.use(teamAuth({ db: db.db, environment: 'sandbox', region: 'us', cacheTtlSeconds: 300, heartbeatMs: 200, ...(listen ? { listen } : {}) }));
    a.get('/x', (c) => c.text(c.get('teamId')));
    return a;
  }
  const revoke = (teamId: string) => db.db.update(apiKeys).set({ revokedAt: new Date() }).where(eq(apiKeys.teamId, teamId));
  const newKey = () => createTeam(db.db, { name: 'auth cache', environment: 'sandbox', region: 'us' });

  it('without a listener a revoked key keeps working until the TTL (the cache is real)', async () => {
    const a = app();
    const team = await newKey();
    const get = () => a.request('/x', { headers: { 'x-service-api-key': team.apiKey } });
    expect((await get()).status).toBe(200);
    await revoke(team.teamId);
    await sleep(300);
    expect((await get()).status).toBe(200);
    expect((await app().request('/x', { headers: { 'x-service-api-key': team.apiKey } })).status).toBe(401); // a fresh cache asks Postgres
  });

  it('after its listen connection was cut, it listens again and still hears revocations', async () => {
    const a = app(listener);
    const team = await newKey();
    const get = async () => (await a.request('/x', { headers: { 'x-service-api-key': team.apiKey } })).status;
    await sleep(300); // subscribed
    expect(await get()).toBe(200);
    // Cut every LISTEN connection of this database (this one's and the API servers' above).
    const cut = await db.db.execute<{ ok: boolean }>(
      dsql`select pg_terminate_backend(pid) as ok from pg_stat_activity where datname = current_database() and query ilike 'listen%' and pid <> pg_backend_pid()`,
    );
    expect(cut.length).toBeGreaterThan(0);
    await sleep(1000); // the heartbeat or postgres.js subscribes again (and clears the cache)
    expect(await get()).toBe(200);
    await revoke(team.teamId);
    expect(await until(async () => (await get()) === 401, 2000)).toBe(true);
  });

  it('no key, a key of another environment, an unknown key: 401 {detail}', async () => {
    const a = app(listener);
    const none = await a.request('/x');
    expect(none.status).toBe(401);
    expect(await none.json()).toEqual({ detail: 'Missing API key: send it in the x-service-api-key header.' });
    const unknown = await a.request('/x', { headers: { 'x-service-api-key': `sk_us_${'A'.repeat(43)}` } });
    expect(unknown.status).toBe(401);
    expect(((await unknown.json()) as { detail: string }).detail).toBe('Invalid API key.');
    const production = await a.request('/x', { headers: { 'x-service-api-key': `pk_us_${'A'.repeat(43)}` } });
    expect(production.status).toBe(401);
  });
});

describe('KeyCache when its connections are cut and cannot come back at once', () => {
  // A database of its own: connections to it are refused for a moment, which other tests must not feel.
  const name = `labflow_keycache_${process.pid}_${Date.now()}`;
  let admin: postgres.Sql;
  let url: string;
  beforeAll(async () => {
    admin = postgres(inject('databaseUrl'), { max: 1, onnotice: () => {} });
    await admin.unsafe(`create database ${name}`);
    const u = new URL(inject('databaseUrl'));
    u.pathname = `/${name}`;
    url = u.toString();
  });
  afterAll(async () => {
    await admin?.unsafe(`drop database if exists ${name} with (force)`);
    await admin?.end();
  });
  const listeners = async () =>
    (await admin<{ n: number }[]>`select count(*)::int as n from pg_stat_activity where datname = ${name} and query ilike 'listen%'`)[0]!.n;

  /** Announces `hash` revoked from another connection; true once `cache` has dropped it. */
  async function revokedHeard(cache: KeyCache, hash: string): Promise<boolean> {
    const notify = postgres(url, { max: 1, onnotice: () => {} });
    try {
      await notify`select pg_notify(${KEY_REVOKED_CHANNEL}, ${hash})`;
    } finally {
      await notify.end();
    }
    return until(async () => cache.get(hash, Date.now()) === undefined, 2000);
  }

  /** Cuts the listener (and the pool's connection) while no connection can be made for a moment. */
  async function cutWhileRefusing() {
    await admin.unsafe(`alter database ${name} allow_connections false`);
    await admin`select pg_terminate_backend(pid) from pg_stat_activity where datname = ${name}`;
    await sleep(800);
    await admin.unsafe(`alter database ${name} allow_connections true`);
  }

  it('listens again once it can, having cleared the cache, and hears revocations again', async () => {
    const sql = postgres(url, { max: 1, onnotice: () => {}, connect_timeout: 2 });
    const cache = new KeyCache(300_000);
    try {
      cache.follow(sql, 200);
      expect(await until(async () => (await listeners()) === 1, 3000)).toBe(true);
      cache.set('a'.repeat(64), 'team-a', Date.now(), cache.mark);
      await cutWhileRefusing();
      expect(await until(async () => (await listeners()) === 1, 5000)).toBe(true);
      expect(cache.get('a'.repeat(64), Date.now())).toBeUndefined(); // what it may have missed is forgotten
      // And it hears again.
      const hash = 'b'.repeat(64);
      cache.set(hash, 'team-b', Date.now(), cache.mark);
      expect(await revokedHeard(cache, hash)).toBe(true);
    } finally {
      await sql.end({ timeout: 1 });
    }
  });

  it('a listener that silently stops hearing (connection open, nothing delivered): the cache is not used until it hears again', async () => {
    const proxy = await freezableProxy(new URL(inject('databaseUrl')));
    const sql = postgres(proxy.url(name), { max: 1, onnotice: () => {} });
    const cache = new KeyCache(300_000);
    const hash = 'c'.repeat(64);
    try {
      cache.follow(sql, 200);
      expect(await until(async () => (await listeners()) === 1, 15_000)).toBe(true);
      await sleep(300); // a ping heard
      cache.set(hash, 'team-c', Date.now(), cache.mark);
      expect(cache.get(hash, Date.now())?.teamId).toBe('team-c');
      proxy.freeze();
      // No ping comes back: within 2.5 heartbeats it stops trusting (and filling) its cache.
      expect(await until(async () => cache.get(hash, Date.now()) === undefined, 5000)).toBe(true);
      cache.set(hash, 'team-c', Date.now(), cache.mark);
      expect(cache.get(hash, Date.now())).toBeUndefined();
      // The dead connections end; it listens again and its cache works (and hears revocations) again.
      proxy.kill();
      expect(await until(async () => {
        cache.set(hash, 'team-c', Date.now(), cache.mark);
        return cache.get(hash, Date.now()) !== undefined;
      }, 15_000)).toBe(true);
      expect(await revokedHeard(cache, hash)).toBe(true);
    } finally {
      await sql.end({ timeout: 1 });
      await proxy.close();
    }
  });
});

/** A TCP proxy to Postgres whose open connections can be frozen: still open, nothing delivered (a silent network fault). */
async function freezableProxy(target: URL) {
  const pairs: { client: Socket; upstream: Socket; frozen: boolean }[] = [];
  const server = createServer((client) => {
    const pair = { client, upstream: createConnection({ host: target.hostname, port: Number(target.port || 5432) }), frozen: false };
    pairs.push(pair);
    client.on('data', (d) => pair.frozen || pair.upstream.write(d));
    pair.upstream.on('data', (d) => pair.frozen || client.write(d));
    const close = () => {
      client.destroy();
      pair.upstream.destroy();
    };
    for (const sock of [client, pair.upstream]) sock.on('close', close).on('error', close);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as { port: number };
  return {
    // the target's credentials too: the embedded Postgres (CI, no TEST_DATABASE_URL) asks for a password
    url: (database: string) => `postgres://${target.username}${target.password ? `:${target.password}` : ''}@127.0.0.1:${port}/${database}`,
    /** The connections open now stop delivering anything, both ways; new ones work. */
    freeze: () => pairs.forEach((p) => (p.frozen = true)),
    /** The frozen connections finally die (as TCP keepalive would end them). */
    kill: () => pairs.filter((p) => p.frozen).forEach((p) => p.client.destroy()),
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}
