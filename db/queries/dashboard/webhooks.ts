import { and, desc, eq, gt, gte, lte, sql, type SQL } from 'drizzle-orm';
import type { DbOrTx } from '../../client.js';
import { outboxEvents, teams, webhookDeliveries, webhookEndpoints } from '../../schema/index.js';

/**
 * Every endpoint with its health: success rate of the last 7 days' finished deliveries, the failure
 * streak (attempts since its last 2xx), and its last error.
 */
export async function endpointHealth(db: DbOrTx, teamId?: string) {
  const rows = await db.execute<{
    id: string;
    team_id: string;
    team_name: string;
    url: string;
    enabled: boolean;
    disabled_reason: string | null;
    failing_since: Date | null;
    delivered: number;
    failed: number;
    pending: number;
    streak: number;
    last_error: string | null;
    avg_ms: number | null;
  }>(sql`
    select e.id, e.team_id, t.name as team_name, e.url, e.enabled, e.disabled_reason, e.failing_since,
      coalesce(s.delivered, 0)::int as delivered, coalesce(s.failed, 0)::int as failed, coalesce(s.pending, 0)::int as pending,
      coalesce(k.streak, 0)::int as streak, k.last_error, s.avg_ms
    from ${webhookEndpoints} e
    join ${teams} t on t.id = e.team_id
    left join lateral (
      select count(*) filter (where d.status = 'delivered') as delivered,
             count(*) filter (where d.status = 'failed') as failed,
             count(*) filter (where d.status = 'pending') as pending,
             (select avg(a.duration_ms)::int from webhook_attempts a join webhook_deliveries d2 on d2.id = a.delivery_id
               where d2.endpoint_id = e.id and a.attempted_at > now() - interval '7 days') as avg_ms
      from ${webhookDeliveries} d where d.endpoint_id = e.id and d.created_at > now() - interval '7 days'
    ) s on true
    left join lateral (
      select count(*) as streak,
             (array_agg(coalesce(a.error, 'HTTP ' || a.status_code || ': ' || left(coalesce(a.response_body, ''), 200)) order by a.attempted_at desc))[1] as last_error
      from webhook_attempts a join webhook_deliveries d on d.id = a.delivery_id
      where d.endpoint_id = e.id and not coalesce(a.status_code between 200 and 299, false)
        and a.attempted_at > coalesce((select max(a2.attempted_at) from webhook_attempts a2 join webhook_deliveries d3 on d3.id = a2.delivery_id
                                        where d3.endpoint_id = e.id and a2.status_code between 200 and 299), '-infinity')
    ) k on true
    ${teamId ? sql`where e.team_id = ${teamId}` : sql``}
    order by t.name, e.created_at`);
  return [...rows];
}

export interface DeliveryFilter {
  teamId?: string | undefined;
  endpointId?: string | undefined;
  orderId?: string | undefined;
  status?: 'pending' | 'delivered' | 'failed' | undefined;
  eventType?: string | undefined;
  since?: Date | undefined;
  until?: Date | undefined;
}

/** The delivery log (every team), newest first, with the event of each delivery. */
export async function deliveryLog(db: DbOrTx, f: DeliveryFilter, limit = 100) {
  const where: SQL[] = [];
  if (f.teamId) where.push(eq(webhookDeliveries.teamId, f.teamId));
  if (f.endpointId) where.push(eq(webhookDeliveries.endpointId, f.endpointId));
  if (f.orderId) where.push(eq(outboxEvents.subjectId, f.orderId));
  if (f.status) where.push(eq(webhookDeliveries.status, f.status));
  if (f.eventType) where.push(eq(outboxEvents.eventType, f.eventType));
  if (f.since) where.push(gte(webhookDeliveries.createdAt, f.since));
  if (f.until) where.push(lte(webhookDeliveries.createdAt, f.until));
  return db
    .select({ delivery: webhookDeliveries, eventType: outboxEvents.eventType, subjectId: outboxEvents.subjectId, url: webhookEndpoints.url })
    .from(webhookDeliveries)
    .innerJoin(outboxEvents, eq(outboxEvents.id, webhookDeliveries.eventId))
    .innerJoin(webhookEndpoints, eq(webhookEndpoints.id, webhookDeliveries.endpointId))
    .where(where.length ? and(...where) : undefined)
    .orderBy(desc(webhookDeliveries.createdAt))
    .limit(limit);
}

