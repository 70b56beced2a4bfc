import { defineQuery, defineUpdate } from '@temporalio/workflow';
import { SERVICE_TASK_QUEUE, TASK_QUEUES } from '../../domain/temporal.js';

/** The queue new runs start on (their activities run there too). */
export const taskQueue = TASK_QUEUES.users;
/** The queue of runs started before per-workload queues (children of such runs start there). */
export const legacyTaskQueue = SERVICE_TASK_QUEUE;
export const userDeletionWorkflowType = 'userDeletionWorkflow';

/** One deletion workflow per user at a time; the ID may be reused after an undo. */
export const userDeletionWorkflowId = (userId: string): string => `user-deletion-${userId}`;

export interface UserDeletionInput {
  teamId: string;
  userId: string;
  /** Time between the delete request and erasure; undo is possible until then. */
  graceSeconds: number;
}

/** `failed`: erasure met a failure no retry heals; the workflow ended failed with the reason. */
export type DeletionPhase = 'grace' | 'restoring' | 'restored' | 'erasing' | 'erased' | 'failed';

export interface DeletionState {
  phase: DeletionPhase;
  eraseAt: string;
}

export type UserDeletionOutcome = 'restored' | 'erased';

/** Undo a pending deletion; rejected (validator) once erasure has begun. */
export const undoDeletionUpdate = defineUpdate<{ restored: true }>('undoDeletion');
export const deletionStateQuery = defineQuery<DeletionState>('deletionState');
