import { and, asc, desc, eq, getTableColumns, gte, inArray, lt, lte, min, or, sql, type SQL } from 'drizzle-orm';
import type { DbOrTx } from '../client.js';
import { orders, outboxEvents, webhookAttempts, webhookDeliveries, webhookEndpointRounds, webhookEndpoints } from '../schema/index.js';

export type EndpointRow = typeof webhookEndpoints.$inferSelect;
export type DeliveryRow = typeof webhookDeliveries.$inferSelect;
export type EventRow = typeof outboxEvents.$inferSelect;

/** SQL: does the endpoint (a `webhook_endpoints` row) want events of `type` (a value, or a column; exact filters, dotted prefixes, or no filters)? */
export const endpointWants = (type: string | SQL) =>
  sql`(cardinality(${webhookEndpoints.eventTypes}) = 0 or exists (
        select 1 from unnest(${webhookEndpoints.eventTypes}) f
        where f = ${type} or (right(f, 1) = '.' and starts_with(${type}, f))))`;

/**
 * Queues an event for every enabled endpoint of its team that wants it (inside the transaction that
 * records the event). Returns the endpoints that now have work.
 */
export async function fanOutEvent(
  tx: DbOrTx,
  event: { id: string; teamId: string; eventType: string },
  trigger: 'event' | 'resend' = 'event',
  onlyEndpointId?: string,
): Promise<string[]> {
  const now = new Date();
  const conditions: SQL[] = [eq(webhookEndpoints.teamId, event.teamId), eq(webhookEndpoints.enabled, true), endpointWants(event.eventType)];
  if (onlyEndpointId) conditions.push(eq(webhookEndpoints.id, onlyEndpointId));
  const rows = await tx
    .insert(webhookDeliveries)
    .select(
      tx
        .select({
          id: sql`gen_random_uuid()`.as('id'),
          eventId: sql`${event.id}::uuid`.as('event_id'),
          endpointId: webhookEndpoints.id,
          teamId: webhookEndpoints.teamId,
          status: sql`'pending'`.as('status'),
          trigger: sql`${trigger}`.as('trigger'),
          attempts: sql`0`.as('attempts'),
          nextAttemptAt: sql`${now.toISOString()}::timestamptz`.as('next_attempt_at'),
          lastAttemptAt: sql`null::timestamptz`.as('last_attempt_at'),
          deliveredAt: sql`null::timestamptz`.as('delivered_at'),
          createdAt: sql`${now.toISOString()}::timestamptz`.as('created_at'),
        })
        .from(webhookEndpoints)
        .where(and(...conditions)),
    )
    .returning({ endpointId: webhookDeliveries.endpointId });
  return [...new Set(rows.map((r) => r.endpointId))];
}

/** Endpoints with pending deliveries of some events (to wake again after a retried activity). */
export async function endpointsPendingFor(db: DbOrTx, eventIds: string[]): Promise<string[]> {
  const rows = await db
    .selectDistinct({ endpointId: webhookDeliveries.endpointId })
    .from(webhookDeliveries)
    .where(and(inArray(webhookDeliveries.eventId, eventIds), eq(webhookDeliveries.status, 'pending')));
  return rows.map((r) => r.endpointId);
}

// ---- endpoints -------------------------------------------------------------------------------

export async function insertEndpoint(
  db: DbOrTx,
  row: { id: string; teamId: string; url: string; description: string; eventTypes: string[]; secretEnc: string },
): Promise<EndpointRow> {
  const now = new Date();
  const [created] = await db.insert(webhookEndpoints).values({ ...row, createdAt: now, updatedAt: now }).returning();
  return created!;
}

export async function listEndpoints(db: DbOrTx, teamId: string): Promise<EndpointRow[]> {
  return db.select().from(webhookEndpoints).where(eq(webhookEndpoints.teamId, teamId)).orderBy(asc(webhookEndpoints.createdAt), asc(webhookEndpoints.id));
}

export async function findEndpoint(db: DbOrTx, teamId: string, id: string): Promise<EndpointRow | null> {
  const [row] = await db
    .select()
    .from(webhookEndpoints)
    .where(and(eq(webhookEndpoints.teamId, teamId), eq(webhookEndpoints.id, id)))
    .limit(1);
  return row ?? null;
}

