import { ApplicationFailure } from '@temporalio/common';
import type { ActivityInterceptorsFactory } from '@temporalio/worker';
import { INVALID_DATA } from '../domain/failures.js';

/**
 * What an activity's error means for its retries. Every activity error passes through here (the worker's
 * activity interceptor, `activityErrorInterceptor`), so no input that slipped past validation can make a
 * workflow retry a write that can never succeed.
 *
 * - `invalid_data`: the data itself is refused (Postgres class 22 data exception: a NUL byte, a value out of
 *   range, bad text for a type; a constraint violation no retry can heal; a zod validation error). Never
 *   retried: an `ApplicationFailure` of type `InvalidData`, non-retryable.
 * - `transient`: the database or network was briefly unavailable (connection errors, serialization failure
 *   40001, deadlock 40P01, lock or statement timeouts, too many connections, an admin shutdown). Retried with
 *   the workflow's backoff (each policy caps the interval).
 * - `conflict`: a unique or exclusion violation (23505, 23P01). A concurrent writer of the same business key
 *   can cause one, and the retry then meets the idempotent path, so it is retried — but only
 *   `CONFLICT_ATTEMPTS` times; after that it is a deterministic duplicate and becomes `InvalidData`.
 * - `unknown`: anything else keeps the activity's own retry policy.
 *
 * Messages never carry the refused value or the query's parameters (drizzle puts both in its error
 * message, and a Postgres message may quote the value): only the SQLSTATE, its meaning, and the table,
 * column or constraint it names.
 */
export type ErrorClass = 'invalid_data' | 'transient' | 'conflict' | 'unknown';

export { INVALID_DATA };
export const CONFLICT_ATTEMPTS = 5;

export interface Classified {
  kind: ErrorClass;
  /** A message safe to store in workflow histories and logs. */
  message: string;
  /** SQLSTATE or a Node/driver error code, when there is one. */
  code: string | null;
}

interface PgLike {
  code: string;
  table_name?: string;
  column_name?: string;
  constraint_name?: string;
}

/** The one meaning of an SQLSTATE, for messages (never the server's text, which may quote the value). */
const SQLSTATE_MEANING: Record<string, string> = {
  '22001': 'a value is too long for its column',
  '22003': 'a number is out of range',
  '22007': 'a date or time has an invalid format',
  '22008': 'a date or time is out of range',
  '22012': 'division by zero',
  '22021': 'text holds a character the database cannot store (e.g. a NUL byte)',
  '22P02': 'a value has an invalid format for its type',
  '22P05': 'JSON holds a character the database cannot store (e.g. \\u0000)',
  '23502': 'a required value is missing',
  '23503': 'it refers to a row that does not exist',
  '23505': 'a row with the same key exists',
  '23514': 'a value breaks a check constraint',
  '23P01': 'a row conflicts with an existing one',
  '40001': 'serialization failure',
  '40P01': 'deadlock',
};

/** Postgres codes of transient trouble outside the class-08 (connection) family. */
const TRANSIENT_SQLSTATES = new Set(['40001', '40P01', '55P03', '57014', '57P01', '57P02', '57P03', '53000', '53100', '53200', '53300']);
/** Unique and exclusion violations: a race with another writer of the same key heals on retry. */
const CONFLICT_SQLSTATES = new Set(['23505', '23P01']);
/** Socket and driver codes of a connection that failed or was lost. */
const TRANSIENT_NODE_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EAI_AGAIN',
  'ENOTFOUND',
  'CONNECTION_CLOSED',
  'CONNECTION_ENDED',
  'CONNECTION_DESTROYED',
  'CONNECT_TIMEOUT',
]);

const SQLSTATE_RE = /^[0-9A-Z]{5}$/;

/** The error and its causes (drizzle wraps the driver's error), at most a few deep. */
function chain(err: unknown): unknown[] {
  const out: unknown[] = [];
  let cur: unknown = err;
  for (let i = 0; i < 5 && cur && typeof cur === 'object' && !out.includes(cur); i++) {
    out.push(cur);
    cur = (cur as { cause?: unknown }).cause;
  }
  return out;
}

