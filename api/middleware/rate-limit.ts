import type { Context, MiddlewareHandler, Next } from 'hono';
import type postgres from 'postgres';
import type { AppEnv } from '../env.js';

/** One request's verdict: go on, or wait `retryAfterMs` before the next one can pass. */
export type RateDecision = { ok: true } | { ok: false; retryAfterMs: number };

/**
 * Where request budgets are kept: in this process's memory (tokenBucketLimiter), or in Postgres, shared by
 * every API process (postgresRateLimiter); RATE_LIMIT_STORE picks one.
 */
export interface RateLimiter {
  take(key: string): RateDecision | Promise<RateDecision>;
}

export interface TokenBucketOptions {
  /** Tokens added per second: the sustained request rate. */
  perSecond: number;
  /** Bucket size: the burst allowed after a quiet period. */
  burst: number;
  /** Milliseconds clock; tests inject one. */
  now?: () => number;
  /** Most keys kept; past it the oldest bucket is dropped (a dropped key starts again full). */
  maxKeys?: number;
}

const PASS: RateDecision = Object.freeze({ ok: true });

/** Token buckets in memory, one per key: `burst` requests at once, then `perSecond` on average. */
export function tokenBucketLimiter({ perSecond, burst, now = Date.now, maxKeys = 100_000 }: TokenBucketOptions): { take(key: string): RateDecision } {
  const buckets = new Map<string, { tokens: number; at: number }>();
  return {
    take(key) {
      const t = now();
      let bucket = buckets.get(key);
      if (!bucket) {
        if (buckets.size >= maxKeys) buckets.delete(buckets.keys().next().value!);
        bucket = { tokens: burst, at: t };
        buckets.set(key, bucket);
      } else {
        bucket.tokens = Math.min(burst, bucket.tokens + ((t - bucket.at) / 1000) * perSecond);
        bucket.at = t;
      }
      if (bucket.tokens >= 1) {
        bucket.tokens -= 1;
        return PASS;
      }
      return { ok: false, retryAfterMs: Math.ceil(((1 - bucket.tokens) / perSecond) * 1000) };
    },
  };
}

export interface PostgresLimiterOptions {
  sql: postgres.Sql;
  perSecond: number;
  burst: number;
  /** Called when Postgres fails (at most every 10 s): the request goes through (fail open). */
  onError?: (err: unknown) => void;
  /** How often buckets in the past (full again) are deleted; default a minute. */
  cleanupEveryMs?: number;
}

/**
 * The same budget as tokenBucketLimiter, kept in Postgres (table rate_limit_buckets, UNLOGGED) and so shared by
 * every API process: GCRA, one row per key holding its theoretical arrival time `tat` (epoch ms). Each request is
 * one upsert: with T = 1/perSecond, it passes when max(tat, now) + T − now ≤ burst × T, moving tat there; a refused
 * one leaves the row alone. Time is the database's clock, the one all processes share.
 *
 * Fails open: if Postgres errors, the request goes through (and `onError` hears of it). The limit protects the
 * service from a client sending too much, and a request let through costs what any request costs; failing closed
 * would turn a database hiccup into a 429 for every client, with nothing gained, since the request's own queries
 * need the same database.
 *
 * A row whose tat is past means a full bucket, exactly as no row does: each limiter deletes such rows every
 * `cleanupEveryMs` (timer started by the first request, unref'd), so the table holds only keys active in the
 * last burst × T + a minute.
 */
export function postgresRateLimiter({ sql, perSecond, burst, onError: report = () => {}, cleanupEveryMs = 60_000 }: PostgresLimiterOptions): RateLimiter {
  let reportedAt = 0;
  const onError = (err: unknown) => {
    if (Date.now() - reportedAt < 10_000) return; // an outage fails every request: say so once in a while
    reportedAt = Date.now();
    report(err);
  };
  const T = 1000 / perSecond;
  const L = burst * T;
  const EPSILON_MS = 0.001; // float sums of T must not refuse the burst's last request by a rounding error
  let cleanup: NodeJS.Timeout | null = null;
  const startCleanup = () => {
    cleanup = setInterval(() => {
      sql`delete from rate_limit_buckets where tat < extract(epoch from clock_timestamp()) * 1000`.catch((err: unknown) => {
        if ((err as { code?: string }).code === 'CONNECTION_ENDED' && cleanup) clearInterval(cleanup); // the pool was closed
        else onError(err);
      });
    }, cleanupEveryMs);
    cleanup.unref();
  };
  return {
    async take(key) {
      if (!cleanup) startCleanup();
      try {
        // `excluded.tat - T` is the statement's now; `prev` (the row before, from the statement's snapshot) only
        // serves the retry-after of a refusal.
        const [row] = await sql<{ allowed: number | null; now: number; prev: number | null }[]>`
          with clock as (select (extract(epoch from clock_timestamp()) * 1000)::float8 as now),
          prev as (select tat from rate_limit_buckets where key = ${key}),
          up as (
            insert into rate_limit_buckets as b (key, tat)
            select ${key}, clock.now + ${T}::float8 from clock
            on conflict (key) do update set tat = greatest(b.tat, excluded.tat - ${T}::float8) + ${T}::float8
              where greatest(b.tat, excluded.tat - ${T}::float8) + ${T}::float8 - (excluded.tat - ${T}::float8) <= ${L + EPSILON_MS}::float8
            returning b.tat
          )
          select (select tat from up) as allowed, (select now from clock) as now, (select tat from prev) as prev`;
        if (!row || row.allowed !== null) return PASS;
        // Refused: the stored tat is at most now + L (every write kept it so), so the wait is in (0, T].
        const wait = row.prev === null ? T : row.prev + T - L - row.now;
        return { ok: false, retryAfterMs: Math.min(T, Math.max(1, Math.ceil(wait))) };
      } catch (err) {
        onError(err);
        return PASS;
      }
    },
  };
}