export async function findEndpointById(db: DbOrTx, id: string): Promise<EndpointRow | null> {
  const [row] = await db.select().from(webhookEndpoints).where(eq(webhookEndpoints.id, id)).limit(1);
  return row ?? null;
}

export async function updateEndpoint(
  db: DbOrTx,
  teamId: string,
  id: string,
  patch: Partial<Pick<EndpointRow, 'url' | 'description' | 'eventTypes' | 'enabled' | 'disabledReason' | 'failingSince' | 'secretEnc' | 'previousSecretEnc' | 'previousSecretExpiresAt'>>,
): Promise<EndpointRow | null> {
  const [row] = await db
    .update(webhookEndpoints)
    .set({ ...patch, updatedAt: new Date() })
    .where(and(eq(webhookEndpoints.teamId, teamId), eq(webhookEndpoints.id, id)))
    .returning();
  return row ?? null;
}

export async function deleteEndpoint(db: DbOrTx, teamId: string, id: string): Promise<boolean> {
  const rows = await db
    .delete(webhookEndpoints)
    .where(and(eq(webhookEndpoints.teamId, teamId), eq(webhookEndpoints.id, id)))
    .returning({ id: webhookEndpoints.id });
  return rows.length > 0;
}

// ---- delivery ----------------------------------------------------------------------------------

export interface DueDelivery {
  deliveryId: string;
  /** Attempts made so far. */
  attempts: number;
  event: Pick<EventRow, 'id' | 'eventType' | 'data' | 'teamId' | 'userId' | 'clientUserId'>;
}

/**
 * Deliveries of an endpoint that are due now, oldest first, with what their envelope needs; `taken` (ids
 * already being delivered, their answers not yet written) are left out. One statement of fixed text
 * (prepared once per connection), its rows as Postgres sends them (no row mapping by the query builder).
 */
export async function dueDeliveries(db: DbOrTx, endpointId: string, now: Date, limit: number, taken: readonly string[] = []): Promise<DueDelivery[]> {
  const rows = await db.execute<{
    id: string;
    attempts: number;
    event_id: string;
    event_type: string;
    data: Record<string, unknown>;
    team_id: string;
    user_id: string | null;
    client_user_id: string | null;
  }>(sql`
    select d.id, d.attempts, e.id as event_id, e.event_type, e.data, e.team_id, e.user_id, e.client_user_id
    from ${webhookDeliveries} d join ${outboxEvents} e on e.id = d.event_id
    where d.endpoint_id = ${endpointId}::uuid and d.status = 'pending' and d.next_attempt_at <= ${now.toISOString()}::timestamptz
      and d.id <> all(${`{${taken.join(',')}}`}::uuid[])
    order by d.next_attempt_at, e.created_at
    limit ${limit}::int`);
  return rows.map((r) => ({
    deliveryId: r.id,
    attempts: r.attempts,
    event: { id: r.event_id, eventType: r.event_type, data: r.data, teamId: r.team_id, userId: r.user_id, clientUserId: r.client_user_id },
  }));
}

/** When the endpoint's next pending delivery is due (null: nothing pending). */
export async function nextDueAt(db: DbOrTx, endpointId: string): Promise<Date | null> {
  const [row] = await db
    .select({ at: min(webhookDeliveries.nextAttemptAt) })
    .from(webhookDeliveries)
    .where(and(eq(webhookDeliveries.endpointId, endpointId), eq(webhookDeliveries.status, 'pending')));
  return row?.at ?? null;
}

/**
 * A delivery round of the endpoint is under way until `until` (or until `endRound`): writers that find it so
 * after their commit send no wake-up signal (`roundUnderWay`).
 */
export async function startRound(db: DbOrTx, endpointId: string, until: Date): Promise<void> {
  await db
    .insert(webhookEndpointRounds)
    .values({ endpointId, activeUntil: until })
    .onConflictDoUpdate({ target: webhookEndpointRounds.endpointId, set: { activeUntil: until } });
}

