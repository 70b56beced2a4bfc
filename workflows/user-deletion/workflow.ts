import { ActivityFailure, ApplicationFailure, allHandlersFinished, condition, log, patched, proxyActivities, setHandler, workflowInfo } from '@temporalio/workflow';
import { failureMessage, isNonRetryable } from '../../domain/failures.js';
import type { createUserActivities } from '../../activities/users/index.js';
import {
  type DeletionPhase,
  type UserDeletionInput,
  type UserDeletionOutcome,
  deletionStateQuery,
  undoDeletionUpdate,
} from './definitions.js';
import { workflowNow } from '../shared/time.js';

/** Failures that end retries (refused data) end the deletion visibly instead of hanging or looping. */
const FAIL_VISIBLY = 'user-deletion-fail-visibly';

const acts = proxyActivities<ReturnType<typeof createUserActivities>>({
  startToCloseTimeout: '30 seconds',
  retry: { initialInterval: '1 second', maximumInterval: '1 minute' },
});

/**
 * Owns a user's scheduled deletion: waits out the grace period durably, then erases the user,
 * unless an `undoDeletion` update arrives first.
 */
export async function userDeletionWorkflow(input: UserDeletionInput): Promise<UserDeletionOutcome> {
  let phase: DeletionPhase = 'grace';
  const eraseAt = new Date(workflowInfo().runStartTime.getTime() + input.graceSeconds * 1000);

  setHandler(deletionStateQuery, () => ({ phase, eraseAt: eraseAt.toISOString() }));
  setHandler(
    undoDeletionUpdate,
    async () => {
      phase = 'restoring';
      try {
        await acts.restoreUser({ teamId: input.teamId, userId: input.userId });
      } catch (err) {
        if (!(err instanceof ActivityFailure) || !isNonRetryable(err) || !patched(FAIL_VISIBLY)) throw err;
        // The undo did not take: the deletion goes on as scheduled, and the caller learns why.
        phase = 'grace';
        throw ApplicationFailure.nonRetryable(`the undo could not be recorded: ${failureMessage(err) ?? 'refused'}`, 'RestoreFailed');
      }
      phase = 'restored';
      return { restored: true } as const;
    },
    {
      validator: () => {
        if (phase !== 'grace') {
          throw ApplicationFailure.nonRetryable(`deletion can no longer be undone (phase: ${phase})`, 'DeletionNotUndoable');
        }
      },
    },
  );

  const graceMs = () => Math.max(0, eraseAt.getTime() - workflowNow());
  let undone = await condition(() => phase !== 'grace', input.graceSeconds * 1000);
  while (undone) {
    // A failed undo puts the phase back to `grace` (handled by the FAIL_VISIBLY branch): wait out the rest.
    await condition(() => (phase === 'restored' || phase === 'grace') && allHandlersFinished());
    if ((phase as DeletionPhase) === 'restored') return 'restored';
    undone = await condition(() => phase !== 'grace', graceMs());
  }
  phase = 'erasing';
  try {
    await acts.eraseUser({ teamId: input.teamId, userId: input.userId });
  } catch (err) {
    if (!(err instanceof ActivityFailure) || !isNonRetryable(err) || !patched(FAIL_VISIBLY)) throw err;
    phase = 'failed';
    log.error('user erasure failed for good', { userId: input.userId, cause: failureMessage(err) });
    // The user stays deleted for every reader (404); the workflow ends failed with the reason (Temporal UI).
    throw ApplicationFailure.nonRetryable(`erasure of user ${input.userId} failed: ${failureMessage(err) ?? 'refused'}`, 'ErasureFailed');
  }
  phase = 'erased';
  await condition(allHandlersFinished);
  return 'erased';
}
