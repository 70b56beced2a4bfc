import { randomUUID } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import type { Context, MiddlewareHandler, Next } from 'hono';
import { withLogContext } from '../../lib/log-context.js';
import { withoutRedaction, type Logger } from '../../lib/logger.js';
import type { AppEnv } from '../env.js';
import { observeRequest } from './metrics.js';

const SAFE_REQUEST_ID = /^[A-Za-z0-9._-]{1,64}$/;

/**
 * Gives every request an id (echoed in `x-request-id`) and one log line when it completes. The request is
 * served inside a log context (lib/log-context.ts), so every line logged while it runs, by any module and
 * through any logger, carries its `request_id`. The `info` line's fields are built only when `info` is on.
 * With `metrics`, it also records the request's latency (api/middleware/metrics.ts), sparing a middleware.
 * That line's fields are built here and hold no secret, so it is written without the redaction pass
 * (lib/logger.ts, withoutRedaction); handlers still log through `logger`, redaction on.
 */
export function requestLog(logger: Logger, options: { metrics?: boolean } = {}): MiddlewareHandler<AppEnv> {
  const observe = options.metrics ? observeRequest : null;
  const lineLogger = withoutRedaction(logger);
  return (c, next) => {
    const incoming = c.req.header('x-request-id');
    const requestId = incoming && SAFE_REQUEST_ID.test(incoming) ? incoming : randomUUID();
    c.set('requestId', requestId);
    c.set('log', logger);
    // Served by @hono/node-server, the header goes on Node's response, which merges it into whatever the app
    // answers: `c.header` would make Hono build a `Headers` object for the response, and node-server read it
    // back into Node's, for every request. Without it (app.request), before the handler builds its response
    // (setting it afterwards makes Hono copy the response).
    const outgoing = (c.env as { outgoing?: ServerResponse } | undefined)?.outgoing;
    if (outgoing) outgoing.setHeader('x-request-id', requestId);
    else c.header('x-request-id', requestId);
    return withLogContext({ request_id: requestId }, () => served(c, next, lineLogger, observe));
  };
}

async function served(c: Context<AppEnv>, next: Next, logger: Logger, observe: typeof observeRequest | null): Promise<void> {
  const started = performance.now();
  try {
    await next();
  } finally {
    observe?.(c, started);
  }
  const status = c.res.status;
  if (status < 500 && !logger.isLevelEnabled('info')) return;
  const fields = {
    method: c.req.method,
    path: c.req.path,
    status,
    ms: Math.round((performance.now() - started) * 10) / 10,
    team_id: c.get('teamId'),
  };
  if (status >= 500) logger.error(fields, 'request failed');
  else logger.info(fields, 'request');
}
