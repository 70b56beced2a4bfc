import type { Context, MiddlewareHandler } from 'hono';
import type { AppEnv } from '../env.js';

/** One request's verdict: go on, or wait `retryAfterMs` before the next one can pass. */
export type RateDecision = { ok: true } | { ok: false; retryAfterMs: number };

/**
 * Where request budgets are kept. In memory today (one API process); a store shared by several API
 * processes (Postgres or Redis) implements the same method, hence the possible Promise.
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
        return { ok: true };
      }
      return { ok: false, retryAfterMs: Math.ceil(((1 - bucket.tokens) / perSecond) * 1000) };
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
  return async (c, next) => {
    const k = key(c);
    if (k === null) return next();
    const decision = await limiter.take(k);
    if (!decision.ok) {
      const seconds = Math.max(1, Math.ceil(decision.retryAfterMs / 1000));
      c.header('Retry-After', String(seconds));
      return c.json({ detail: `Too many requests ${what}; retry after ${seconds} s.` }, 429);
    }
    return next();
  };
}

export interface RateLimitSettings {
  RATE_LIMIT_TEAM_PER_SECOND?: number | undefined;
  RATE_LIMIT_TEAM_BURST?: number | undefined;
  RATE_LIMIT_IP_PER_SECOND?: number | undefined;
  RATE_LIMIT_IP_BURST?: number | undefined;
}

/** Paths whose callers are limited by their team key (after auth), or not at all (/health, partners' own keys). */
const NOT_BY_IP = /^\/(health|partner|v2|v3|lab_report|aggregate)(\/|$)/;

/**
 * The two limits of the API (README "Rate limits"): per team on the team-key routes, per client address
 * on the routes without a key (signed document links, unknown paths). A rate of 0 (or unset) turns one off.
 */
export function rateLimits(settings: RateLimitSettings, now?: () => number) {
  const limiter = (perSecond?: number, burst?: number) =>
    perSecond ? tokenBucketLimiter({ perSecond, burst: burst ?? perSecond, ...(now ? { now } : {}) }) : null;
  const team = limiter(settings.RATE_LIMIT_TEAM_PER_SECOND, settings.RATE_LIMIT_TEAM_BURST);
  const ip = limiter(settings.RATE_LIMIT_IP_PER_SECOND, settings.RATE_LIMIT_IP_BURST);
  const pass: MiddlewareHandler<AppEnv> = (_c, next) => next();
  return {
    byTeam: team ? rateLimit(team, (c) => `team:${c.get('teamId')}`, 'for this API key') : pass,
    byAddress: ip ? rateLimit(ip, (c) => (NOT_BY_IP.test(c.req.path) ? null : `ip:${socketAddress(c)}`), 'from this address') : pass,
  };
}
