import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { serve, type ServerType } from '@hono/node-server';
import { createDb } from '../db/client.js';
import { loadConfigOrExit } from '../lib/config.js';
import { createLogger } from '../lib/logger.js';
import { connectClient } from '../lib/temporal-client.js';
import { startTracing, stopTracing } from '../lib/tracing.js';
import { serviceDataConverter } from '../lib/payload-codec.js';
import { lazyMasterKey } from '../db/queries/service-secrets.js';
import { createApp, type AppDeps } from './app.js';
import { answerClientErrors } from './input-guard.js';

export interface RunningApi {
  url: string;
  port: number;
  close(): Promise<void>;
}

/** Serves the app on 127.0.0.1 (or `hostname`) at `port` (0 = any free port). */
export async function startApi(deps: AppDeps, port: number, hostname = '0.0.0.0'): Promise<RunningApi> {
  const app = createApp(deps);
  const server: ServerType = await new Promise((resolve) => {
    const s = serve({ fetch: app.fetch, port, hostname }, () => resolve(s));
  });
  answerClientErrors(server); // a request Node's parser refuses still gets a JSON {detail}
  const actual = (server.address() as AddressInfo).port;
  const host = hostname === '0.0.0.0' ? '127.0.0.1' : hostname;
  return {
    url: `http://${host}:${actual}`,
    port: actual,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((err) => (err ? reject(err) : resolve()));
        (server as { closeAllConnections?: () => void }).closeAllConnections?.();
      }),
  };
}

async function main(): Promise<void> {
  const config = loadConfigOrExit();
  const logger = createLogger({ level: config.LOG_LEVEL, name: 'api' });
  if (!config.DATABASE_URL || !config.TEMPORAL_ADDRESS) {
    logger.fatal('api/server.ts needs DATABASE_URL and TEMPORAL_ADDRESS (npm run dev starts everything for you)');
    process.exit(1);
  }
  startTracing('labflow-api'); // when OTEL_EXPORTER_OTLP_ENDPOINT is set (README "Traces")
  const db = createDb(config.DATABASE_URL, { max: config.DATABASE_POOL_SIZE });
  const temporal = await connectClient(
    config.TEMPORAL_ADDRESS,
    config.TEMPORAL_NAMESPACE,
    serviceDataConverter(lazyMasterKey(db.db, config.SECRET_ENCRYPTION_KEY)),
  );
  const api = await startApi({ db, temporal, logger, config }, config.PORT);
  logger.info({ url: api.url }, 'API listening');
  const stop = async () => {
    await api.close();
    await temporal.connection.close();
    await db.close();
    await stopTracing();
    process.exit(0);
  };
  process.once('SIGINT', () => void stop());
  process.once('SIGTERM', () => void stop());
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  main().catch((err: unknown) => {
    process.stderr.write(`api failed: ${err instanceof Error ? err.stack : String(err)}\n`);
    process.exit(1);
  });
}
