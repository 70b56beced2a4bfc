// A deliberately incompatible change of userDeletionWorkflow (it skips the grace-period timer),
// used to prove that the replay test catches non-deterministic changes.
import { proxyActivities } from '@temporalio/workflow';
import type { createUserActivities } from '../../activities/users/index.js';
import type { UserDeletionInput, UserDeletionOutcome } from '../../workflows/user-deletion/definitions.js';

const acts = proxyActivities<ReturnType<typeof createUserActivities>>({ startToCloseTimeout: '30 seconds' });

export async function userDeletionWorkflow(input: UserDeletionInput): Promise<UserDeletionOutcome> {
  await acts.eraseUser({ teamId: input.teamId, userId: input.userId });
  return 'erased';
}
