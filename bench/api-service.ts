/** The full API (auth, logging, validation, team scoping) for bench:api, on a free port. Prints {"port": N}. */
import { startApi } from '../api/server.js';
import { createDb } from '../db/client.js';
import { lazyMasterKey } from '../db/queries/service-secrets.js';
import { loadConfig } from '../lib/config.js';
import { createLogger } from '../lib/logger.js';
import { serviceDataConverter } from '../lib/payload-codec.js';
import { connectClient } from '../lib/temporal-client.js';

const config = loadConfig({ ...process.env });
// The service's own logging as deployed (one line per request), written where a deployment writes it.
const logger = createLogger({ level: config.LOG_LEVEL, pretty: false, toStderr: true });
const db = createDb(config.DATABASE_URL!, { max: Number(process.env.BENCH_POOL ?? 10) });
const temporal = await connectClient(config.TEMPORAL_ADDRESS!, 'default', serviceDataConverter(lazyMasterKey(db.db, config.SECRET_ENCRYPTION_KEY)));
const api = await startApi({ db, temporal, logger, config }, 0, '127.0.0.1');
process.stdout.write(`${JSON.stringify({ port: api.port })}\n`);