/** Events of a team chosen for a bulk replay: by type, order and time window. */
function replayWhere(f: { teamId: string; eventType?: string | undefined; orderId?: string | undefined; since: Date; until?: Date | undefined }): SQL {
  const where: SQL[] = [eq(outboxEvents.teamId, f.teamId), gte(outboxEvents.createdAt, f.since)];
  if (f.until) where.push(lte(outboxEvents.createdAt, f.until));
  if (f.eventType) where.push(eq(outboxEvents.eventType, f.eventType));
  if (f.orderId) where.push(eq(outboxEvents.subjectId, f.orderId));
  return and(...where)!;
}

export type ReplayFilter = Parameters<typeof replayWhere>[0];
/** A bulk replay sends at most this many events; the preview says when a filter picks more. */
export const MAX_REPLAY_EVENTS = 10_000;

export async function countReplayEvents(db: DbOrTx, f: ReplayFilter): Promise<number> {
  const [row] = await db.select({ n: sql<number>`count(*)::int` }).from(outboxEvents).where(replayWhere(f));
  return row?.n ?? 0;
}

export async function replayEvents(db: DbOrTx, f: ReplayFilter) {
  return db
    .select({ id: outboxEvents.id, teamId: outboxEvents.teamId, eventType: outboxEvents.eventType })
    .from(outboxEvents)
    .where(replayWhere(f))
    .orderBy(outboxEvents.createdAt, outboxEvents.id)
    .limit(MAX_REPLAY_EVENTS);
}

/**
 * Recovery's second half (requeueFailed in db/queries/webhooks.ts does the exhausted ones): deliveries of
 * the endpoint since `since` still waiting for a later retry become due now, so a receiver that is back
 * gets them at once rather than after the backoff. Returns how many.
 */
export async function pullPendingForward(db: DbOrTx, teamId: string, endpointId: string, since: Date): Promise<number> {
  const now = new Date();
  const rows = await db
    .update(webhookDeliveries)
    .set({ nextAttemptAt: now })
    .where(
      and(
        eq(webhookDeliveries.teamId, teamId),
        eq(webhookDeliveries.endpointId, endpointId),
        eq(webhookDeliveries.status, 'pending'),
        gte(webhookDeliveries.createdAt, since),
        gt(webhookDeliveries.nextAttemptAt, now),
      ),
    )
    .returning({ id: webhookDeliveries.id });
  return rows.length;
}

/** The team of an event (operators act across teams; the team-scoped queries take it from here). */
export async function eventTeam(db: DbOrTx, eventId: string): Promise<string | null> {
  const [row] = await db.select({ teamId: outboxEvents.teamId }).from(outboxEvents).where(eq(outboxEvents.id, eventId)).limit(1);
  return row?.teamId ?? null;
}

/**
 * Per endpoint over the last `days` days, for the charts: attempts, the share that got a 2xx, and the
 * attempt latency (p50, p95).
 */
export async function endpointAttemptStats(db: DbOrTx, days: number, teamId?: string) {
  const since = new Date(Date.now() - days * 86_400_000);
  const rows = await db.execute<{
    id: string;
    team_name: string;
    url: string;
    enabled: boolean;
    attempts: number;
    ok: number;
    p50_ms: number | null;
    p95_ms: number | null;
  }>(sql`
    select e.id, t.name as team_name, e.url, e.enabled,
      count(a.id)::int as attempts,
      (count(a.id) filter (where a.status_code between 200 and 299))::int as ok,
      (percentile_cont(0.5) within group (order by a.duration_ms))::int as p50_ms,
      (percentile_cont(0.95) within group (order by a.duration_ms))::int as p95_ms
    from ${webhookEndpoints} e
    join ${teams} t on t.id = e.team_id
    left join ${webhookDeliveries} d on d.endpoint_id = e.id and d.created_at > ${since.toISOString()}::timestamptz
    left join webhook_attempts a on a.delivery_id = d.id and a.attempted_at > ${since.toISOString()}::timestamptz
    ${teamId ? sql`where e.team_id = ${teamId}` : sql``}
    group by e.id, t.name, e.url, e.enabled
    order by t.name, e.url`);
  return [...rows];
}
