import { join } from 'node:path';
import { runMigrations } from '../db/migrate.js';
import { createDb, type DbHandle } from '../db/client.js';
import type { Config } from './config.js';
import { startEmbeddedPostgres } from './embedded-postgres.js';
import type { Logger } from './logger.js';
import { startTemporalDevServer } from './temporal-dev-server.js';

/** Postgres for the dev stack: DATABASE_URL when given, else an embedded cluster under DATA_DIR. */
export async function startPostgres(config: Config, logger: Logger) {
  if (config.DATABASE_URL) {
    logger.info('using Postgres from DATABASE_URL');
    return { url: config.DATABASE_URL, stop: async () => {} };
  }
  return startEmbeddedPostgres({
    dataDir: join(config.DATA_DIR, 'postgres'),
    port: config.EMBEDDED_POSTGRES_PORT,
    database: 'labflow',
    persistent: true,
    log: (m) => logger.info(m),
  });
}

/** Temporal for the dev stack: TEMPORAL_ADDRESS when given, else `temporal server start-dev` on SQLite under DATA_DIR. */
export async function startTemporal(config: Config, logger: Logger) {
  if (config.TEMPORAL_ADDRESS) {
    logger.info({ address: config.TEMPORAL_ADDRESS }, 'using Temporal from TEMPORAL_ADDRESS');
    return { address: config.TEMPORAL_ADDRESS, uiUrl: null as string | null, stop: async () => {} };
  }
  return startTemporalDevServer({
    port: config.TEMPORAL_DEV_PORT,
    uiPort: config.TEMPORAL_UI_PORT,
    namespace: config.TEMPORAL_NAMESPACE,
    dbFile: join(config.DATA_DIR, 'temporal', 'temporal.sqlite'),
    cliPath: config.TEMPORAL_CLI_PATH,
    log: (m) => logger.info(m),
  });
}

export async function migrate(url: string, logger: Logger): Promise<DbHandle> {
  await runMigrations(url, (m) => logger.info(m));
  return createDb(url);
}
