import { ApplicationFailure, allHandlersFinished, condition, proxyActivities, setHandler, workflowInfo } from '@temporalio/workflow';
import type { createUserActivities } from '../../activities/users/index.js';
import {
  type DeletionPhase,
  type UserDeletionInput,
  type UserDeletionOutcome,
  deletionStateQuery,
  undoDeletionUpdate,
} from './definitions.js';

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
      await acts.restoreUser({ teamId: input.teamId, userId: input.userId });
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

  const undone = await condition(() => phase !== 'grace', input.graceSeconds * 1000);
  if (undone) {
    await condition(() => phase === 'restored' && allHandlersFinished());
    return 'restored';
  }
  phase = 'erasing';
  await acts.eraseUser({ teamId: input.teamId, userId: input.userId });
  phase = 'erased';
  await condition(allHandlersFinished);
  return 'erased';
}
