import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { Context } from '@temporalio/activity';
import { eq } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { recordTeamEvent } from '../../db/queries/events.js';
import {
  dueDeliveries,
  endRound,
  findEndpointById,
  nextDueAt,
  startRound,
  recordAttempts,
  type AttemptRecord,
  type DueDelivery,
  type EndpointRow,
} from '../../db/queries/webhooks.js';
import { webhookEndpoints } from '../../db/schema/index.js';
import { outcomeOf, shouldDisable, type Outcome } from '../../domain/webhooks/retry.js';
import { webhookDeliveries, webhookDeliveryDuration } from '../../lib/metrics.js';
import { webhookSigner, type EventEnvelope } from '../../domain/webhooks/signing.js';
import { classifyActivityError } from '../../lib/activity-errors.js';
import type { Logger } from '../../lib/logger.js';
import type { SecretBox } from '../../lib/secret-box.js';
import { createGuardedRequest, type GuardedRequest } from '../../lib/ssrf.js';
import type { DeliverDueResult } from '../../workflows/webhooks/definitions.js';
import { postEvent, type PostResult } from './http.js';

/** Answers written per statement, at least (more when the previous write is still running). */
const WRITE_BATCH = 32;
/** The next deliveries are claimed once fewer than this many are left waiting for a lane. */
const LOW_WATER = 64;
/** A round takes further batches while it has run less than this… */
const ROUND_MS = 5_000;
/** …looking for new deliveries this often once caught up… */
const POLL_MS = 20;
/** …until none came for this long. */
const LINGER_MS = 250;
/**
 * How long a round's `webhook_endpoint_rounds` row holds without being ended: beyond the longest round (ROUND_MS,
 * then POSTs of up to 15 s) and the heartbeat timeout that retries a round whose worker died (20 s).
 */
const ROUND_LEASE_MS = 30_000;

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
  /** Outbound HTTP (default: the SSRF-guarded request of lib/ssrf.ts for the environment); tests inject one. */
  request?: GuardedRequest;
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

type Signer = ReturnType<typeof webhookSigner>;

/**
 * `signerOf` remembered for the secrets it was built from (a round claims again every few milliseconds while
 * it lingers; opening the sealed secrets and decoding them each time is work for nothing). A rotation, a
 * previous secret that expired meanwhile, or another endpoint builds a new one.
 */
function cachedSigner(): (endpoint: EndpointRow, box: SecretBox, now: Date) => Signer {
  let key: string | null = null;
  let signer: Signer | null = null;
  return (endpoint, box, now) => {
    const previousValid = !!(endpoint.previousSecretEnc && endpoint.previousSecretExpiresAt && endpoint.previousSecretExpiresAt > now);
    const k = `${endpoint.secretEnc}\n${previousValid ? endpoint.previousSecretEnc : ''}`;
    if (k !== key || !signer) {
      signer = signerOf(endpoint, box, now);
      key = k;
    }
    return signer;
  };
}

/** The endpoint's signer (both secrets during a rotation); one that cannot be built fails each event as before. */
function signerOf(endpoint: EndpointRow, box: SecretBox, now: Date): Signer {
  try {
    const secrets = [box.open(endpoint.secretEnc)];
    if (endpoint.previousSecretEnc && endpoint.previousSecretExpiresAt && endpoint.previousSecretExpiresAt > now) {
      secrets.push(box.open(endpoint.previousSecretEnc));
    }
    return webhookSigner(secrets);
  } catch (err) {
    return () => {
      throw err;
    };
  }
}

/** A claimed delivery with the endpoint it was claimed for (its URL and secrets as read just before). */
interface Job {
  due: DueDelivery;
  url: string;
  sign: Signer;
}

