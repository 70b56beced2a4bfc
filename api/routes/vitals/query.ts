import { z } from 'zod';
import type { Db } from '../../../db/client.js';
import { findUser } from '../../../db/queries/users.js';
import { HttpError } from '../../errors.js';
import { dateTimeString } from '../../validation.js';

const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/;
const DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?$/;

/** A date (YYYY-MM-DD) or an ISO 8601 date-time, as the SDK sends start_date / end_date. */
const dateParam = z
  .string()
  .max(40)
  .refine((v) => (DATE_ONLY.test(v) || DATE_TIME.test(v)) && !Number.isNaN(Date.parse(v)), 'must be a date (YYYY-MM-DD) or an ISO 8601 date-time');
const provider = z.string().regex(/^[a-z0-9_]{1,64}$/, 'must be a provider slug');

export const rangeQuery = z.object({ start_date: dateParam, end_date: dateParam.optional(), provider: provider.optional() });
export const groupedQuery = rangeQuery.extend({ cursor: z.string().max(200).optional(), next_cursor: z.string().max(200).optional() });
export const userIdParam = z.string().uuid('user_id must be a UUID');

/** [from, to) instants: a date-only end_date includes its whole day; no end_date means now. */
export function instantRange(q: { start_date: string; end_date?: string | undefined }, now = new Date()): { from: Date; to: Date } {
  const from = new Date(DATE_ONLY.test(q.start_date) ? `${q.start_date}T00:00:00Z` : q.start_date);
  const to = q.end_date
    ? DATE_ONLY.test(q.end_date)
      ? new Date(Date.parse(`${q.end_date}T00:00:00Z`) + 86_400_000)
      : new Date(q.end_date)
    : now;
  if (to < from) throw new HttpError(422, [{ loc: ['query', 'end_date'], msg: 'end_date is before start_date', type: 'value_error' }]);
  return { from, to };
}

/** Calendar dates [from, to] for summaries. */
export function dateRange(q: { start_date: string; end_date?: string | undefined }, now = new Date()): { from: string; to: string } {
  const from = q.start_date.slice(0, 10);
  const to = (q.end_date ?? now.toISOString()).slice(0, 10);
  if (to < from) throw new HttpError(422, [{ loc: ['query', 'end_date'], msg: 'end_date is before start_date', type: 'value_error' }]);
  return { from, to };
}

/** Cursor: the last timestamp of the previous page, base64url-encoded; anything else is a 422. */
export const encodeCursor = (at: string) => Buffer.from(JSON.stringify({ after: at })).toString('base64url');
export function decodeCursor(cursor: string): Date {
  try {
    const parsed = z.object({ after: dateTimeString() }).parse(JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')));
    return new Date(parsed.after);
  } catch {
    throw new HttpError(422, [{ loc: ['query', 'cursor'], msg: 'invalid cursor', type: 'value_error' }]);
  }
}

/** A live user of the caller's team, or 404. */
export async function requireTeamUser(db: Db, teamId: string, userId: string) {
  const user = await findUser(db, teamId, userId);
  if (!user || user.deletedAt) throw new HttpError(404, 'User not found');
  return user;
}
