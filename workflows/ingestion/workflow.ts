import { allHandlersFinished, condition, continueAsNew, proxyActivities, setHandler, workflowInfo } from '@temporalio/workflow';
import type { createIngestionActivities } from '../../activities/ingestion/index.js';
import {
  BACKFILL_CHUNK_DAYS,
  DEFAULT_PULL_INTERVAL_SECONDS,
  pullNowSignal,
  type IngestionCarry,
  type IngestionInput,
  type IngestionOutcome,
} from './definitions.js';

const acts = proxyActivities<ReturnType<typeof createIngestionActivities>>({
  startToCloseTimeout: '5 minutes',
  retry: { initialInterval: '2 seconds', maximumInterval: '5 minutes', nonRetryableErrorTypes: ['UnknownProvider'] },
});

/**
 * One per connection (`ingestion-<connection_id>`): a historical pull (backfill) bounded by the user's
 * ingestion_start/end and the provider's history limit, then a pull every few hours (a durable timer,
 * or sooner on `pullNow`), continuing as new when the history grows long. Stops when the connection is
 * gone or stopped; pauses it once ingestion_end + 7 days has passed.
 */
export async function ingestionWorkflow(input: IngestionInput, carry: IngestionCarry = { backfilled: false, pulls: 0 }): Promise<IngestionOutcome> {
  let pullRequested = false;
  setHandler(pullNowSignal, () => {
    pullRequested = true;
  });
  const interval = (input.pullIntervalSeconds ?? DEFAULT_PULL_INTERVAL_SECONDS) * 1000;
  let plan = await acts.planIngestion(input);
  if (!plan.active) return 'connection_gone';

  if (!carry.backfilled) {
    for (let i = 0; i < plan.backfillDays.length; i += BACKFILL_CHUNK_DAYS) {
      const days = plan.backfillDays.slice(i, i + BACKFILL_CHUNK_DAYS);
      await acts.ingestDays({ ...input, days, pullKey: `backfill:${days[0]}`, historical: true });
    }
    await acts.completeHistoricalPull({ ...input, days: plan.backfillDays });
    carry = { ...carry, backfilled: true };
  }

  for (;;) {
    if (plan.pastLateWindow) {
      await acts.pauseIngestedConnection(input);
      return 'paused';
    }
    await condition(() => pullRequested, interval);
    pullRequested = false;
    plan = await acts.planIngestion(input);
    if (!plan.active) return 'stopped';
    if (plan.pullDays.length) {
      carry = { ...carry, pulls: carry.pulls + 1 };
      await acts.ingestDays({ ...input, days: plan.pullDays, pullKey: `pull:${workflowInfo().runId}:${carry.pulls}`, historical: false });
    }
    if (workflowInfo().continueAsNewSuggested) {
      await condition(allHandlersFinished);
      return continueAsNew<typeof ingestionWorkflow>(input, carry);
    }
  }
}
