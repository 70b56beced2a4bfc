import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { Context } from '@temporalio/activity';
import { eq } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { recordTeamEvent } from '../../db/queries/events.js';
import {
  dueDeliveries,
  findEndpointById,
  nextDueAt,
  recordAttempts,
  type AttemptRecord,
  type DueDelivery,
  type EndpointRow,
} from '../../db/queries/webhooks.js';
import { webhookEndpoints } from '../../db/schema/index.js';
import { outcomeOf, shouldDisable, type Outcome } from '../../domain/webhooks/retry.js';
import { webhookDeliveries, webhookDeliveryDuration } from '../../lib/metrics.js';
import { signedHeaders, type EventEnvelope } from '../../domain/webhooks/signing.js';
import { classifyActivityError } from '../../lib/activity-errors.js';
import type { Logger } from '../../lib/logger.js';
import type { SecretBox } from '../../lib/secret-box.js';
import { createGuardedFetch, type GuardedFetch } from '../../lib/ssrf.js';
import type { DeliverDueResult } from '../../workflows/webhooks/definitions.js';
import { postEvent, type PostResult } from './http.js';

/** Answers written per transaction. */
const WRITE_BATCH = 32;
/** A round takes further batches while it has run less than this… */
const ROUND_MS = 5_000;
/** …looking for new deliveries this often once caught up… */
const POLL_MS = 20;
/** …until none came for this long. */
const LINGER_MS = 250;

export interface WebhookSettings {
  /** Seconds before attempt 1, 2, … (its length is the number of attempts). */
  retrySchedule: number[];
  timeoutMs: number;
  disableAfterSeconds: number;
  /** Deliveries taken per round, and POSTs in flight at once per endpoint. */
  batchSize: number;
  concurrency: number;
}

interface Deps {
  db: Db;
  logger: Logger;
  settings: WebhookSettings;
  secretBox: () => Promise<SecretBox>;
  /** Wakes endpoint workflows (the worker's own Temporal client in production). */
  wake: (endpointIds: string[]) => Promise<void>;
  /** The sandbox may deliver to loopback receivers; production only to public addresses. */
  config?: { SERVICE_ENVIRONMENT?: 'sandbox' | 'production' | undefined } | undefined;
  /** Outbound HTTP (default: the SSRF-guarded fetch of lib/ssrf.ts for the environment); tests inject one. */
  fetch?: GuardedFetch;
}

/** Stores a round's attempts; a record the database refuses is stored without what it refused, as failed. */
async function recordAttemptsSafely(db: Db, list: AttemptRecord[], logger: Logger): Promise<void> {
  try {
    await recordAttempts(db, list);
  } catch (err) {
    if (classifyActivityError(err).kind !== 'invalid_data') throw err;
    for (const a of list) {
      try {
        await recordAttempts(db, [a]);
      } catch (one) {
        if (classifyActivityError(one).kind !== 'invalid_data') throw one;
        logger.warn({ delivery_id: a.deliveryId }, 'webhook attempt refused by the database; delivery marked failed');
        await recordAttempts(db, [{ ...a, responseBody: null, error: 'the attempt could not be stored as received', outcome: { status: 'failed' } }]);
      }
    }
  }
}

/** The body of an event as delivered: the spec's envelope, the same bytes on every attempt. */
export function envelopeOf(event: DueDelivery['event']): string {
  const envelope: EventEnvelope = {
    event_type: event.eventType,
    data: event.data,
    team_id: event.teamId,
    user_id: event.userId,
    client_user_id: event.clientUserId,
  };
  return JSON.stringify(envelope);
}

function signingSecrets(endpoint: EndpointRow, box: SecretBox, now: Date): string[] {
  const secrets = [box.open(endpoint.secretEnc)];
  if (endpoint.previousSecretEnc && endpoint.previousSecretExpiresAt && endpoint.previousSecretExpiresAt > now) {
    secrets.push(box.open(endpoint.previousSecretEnc));
  }
  return secrets;
}

async function inParallel<T>(items: T[], limit: number, fn: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const lanes = Array.from({ length: Math.min(limit, items.length) }, async () => {
    while (next < items.length) await fn(items[next++]!);
  });
  await Promise.all(lanes);
}