/** The round ended: from now on writers wake the endpoint. Called before the round's last look for due deliveries. */
export async function endRound(db: DbOrTx, endpointId: string): Promise<void> {
  await db.delete(webhookEndpointRounds).where(eq(webhookEndpointRounds.endpointId, endpointId));
}

/** Is a delivery round of the endpoint under way (started, not ended, its lease not run out)? */
export async function roundUnderWay(db: DbOrTx, endpointId: string): Promise<boolean> {
  const [row] = await db
    .select({ until: webhookEndpointRounds.activeUntil })
    .from(webhookEndpointRounds)
    .where(and(eq(webhookEndpointRounds.endpointId, endpointId), sql`${webhookEndpointRounds.activeUntil} > now()`));
  return row !== undefined;
}

export interface AttemptRecord {
  deliveryId: string;
  attemptedAt: Date;
  statusCode: number | null;
  durationMs: number;
  responseBody: string | null;
  error: string | null;
  attempts: number;
  outcome: { status: 'delivered' } | { status: 'pending'; nextAttemptAt: Date } | { status: 'failed' };
}

/**
 * Stores attempts and moves their deliveries on, in one statement whatever their number (a round's
 * answers are written together, not one transaction per POST): the attempts go in as one JSON parameter,
 * so the text is the same for every batch (prepared once per connection). Only deliveries that are still
 * pending change.
 */
export async function recordAttempts(db: DbOrTx, list: AttemptRecord[]): Promise<void> {
  if (list.length === 0) return;
  // Text as Postgres would store it from a parameter: lone surrogates become U+FFFD (as UTF-8 encoding does).
  const text = (t: string | null) => t?.replace(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g, '\ufffd') ?? null;
  const rows = list.map((a) => ({
    id: a.deliveryId,
    attempted_at: a.attemptedAt.toISOString(),
    status_code: a.statusCode,
    duration_ms: a.durationMs,
    response_body: text(a.responseBody),
    error: text(a.error),
    status: a.outcome.status,
    attempts: a.attempts,
    next_attempt_at: a.outcome.status === 'pending' ? a.outcome.nextAttemptAt.toISOString() : null,
    delivered_at: a.outcome.status === 'delivered' ? a.attemptedAt.toISOString() : null,
  }));
  await db.execute(sql`
    with v as (
      select * from json_to_recordset(${JSON.stringify(rows)}::json) as v(id uuid, attempted_at timestamptz, status_code int,
        duration_ms int, response_body text, error text, status text, attempts int, next_attempt_at timestamptz, delivered_at timestamptz)
    ), attempt as (
      insert into ${webhookAttempts} (delivery_id, attempted_at, status_code, duration_ms, response_body, error)
      select id, attempted_at, status_code, duration_ms, response_body, error from v
    )
    update ${webhookDeliveries} as d
    set status = v.status, attempts = v.attempts, next_attempt_at = v.next_attempt_at, last_attempt_at = v.attempted_at, delivered_at = v.delivered_at
    from v where d.id = v.id and d.status = 'pending'`);
}

// ---- event log, resend, recovery ------------------------------------------------------------------

export interface EventFilters {
  eventType?: string | undefined;
  since?: Date | undefined;
  until?: Date | undefined;
  orderId?: string | undefined;
  userId?: string | undefined;
  deliveryStatus?: 'pending' | 'delivered' | 'failed' | undefined;
  limit: number;
  /** Keyset cursor: events strictly older than (createdAt, id). */
  before?: { createdAt: Date; id: string } | undefined;
}

