import { join } from 'node:path';
import postgres from 'postgres';
import { runMigrations } from '../db/migrate.js';
import { createDb, type DbHandle } from '../db/client.js';
import type { Config } from './config.js';
import { startEmbeddedPostgres } from './embedded-postgres.js';
import type { Logger } from './logger.js';
import { oneLine, StartupError } from './startup.js';
import { startTemporalDevServer } from './temporal-dev-server.js';

/**
 * Postgres for the dev stack: DATABASE_URL when given, else an embedded cluster under DATA_DIR. `shared`
 * (the default, for `npm run admin`) uses the cluster of a running `npm run dev`; the dev stack starts its own.
 */
export async function startPostgres(config: Config, logger: Logger, opts: { shared?: boolean } = {}) {
  if (config.DATABASE_URL) {
    logger.info('using Postgres from DATABASE_URL');
    const sql = postgres(config.DATABASE_URL, { max: 1, connect_timeout: 5, onnotice: () => {} });
    try {
      await sql`select 1`;
    } catch (err) {
      throw new StartupError(`cannot connect to the Postgres of DATABASE_URL (${oneLine(err)}): start that server, fix the URL, or unset DATABASE_URL to use the embedded one`);
    } finally {
      await sql.end({ timeout: 1 }).catch(() => {});
    }
    return { url: config.DATABASE_URL, stop: async () => {} };
  }
  return startEmbeddedPostgres({
    dataDir: join(config.DATA_DIR, 'postgres'),
    port: config.EMBEDDED_POSTGRES_PORT,
    database: 'labflow',
    persistent: true,
    shared: opts.shared ?? true,
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
    // The dashboard's remote codec: the UI shows decoded payloads to operators logged into the dashboard.
    uiCodecEndpoint: `http://127.0.0.1:${config.PORT}/dashboard/codec`,
    namespace: config.TEMPORAL_NAMESPACE,
    dbFile: join(config.DATA_DIR, 'temporal', 'temporal.sqlite'),
    cliPath: config.TEMPORAL_CLI_PATH,
    log: (m) => logger.info(m),
  });
}

export async function migrate(url: string, logger: Logger): Promise<DbHandle> {
  try {
    await runMigrations(url, (m) => logger.info(m));
  } catch (err) {
    throw new StartupError(
      `database migration failed (${oneLine(err)}): check that DATABASE_URL names a database this service owns, ` +
        'or for the embedded one move DATA_DIR/postgres away to start from an empty database',
    );
  }
  return createDb(url);
}

/**
 * Origins allowed to call the dashboard's codec: the configured ones, plus the dev server's own Temporal UI
 * when this stack started it (both host names a browser may use for it).
 */
export function codecOrigins(config: Config, startedUi: string | null): string[] {
  const own = startedUi ? [startedUi, startedUi.replace('//127.0.0.1:', '//localhost:')] : [];
  return [...new Set([...config.DASHBOARD_CODEC_ORIGINS, ...own])];
}
