import { Client, Connection } from '@temporalio/client';
import { VitalClient } from '@tryvital/vital-node';
import { inject } from 'vitest';
import { startApi } from '../../api/server.js';
import { createDb, type DbHandle } from '../../db/client.js';
import { createTeam } from '../../db/queries/teams.js';
import { loadConfig } from '../../lib/config.js';
import { serviceDataConverter } from '../../lib/payload-codec.js';
import { serviceClientInterceptors } from '../../lib/temporal-client.js';
import { lazyMasterKey } from '../../db/queries/service-secrets.js';
import { TEST_SECRET_ENCRYPTION_KEY } from './constants.js';
import { createLogger } from '../../lib/logger.js';

export interface TestStack {
  url: string;
  db: DbHandle;
  temporal: Client;
  close(): Promise<void>;
}

/**
 * A real API server (on a free port) against the run's real Postgres and Temporal. The worker
 * started by the global setup executes the workflows this API starts.
 */
export async function startTestStack(
  env: Record<string, string> = {},
  extra: Pick<Parameters<typeof startApi>[0], 'orderDeadlines'> = {},
): Promise<TestStack> {
  const config = loadConfig({ API_KEY_CACHE_TTL_SECONDS: '0', SECRET_ENCRYPTION_KEY: TEST_SECRET_ENCRYPTION_KEY, ...env });
  const db = createDb(inject('databaseUrl'), { max: 5 });
  const connection = await Connection.connect({ address: inject('temporalAddress') });
  const temporal = new Client({
    connection,
    namespace: config.TEMPORAL_NAMESPACE === 'default' ? inject('temporalNamespace') : config.TEMPORAL_NAMESPACE,
    dataConverter: serviceDataConverter(lazyMasterKey(db.db, config.SECRET_ENCRYPTION_KEY)),
    interceptors: serviceClientInterceptors(),
  });
  const logger = createLogger({ level: process.env.TEST_LOG_LEVEL ?? 'silent', pretty: false });
  const api = await startApi({ db, temporal, logger, config, ...extra }, 0, '127.0.0.1');
  return {
    url: api.url,
    db,
    temporal,
    close: async () => {
      await api.close();
      await connection.close();
      await db.close();
    },
  };
}

/** A fresh team (own API key) per test keeps tests independent of each other. */
export async function newTeam(stack: TestStack, name = 'test team') {
  return createTeam(stack.db.db, { name, environment: 'sandbox', region: 'us' });
}

export function sdkFor(stack: TestStack, apiKey: string): VitalClient {
  return new VitalClient({ apiKey, baseUrl: stack.url, maxRetries: 0, timeoutInSeconds: 30 });
}

/** Plain HTTP helper for the cases an SDK refuses to send (bad input, missing keys). */
export async function http(
  stack: TestStack,
  method: string,
  path: string,
  options: { apiKey?: string; body?: unknown; rawBody?: string; headers?: Record<string, string> } = {},
) {
  const headers: Record<string, string> = { ...options.headers };
  if (options.apiKey) headers['x-service-api-key'] = options.apiKey;
  let body: string | undefined;
  if (options.rawBody !== undefined) body = options.rawBody;
  else if (options.body !== undefined) {
    body = JSON.stringify(options.body);
    headers['content-type'] = 'application/json';
  }
  const res = await fetch(`${stack.url}${path}`, { method, headers, body });
  const text = await res.text();
  let json: unknown = undefined;
  try {
    json = JSON.parse(text);
  } catch {
    // not JSON; callers assert on the content type
  }
  return { status: res.status, headers: res.headers, text, json: json as Record<string, unknown> & { detail?: unknown } };
}

/** Poll until `fn` returns a truthy value or the timeout passes. */
export async function eventually<T>(fn: () => Promise<T | null | undefined | false>, timeoutMs = 20_000, intervalMs = 100): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await fn();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`condition not met within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, intervalMs));
  }
}