/** The caller's address as the socket saw it (@hono/node-server); behind a proxy, the proxy's. */
export function socketAddress(c: Context): string {
  const incoming = (c.env as { incoming?: { socket?: { remoteAddress?: string } } } | undefined)?.incoming;
  return incoming?.socket?.remoteAddress ?? 'unknown';
}

/**
 * 429 `{detail}` with `Retry-After` (whole seconds, at least 1: what @tryvital/vital-node reads) when the
 * key's budget is spent. `key` null lets the request through unlimited.
 */
export function rateLimit(limiter: RateLimiter, key: (c: Context<AppEnv>) => string | null, what: string): MiddlewareHandler<AppEnv> {
  const decide = (c: Context<AppEnv>, next: Next, decision: RateDecision): Promise<void | Response> => {
    if (decision.ok) return next();
    const seconds = Math.max(1, Math.ceil(decision.retryAfterMs / 1000));
    c.header('Retry-After', String(seconds));
    // Set as c.res, not only returned: chained after a middleware that awaits next() (api/middleware/chain.ts), a
    // returned answer would be dropped.
    c.res = c.json({ detail: `Too many requests ${what}; retry after ${seconds} s.` }, 429);
    return Promise.resolve(c.res);
  };
  // Not async: an unlimited request, or a decision from memory, passes on without a promise of its own.
  return (c, next) => {
    const k = key(c);
    if (k === null) return next();
    const decision = limiter.take(k);
    return decision instanceof Promise ? decision.then((d) => decide(c, next, d)) : decide(c, next, decision);
  };
}

export interface RateLimitSettings {
  /** `memory` (default): budgets per process; `postgres`: one budget shared by every API process. */
  RATE_LIMIT_STORE?: 'memory' | 'postgres' | undefined;
  RATE_LIMIT_TEAM_PER_SECOND?: number | undefined;
  RATE_LIMIT_TEAM_BURST?: number | undefined;
  RATE_LIMIT_IP_PER_SECOND?: number | undefined;
  RATE_LIMIT_IP_BURST?: number | undefined;
}

/** Paths whose callers are limited by their team key (after auth), or not at all (/health, partners' own keys). */
const NOT_BY_IP = /^\/(health|partner|v2|v3|lab_report|aggregate)(\/|$)/;

export interface RateLimitDeps {
  /** The memory store's clock (tests). */
  now?: () => number;
  /** The pool the postgres store queries (required when RATE_LIMIT_STORE=postgres). */
  sql?: postgres.Sql;
  /** Told when the postgres store fails (it lets the request through). */
  onError?: (err: unknown) => void;
}

/**
 * The two limits of the API (README "Rate limits"): per team on the team-key routes, per client address
 * on the routes without a key (signed document links, unknown paths). A rate of 0 (or unset) turns one off:
 * then the request meets no limiter at all, whatever the store.
 */
export function rateLimits(settings: RateLimitSettings, { now, sql, onError }: RateLimitDeps = {}) {
  const store = settings.RATE_LIMIT_STORE ?? 'memory';
  if (store === 'postgres' && !sql) throw new Error('RATE_LIMIT_STORE=postgres needs the database pool (rateLimits(settings, { sql }))');
  const limiter = (perSecond?: number, burst?: number): RateLimiter | null => {
    if (!perSecond) return null;
    const b = burst ?? perSecond;
    return store === 'postgres' ? postgresRateLimiter({ sql: sql!, perSecond, burst: b, ...(onError ? { onError } : {}) }) : tokenBucketLimiter({ perSecond, burst: b, ...(now ? { now } : {}) });
  };
  const team = limiter(settings.RATE_LIMIT_TEAM_PER_SECOND, settings.RATE_LIMIT_TEAM_BURST);
  const ip = limiter(settings.RATE_LIMIT_IP_PER_SECOND, settings.RATE_LIMIT_IP_BURST);
  const pass: MiddlewareHandler<AppEnv> = (_c, next) => next();
  // One key string per team, kept: the memory store then finds its bucket without building and hashing a new string.
  const teamKeys = new Map<string, string>();
  const teamKey = (c: Context<AppEnv>) => {
    const teamId = c.get('teamId');
    let k = teamKeys.get(teamId);
    if (k === undefined) {
      if (teamKeys.size >= 10_000) teamKeys.clear();
      teamKeys.set(teamId, (k = `team:${teamId}`));
    }
    return k;
  };
  return {
    byTeam: team ? rateLimit(team, teamKey, 'for this API key') : pass,
    byAddress: ip ? rateLimit(ip, (c) => (NOT_BY_IP.test(c.req.path) ? null : `ip:${socketAddress(c)}`), 'from this address') : pass,
  };
}
