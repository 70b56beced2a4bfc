import { sql } from 'drizzle-orm';
import type { DbOrTx } from '../client.js';
import type { SampleRecord, SummaryRecord } from '../../domain/wearables/adapter.js';

/** Monthly partitions of wearable_samples covering [from, to]; idempotent (IF NOT EXISTS). */
export async function ensureSamplePartitions(db: DbOrTx, from: Date, to: Date): Promise<string[]> {
  const names: string[] = [];
  const month = new Date(Date.UTC(from.getUTCFullYear(), from.getUTCMonth(), 1));
  while (month <= to) {
    const next = new Date(Date.UTC(month.getUTCFullYear(), month.getUTCMonth() + 1, 1));
    const name = `wearable_samples_${month.toISOString().slice(0, 7).replace('-', '_')}`;
    // Names and bounds are built from dates only, never from input text. Two ingestions may create the
    // same month at once: the loser's "already exists" is the outcome it wanted.
    try {
      await db.execute(
        sql.raw(
          `create table if not exists "${name}" partition of wearable_samples for values from ('${month.toISOString()}') to ('${next.toISOString()}')`,
        ),
      );
    } catch (err) {
      const code = (err as { code?: string; cause?: { code?: string } }).code ?? (err as { cause?: { code?: string } }).cause?.code;
      if (code !== '42P07' && code !== '23505') throw err;
    }
    names.push(name);
    month.setTime(next.getTime());
  }
  return names;
}

export interface UpsertedSample extends SampleRecord {
  created: boolean;
}

/**
 * One set-based upsert for a whole batch: the dedupe key is (user, resource, timestamp, provider, source
 * type), the latest value wins, and each sample comes back marked created (a new key) or not. A batch
 * with the same key twice keeps the last (Postgres refuses to update one row twice in one statement).
 */
export async function upsertSamples(db: DbOrTx, userId: string, provider: string, samples: SampleRecord[]): Promise<UpsertedSample[]> {
  if (!samples.length) return [];
  const last = new Map<string, SampleRecord>();
  for (const s of samples) last.set(`${s.resource}|${s.timestamp.toISOString()}|${s.sourceType}`, s);
  const deduped = [...last.values()];
  const rows = deduped.map((s) => ({
    r: s.resource,
    t: s.timestamp.toISOString(),
    s: s.sourceType,
    v: s.value,
    e: s.end ? s.end.toISOString() : null,
    u: s.unit,
    y: s.type ?? null,
    o: s.timezoneOffset,
  }));
  // One statement, one snapshot. Partitioned tables cannot return xmax, so "created" is what the insert
  // (ON CONFLICT DO NOTHING) returns; the update sees only rows that existed before the statement (the
  // inserted ones are invisible to it) and skips those whose values did not change, so re-sending a
  // batch writes nothing. Only the ordinals of created rows travel back: the caller has the values.
  const result = await db.execute<{ n: number }>(sql`
    with input as (
      select x.* from rows from (
        json_to_recordset(${JSON.stringify(rows)}::json) as (r text, t timestamptz, s text, v float8, e timestamptz, u text, y text, o int)
      ) with ordinality as x(r, t, s, v, e, u, y, o, n)
    ), inserted as (
      insert into wearable_samples (user_id, resource, "timestamp", provider, source_type, value, "end", unit, type, timezone_offset, updated_at)
      select ${userId}::uuid, i.r, i.t, ${provider}, i.s, i.v, i.e, i.u, i.y, i.o, now() from input i
      on conflict (user_id, resource, "timestamp", provider, source_type) do nothing
      returning resource, "timestamp", source_type
    ), changed as (
      update wearable_samples w
        set value = i.v, "end" = i.e, unit = i.u, type = i.y, timezone_offset = i.o, updated_at = now()
        from input i
        where w.user_id = ${userId}::uuid and w.provider = ${provider} and w.resource = i.r and w."timestamp" = i.t and w.source_type = i.s
          and (w.value, w."end", w.unit, w.type, w.timezone_offset) is distinct from (i.v, i.e, i.u, i.y, i.o)
    )
    select i.n::int as n from input i join inserted x on x.resource = i.r and x."timestamp" = i.t and x.source_type = i.s`);
  const created = new Set([...result].map((r) => Number(r.n)));
  return deduped.map((s, k) => ({
    resource: s.resource,
    timestamp: s.timestamp,
    end: s.end ?? null,
    value: s.value,
    unit: s.unit,
    type: s.type ?? null,
    sourceType: s.sourceType,
    timezoneOffset: s.timezoneOffset ?? null,
    created: created.has(k + 1),
  }));
}

export interface SummaryOwner {
  teamId: string;
  userId: string;
  connectionId: string | null;
  provider: string;
}

