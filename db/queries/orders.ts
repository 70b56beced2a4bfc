import { and, asc, count, desc, eq, gte, ilike, inArray, isNull, lte, or, sql, type SQL } from 'drizzle-orm';
import type { CollectionMethod, LowLevelStatus } from '../../domain/orders/status.js';
import { topLevelOf } from '../../domain/orders/status.js';
import type { DbOrTx } from '../client.js';
import { idempotencyKeys, labTests, orderEvents, orderResults, orders, teams, users, type ShipmentData } from '../schema/index.js';
import { recordTeamEvent } from './events.js';
import { transactionIdOf, uuidFrom } from '../../domain/orders/ids.js';
import { openOrderTransaction } from './order-transactions.js';

export type OrderRow = typeof orders.$inferSelect;
export type OrderEventRow = typeof orderEvents.$inferSelect;
export type NewOrder = Omit<typeof orders.$inferInsert, 'status' | 'lowLevelStatus' | 'lowLevelStatusCreatedAt' | 'createdAt' | 'updatedAt' | 'transactionId'> & {
  /** The transaction a redraw or recreation joins; an initial order opens its own (absent in records of older workflows). */
  transactionId?: string;
};

/** Builds the webhook payload of an order (the order exactly as GET returns it) inside the same transaction. */
export type OrderPayloadBuilder = (tx: DbOrTx, teamId: string, orderId: string) => Promise<Record<string, unknown>>;

export interface OutboxEnvelope {
  id: string;
  eventType: string;
}

/**
 * Inserts a new order with its first event (`ordered`) and its `labtest.order.created` outbox event,
 * all in one transaction. Idempotent: a retry finds the order and changes nothing.
 */
export async function insertOrderRecord(
  db: DbOrTx,
  order: NewOrder,
  idempotency: { key: string; requestHash: string } | null,
  outbox: OutboxEnvelope,
  buildPayload: OrderPayloadBuilder,
  /** Status changes that follow creation at once (e.g. `awaiting_registration`), in the same transaction. */
  then: { low: LowLevelStatus; outbox: OutboxEnvelope }[] = [],
): Promise<boolean> {
  return db.transaction(async (tx) => {
    const now = new Date();
    const transactionId = order.transactionId ?? transactionIdOf(order.id);
    // an initial order opens its transaction; a redraw or recreation joins its parent's
    if ((order.origin ?? 'initial') === 'initial') await openOrderTransaction(tx, { id: transactionId, teamId: order.teamId, createdAt: now });
    const [created] = await tx
      .insert(orders)
      .values({
        ...order,
        transactionId,
        status: topLevelOf(order.method as CollectionMethod, 'ordered'),
        lowLevelStatus: 'ordered',
        lowLevelStatusCreatedAt: now,
        createdAt: now,
        updatedAt: now,
      })
      .onConflictDoNothing({ target: orders.id })
      .returning({ id: orders.id });
    if (!created) return false;
    await tx.insert(orderEvents).values({ orderId: order.id, id: 1, status: `received.${order.method}.ordered`, createdAt: now });
    if (idempotency) {
      await tx
        .insert(idempotencyKeys)
        .values({ teamId: order.teamId, key: idempotency.key, requestHash: idempotency.requestHash, orderId: order.id })
        .onConflictDoNothing();
    }
    await writeOutbox(tx, order.teamId, order.id, outbox, buildPayload, now);
    for (const [i, step] of then.entries()) {
      await applyTransition(
        tx,
        { teamId: order.teamId, orderId: order.id, eventId: 2 + i, method: order.method as CollectionMethod, low: step.low, statusDetail: null, patch: {}, outbox: step.outbox },
        buildPayload,
        new Date(now.getTime() + i + 1), // strictly after creation, so "latest event" stays well defined
      );
    }
    return true;
  });
}

export interface TransitionPatch {
  shipment?: ShipmentData;
  sampleId?: string;
  userId?: string;
  patientDetails?: Record<string, unknown>;
  patientAddress?: Record<string, unknown>;
  physician?: Record<string, unknown> | null;
  consents?: unknown[] | null;
  healthInsurance?: Record<string, unknown> | null;
  interpretation?: string;
  hasMissingResults?: boolean;
}

/**
 * Records one status change: appends event `eventId`, updates the order row and appends the outbox
 * event, in one transaction. Idempotent on (order, event id): a retried activity changes nothing.
 */
export async function recordTransition(
  db: DbOrTx,
  input: {
    teamId: string;
    orderId: string;
    eventId: number;
    method: CollectionMethod;
    low: LowLevelStatus;
    statusDetail: string | null;
    patch: TransitionPatch;
    outbox: OutboxEnvelope;
  },
  buildPayload: OrderPayloadBuilder,
): Promise<boolean> {
  return db.transaction((tx) => applyTransition(tx, input, buildPayload, new Date()));
}