export async function listEvents(db: DbOrTx, teamId: string, f: EventFilters): Promise<EventRow[]> {
  const where: SQL[] = [eq(outboxEvents.teamId, teamId)];
  if (f.eventType) {
    where.push(f.eventType.endsWith('.') ? sql`starts_with(${outboxEvents.eventType}, ${f.eventType})` : eq(outboxEvents.eventType, f.eventType));
  }
  if (f.since) where.push(gte(outboxEvents.createdAt, f.since));
  if (f.until) where.push(lte(outboxEvents.createdAt, f.until));
  if (f.orderId) where.push(eq(outboxEvents.subjectId, f.orderId));
  if (f.userId) where.push(eq(outboxEvents.userId, f.userId));
  if (f.deliveryStatus) {
    where.push(
      sql`exists (select 1 from ${webhookDeliveries} d where d.event_id = ${outboxEvents.id} and d.status = ${f.deliveryStatus})`,
    );
  }
  if (f.before) {
    where.push(or(lt(outboxEvents.createdAt, f.before.createdAt), and(eq(outboxEvents.createdAt, f.before.createdAt), lt(outboxEvents.id, f.before.id)))!);
  }
  return db
    .select()
    .from(outboxEvents)
    .where(and(...where))
    .orderBy(desc(outboxEvents.createdAt), desc(outboxEvents.id))
    .limit(f.limit);
}

export async function findEvent(db: DbOrTx, teamId: string, id: string): Promise<EventRow | null> {
  const [row] = await db
    .select()
    .from(outboxEvents)
    .where(and(eq(outboxEvents.teamId, teamId), eq(outboxEvents.id, id)))
    .limit(1);
  return row ?? null;
}

/** Deliveries of events (with their attempts, oldest first), for the event log. */
export async function deliveriesOf(db: DbOrTx, eventIds: string[]) {
  if (eventIds.length === 0) return [];
  const deliveries = await db
    .select()
    .from(webhookDeliveries)
    .where(inArray(webhookDeliveries.eventId, eventIds))
    .orderBy(asc(webhookDeliveries.createdAt));
  const attempts = deliveries.length
    ? await db
        .select()
        .from(webhookAttempts)
        .where(inArray(webhookAttempts.deliveryId, deliveries.map((d) => d.id)))
        .orderBy(asc(webhookAttempts.attemptedAt), asc(webhookAttempts.id))
    : [];
  return deliveries.map((d) => ({ ...d, attemptRows: attempts.filter((a) => a.deliveryId === d.id) }));
}

/**
 * Puts an endpoint's failed deliveries of events since `since` back in the queue, due now. Their
 * attempts stay on record. Returns how many were requeued.
 */
export async function requeueFailed(db: DbOrTx, teamId: string, endpointId: string, since: Date): Promise<number> {
  const rows = await db
    .update(webhookDeliveries)
    .set({ status: 'pending', trigger: 'recover', attempts: 0, nextAttemptAt: new Date(), deliveredAt: null })
    .where(
      and(
        eq(webhookDeliveries.teamId, teamId),
        eq(webhookDeliveries.endpointId, endpointId),
        eq(webhookDeliveries.status, 'failed'),
        gte(webhookDeliveries.createdAt, since),
      ),
    )
    .returning({ id: webhookDeliveries.id });
  return rows.length;
}

/**
 * The latest event of each order (of the team) chosen by ids and/or by the time of that latest
 * event. Used by POST /v3/order/resend_events.
 */
export async function latestOrderEvents(
  db: DbOrTx,
  teamId: string,
  f: { orderIds?: string[] | undefined; startAt?: Date | undefined; endAt?: Date | undefined },
): Promise<EventRow[]> {
  const where: SQL[] = [eq(outboxEvents.teamId, teamId), sql`${outboxEvents.eventType} like 'labtest.order.%'`];
  if (f.orderIds?.length) where.push(inArray(outboxEvents.subjectId, f.orderIds));
  const latest = db
    .selectDistinctOn([outboxEvents.subjectId], getTableColumns(outboxEvents))
    .from(outboxEvents)
    .innerJoin(orders, and(eq(orders.id, outboxEvents.subjectId), eq(orders.teamId, teamId)))
    .where(and(...where))
    .orderBy(outboxEvents.subjectId, desc(outboxEvents.createdAt), desc(outboxEvents.id))
    .as('latest');
  const window: SQL[] = [];
  if (f.startAt) window.push(gte(latest.createdAt, f.startAt));
  if (f.endAt) window.push(lte(latest.createdAt, f.endAt));
  const rows = await db.select().from(latest).where(window.length ? and(...window) : undefined);
  return rows;
}
