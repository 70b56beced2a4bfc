import { Client } from '@temporalio/client';
import { createApp } from '../../api/app.js';
import { createDb } from '../../db/client.js';
import { loadConfig } from '../../lib/config.js';
import { createLogger } from '../../lib/logger.js';

/**
 * The service's route table, without any service running: the app is built over a database handle and
 * a Temporal client that connect lazily (nothing here makes them connect). `served(method, path)` says
 * whether a route (not only middleware, which Hono registers as method ALL) answers that request.
 */
export async function withAppRoutes<T>(fn: (served: (method: string, path: string) => boolean) => T): Promise<T> {
  const db = createDb('postgres://unused@127.0.0.1:1/unused', { max: 1 });
  try {
    const app = createApp({ db, temporal: new Client(), logger: createLogger({ level: 'silent', pretty: false }), config: loadConfig({}) });
    return fn((method, path) => {
      const [matches] = app.router.match(method, path) as unknown as [[[unknown, { method: string }], unknown][]];
      return matches.some(([[, route]]) => route.method !== 'ALL');
    });
  } finally {
    await db.close();
  }
}
