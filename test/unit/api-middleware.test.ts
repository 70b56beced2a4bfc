import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import type { AppEnv } from '../../api/env.js';
import { HttpError, onError } from '../../api/errors.js';
import { KeyCache } from '../../api/middleware/auth.js';
import { chain } from '../../api/middleware/chain.js';
import { rateLimit, tokenBucketLimiter } from '../../api/middleware/rate-limit.js';

describe('chain', () => {
  it('runs its middleware in order around the rest of the app, as separate app.use would', async () => {
    const seen: string[] = [];
    const app = new Hono<AppEnv>();
    app.use(
      chain(
        async (_c, next) => {
          seen.push('a>');
          await next();
          seen.push('<a');
        },
        (_c, next) => {
          seen.push('b');
          return next();
        },
      ),
    );
    app.use(async (c, next) => {
      seen.push('c');
      await next();
      c.header('x-after', '1');
    });
    app.get('/x', (c) => {
      seen.push('handler');
      return c.text('ok');
    });
    const res = await app.request('/x');
    expect(res.status).toBe(200);
    expect(await res.text()).toBe('ok');
    expect(res.headers.get('x-after')).toBe('1');
    expect(seen).toEqual(['a>', 'b', 'c', 'handler', '<a']);
  });

  it('an error thrown by a chained middleware is answered by app.onError, and what follows does not run', async () => {
    let reached = false;
    const app = new Hono<AppEnv>();
    app.onError(onError);
    app.use(
      chain(
        () => {
          throw new HttpError(401, 'no');
        },
        (_c, next) => {
          reached = true;
          return next();
        },
      ),
    );
    app.get('/x', (c) => c.text('ok'));
    const res = await app.request('/x');
    expect(res.status).toBe(401);
    expect(await res.json()).toEqual({ detail: 'no' });
    expect(reached).toBe(false);
  });

  it('a rate limit chained after a middleware that awaits next() still answers its 429', async () => {
    const app = new Hono<AppEnv>();
    app.use(
      chain(
        async (_c, next) => {
          await next();
        },
        rateLimit(tokenBucketLimiter({ perSecond: 1, burst: 1, now: () => 0 }), () => 'k', 'for this test'),
      ),
    );
    app.get('/x', (c) => c.text('ok'));
    expect((await app.request('/x')).status).toBe(200);
    const refused = await app.request('/x');
    expect(refused.status).toBe(429);
    expect(refused.headers.get('retry-after')).toBe('1');
    expect(await refused.json()).toEqual({ detail: 'Too many requests for this test; retry after 1 s.' });
  });

  it("a Response a chained middleware returns is the answer, and an outer level's c.res", async () => {
    let outerStatus = 0;
    const app = new Hono<AppEnv>();
    app.use(async (c, next) => {
      await next();
      outerStatus = c.res.status;
    });
    app.use(
      chain(
        (_c, next) => next(),
        async (c) => c.json({ detail: 'slow down' }, 429),
      ),
    );
    app.get('/x', (c) => c.text('ok'));
    const res = await app.request('/x');
    expect(res.status).toBe(429);
    expect(outerStatus).toBe(429);
  });
});

describe('KeyCache.getByKey', () => {
  const hash = 'a'.repeat(64);
  const key = 'sk_us_presented-key';

  it('finds a key cached with its hash without hashing it, until its entry expires', () => {
    const cache = new KeyCache(1000);
    cache.set(hash, 'team-a', 0, cache.mark, key);
    expect(cache.getByKey(key, 500)?.teamId).toBe('team-a');
    expect(cache.getByKey('sk_us_another-key', 500)).toBeUndefined();
    expect(cache.getByKey(key, 1000)).toBeUndefined(); // expired
    expect(cache.getByKey(key, 500)).toBeUndefined(); // and forgotten
  });

  it('a revoked hash (drop) or a cleared cache: the key is no longer found', () => {
    const cache = new KeyCache(60_000);
    cache.set(hash, 'team-a', 0, cache.mark, key);
    cache.drop(hash);
    expect(cache.getByKey(key, 1)).toBeUndefined();
    cache.set(hash, 'team-a', 0, cache.mark, key);
    cache.clear();
    expect(cache.getByKey(key, 1)).toBeUndefined();
  });

  it('a key remembered for an entry that was since replaced is not found (the new entry must be remembered)', () => {
    const cache = new KeyCache(60_000);
    cache.set(hash, 'team-a', 0, cache.mark, key);
    cache.drop(hash);
    cache.set(hash, 'team-b', 0, cache.mark); // cached again, by another request, without this key
    expect(cache.getByKey(key, 1)).toBeUndefined();
    const entry = cache.get(hash, 1)!;
    cache.remember(key, entry);
    expect(cache.getByKey(key, 1)?.teamId).toBe('team-b');
  });

  it('a lookup that raced with a revocation caches neither the hash nor the key', () => {
    const cache = new KeyCache(60_000);
    const mark = cache.mark;
    cache.drop(hash); // revoked while the lookup ran
    cache.set(hash, 'team-a', 0, mark, key);
    expect(cache.get(hash, 1)).toBeUndefined();
    expect(cache.getByKey(key, 1)).toBeUndefined();
  });
});