function pgErrorIn(errors: unknown[]): PgLike | null {
  for (const e of errors) {
    const code = (e as { code?: unknown }).code;
    if ((e as Error).name === 'PostgresError' && typeof code === 'string' && SQLSTATE_RE.test(code)) return e as PgLike;
  }
  return null;
}

function whereOf(pg: PgLike): string {
  const parts = [pg.table_name && `table ${pg.table_name}`, pg.column_name && `column ${pg.column_name}`, pg.constraint_name && `constraint ${pg.constraint_name}`];
  const named = parts.filter(Boolean).join(', ');
  return named ? ` (${named})` : '';
}

function isZodError(e: unknown): e is { issues: { path: PropertyKey[]; code: string }[] } {
  return (e as Error).name === 'ZodError' && Array.isArray((e as { issues?: unknown }).issues);
}

/** Classifies an activity's error; pure, so it is tested on its own (test/unit/activity-errors.test.ts). */
export function classifyActivityError(err: unknown): Classified {
  const errors = chain(err);
  const pg = pgErrorIn(errors);
  if (pg) {
    const meaning = SQLSTATE_MEANING[pg.code] ?? 'database error';
    const message = `Postgres refused the write: ${meaning} [SQLSTATE ${pg.code}]${whereOf(pg)}`;
    const cls = pg.code.slice(0, 2);
    if (cls === '08' || TRANSIENT_SQLSTATES.has(pg.code)) return { kind: 'transient', message, code: pg.code };
    if (CONFLICT_SQLSTATES.has(pg.code)) return { kind: 'conflict', message, code: pg.code };
    if (cls === '22' || cls === '23') return { kind: 'invalid_data', message, code: pg.code };
    return { kind: 'unknown', message, code: pg.code };
  }
  const zod = errors.find(isZodError);
  if (zod) {
    const where = zod.issues.slice(0, 5).map((i) => `${i.path.map(String).join('.') || '(root)'}: ${i.code}`);
    return { kind: 'invalid_data', message: `Invalid data: ${where.join('; ')}`, code: null };
  }
  for (const e of errors) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && TRANSIENT_NODE_CODES.has(code)) return { kind: 'transient', message: `Connection failed (${code})`, code };
  }
  const drizzle = errors.find((e) => (e as Error).name === 'DrizzleQueryError' || (e as Error).message?.startsWith('Failed query:'));
  if (drizzle) return { kind: 'unknown', message: 'A database query failed', code: null };
  return { kind: 'unknown', message: err instanceof Error ? err.message : String(err), code: null };
}

/**
 * The error an activity should throw instead of `err`, given its attempt number: `InvalidData` non-retryable
 * for refused data (and for a conflict still there after CONFLICT_ATTEMPTS); a sanitized retryable failure for
 * database errors (whose own message may hold parameters); `err` itself otherwise. An `ApplicationFailure`
 * the activity threw on purpose is left as it is.
 */
export function toActivityFailure(err: unknown, attempt: number): unknown {
  if (err instanceof ApplicationFailure) return err;
  const c = classifyActivityError(err);
  if (c.kind === 'invalid_data' || (c.kind === 'conflict' && attempt >= CONFLICT_ATTEMPTS)) {
    return ApplicationFailure.create({ message: c.message, type: INVALID_DATA, nonRetryable: true, details: [{ code: c.code }] });
  }
  // Retryable, but never with a message that may quote a value or a query's parameters.
  if (c.code !== null || c.message === 'A database query failed') {
    return ApplicationFailure.create({ message: c.message, type: c.kind === 'transient' ? 'Transient' : 'DatabaseError', nonRetryable: false });
  }
  return err;
}

/**
 * The worker's activity interceptor (worker.ts, `interceptors.activity`): every activity's error goes
 * through `toActivityFailure`, so the classification is done once for all activities, local ones included.
 */
export const activityErrorInterceptor: ActivityInterceptorsFactory = (ctx) => ({
  inbound: {
    async execute(input, next) {
      try {
        return await next(input);
      } catch (err) {
        throw toActivityFailure(err, ctx.info.attempt);
      }
    },
  },
});
