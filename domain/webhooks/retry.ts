/**
 * Delivery outcomes and the retry schedule (BEHAVIOUR §3, like Svix's): attempt 1 at once, then after
 * 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h. 2xx is delivered; 410 Gone disables the endpoint; 429 and
 * 503 wait at least their Retry-After; anything else (3xx included, timeouts, refused connections)
 * is retried until the schedule is used up.
 */
export const DEFAULT_RETRY_SCHEDULE_SECONDS = [0, 5, 300, 1800, 7200, 18000, 36000, 36000] as const;
export const DEFAULT_DISABLE_AFTER_SECONDS = 5 * 24 * 3600;

export type AttemptResult = { statusCode: number; retryAfter: string | null } | { statusCode: null; error: string };

export type Outcome =
  | { status: 'delivered' }
  | { status: 'pending'; nextAttemptAt: Date }
  | { status: 'failed'; disableEndpoint: boolean; reason: string };

/** Seconds to wait from a Retry-After header (delta-seconds or an HTTP date), or null if absent/invalid. */
export function retryAfterSeconds(header: string | null, now: Date): number | null {
  if (!header) return null;
  const trimmed = header.trim();
  if (/^\d+$/.test(trimmed)) return Number(trimmed);
  const at = Date.parse(trimmed);
  if (Number.isNaN(at)) return null;
  return Math.max(0, Math.ceil((at - now.getTime()) / 1000));
}

/**
 * What happens after attempt number `attempts` (1-based, this one included) ended with `result`.
 * A Retry-After never shortens the schedule; it is capped at an hour (or the longest step, if longer).
 */
export function outcomeOf(result: AttemptResult, attempts: number, schedule: readonly number[], now: Date): Outcome {
  const code = result.statusCode;
  if (code !== null && code >= 200 && code < 300) return { status: 'delivered' };
  if (code === 410) return { status: 'failed', disableEndpoint: true, reason: 'endpoint answered 410 Gone' };
  if (attempts >= schedule.length) {
    return { status: 'failed', disableEndpoint: false, reason: `no success after ${attempts} attempts` };
  }
  let wait = schedule[attempts] ?? 0;
  if ((code === 429 || code === 503) && 'retryAfter' in result) {
    const asked = retryAfterSeconds(result.retryAfter, now);
    if (asked !== null) wait = Math.max(wait, Math.min(asked, Math.max(3600, ...schedule)));
  }
  return { status: 'pending', nextAttemptAt: new Date(now.getTime() + wait * 1000) };
}

/** An endpoint that has failed without a single success for this long is disabled. */
export function shouldDisable(failingSince: Date | null, now: Date, disableAfterSeconds: number): boolean {
  return failingSince !== null && now.getTime() - failingSince.getTime() >= disableAfterSeconds * 1000;
}

/** Parses `WEBHOOK_RETRY_SCHEDULE` ("0,5,300,…" seconds). */
export function parseSchedule(text: string): number[] {
  const steps = text.split(',').map((s) => Number(s.trim()));
  if (steps.length === 0 || steps.some((n) => !Number.isFinite(n) || n < 0)) {
    throw new Error('must be a comma-separated list of non-negative seconds, e.g. 0,5,300');
  }
  return steps;
}
