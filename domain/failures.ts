import { ApplicationFailure } from '@temporalio/common';

/**
 * The failure type of refused data: an activity's write that no retry can make succeed (a Postgres data
 * error, a constraint no retry heals, a validation error). Thrown non-retryable by the worker's activity
 * interceptor (lib/activity-errors.ts); workflows meet it and move their job or order to a visible state.
 */
export const INVALID_DATA = 'InvalidData';

/** An error, or its cause chain (ActivityFailure → ApplicationFailure), marks refused data. */
export function isInvalidData(err: unknown): boolean {
  let cur: unknown = err;
  for (let i = 0; i < 5 && cur instanceof Error; i++) {
    if (cur instanceof ApplicationFailure && cur.type === INVALID_DATA) return true;
    cur = cur.cause;
  }
  return false;
}

/** A non-retryable failure (from an activity, seen in a workflow): its retries ended for good. */
export function isNonRetryable(err: unknown): boolean {
  let cur: unknown = err;
  for (let i = 0; i < 5 && cur instanceof Error; i++) {
    if (cur instanceof ApplicationFailure && cur.nonRetryable) return true;
    cur = cur.cause;
  }
  return false;
}

/** The message of the innermost ApplicationFailure of a failure chain (what an activity threw), if any. */
export function failureMessage(err: unknown): string | null {
  let cur: unknown = err;
  let found: string | null = null;
  for (let i = 0; i < 5 && cur instanceof Error; i++) {
    if (cur instanceof ApplicationFailure) found = cur.message;
    cur = cur.cause;
  }
  return found;
}
