import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../api/app.js';
import { createDb } from '../../db/client.js';
import { loadConfig } from '../../lib/config.js';
import { createLogger } from '../../lib/logger.js';
import { inject } from 'vitest';
import { http, startTestStack, type TestStack } from '../support/harness.js';

let stack: TestStack;
beforeAll(async () => {
  stack = await startTestStack();
});
afterAll(async () => {
  await stack?.close();
});

describe('GET /health', () => {
  it('is 200 when Postgres and Temporal answer and a worker polls the task queue', async () => {
    const res = await http(stack, 'GET', '/health');
    expect(res.status).toBe(200);
    expect(res.json).toEqual({ status: 'ok', checks: { postgres: 'ok', temporal: 'ok', worker: 'ok' } });
  });

  it('is 503 with the failing check named when Postgres is unreachable', async () => {
    const broken = createDb(inject('databaseUrl'));
    await broken.close(); // a closed pool refuses every query
    const app = createApp({
      db: broken,
      temporal: stack.temporal,
      logger: createLogger({ level: 'silent', pretty: false }),
      config: loadConfig({}),
    });
    const res = await app.request('/health');
    expect(res.status).toBe(503);
    const body = (await res.json()) as { status: string; checks: Record<string, string>; detail: string };
    expect(body.status).toBe('unavailable');
    expect(body.checks.postgres).not.toBe('ok');
    expect(body.checks.temporal).toBe('ok');
    expect(body.detail).toMatch(/unavailable/);
  });

  it('is 503 when no worker polls the namespace it watches', async () => {
    const app = createApp({
      db: stack.db,
      temporal: stack.temporal,
      logger: createLogger({ level: 'silent', pretty: false }),
      config: loadConfig({ TEMPORAL_NAMESPACE: 'no-such-namespace' }),
    });
    const res = await app.request('/health');
    expect(res.status).toBe(503);
    const body = (await res.json()) as { checks: Record<string, string> };
    expect(body.checks.postgres).toBe('ok');
    expect(body.checks.worker).not.toBe('ok');
  });
});
