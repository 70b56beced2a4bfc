/**
 * The child of bench/api-ab.ts: for each checkout given (a directory holding this repository at some commit),
 * that checkout's full app (its createApp, built as bench/api-service.ts does: production's log level and team
 * limit unless the environment says otherwise, JSON lines to stderr), all in this one process; then GET
 * /v2/user/{BENCH_USER_ID} with BENCH_API_KEY through `app.fetch`, BENCH_CONCURRENCY (32) at a time, the apps
 * taking turns round by round (BENCH_REQUESTS, 2,000, per round; 3 warm-up rounds each, then BENCH_ROUNDS, 20).
 * An argument `<checkout>#KEY=value,…` gives that app settings of its own (the same checkout twice with
 * `#LOG_LEVEL=warn` on one compares the log levels). Prints one JSON line: each app's CPU µs per request (this
 * process's user + system) in each round.
 * Every answer must be a 200.
 */
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

type Fetch = (req: Request) => Response | Promise<Response>;

/** `<checkout>` or `<checkout>#KEY=value,KEY=value`: settings of that app only (LOG_LEVEL, RATE_LIMIT_…). */
async function build(arg: string): Promise<{ fetch: Fetch; close: () => Promise<void> }> {
  const [checkout, settings] = arg.split('#') as [string, string | undefined];
  const own = Object.fromEntries((settings ? settings.split(',') : []).map((kv) => [kv.slice(0, kv.indexOf('=')), kv.slice(kv.indexOf('=') + 1)]));
  const load = (file: string) => import(pathToFileURL(join(checkout, file)).href);
  const [{ createApp }, { createDb }, { lazyMasterKey }, { loadConfig }, { createLogger }, { serviceDataConverter }, { connectClient }] = await Promise.all([
    load('api/app.ts'),
    load('db/client.ts'),
    load('db/queries/service-secrets.ts'),
    load('lib/config.ts'),
    load('lib/logger.ts'),
    load('lib/payload-codec.ts'),
    load('lib/temporal-client.ts'),
  ]);
  const config = loadConfig({ RATE_LIMIT_TEAM_PER_SECOND: '100000', RATE_LIMIT_TEAM_BURST: '1000000', ...process.env, ...own });
  const logger = createLogger({ level: config.LOG_LEVEL, pretty: false, toStderr: true });
  const db = createDb(config.DATABASE_URL, { max: Number(process.env.BENCH_POOL ?? 10) });
  const temporal = await connectClient(config.TEMPORAL_ADDRESS, config.TEMPORAL_NAMESPACE, serviceDataConverter(lazyMasterKey(db.db, config.SECRET_ENCRYPTION_KEY)));
  const app = createApp({ db, temporal, logger, config });
  return {
    fetch: (req) => app.fetch(req),
    close: async () => {
      await temporal.connection.close();
      await db.close();
    },
  };
}

const url = `http://127.0.0.1/v2/user/${process.env.BENCH_USER_ID}`;
const headers = { 'x-service-api-key': process.env.BENCH_API_KEY! };
const concurrency = Number(process.env.BENCH_CONCURRENCY ?? 32);
const perRound = Number(process.env.BENCH_REQUESTS ?? 2000);

async function round(fetch: Fetch): Promise<number> {
  let sent = 0;
  const before = process.cpuUsage();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (sent++ < perRound) {
        const res = await fetch(new Request(url, { headers }));
        const body = await res.text();
        if (res.status !== 200) throw new Error(`answered ${res.status}: ${body}`);
      }
    }),
  );
  const used = process.cpuUsage(before);
  return (used.user + used.system) / perRound;
}

const checkouts = process.argv.slice(2);
const apps = [];
for (const checkout of checkouts) apps.push(await build(checkout));
for (let i = 0; i < 3; i++) for (const app of apps) await round(app.fetch);
const cpuUs: number[][] = apps.map(() => []);
const rounds = Number(process.env.BENCH_ROUNDS ?? 20);
for (let i = 0; i < rounds; i++) {
  // Alternate which goes first, so a change in the machine's load does not favour one.
  const order = i % 2 ? [...apps.keys()].reverse() : [...apps.keys()];
  for (const k of order) cpuUs[k]!.push(await round(apps[k]!.fetch));
}
process.stdout.write(`${JSON.stringify({ cpuUs })}\n`);
for (const app of apps) await app.close();
process.exit(0);
