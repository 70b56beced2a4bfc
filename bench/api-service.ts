/**
 * The full API of bench:api (createApp: auth with its key cache, request logging, validation, team-scoped
 * queries), served on a free port in its own process. Prints its URL on stdout once it listens.
 */
import { startApi } from '../api/server.js';
import { createDb } from '../db/client.js';
import { lazyMasterKey } from '../db/queries/service-secrets.js';
import { loadConfig } from '../lib/config.js';
import { createLogger } from '../lib/logger.js';
import { serviceDataConverter } from '../lib/payload-codec.js';
import { connectClient } from '../lib/temporal-client.js';
import { profileUntilSigusr2 } from './support.js';

// The team's rate limit runs as in production, at a ceiling the bench never reaches (every answer must be a
// 200); RATE_LIMIT_TEAM_PER_SECOND / _BURST in the environment still win.
const config = loadConfig({ RATE_LIMIT_TEAM_PER_SECOND: '100000', RATE_LIMIT_TEAM_BURST: '1000000', ...process.env });
// JSON lines to stderr, as deployed; the orchestrator points stderr at a log file.
const logger = createLogger({ level: config.LOG_LEVEL, pretty: false, toStderr: true });
const db = createDb(config.DATABASE_URL!, { max: Number(process.env.BENCH_POOL ?? 10) });
const temporal = await connectClient(config.TEMPORAL_ADDRESS!, config.TEMPORAL_NAMESPACE, serviceDataConverter(lazyMasterKey(db.db, config.SECRET_ENCRYPTION_KEY)));
const api = await startApi({ db, temporal, logger, config }, 0, '127.0.0.1');
// BENCH_CPU_PROFILE=<file>: a CPU profile of this process from now until SIGUSR2 (bench:api sends it after
// the full API's last run), written as a .cpuprofile; then the file's name on stdout.
const profilePath = process.env.BENCH_CPU_PROFILE;
if (profilePath) await profileUntilSigusr2(profilePath, 200, () => process.stdout.write(`${profilePath}\n`));
process.stdout.write(`${api.url}\n`);