/** Summaries replaced by `id` (one statement); returns each with whether it was new. */
export async function upsertSummaries(db: DbOrTx, owner: SummaryOwner, summaries: SummaryRecord[]) {
  if (!summaries.length) return [];
  // One row per id (the last version in the batch): a statement may not update a row twice.
  summaries = [...new Map(summaries.map((s) => [s.id, s])).values()];
  const rows = summaries.map((s) => ({ i: s.id, r: s.resource, d: s.calendarDate, s: s.sourceType, j: s.data, x: s.stream ?? null }));
  const result = await db.execute<{ id: string; created: boolean; created_at: string; updated_at: string }>(sql`
    insert into wearable_summaries (id, team_id, user_id, connection_id, resource, provider, source_type, calendar_date, data, stream, created_at, updated_at)
    select x.i, ${owner.teamId}::uuid, ${owner.userId}::uuid, ${owner.connectionId}::uuid, x.r, ${owner.provider}, x.s, x.d, x.j, x.x, now(), now()
    from jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) as x(i uuid, r text, d date, s text, j jsonb, x jsonb)
    on conflict (id) do update
      set data = excluded.data, stream = excluded.stream, calendar_date = excluded.calendar_date, updated_at = now()
      where wearable_summaries.user_id = excluded.user_id
    returning id, (xmax = 0) as created, created_at, updated_at`);
  const byId = new Map([...result].map((r) => [r.id, r]));
  return summaries.flatMap((s) => {
    const r = byId.get(s.id);
    return r ? [{ ...s, created: r.created, createdAt: new Date(r.created_at), updatedAt: new Date(r.updated_at) }] : [];
  });
}

/** Introspect bookkeeping: counts and data range per (user, provider, resource), and the historical pull's state. */
export async function recordPulls(
  db: DbOrTx,
  owner: { teamId: string; userId: string; provider: string },
  stats: { resource: string; count: number; oldest: Date; newest: Date }[],
  historical?: { status: string; start: Date; end: Date },
): Promise<void> {
  if (!stats.length && !historical) return;
  const rows = stats.map((s) => ({ r: s.resource, c: s.count, o: s.oldest.toISOString(), n: s.newest.toISOString() }));
  await db.execute(sql`
    insert into wearable_pulls (user_id, team_id, provider, resource, historical_status, historical_start, historical_end, last_pull_at, oldest_data, newest_data, sample_count)
    select ${owner.userId}::uuid, ${owner.teamId}::uuid, ${owner.provider}, x.r, ${historical?.status ?? 'in_progress'},
           ${historical?.start.toISOString() ?? null}::timestamptz, ${historical?.end.toISOString() ?? null}::timestamptz, now(), x.o, x.n, x.c
    from jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) as x(r text, c int, o timestamptz, n timestamptz)
    on conflict (user_id, provider, resource) do update set
      last_pull_at = now(),
      oldest_data = least(wearable_pulls.oldest_data, excluded.oldest_data),
      newest_data = greatest(wearable_pulls.newest_data, excluded.newest_data),
      sample_count = wearable_pulls.sample_count + excluded.sample_count`);
  if (historical) {
    await db.execute(sql`
      update wearable_pulls set historical_status = ${historical.status}, historical_start = ${historical.start.toISOString()}::timestamptz,
        historical_end = ${historical.end.toISOString()}::timestamptz
      where user_id = ${owner.userId}::uuid and provider = ${owner.provider}`);
  }
}

export interface IngestionOwner {
  status: string;
  provider: string;
  teamId: string;
  userId: string;
  clientUserId: string;
  timeZone: string | null;
  ingestionStart: string | null;
  ingestionEnd: string | null;
  userDeleted: boolean;
}

/** The connection with its user's ingestion settings, scoped by team; null when gone. */
export async function findIngestionOwner(db: DbOrTx, teamId: string, connectionId: string): Promise<IngestionOwner | null> {
  const [row] = await db.execute<{
    status: string; provider: string; team_id: string; user_id: string; client_user_id: string;
    fallback_time_zone: string | null; ingestion_start: string | null; ingestion_end: string | null; deleted_at: string | null;
  }>(sql`
    select c.status, c.provider, u.team_id, u.id as user_id, u.client_user_id, u.fallback_time_zone,
           u.ingestion_start::text, u.ingestion_end::text, u.deleted_at
    from provider_connections c join users u on u.id = c.user_id
    where c.id = ${connectionId}::uuid and u.team_id = ${teamId}::uuid`);
  if (!row) return null;
  return {
    status: row.status,
    provider: row.provider,
    teamId: row.team_id,
    userId: row.user_id,
    clientUserId: row.client_user_id,
    timeZone: row.fallback_time_zone,
    ingestionStart: row.ingestion_start,
    ingestionEnd: row.ingestion_end,
    userDeleted: row.deleted_at !== null,
  };
}

export async function pauseConnection(db: DbOrTx, connectionId: string): Promise<void> {
  await db.execute(sql`update provider_connections set status = 'paused' where id = ${connectionId}::uuid`);
}