export function createWebhookActivities(deps: Deps) {
  const { db, logger, settings } = deps;
  const { wake } = deps;
  const send = deps.request ?? createGuardedRequest({ allowLoopback: (deps.config?.SERVICE_ENVIRONMENT ?? 'sandbox') === 'sandbox' });

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
      const endpoint = await findEndpointById(db, input.endpointId);
      if (!endpoint) return { state: 'gone', delivered: 0, failed: 0, more: false, nextDueAt: null };
      if (!endpoint.enabled) return { state: 'disabled', delivered: 0, failed: 0, more: false, nextDueAt: null };
      const box = await deps.secretBox();
      // Under way: writers send no wake-up signal until endRound (below, before the round's last look).
      await startRound(db, endpoint.id, new Date(Date.now() + ROUND_LEASE_MS));
      let roundOpen = true;
      const closeRound = async () => {
        roundOpen = false;
        await endRound(db, input.endpointId);
      };
      try {
        return await round(endpoint, box, closeRound);
      } finally {
        // Ended early (gone, disabled, a failure): best effort; the lease bounds a row left behind.
        if (roundOpen) await endRound(db, input.endpointId).catch(() => {});
      }
    },
  };

  /** The round itself (deliverDue's); `closeRound` ends it being under way before its last look for due deliveries. */
  async function round(first: EndpointRow, box: SecretBox, closeRound: () => Promise<void>): Promise<DeliverDueResult> {
    let endpoint = first;
    const started = Date.now();
    let delivered = 0;
    let failed = 0;
    let gone: string | null = null;

    // A pipeline: a feeder claims due deliveries (up to a batch at a time, the next claim made while the POSTs
    // of the last are in flight), `concurrency` lanes POST them, and a writer stores their answers
    // (WRITE_BATCH or more per statement) while the lanes go on. A delivery stays `taken` from its claim until
    // its answer is written, so no claim takes it twice. A worker that dies before an answer is written
    // re-sends that event: at least once, never lost.
    const queue: Job[] = [];
    const signerFor = cachedSigner();
    const taken = new Set<string>();
    let feeding = true;
    let lastWork = started;
    let inFlight = 0;
    // Feeder and lanes wait for "something changed" (a claim, an end, a failed write) and look again; a lane's
    // take wakes the feeder alone (the waiting lanes have nothing new to take), so a take does not wake and
    // put back to sleep every idle lane.
    let waiters: (() => void)[] = [];
    let feederWaiters: (() => void)[] = [];
    const wake = (list: (() => void)[]) => {
      for (const w of list) w();
    };
    const changed = () => {
      const woken = [...waiters, ...feederWaiters];
      waiters = [];
      feederWaiters = [];
      wake(woken);
    };
    const tookOne = () => {
      const woken = feederWaiters;
      feederWaiters = [];
      wake(woken);
    };
    const nextChange = () => new Promise<void>((r) => waiters.push(r));
    const nextTake = () => new Promise<void>((r) => feederWaiters.push(r));
    const unwritten: AttemptRecord[] = [];
    let writing: Promise<void> = Promise.resolve();
    let writeQueued = false;
    let writeError: unknown = null;
    /** Writes the answers gathered so far after the write under way (at most one more waits behind it). */
    const flush = () => {
      if (writeQueued) return;
      writeQueued = true;
      writing = writing.then(async () => {
        writeQueued = false;
        const list = unwritten.splice(0);
        if (list.length === 0 || writeError) return;
        try {
          await recordAttemptsSafely(db, list, logger);
          for (const a of list) taken.delete(a.deliveryId);
          Context.current().heartbeat({ delivered, failed });
        } catch (err) {
          writeError = err;
          changed();
        }
      });
    };
    const stopped = () => gone !== null || writeError !== null;

    const lane = async () => {
      try {
        for (;;) {
          if (stopped()) return;
          const job = queue.shift();
          if (!job) {
            if (!feeding) return;
            await nextChange();
            continue;
          }
          if (queue.length < LOW_WATER) tookOne();
          inFlight++;
          await deliverOne(job);
          inFlight--;
          lastWork = Date.now();
          // Written in batches while a backlog lasts, at once when the lanes run dry.
          if (unwritten.length >= WRITE_BATCH || queue.length === 0) flush();
        }
      } finally {
        changed();
      }
    };

    const deliverOne = async ({ due: { deliveryId, attempts: before, event }, url, sign }: Job) => {
      const at = new Date();
      const attempts = before + 1;
      let sent: PostResult;
      try {
        const body = envelopeOf(event);
        sent = await postEvent(url, sign(event.id, at, body), body, settings.timeoutMs, send);
      } catch (err) {
        // A poison event (one that cannot be serialised or signed) fails alone; the others go on.
        logger.warn({ delivery_id: deliveryId, event_id: event.id, err: classifyActivityError(err).message }, 'webhook event could not be prepared');
        sent = { result: { statusCode: null, error: 'the event could not be prepared for delivery' }, refused: true, durationMs: 0, responseBody: null };
      }
      // A refused destination (SSRF guard) or an unsendable event is not retried.
      const outcome: Outcome = sent.refused
        ? { status: 'failed', disableEndpoint: false, reason: 'error' in sent.result ? sent.result.error : 'refused' }
        : outcomeOf(sent.result, attempts, settings.retrySchedule, new Date());
      unwritten.push({
        deliveryId,
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
    };

    // The feeder. A round goes on for up to ROUND_MS: claim after claim while a backlog lasts (no workflow
    // task and activity dispatch per batch), and, once caught up, it looks for new deliveries every POLL_MS
    // until none came for LINGER_MS, so events recorded meanwhile leave at once instead of after a wake-up
    // signal, a workflow task and a new round. The endpoint is read again before each further claim (what
    // is queued for it is dropped, still pending, if it was deleted or disabled). Failures end the claims
    // (the failing-since bookkeeping below sees each claim's outcome).
    /** The endpoint was deleted or disabled while the round ran. */
    let ended: 'gone' | 'disabled' | null = null;
    let lastClaimFull = false;
    const feeder = async () => {
      try {
        for (let claim = 0; !stopped() && failed === 0; claim++) {
          if (claim > 0) {
            if (Date.now() - started >= ROUND_MS) break;
            const again = await findEndpointById(db, endpoint!.id);
            if (!again || !again.enabled) {
              ended = again ? 'disabled' : 'gone';
              queue.length = 0;
              break;
            }
            endpoint = again;
          }
          const current = endpoint!;
          const due = await dueDeliveries(db, current.id, new Date(), settings.batchSize, [...taken]);
          lastClaimFull = due.length === settings.batchSize;
          if (due.length === 0) {
            if (claim === 0 || (inFlight === 0 && queue.length === 0 && Date.now() - lastWork >= LINGER_MS)) break;
            await sleep(POLL_MS);
            continue;
          }
          lastWork = Date.now();
          const sign = signerFor(current, box, new Date());
          for (const d of due) {
            taken.add(d.deliveryId);
            queue.push({ due: d, url: current.url, sign });
          }
          changed();
          // The next claim once the lanes have taken most of this one.
          while (queue.length >= LOW_WATER && !stopped()) await nextTake();
        }
      } finally {
        feeding = false;
        changed();
      }
    };

    await Promise.all([feeder(), ...Array.from({ length: settings.concurrency }, lane)]);
    flush();
    await writing;
    if (writeError) throw writeError;
    if (ended) return { state: ended, delivered, failed, more: false, nextDueAt: null };
    const more = lastClaimFull;

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
    // The last look comes after the round is no longer under way: what it misses was recorded later, and woken.
    await closeRound();
    const next = await nextDueAt(db, endpoint.id);
    return { state: 'active', delivered, failed, more, nextDueAt: next?.getTime() ?? null };
  }
}
