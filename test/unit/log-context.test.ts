import { Writable } from 'node:stream';
import { Hono } from 'hono';
import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { requestLog } from '../../api/middleware/request-log.js';
import type { AppEnv } from '../../api/env.js';
import { logMixin, withLogContext } from '../../lib/log-context.js';

/** A logger like the service's (the same mixin) writing JSON lines into an array. */
function capture() {
  const lines: Record<string, unknown>[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _enc, done) {
      for (const l of chunk.toString().split('\n')) if (l) lines.push(JSON.parse(l) as Record<string, unknown>);
      done();
    },
  });
  return { lines, logger: pino({ level: 'info', mixin: logMixin }, stream) };
}

describe('log context', () => {
  it('adds the fields of the running context to every line, inner fields winning, nothing outside', async () => {
    const { lines, logger } = capture();
    logger.info('outside');
    await withLogContext({ workflow_id: 'wf-1', activity: 'a' }, async () => {
      await new Promise((r) => setTimeout(r, 1));
      logger.info('inside');
      withLogContext({ activity: 'b' }, () => logger.info('nested'));
    });
    expect(lines[0]).not.toHaveProperty('workflow_id');
    expect(lines[1]).toMatchObject({ msg: 'inside', workflow_id: 'wf-1', activity: 'a' });
    expect(lines[2]).toMatchObject({ msg: 'nested', workflow_id: 'wf-1', activity: 'b' });
  });

  it("a line's own fields are not kept by the context for the lines after it", () => {
    const { lines, logger } = capture();
    withLogContext({ request_id: 'r-1' }, () => {
      logger.info({ headers: { accept: 'json' }, step: 1 }, 'first');
      logger.info('second');
    });
    expect(lines[0]).toMatchObject({ msg: 'first', request_id: 'r-1', step: 1 });
    expect(lines[1]).toMatchObject({ msg: 'second', request_id: 'r-1' });
    expect(lines[1]).not.toHaveProperty('step');
    expect(lines[1]).not.toHaveProperty('headers');
  });

  it('gives every line logged while a request is served its request id, by any logger', async () => {
    const { lines, logger } = capture();
    const other = capture(); // a module's own logger, not the one the middleware was given
    const app = new Hono<AppEnv>();
    app.use(requestLog(logger as never));
    app.get('/x', async (c) => {
      await new Promise((r) => setTimeout(r, 1));
      other.logger.info('deep inside');
      return c.json({ ok: true });
    });
    const res = await app.request('/x', { headers: { 'x-request-id': 'req-123' } });
    expect(res.headers.get('x-request-id')).toBe('req-123');
    expect(other.lines[0]).toMatchObject({ msg: 'deep inside', request_id: 'req-123' });
    expect(lines.find((l) => l.msg === 'request')).toMatchObject({ request_id: 'req-123', status: 200, path: '/x' });
  });
});
