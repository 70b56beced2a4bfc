import { sql } from 'drizzle-orm';
import type { DbOrTx } from '../client.js';

export type SampleRow = {
  provider: string;
  source_type: string;
  timestamp: string;
  end: string | null;
  value: number;
  unit: string;
  type: string | null;
  timezone_offset: number | null;
};

/**
 * Samples of one user and resource in [from, to), oldest first, after `after` (a cursor), at most
 * `limit`. The user id has been checked against the caller's team. The primary key
 * (user_id, resource, timestamp, …) serves this as one index range scan per monthly partition.
 */
export async function readSamples(
  db: DbOrTx,
  q: { userId: string; resource: string; from: Date; to: Date; provider?: string; type?: string; after?: Date; limit: number },
): Promise<SampleRow[]> {
  const from = q.after && q.after > q.from ? q.after : q.from;
  const rows = await db.execute<SampleRow>(sql`
    select provider, source_type, "timestamp", "end", value, unit, type, timezone_offset
    from wearable_samples
    where user_id = ${q.userId}::uuid and resource = ${q.resource}
      and "timestamp" ${q.after ? sql`>` : sql`>=`} ${from.toISOString()}::timestamptz and "timestamp" < ${q.to.toISOString()}::timestamptz
      ${q.provider ? sql`and provider = ${q.provider}` : sql``}
      ${q.type ? sql`and type = ${q.type}` : sql``}
    order by "timestamp", provider, source_type
    limit ${q.limit}`);
  return [...rows];
}

export type SummaryRow = {
  id: string;
  user_id: string;
  provider: string;
  source_type: string;
  calendar_date: string;
  data: Record<string, unknown>;
  created_at: string;
  updated_at: string;
};

/** Summaries of one resource for a user with calendar_date in [from, to], team-scoped. */
export async function readSummaries(
  db: DbOrTx,
  q: { teamId: string; userId: string; resource: string; from: string; to: string; provider?: string },
): Promise<SummaryRow[]> {
  const rows = await db.execute<SummaryRow>(sql`
    select id, user_id, provider, source_type, calendar_date::text, data, created_at, updated_at
    from wearable_summaries
    where team_id = ${q.teamId}::uuid and user_id = ${q.userId}::uuid and resource = ${q.resource}
      and calendar_date between ${q.from}::date and ${q.to}::date
      ${q.provider ? sql`and provider = ${q.provider}` : sql``}
    order by calendar_date, id`);
  return [...rows];
}

/** A workout's or sleep's stream, team-scoped; null when unknown. */
export async function readStream(db: DbOrTx, teamId: string, resource: 'workouts' | 'sleep', id: string) {
  const [row] = await db.execute<{ stream: Record<string, unknown> | null }>(sql`
    select stream from wearable_summaries where id = ${id}::uuid and team_id = ${teamId}::uuid and resource = ${resource}`);
  return row ? (row.stream ?? {}) : null;
}

export type PullRow = {
  user_id: string;
  provider: string;
  resource: string;
  historical_status: string;
  historical_start: string | null;
  historical_end: string | null;
  last_pull_at: string | null;
  oldest_data: string | null;
  newest_data: string | null;
  sample_count: number;
};

/** Introspection rows of the team (optionally one user / provider), users paged by id after `afterUser`. */
export async function readPulls(
  db: DbOrTx,
  q: { teamId: string; userId?: string; provider?: string; afterUser?: string; userLimit: number },
): Promise<PullRow[]> {
  const rows = await db.execute<PullRow>(sql`
    with page as (
      select distinct user_id from wearable_pulls
      where team_id = ${q.teamId}::uuid
        ${q.userId ? sql`and user_id = ${q.userId}::uuid` : sql``}
        ${q.afterUser ? sql`and user_id > ${q.afterUser}::uuid` : sql``}
      order by user_id limit ${q.userLimit}
    )
    select p.user_id, p.provider, p.resource, p.historical_status, p.historical_start, p.historical_end,
           p.last_pull_at, p.oldest_data, p.newest_data, p.sample_count
    from wearable_pulls p join page using (user_id)
    where p.team_id = ${q.teamId}::uuid ${q.provider ? sql`and p.provider = ${q.provider}` : sql``}
    order by p.user_id, p.provider, p.resource`);
  return [...rows];
}
