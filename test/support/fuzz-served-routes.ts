import { Client } from '@temporalio/client';
import { createApp } from '../../api/app.js';
import { createDb } from '../../db/client.js';
import { loadConfig } from '../../lib/config.js';
import { createLogger } from '../../lib/logger.js';

/**
 * Every route the app serves, read from its router (`app.routes`), as `METHOD /path/:param`, without
 * middleware (Hono's method ALL). The fuzz (test/integration/fuzz.test.ts) fails when one of them has
 * no fuzz spec, so a new route cannot go unfuzzed. Nothing here connects to a database or Temporal.
 */
export async function servedRoutes(): Promise<{ method: string; path: string }[]> {
  const db = createDb('postgres://unused@127.0.0.1:1/unused', { max: 1 });
  try {
    const app = createApp({ db, temporal: new Client(), logger: createLogger({ level: 'silent', pretty: false }), config: loadConfig({}) });
    const seen = new Map<string, { method: string; path: string }>();
    for (const r of app.routes) {
      if (r.method === 'ALL') continue;
      const path = r.path.length > 1 ? r.path.replace(/\/$/, '') : r.path;
      seen.set(`${r.method} ${path}`, { method: r.method, path });
    }
    return [...seen.values()];
  } finally {
    await db.close();
  }
}