async function applyTransition(
  tx: DbOrTx,
  input: Parameters<typeof recordTransition>[1],
  buildPayload: OrderPayloadBuilder,
  now: Date,
): Promise<boolean> {
  const top = topLevelOf(input.method, input.low);
  const [appended] = await tx
    .insert(orderEvents)
    .values({
      orderId: input.orderId,
      id: input.eventId,
      status: `${top}.${input.method}.${input.low}`,
      statusDetail: input.statusDetail,
      createdAt: now,
    })
    .onConflictDoNothing()
    .returning({ id: orderEvents.id });
  if (!appended) return false;
  await tx
    .update(orders)
    .set({ ...input.patch, status: top, lowLevelStatus: input.low, lowLevelStatusCreatedAt: now, updatedAt: now })
    .where(and(eq(orders.id, input.orderId), eq(orders.teamId, input.teamId)));
  if (input.low !== 'partial_results' || (await partialWebhooksEnabled(tx, input.teamId))) {
    await writeOutbox(tx, input.teamId, input.orderId, input.outbox, buildPayload, now);
  }
  if (input.low === 'completed' && input.patch.interpretation === 'critical') {
    await announceCriticalResult(tx, input.teamId, input.orderId, criticalResultEventId(input.outbox.id), now);
  }
  return true;
}

/** The id of the critical-result event beside an order update (stable across retries). */
export const criticalResultEventId = (orderEventId: string): string => uuidFrom(`${orderEventId}:critical`);

/** `labtest.result.critical` (BEHAVIOUR §3): final results with a critical interpretation, beside the order update. */
async function announceCriticalResult(tx: DbOrTx, teamId: string, orderId: string, eventId: string, now: Date): Promise<void> {
  const [row] = await tx
    .select({ order: orders, clientUserId: users.clientUserId })
    .from(orders)
    .innerJoin(users, eq(users.id, orders.userId))
    .where(eq(orders.id, orderId));
  if (!row) return;
  const { order } = row;
  await recordTeamEvent(tx, {
    id: eventId,
    teamId,
    userId: order.userId,
    clientUserId: row.clientUserId,
    eventType: 'labtest.result.critical',
    subjectId: orderId,
    data: {
      order_id: order.id,
      sample_id: order.sampleId,
      status: order.status,
      interpretation: 'critical',
      team_id: teamId,
      user_id: order.userId,
      created_at: order.createdAt.toISOString(),
      updated_at: order.updatedAt.toISOString(),
    },
    createdAt: now,
  });
}

/** Partial results are announced only to teams whose configuration asks for them (BEHAVIOUR §1). */
async function partialWebhooksEnabled(tx: DbOrTx, teamId: string): Promise<boolean> {
  const [team] = await tx.select({ on: teams.partialWebhooksEnabled }).from(teams).where(eq(teams.id, teamId));
  return team?.on ?? false;
}

async function writeOutbox(
  tx: DbOrTx,
  teamId: string,
  orderId: string,
  outbox: OutboxEnvelope,
  buildPayload: OrderPayloadBuilder,
  now: Date,
): Promise<void> {
  const data = await buildPayload(tx, teamId, orderId);
  const [user] = await tx
    .select({ id: users.id, clientUserId: users.clientUserId })
    .from(users)
    .innerJoin(orders, eq(orders.userId, users.id))
    .where(eq(orders.id, orderId));
  await recordTeamEvent(tx, {
    id: outbox.id,
    teamId,
    userId: user?.id ?? null,
    clientUserId: user?.clientUserId ?? null,
    eventType: outbox.eventType,
    subjectId: orderId,
    data,
    createdAt: now,
  });
}

export async function findOrder(db: DbOrTx, teamId: string, orderId: string): Promise<OrderRow | null> {
  const [row] = await db.select().from(orders).where(and(eq(orders.teamId, teamId), eq(orders.id, orderId))).limit(1);
  return row ?? null;
}

export async function listOrderEvents(db: DbOrTx, orderIds: string[]): Promise<Map<string, OrderEventRow[]>> {
  const map = new Map<string, OrderEventRow[]>();
  if (orderIds.length === 0) return map;
  const rows = await db.select().from(orderEvents).where(inArray(orderEvents.orderId, orderIds)).orderBy(asc(orderEvents.orderId), asc(orderEvents.id));
  for (const r of rows) {
    const list = map.get(r.orderId) ?? [];
    list.push(r);
    map.set(r.orderId, list);
  }
  return map;
}

export async function findIdempotencyKey(db: DbOrTx, teamId: string, key: string) {
  const [row] = await db
    .select()
    .from(idempotencyKeys)
    .where(and(eq(idempotencyKeys.teamId, teamId), eq(idempotencyKeys.key, key)))
    .limit(1);
  return row ?? null;
}

