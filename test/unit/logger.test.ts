import { Writable } from 'node:stream';
import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import type { AppEnv } from '../../api/env.js';
import { requestLog } from '../../api/middleware/request-log.js';
import { createLogger, withoutRedaction } from '../../lib/logger.js';

/** The service's logger (its mixin and redaction list) writing JSON lines into an array. */
function capture() {
  const raw: string[] = [];
  const destination = new Writable({
    write(chunk: Buffer, _enc, done) {
      for (const l of chunk.toString().split('\n')) if (l) raw.push(l);
      done();
    },
  });
  const logger = createLogger({ level: 'info', name: 'api', destination });
  return { raw, lines: () => raw.map((l) => JSON.parse(l) as Record<string, unknown>), logger };
}

const KEY = 'sk_us_0123456789abcdef0123456789abcdef';

describe('logger', () => {
  it('redacts the key headers of a header map logged by mistake, at the top level and one level down', () => {
    const { raw, lines, logger } = capture();
    logger.info({ headers: { 'x-service-api-key': KEY, accept: 'json' }, req: { headers: { 'x-vital-api-key': KEY } }, api_key: KEY, password: 'pw' }, 'oops');
    expect(raw.join('\n')).not.toContain(KEY);
    expect(lines()[0]).toMatchObject({
      headers: { 'x-service-api-key': '[redacted]', accept: 'json' },
      req: { headers: { 'x-vital-api-key': '[redacted]' } },
      api_key: '[redacted]',
      password: '[redacted]',
    });
  });

  it('withoutRedaction writes the same line as the logger for fields without a redacted path, to the same destination', () => {
    const { raw, logger } = capture();
    const fields = { method: 'GET', path: '/v2/user/u-1', status: 200, ms: 1.5, team_id: 't-1' };
    logger.info(fields, 'request');
    withoutRedaction(logger).info(fields, 'request');
    const [a, b] = raw.map((l) => l.replace(/"time":\d+/, '"time":0'));
    expect(b).toBe(a);
    expect(JSON.parse(b!)).toMatchObject({ name: 'api', ...fields, msg: 'request' });
  });

  it("the request line carries request_id and its fields, and never the caller's key", async () => {
    const { raw, lines, logger } = capture();
    const app = new Hono<AppEnv>();
    app.use(requestLog(logger));
    app.use(async (c, next) => {
      c.set('teamId', 'team-1');
      await next();
    });
    app.get('/v2/user/:id', (c) => {
      c.get('log').info({ headers: { 'x-service-api-key': c.req.header('x-service-api-key') } }, 'handler logged its headers');
      return c.json({ ok: true });
    });
    const res = await app.request('/v2/user/u-1?x=1', { headers: { 'x-request-id': 'req-9', 'x-service-api-key': KEY } });
    expect(res.status).toBe(200);
    expect(raw.join('\n')).not.toContain(KEY);
    const [handler, line] = lines();
    expect(handler).toMatchObject({ request_id: 'req-9', headers: { 'x-service-api-key': '[redacted]' } });
    expect(line).toMatchObject({ request_id: 'req-9', method: 'GET', path: '/v2/user/u-1', status: 200, team_id: 'team-1', msg: 'request' });
    expect(typeof line!.ms).toBe('number');
  });
});
