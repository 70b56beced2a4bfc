import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import type { AppEnv } from '../../api/env.js';
import { rateLimits, tokenBucketLimiter } from '../../api/middleware/rate-limit.js';
import { loadConfig } from '../../lib/config.js';

/** A clock the test moves by hand. */
function manualClock(start = 1_000_000) {
  let t = start;
  return { now: () => t, advance: (ms: number) => (t += ms) };
}

describe('tokenBucketLimiter', () => {
  it('lets a burst through, then one request per 1/rate seconds, telling how long to wait', () => {
    const clock = manualClock();
    const limiter = tokenBucketLimiter({ perSecond: 2, burst: 3, now: clock.now });
    for (let i = 0; i < 3; i++) expect(limiter.take('a')).toEqual({ ok: true });
    expect(limiter.take('a')).toEqual({ ok: false, retryAfterMs: 500 });
    clock.advance(250);
    expect(limiter.take('a')).toEqual({ ok: false, retryAfterMs: 250 });
    clock.advance(250);
    expect(limiter.take('a')).toEqual({ ok: true });
    expect(limiter.take('a').ok).toBe(false);
  });

  it('refills to the burst size at most, and keeps keys apart', () => {
    const clock = manualClock();
    const limiter = tokenBucketLimiter({ perSecond: 1, burst: 2, now: clock.now });
    expect(limiter.take('a').ok).toBe(true);
    expect(limiter.take('a').ok).toBe(true);
    expect(limiter.take('a').ok).toBe(false);
    expect(limiter.take('b').ok).toBe(true); // another team's budget is its own
    clock.advance(3_600_000); // an hour idle refills 2, not 3,600
    expect(limiter.take('a').ok).toBe(true);
    expect(limiter.take('a').ok).toBe(true);
    expect(limiter.take('a').ok).toBe(false);
  });

  it('keeps at most maxKeys buckets (the oldest goes first)', () => {
    const clock = manualClock();
    const limiter = tokenBucketLimiter({ perSecond: 1, burst: 1, now: clock.now, maxKeys: 2 });
    expect(limiter.take('a').ok).toBe(true);
    expect(limiter.take('b').ok).toBe(true);
    expect(limiter.take('c').ok).toBe(true); // drops a
    expect(limiter.take('a').ok).toBe(true); // a starts again full (drops b)
    expect(limiter.take('c').ok).toBe(false);
  });
});

describe('rateLimits middleware', () => {
  function app(clock: ReturnType<typeof manualClock>) {
    const limits = rateLimits({ RATE_LIMIT_TEAM_PER_SECOND: 1, RATE_LIMIT_TEAM_BURST: 2, RATE_LIMIT_IP_PER_SECOND: 1, RATE_LIMIT_IP_BURST: 1 }, { now: clock.now });
    const a = new Hono<AppEnv>();
    a.use(limits.byAddress);
    a.get('/health', (c) => c.text('ok'));
    a.get('/documents/x', (c) => c.text('doc'));
    a.use('/v2/*', async (c, next) => {
      c.set('teamId', c.req.header('x-team') ?? 'none');
      await next();
    });
    a.use('/v2/*', limits.byTeam);
    a.get('/v2/thing', (c) => c.text('thing'));
    return a;
  }

  it('answers 429 with Retry-After (whole seconds) and a {detail} body once a team spent its burst', async () => {
    const clock = manualClock();
    const a = app(clock);
    const get = (team: string) => a.request('/v2/thing', { headers: { 'x-team': team } });
    expect((await get('t1')).status).toBe(200);
    expect((await get('t1')).status).toBe(200);
    const limited = await get('t1');
    expect(limited.status).toBe(429);
    expect(limited.headers.get('retry-after')).toBe('1');
    expect(await limited.json()).toEqual({ detail: 'Too many requests for this API key; retry after 1 s.' });
    expect((await get('t2')).status).toBe(200);
    clock.advance(1000);
    expect((await get('t1')).status).toBe(200);
  });

  it('limits routes without a key per address, never /health', async () => {
    const clock = manualClock();
    const a = app(clock);
    expect((await a.request('/documents/x')).status).toBe(200);
    expect((await a.request('/documents/x')).status).toBe(429);
    for (let i = 0; i < 5; i++) expect((await a.request('/health')).status).toBe(200);
  });

  it('a rate of 0 turns a limit off', async () => {
    const limits = rateLimits({ RATE_LIMIT_TEAM_PER_SECOND: 0, RATE_LIMIT_IP_PER_SECOND: 0 });
    const a = new Hono<AppEnv>();
    a.use(limits.byAddress);
    a.get('/documents/x', (c) => c.text('doc'));
    for (let i = 0; i < 50; i++) expect((await a.request('/documents/x')).status).toBe(200);
  });

  it('is configured through lib/config.ts with checked values', () => {
    const config = loadConfig({});
    expect(config.RATE_LIMIT_TEAM_PER_SECOND).toBe(100);
    expect(config.RATE_LIMIT_IP_PER_SECOND).toBe(20);
    expect(() => loadConfig({ RATE_LIMIT_TEAM_BURST: '0' })).toThrow(/RATE_LIMIT_TEAM_BURST/);
    expect(() => loadConfig({ RATE_LIMIT_IP_PER_SECOND: '-1' })).toThrow(/RATE_LIMIT_IP_PER_SECOND/);
    expect(config.RATE_LIMIT_STORE).toBe('memory');
    expect(loadConfig({ RATE_LIMIT_STORE: 'postgres' }).RATE_LIMIT_STORE).toBe('postgres');
    expect(() => loadConfig({ RATE_LIMIT_STORE: 'redis' })).toThrow(/RATE_LIMIT_STORE: Invalid option: expected one of "memory"\|"postgres"/);
  });

  it('the postgres store needs the pool, even with both limits off (a wiring mistake shows at start-up)', () => {
    expect(() => rateLimits({ RATE_LIMIT_STORE: 'postgres', RATE_LIMIT_TEAM_PER_SECOND: 1 })).toThrow(/RATE_LIMIT_STORE=postgres needs the database pool/);
    expect(() => rateLimits({ RATE_LIMIT_STORE: 'postgres', RATE_LIMIT_TEAM_PER_SECOND: 0, RATE_LIMIT_IP_PER_SECOND: 0 }, {})).toThrow(/needs the database pool/);
  });
});
