import { randomUUID } from 'node:crypto';
import type { MiddlewareHandler } from 'hono';
import type { Logger } from '../../lib/logger.js';
import type { AppEnv } from '../env.js';

const SAFE_REQUEST_ID = /^[A-Za-z0-9._-]{1,64}$/;

/** Gives every request an id (echoed in `x-request-id`) and one log line when it completes. */
export function requestLog(logger: Logger): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const incoming = c.req.header('x-request-id');
    const requestId = incoming && SAFE_REQUEST_ID.test(incoming) ? incoming : randomUUID();
    const log = logger.child({ request_id: requestId });
    c.set('requestId', requestId);
    c.set('log', log);
    // Set before the handler builds its response: setting it afterwards makes Hono copy the response.
    c.header('x-request-id', requestId);
    const started = performance.now();
    await next();
    const status = c.res.status;
    const fields = {
      method: c.req.method,
      path: c.req.path,
      status,
      ms: Math.round((performance.now() - started) * 10) / 10,
      team_id: c.get('teamId'),
    };
    if (status >= 500) log.error(fields, 'request failed');
    else log.info(fields, 'request');
  };
}
