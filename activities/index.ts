import { Context } from '@temporalio/activity';
import type { Db } from '../db/client.js';
import { lazySecretBox } from '../db/queries/service-secrets.js';
import { roundUnderWay } from '../db/queries/webhooks.js';
import { lazyUrlSigner } from '../db/queries/secrets.js';
import { parseSchedule } from '../domain/webhooks/retry.js';
import { loadConfig, type Config } from '../lib/config.js';
import { wakeEndpoints } from '../lib/webhook-wake.js';
import { createWebhookActivities, type WebhookSettings } from './webhooks/index.js';
import { orderPayloadBuilder } from '../db/queries/order-view.js';
import type { Logger } from '../lib/logger.js';
import { createOrderActivities } from './orders/index.js';
import { createAppointmentActivities } from './appointments/index.js';
import { createUserActivities } from './users/index.js';
import { createLabReportActivities } from './lab-reports/index.js';
import { createConnectionActivities } from './connections/index.js';
import { createIngestionActivities } from './ingestion/index.js';
import { createLinkBulkActivities } from './link-bulk/index.js';
import { blobStoreFor, type BlobStore } from '../lib/blob-store.js';

export interface ActivityDeps {
  db: Db;
  logger: Logger;
  /** Webhook delivery settings, the key sealing stored secrets, document links (from config; defaults otherwise). */
  config?: Partial<
    Pick<
      Config,
      | 'SECRET_ENCRYPTION_KEY'
      | 'SERVICE_ENVIRONMENT'
      | 'WEBHOOK_RETRY_SCHEDULE'
      | 'WEBHOOK_TIMEOUT_SECONDS'
      | 'WEBHOOK_DISABLE_AFTER_SECONDS'
      | 'URL_SIGNING_SECRET'
      | 'PUBLIC_URL'
      | 'PORT'
      | 'DATA_DIR'
    >
  >;
  /** Where uploaded files live (default: files under $DATA_DIR/blobs). */
  blobs?: BlobStore;
  /** Tests and benchmarks may replace how endpoint workflows are woken. */
  wakeEndpoints?: (endpointIds: string[]) => Promise<void>;
}

export function webhookSettings(config: ActivityDeps['config'] = {}): WebhookSettings {
  const defaults = loadConfig({});
  return {
    retrySchedule: parseSchedule(config.WEBHOOK_RETRY_SCHEDULE ?? defaults.WEBHOOK_RETRY_SCHEDULE),
    timeoutMs: (config.WEBHOOK_TIMEOUT_SECONDS ?? defaults.WEBHOOK_TIMEOUT_SECONDS) * 1000,
    disableAfterSeconds: config.WEBHOOK_DISABLE_AFTER_SECONDS ?? defaults.WEBHOOK_DISABLE_AFTER_SECONDS,
    batchSize: 256,
    concurrency: 16,
  };
}

export { orderPayloadBuilder };

/** All activities, built from their dependencies; worker.ts wires the real ones, tests may override. */
export function createActivities(deps: ActivityDeps) {
  const secretBox = lazySecretBox(deps.db, deps.config?.SECRET_ENCRYPTION_KEY);
  const urlSigner = lazyUrlSigner(deps.db, deps.config ?? {});
  // No signal to an endpoint whose delivery round is under way: the round sees the new work (lib/webhook-wake.ts).
  const wake = deps.wakeEndpoints ?? ((ids: string[]) => wakeEndpoints(Context.current().client, ids, (id) => roundUnderWay(deps.db, id)));
  // One blob store for the jobs that write files and the erasure that deletes them.
  const blobs = deps.blobs ?? blobStoreFor(deps.config?.DATA_DIR ?? loadConfig({}).DATA_DIR);
  return {
    ...createUserActivities({ ...deps, blobs }),
    ...createOrderActivities({ ...deps, orderPayload: async () => orderPayloadBuilder(await urlSigner()), wakeEndpoints: wake }),
    ...createAppointmentActivities({ db: deps.db, logger: deps.logger, wakeEndpoints: wake }),
    ...createWebhookActivities({ ...deps, settings: webhookSettings(deps.config), secretBox, wake }),
    ...createLabReportActivities({ ...deps, blobs, wakeEndpoints: wake }),
    ...createConnectionActivities({ ...deps, secretBox, wakeEndpoints: wake }),
    ...createIngestionActivities({ ...deps, wakeEndpoints: wake }),
    ...createLinkBulkActivities(deps),
  };
}

export type Activities = ReturnType<typeof createActivities>;