export async function findResults(db: DbOrTx, orderId: string) {
  const [row] = await db.select().from(orderResults).where(eq(orderResults.orderId, orderId)).limit(1);
  return row ?? null;
}

export async function upsertResults(
  db: DbOrTx,
  orderId: string,
  input: { status: 'partial' | 'final'; metadata: Record<string, unknown>; results: unknown[]; missingResults: unknown[]; interpretation: string },
): Promise<void> {
  const now = new Date();
  await db
    .insert(orderResults)
    .values({ orderId, ...input, createdAt: now, updatedAt: now })
    .onConflictDoUpdate({ target: orderResults.orderId, set: { ...input, updatedAt: now } });
}

export interface OrderFilters {
  userId?: string | undefined;
  statuses?: LowLevelStatus[] | undefined;
  methods?: CollectionMethod[] | undefined;
  orderIds?: string[] | undefined;
  createdFrom?: Date | undefined;
  createdTo?: Date | undefined;
  updatedFrom?: Date | undefined;
  updatedTo?: Date | undefined;
  activation?: ('current' | 'scheduled')[] | undefined;
  interpretation?: string | undefined;
  search?: string | undefined;
  patientName?: string | undefined;
  shippingRecipientName?: string | undefined;
  orderKey: 'created_at' | 'patient_name' | 'last_status';
  direction: 'asc' | 'desc';
  page: number;
  size: number;
  today: string;
}

/** One page of a team's orders with the total count, filtered as GET /v3/orders asks. */
export async function listOrders(db: DbOrTx, teamId: string, f: OrderFilters) {
  const where: SQL[] = [eq(orders.teamId, teamId)];
  if (f.userId) where.push(eq(orders.userId, f.userId));
  if (f.statuses?.length) where.push(inArray(orders.lowLevelStatus, f.statuses));
  if (f.methods?.length) where.push(inArray(orders.method, f.methods));
  if (f.orderIds?.length) where.push(inArray(orders.id, f.orderIds));
  if (f.createdFrom) where.push(gte(orders.createdAt, f.createdFrom));
  if (f.createdTo) where.push(lte(orders.createdAt, f.createdTo));
  if (f.updatedFrom) where.push(gte(orders.updatedAt, f.updatedFrom));
  if (f.updatedTo) where.push(lte(orders.updatedAt, f.updatedTo));
  if (f.interpretation) where.push(eq(orders.interpretation, f.interpretation));
  if (f.activation?.length === 1) {
    where.push(
      f.activation[0] === 'scheduled'
        ? sql`${orders.activateBy} > ${f.today}`
        : sql`(${orders.activateBy} is null or ${orders.activateBy} <= ${f.today})`,
    );
  }
  const patientName = sql<string>`coalesce(${orders.patientDetails}->>'first_name', '') || ' ' || coalesce(${orders.patientDetails}->>'last_name', '')`;
  const recipient = sql<string>`coalesce(${orders.shippingDetails}->>'receiver_name', '')`;
  if (f.patientName) where.push(ilike(patientName, `%${escapeLike(f.patientName)}%`));
  if (f.shippingRecipientName) where.push(ilike(recipient, `%${escapeLike(f.shippingRecipientName)}%`));
  if (f.search) {
    const term = `%${escapeLike(f.search)}%`;
    where.push(or(ilike(patientName, term), ilike(recipient, term), ilike(sql`${orders.id}::text`, term), ilike(sql`coalesce(${orders.sampleId}, '')`, term))!);
  }
  const orderColumn = f.orderKey === 'patient_name' ? patientName : f.orderKey === 'last_status' ? orders.lowLevelStatus : orders.createdAt;
  const dir = f.direction === 'asc' ? asc : desc;
  const condition = and(...where);
  const [rows, totals] = await Promise.all([
    db.select().from(orders).where(condition).orderBy(dir(orderColumn), dir(orders.id)).offset((f.page - 1) * f.size).limit(f.size),
    db.select({ total: count() }).from(orders).where(condition),
  ]);
  return { rows, total: totals[0]?.total ?? 0 };
}

function escapeLike(s: string): string {
  return s.replace(/[\\%_]/g, (m) => `\\${m}`);
}

/** A lab test the team may order: from the shared catalogue or its own. */
export async function findVisibleLabTest(db: DbOrTx, teamId: string, labTestId: string) {
  const [row] = await db
    .select({ id: labTests.id, method: labTests.method, status: labTests.status })
    .from(labTests)
    .where(and(eq(labTests.id, labTestId), or(isNull(labTests.teamId), eq(labTests.teamId, teamId))))
    .limit(1);
  return row ?? null;
}
