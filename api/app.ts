import type { Client } from '@temporalio/client';
import { Hono } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import type { DbHandle } from '../db/client.js';
import type { Config } from '../lib/config.js';
import type { Logger } from '../lib/logger.js';
import type { AppEnv } from './env.js';
import { HttpError, onError, onNotFound } from './errors.js';
import { refuseBadFormFields, refuseControlCharsInUrl } from './input-guard.js';
import { MAX_FREE_TEXT } from './validation.js';
import { teamAuth } from './middleware/auth.js';
import { chain } from './middleware/chain.js';
import { requestLog } from './middleware/request-log.js';
import { rateLimits, type RateLimitSettings } from './middleware/rate-limit.js';
import { healthRoutes } from './routes/health.js';
import { usersRoutes } from './routes/users/index.js';
import { ordersRoutes } from './routes/orders/index.js';
import { labTestsRoutes } from './routes/lab-tests/index.js';
import { webhooksRoutes } from './routes/webhooks/index.js';
import { lazySecretBox } from '../db/queries/service-secrets.js';
import { lazyUrlSigner } from '../db/queries/secrets.js';
import { signedDocumentsRoutes } from './routes/orders/documents.js';
import { partnerRoutes } from './routes/partner/index.js';
import { vitalsRoutes } from './routes/vitals/index.js';
import { summariesRoutes } from './routes/summaries/index.js';
import { loadLabTestViews } from '../db/queries/lab-test-view.js';
import { servicePhysicianNetwork } from '../domain/physician.js';
import type { LabOrderDeadlines } from '../workflows/lab-order/definitions.js';
import { DEFAULT_REVIEW_DEADLINE_SECONDS } from '../workflows/lab-report/definitions.js';
import { PARSER_UPLOAD_PATH, labReportRoutes } from './routes/lab-reports/index.js';
import { blobStoreFor, type BlobStore } from '../lib/blob-store.js';
import { publicBaseUrl } from '../lib/url-signing.js';
import { metricsText } from '../lib/metrics.js';
import { sameSecret } from './middleware/metrics.js';
import { httpTracing } from '../lib/tracing.js';
import { reportTaskQueueBacklog } from '../lib/queue-metrics.js';
import { labAccountsRoutes } from './routes/lab-accounts/index.js';
import { teamRoutes } from './routes/team/index.js';
import { insuranceRoutes } from './routes/insurance/index.js';
import { payorRoutes } from './routes/payor/index.js';
import { userInsuranceRoutes } from './routes/users/insurance.js';
import { linkRoutes } from './routes/link/index.js';
import { linkTokenRoutes } from './routes/link/token-routes.js';
import { oauthSandboxRoutes } from './routes/link/oauth-sandbox.js';
import { providersRoutes } from './routes/providers/index.js';
import { userConnectionRoutes } from './routes/users/connections.js';
import { userPortalRoutes } from './routes/users/portal.js';
import { portalRoutes } from './routes/portal/index.js';
import { userInfoRoutes } from './routes/users/info.js';
import { teamSurfaceRoutes } from './routes/team/surface.js';
import { dashboardRoutes } from './dashboard/index.js';
import { aggregateRoutes } from './routes/aggregate/index.js';
import { openApiRoutes } from './openapi/routes.js';

export const MAX_BODY_BYTES = 1024 * 1024;

export interface AppDeps {
  db: DbHandle;
  temporal: Client;
  logger: Logger;
  /** Tests shorten the lab-order deadlines; production leaves the workflow defaults. */
  orderDeadlines?: Partial<LabOrderDeadlines>;
  config: Pick<
    Config,
    'SERVICE_ENVIRONMENT' | 'SERVICE_REGION' | 'TEMPORAL_NAMESPACE' | 'USER_DELETION_GRACE_SECONDS' | 'API_KEY_CACHE_TTL_SECONDS'
  > &
    Partial<Pick<Config, 'SECRET_ENCRYPTION_KEY' | 'URL_SIGNING_SECRET' | 'PUBLIC_URL' | 'PORT' | 'DATA_DIR' | 'PARSER_REVIEW_DEADLINE_SECONDS'>> &
    Partial<Pick<Config, 'SERVICE_PHYSICIAN_FIRST_NAME' | 'SERVICE_PHYSICIAN_LAST_NAME' | 'SERVICE_PHYSICIAN_NPI'>> &
    RateLimitSettings &
    Partial<Pick<Config, 'WEARABLE_INGESTION_ENABLED' | 'DASHBOARD_CODEC_ORIGINS' | 'METRICS_TOKEN'>>;
  /** Where uploaded lab reports are kept (default: files under $DATA_DIR/blobs). */
  blobs?: BlobStore;
  /** Tests lower the sandbox limit of lab report parsing jobs per team (default 300). */
  parserSandboxJobLimit?: number;
}

