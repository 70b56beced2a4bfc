import { ActivityFailure, condition, continueAsNew, log, patched, proxyActivities, setHandler, workflowInfo } from '@temporalio/workflow';
import { failureMessage, isNonRetryable } from '../../domain/failures.js';
import type { createWebhookActivities } from '../../activities/webhooks/index.js';
import { workflowNow } from '../shared/time.js';
import {
  type DeliverDueResult,
  type EndpointWorkflowState,
  type WebhookEndpointInput,
  endpointStateQuery,
  wakeSignal,
} from './definitions.js';

const { deliverDue } = proxyActivities<ReturnType<typeof createWebhookActivities>>({
  // One round POSTs up to a batch of deliveries (15 s timeout each, several at a time) and heartbeats
  // after each; a worker that died mid-round is noticed by the heartbeat timeout and the round retried.
  startToCloseTimeout: '10 minutes',
  heartbeatTimeout: '20 seconds',
  retry: { initialInterval: '1 second', maximumInterval: '30 seconds' },
});

/** Even with nothing pending, look again this often (a safety net for a lost wake-up signal). */
const IDLE_CHECK_MS = 60 * 60 * 1000;
const ROUNDS_PER_RUN = 250;
/**
 * Every wake-up signal and round adds to the history; a long history makes a replay (after a cache
 * eviction, or the retried last task of a run) take seconds (bench:webhooks: ~3 s at ~4,000 events).
 * Runs now end once the history passes this many events.
 */
const MAX_HISTORY_EVENTS = 1000;
const SHORT_RUNS = 'webhook-endpoint-short-runs';
/** A round that failed for good (refused data) holds the endpoint until woken or the idle check, never loops. */
const HOLD_ON_REFUSED = 'webhook-endpoint-hold-on-refused';

export async function webhookEndpointWorkflow(input: WebhookEndpointInput): Promise<void> {
  let woken = false;
  const state: EndpointWorkflowState = { rounds: 0, lastRound: null, waitingUntil: null, held: null };
  setHandler(wakeSignal, () => {
    woken = true;
  });
  setHandler(endpointStateQuery, () => state);

  const longEnough = () => patched(SHORT_RUNS) && workflowInfo().historyLength >= MAX_HISTORY_EVENTS;
  while (state.rounds < ROUNDS_PER_RUN && !workflowInfo().continueAsNewSuggested && !longEnough()) {
    woken = false;
    let round: DeliverDueResult;
    try {
      round = await deliverDue({ endpointId: input.endpointId });
    } catch (err) {
      if (!(err instanceof ActivityFailure) || !isNonRetryable(err) || !patched(HOLD_ON_REFUSED)) throw err;
      // Poison events fail alone inside a round; this is what is left (e.g. the endpoint's own row refused).
      state.rounds++;
      state.held = failureMessage(err) ?? 'delivery round failed';
      log.error('webhook delivery round failed for good; holding until woken', { endpointId: input.endpointId, cause: state.held });
      state.waitingUntil = workflowNow() + IDLE_CHECK_MS;
      await condition(() => woken, IDLE_CHECK_MS);
      state.waitingUntil = null;
      continue;
    }
    state.held = null;
    state.rounds++;
    state.lastRound = round;
    if (round.state === 'gone') return;
    if (round.state === 'disabled') {
      state.waitingUntil = null;
      await condition(() => woken);
      continue;
    }
    if (round.more) continue;
    const wait = round.nextDueAt === null ? IDLE_CHECK_MS : Math.min(IDLE_CHECK_MS, round.nextDueAt - workflowNow());
    if (wait <= 0) continue;
    state.waitingUntil = workflowNow() + wait;
    await condition(() => woken, wait);
    state.waitingUntil = null;
  }
  // A fresh run keeps the history short; it starts with a delivery round, so nothing waits on a lost wake-up.
  await continueAsNew<typeof webhookEndpointWorkflow>(input);
}
