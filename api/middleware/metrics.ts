import { createHash, timingSafeEqual } from 'node:crypto';
import type { Context, MiddlewareHandler } from 'hono';
import { routePath } from 'hono/route';
import { httpRequestDuration } from '../../lib/metrics.js';

/**
 * Request latency by method, route pattern and status. The route is the pattern that answered
 * (`/v3/order/:order_id`), never the path itself; a request no route answered is `unmatched`.
 */
export function httpMetrics(): MiddlewareHandler {
  return async (c, next) => {
    const start = performance.now();
    try {
      await next();
    } finally {
      observeRequest(c, start);
    }
  };
}

/** Records one answered request started at `start` (performance.now()); the request log calls it (api/app.ts). */
export function observeRequest(c: Context, start: number): void {
  const pattern = routePath(c, -1);
  const route = !pattern || pattern.endsWith('*') ? 'unmatched' : pattern;
  httpRequestDuration.observe({ method: c.req.method, route, status: String(c.res.status) }, (performance.now() - start) / 1000);
}

/** Constant-time comparison of a presented secret with the expected one (hashes first: any lengths). */
export function sameSecret(presented: string | undefined, expected: string): boolean {
  if (presented === undefined) return false;
  const digest = (v: string) => createHash('sha256').update(v).digest();
  return timingSafeEqual(digest(presented), digest(expected));
}