export function createApp({ db, temporal, logger, config, orderDeadlines, blobs, parserSandboxJobLimit }: AppDeps) {
  const app = new Hono<AppEnv>({ strict: false });
  app.onError(onError);
  app.notFound(onNotFound);
  reportTaskQueueBacklog(temporal, temporal.options.namespace); // labflow_task_queue_backlog on /metrics
  // Middleware run by every request are chained in a few Hono levels (api/middleware/chain.ts: a level costs
  // promises, a chained middleware that passes the request on costs none). The request log is a level of its
  // own, above the guards: what they answer (a 4xx thrown, a 429 returned) is logged and measured like any answer.
  app.use(
    chain(
      httpTracing(), // a server span per request when tracing is on (lib/tracing.ts); nothing otherwise
      requestLog(logger, { metrics: true }), // request id, log context, the request line and its latency metric
    ),
  );
  // Lab report uploads have their own, larger limit (api/routes/lab-reports). GET and HEAD carry no body:
  // they pass straight on (no `Request` object built for the limit, no promise of this middleware's own).
  const limitBody = bodyLimit({
    maxSize: MAX_BODY_BYTES,
    onError: () => {
      throw new HttpError(413, `Request body is larger than ${MAX_BODY_BYTES} bytes.`);
    },
  });
  // Rate limits (README "Rate limits"): per address here, per team after auth below; unset values turn one off.
  const limits = rateLimits(config, { sql: db.sql, onError: (err) => logger.warn({ err }, 'rate limit store failed: request let through') });
  app.use(
    chain(
      refuseControlCharsInUrl(),
      (c, next) => {
        const method = c.req.method;
        if (method === 'GET' || method === 'HEAD' || (method === 'POST' && c.req.path.replace(/\/$/, '') === PARSER_UPLOAD_PATH)) return next();
        return limitBody(c, next);
      },
      refuseBadFormFields(MAX_FREE_TEXT), // HTML form bodies (the dashboard): control characters, dates, lengths
      limits.byAddress,
    ),
  );
  // The operations dashboard: operator sessions of its own (api/dashboard), no team keys.
  const blobStore = blobs ?? blobStoreFor(config.DATA_DIR ?? '.data');
  app.route(
    '/dashboard',
    dashboardRoutes({
      db: db.db,
      temporal,
      blobs: blobStore,
      environment: config.SERVICE_ENVIRONMENT,
      region: config.SERVICE_REGION,
      publicUrl: config.PUBLIC_URL,
      codecCorsOrigins: config.DASHBOARD_CODEC_ORIGINS ?? [],
    }),
  );
  app.route('/health', healthRoutes({ sql: db.sql, temporal, namespace: config.TEMPORAL_NAMESPACE }));
  // Prometheus: this process's metrics (lib/metrics.ts); behind a bearer token when METRICS_TOKEN is set.
  app.get('/metrics', async (c) => {
    if (config.METRICS_TOKEN && !sameSecret(c.req.header('authorization'), `Bearer ${config.METRICS_TOKEN}`)) {
      throw new HttpError(401, 'Send the metrics token as "Authorization: Bearer <METRICS_TOKEN>".');
    }
    const { contentType, body } = await metricsText();
    return c.body(body, 200, { 'content-type': contentType });
  });
  // Couriers, labs and operators (partner keys, their own auth; team keys do not open it): docs/partner-api.md
  app.route(
    '/partner/v1',
    partnerRoutes({ db: db.db, temporal, environment: config.SERVICE_ENVIRONMENT, region: config.SERVICE_REGION }),
  );

  // Signed document links (requisition_form_url): no API key, the signature is the credential.
  const urlSigner = lazyUrlSigner(db.db, config);
  app.route('/documents', signedDocumentsRoutes({ db: db.db, urlSigner }));
  app.route('/portal', portalRoutes({ db: db.db, urlSigner })); // the user portal: signed links, no API key

  // Link widget calls (link token, no API key): before the team-key middleware; each route checks its token.
  const secretBox = lazySecretBox(db.db, config.SECRET_ENCRYPTION_KEY);
  const startIngestion = config.WEARABLE_INGESTION_ENABLED ?? false;
  const publicUrl = publicBaseUrl(config);
  app.route('/', openApiRoutes({ publicUrl })); // GET /openapi.json and the /docs reference page (no key)
  app.route('/v2', linkTokenRoutes({ db: db.db, temporal, secretBox, startIngestion, publicUrl }));
  app.route('/link/oauth/sandbox', oauthSandboxRoutes({ db: db.db, temporal, startIngestion }));

  const auth = teamAuth({
    db: db.db,
    environment: config.SERVICE_ENVIRONMENT,
    region: config.SERVICE_REGION,
    cacheTtlSeconds: config.API_KEY_CACHE_TTL_SECONDS,
    listen: db.sql, // revoked keys leave the cache of every API process at once
  });
  const teamScoped = chain(auth, limits.byTeam);
  for (const path of ['/v2/*', '/v3/*', '/lab_report/*', '/aggregate/*']) app.use(path, teamScoped);

  // Before the order routes: POST /v3/order/resend_events must not be read as an order id.
  app.route('/', webhooksRoutes({ db: db.db, temporal, environment: config.SERVICE_ENVIRONMENT, secretBox, publicUrl }));
  // Lab accounts, team, insurance and payors (h7): before the user and lab-test routes, whose
  // parameterised paths would otherwise read `lab_account` or `insurance` as ids.
  app.route('/v2/user', userInsuranceRoutes({ db: db.db }));
  app.route('/v2/team', teamRoutes({ db: db.db }));
  app.route('/v3', labAccountsRoutes({ db: db.db }));
  app.route('/v3/insurance', insuranceRoutes({ db: db.db }));
  app.route('/v3/payor', payorRoutes({ db: db.db }));
  app.route('/v2/link', linkRoutes({ db: db.db, temporal, environment: config.SERVICE_ENVIRONMENT, publicUrl, startIngestion, secretBox }));
  app.route('/v2/providers', providersRoutes());
  // Before the user routes: /v2/user/metrics is not a user id.
  app.route('/v2/user', userConnectionRoutes({ db: db.db, temporal, ingestionEnabled: startIngestion }));
  app.route('/v2/user', userPortalRoutes({ db: db.db, urlSigner }));
  app.route('/v2/user', userInfoRoutes({ db: db.db, secretBox }));
  app.route('/v2/team', teamSurfaceRoutes({ db: db.db }));
  app.route('/v2/user', usersRoutes({ db: db.db, sql: db.sql, temporal, deletionGraceSeconds: config.USER_DELETION_GRACE_SECONDS }));
  app.route(
    '/v3',
    ordersRoutes({
      db: db.db,
      temporal,
      environment: config.SERVICE_ENVIRONMENT,
      loadLabTests: loadLabTestViews,
      urlSigner,
      serviceNetwork: servicePhysicianNetwork(config),
      ...(orderDeadlines ? { deadlines: orderDeadlines } : {}),
    }),
  );
  // Wearable data: summaries, streams and introspect first (their paths are fixed), then the 78 timeseries reads.
  app.route('/', summariesRoutes({ db: db.db }));
  app.route('/v2/timeseries', vitalsRoutes({ db: db.db }));
  // The lab catalogue (/v3/lab_test, /v3/lab_tests*): no path of its overlaps the order routes above.
  app.route('/v3', labTestsRoutes({ db: db.db }));

  app.route(
    '/lab_report/v1',
    labReportRoutes({
      db: db.db,
      temporal,
      blobs: blobStore,
      reviewDeadlineSeconds: config.PARSER_REVIEW_DEADLINE_SECONDS ?? DEFAULT_REVIEW_DEADLINE_SECONDS,
      environment: config.SERVICE_ENVIRONMENT,
      ...(parserSandboxJobLimit !== undefined ? { sandboxJobLimit: parserSandboxJobLimit } : {}),
    }),
  );

  // The aggregation query language over stored summaries (SDK aggregate.*).
  app.route('/aggregate/v1', aggregateRoutes({ db: db.db }));

  return app;
}

export type App = ReturnType<typeof createApp>;
