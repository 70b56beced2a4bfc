import { ApplicationFailure } from '@temporalio/common';

/** The SQLSTATE of a Postgres error, wherever the driver or Drizzle put it (the error or its causes). */
function sqlState(err: unknown): string | null {
  for (let e: unknown = err, depth = 0; e && typeof e === 'object' && depth < 5; e = (e as { cause?: unknown }).cause, depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code)) return code;
  }
  return null;
}

/**
 * Runs an order write; data Postgres refuses (class 22: bad values such as a NUL byte or an impossible
 * date; class 23: a constraint no retry can heal) fails the activity for good (`InvalidData`, non-retryable),
 * so the order's workflow stops the order visibly instead of retrying for ever. Other errors (a lost
 * connection) stay retryable. The worker-wide interceptor does the same for every activity; this keeps
 * the order activities safe on their own.
 */
export async function failingForGoodOnBadData<T>(write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (err) {
    const state = sqlState(err);
    if (state && (state.startsWith('22') || state.startsWith('23'))) {
      throw ApplicationFailure.create({ message: `the database refused the order's data (SQLSTATE ${state})`, type: 'InvalidData', nonRetryable: true, cause: err instanceof Error ? err : undefined });
    }
    throw err;
  }
}