export function createWebhookActivities(deps: Deps) {
  const { db, logger, settings } = deps;
  const { wake } = deps;
  const send = deps.fetch ?? createGuardedFetch({ allowLoopback: (deps.config?.SERVICE_ENVIRONMENT ?? 'sandbox') === 'sandbox' });

  async function disable(endpoint: EndpointRow, reason: string, now: Date): Promise<void> {
    const others = await db.transaction(async (tx) => {
      const [changed] = await tx
        .update(webhookEndpoints)
        .set({ enabled: false, disabledReason: reason, updatedAt: now })
        .where(eq(webhookEndpoints.id, endpoint.id))
        .returning({ id: webhookEndpoints.id });
      if (!changed) return [];
      // The team learns of it through its event log (and any other endpoint that wants such events).
      return recordTeamEvent(tx, {
        id: randomUUID(),
        teamId: endpoint.teamId,
        eventType: 'webhook.endpoint.disabled',
        data: { endpoint_id: endpoint.id, url: endpoint.url, reason, disabled_at: now.toISOString() },
        subjectId: endpoint.id,
        createdAt: now,
      });
    });
    logger.warn({ endpoint_id: endpoint.id, team_id: endpoint.teamId, reason }, 'webhook endpoint disabled');
    if (others.length) await wake(others);
  }

  return {
    /** One delivery round for an endpoint: POST every due delivery, record each attempt, move each on. */
    async deliverDue(input: { endpointId: string }): Promise<DeliverDueResult> {
      let endpoint = await findEndpointById(db, input.endpointId);
      if (!endpoint) return { state: 'gone', delivered: 0, failed: 0, more: false, nextDueAt: null };
      if (!endpoint.enabled) return { state: 'disabled', delivered: 0, failed: 0, more: false, nextDueAt: null };
      const box = await deps.secretBox();
      const started = Date.now();
      let due: DueDelivery[] = [];
      let delivered = 0;
      let failed = 0;
      let gone: string | null = null;
      // Answers are written in small batches (one transaction each), not one transaction per POST. A worker
      // that dies before a batch is written re-sends those events: at least once, never lost.
      const unwritten: AttemptRecord[] = [];
      const write = async () => {
        await recordAttemptsSafely(db, unwritten.splice(0), logger);
        Context.current().heartbeat({ delivered, failed });
      };
      // A round goes on for up to ROUND_MS: batch after batch while a backlog lasts (no workflow task and
      // activity dispatch per batch), and, once caught up, it looks for new deliveries every POLL_MS until
      // none came for LINGER_MS, so events recorded meanwhile leave at once instead of after a wake-up
      // signal, a workflow task and a new round. The endpoint is read again before each further batch.
      let lastWork = started;
      for (let batch = 0; ; batch++) {
        due = await dueDeliveries(db, endpoint.id, new Date(), settings.batchSize);
        if (due.length === 0) {
          const now = Date.now();
          if (batch === 0 || now - lastWork >= LINGER_MS || now - started >= ROUND_MS) break;
          await sleep(POLL_MS);
          continue;
        }
        if (batch > 0) {
          const again = await findEndpointById(db, endpoint.id);
          if (!again) return { state: 'gone', delivered, failed, more: false, nextDueAt: null };
          if (!again.enabled) return { state: 'disabled', delivered, failed, more: false, nextDueAt: null };
          endpoint = again;
        }
        const current = endpoint;
        const secrets = signingSecrets(current, box, new Date());
        await inParallel(due, settings.concurrency, async ({ delivery, event }) => {
          if (gone) return;
          const at = new Date();
          const attempts = delivery.attempts + 1;
          let sent: PostResult;
          try {
            const body = envelopeOf(event);
            sent = await postEvent(current.url, signedHeaders(secrets, event.id, at, body), body, settings.timeoutMs, send);
          } catch (err) {
            // A poison event (one that cannot be serialised or signed) fails alone; the others go on.
            logger.warn({ delivery_id: delivery.id, event_id: event.id, err: classifyActivityError(err).message }, 'webhook event could not be prepared');
            sent = { result: { statusCode: null, error: 'the event could not be prepared for delivery' }, refused: true, durationMs: 0, responseBody: null };
          }
          // A refused destination (SSRF guard) or an unsendable event is not retried.
          const outcome: Outcome = sent.refused
            ? { status: 'failed', disableEndpoint: false, reason: 'error' in sent.result ? sent.result.error : 'refused' }
            : outcomeOf(sent.result, attempts, settings.retrySchedule, new Date());
          unwritten.push({
            deliveryId: delivery.id,
            attemptedAt: at,
            statusCode: sent.result.statusCode,
            durationMs: sent.durationMs,
            responseBody: sent.responseBody,
            error: 'error' in sent.result ? sent.result.error : null,
            attempts,
            outcome: outcome.status === 'failed' ? { status: 'failed' } : outcome,
          });
          // Attempt outcomes: delivered; retry (pending, will be tried again); failed (for good); refused (SSRF guard or unsendable).
          webhookDeliveries.inc({ outcome: sent.refused ? 'refused' : outcome.status === 'pending' ? 'retry' : outcome.status });
          if (!sent.refused) webhookDeliveryDuration.observe(sent.durationMs / 1000);
          if (outcome.status === 'delivered') delivered++;
          else failed++;
          if (outcome.status === 'failed' && outcome.disableEndpoint) gone = outcome.reason;
          if (unwritten.length >= WRITE_BATCH) await write();
        });
        await write();
        lastWork = Date.now();
        // A batch with failures ends the round: the failing-since bookkeeping below sees each batch's outcome.
        if (gone || failed > 0 || lastWork - started >= ROUND_MS) break;
      }

      const now = new Date();
      if (gone) {
        await disable(endpoint, gone, now);
        return { state: 'disabled', delivered, failed, more: false, nextDueAt: null };
      }
      // Failing since: set by the first failure after a success, cleared by any success.
      if (delivered > 0 && endpoint.failingSince) {
        await db.update(webhookEndpoints).set({ failingSince: null }).where(eq(webhookEndpoints.id, endpoint.id));
      } else if (delivered === 0 && failed > 0) {
        if (!endpoint.failingSince) {
          await db.update(webhookEndpoints).set({ failingSince: now }).where(eq(webhookEndpoints.id, endpoint.id));
        } else if (shouldDisable(endpoint.failingSince, now, settings.disableAfterSeconds)) {
          await disable(endpoint, `no successful delivery since ${endpoint.failingSince.toISOString()}`, now);
          return { state: 'disabled', delivered, failed, more: false, nextDueAt: null };
        }
      }
      if (delivered + failed > 0) logger.debug({ endpoint_id: endpoint.id, delivered, failed }, 'webhook round');
      const next = await nextDueAt(db, endpoint.id);
      return { state: 'active', delivered, failed, more: due.length === settings.batchSize, nextDueAt: next?.getTime() ?? null };
    },
  };
}
