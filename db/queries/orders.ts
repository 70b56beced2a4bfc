import { and, asc, count, desc, eq, gte, ilike, inArray, isNull, lte, or, sql, type SQL } from 'drizzle-orm';
import type { CollectionMethod, LowLevelStatus } from '../../domain/orders/status.js';
import { topLevelOf } from '../../domain/orders/status.js';
import type { DbOrTx } from '../client.js';
import { idempotencyKeys, labTests, orderEvents, orderResults, orders, webhookDeliveries, type ShipmentData } from '../schema/index.js';
import { recordTeamEvents, type NewTeamEvent } from './events.js';
import { stepContext, writeCreation, writeStep, type StepContext, type StepRead } from './order-steps.js';
import type { OrderPayloadRows } from './order-view.js';
import { transactionIdOf, uuidFrom } from '../../domain/orders/ids.js';

export type { StepContext } from './order-steps.js';
export type OrderRow = typeof orders.$inferSelect;
export type OrderEventRow = typeof orderEvents.$inferSelect;
export type NewOrder = Omit<typeof orders.$inferInsert, 'status' | 'lowLevelStatus' | 'lowLevelStatusCreatedAt' | 'createdAt' | 'updatedAt' | 'transactionId'> & {
  /** The transaction a redraw or recreation joins; an initial order opens its own (absent in records of older workflows). */
  transactionId?: string;
};

/**
 * Builds the webhook payload of an order (the order exactly as GET returns it). `fromRows` shapes it from
 * the rows the writing statement read beside its write (no read of its own); a builder without it reads
 * the order again inside the writer's transaction.
 */
export type OrderPayloadBuilder = ((tx: DbOrTx, teamId: string, orderId: string) => Promise<Record<string, unknown>>) & {
  fromRows?: (rows: OrderPayloadRows) => Record<string, unknown>;
};

export interface OutboxEnvelope {
  id: string;
  eventType: string;
}

/** What a write of order steps did: whether it was new, and the webhook events it queued and for which endpoints. */
export interface StepsWritten {
  /** False when a retry found the order (or the step's event) already written. */
  written: boolean;
  /** Every webhook event of the write is queued now (a retry that finds them queued gets false: look them up to wake). */
  queuedNow: boolean;
  /** Endpoints that got deliveries from this write (wake them once it has committed). */
  endpoints: string[];
  /** The order as GET returns it after the write (its last webhook payload), when the write was new. */
  order?: Record<string, unknown>;
}

/** Thrown inside a creation's transaction when the order existed already: rolls back its pipelined steps. */
const NOT_CREATED = Symbol('the order exists already');

/**
 * Inserts a new order with its first event (`ordered`), the statuses that follow at once (`then`, e.g.
 * `awaiting_registration`) and their webhook events, telling which endpoints got work. Idempotent: a retry
 * finds the order and changes nothing (`written` false). One transaction of three statements (plus one per
 * step in `then`): the order with its transaction, event 1 and idempotency key, read back with its payload's
 * parts in the same statement; then every webhook event of the write in one statement.
 */
export async function recordOrderCreation(
  db: DbOrTx,
  order: NewOrder,
  idempotency: { key: string; requestHash: string } | null,
  outbox: OutboxEnvelope,
  buildPayload: OrderPayloadBuilder,
  then: { low: LowLevelStatus; outbox: OutboxEnvelope }[] = [],
): Promise<StepsWritten> {
  return db.transaction(async (tx) => {
    const now = new Date();
    const method = order.method as CollectionMethod;
    const transactionId = order.transactionId ?? transactionIdOf(order.id);
    const record = {
      ...order,
      transactionId,
      status: topLevelOf(method, 'ordered'),
      lowLevelStatus: 'ordered',
      lowLevelStatusCreatedAt: now,
      createdAt: now,
      updatedAt: now,
    };
    // an initial order opens its transaction; a redraw or recreation joins its parent's
    const opens = (order.origin ?? 'initial') === 'initial';
    const creating = writeCreation(tx, record, `received.${order.method}.ordered`, idempotency, opens);
    // The steps that follow at once are sent with the creation (one round trip), read only the order and its
    // events, and take the rest from the creation's read. If the order existed already they are undone with
    // the transaction (below), so they can never add to an order this call did not create.
    const context = creating.then((c) => (c ? stepContext(c) : Promise.reject(NOT_CREATED)));
    const stepping = then.map((step, i) => {
      const at = new Date(now.getTime() + i + 1); // strictly after creation, so "latest event" stays well defined
      const read = writeStep(tx, stepOf({ teamId: order.teamId, orderId: order.id, eventId: 2 + i, method, low: step.low, statusDetail: null, patch: {} }, at), context);
      read.catch(() => {}); // awaited below; not an unhandled rejection meanwhile
      return { step, at, read };
    });
    context.catch(() => {});
    const created = await creating;
    if (!created) {
      await Promise.allSettled(stepping.map((s) => s.read));
      throw NOT_CREATED; // rolls back whatever the pipelined steps wrote
    }
    const events = [await outboxEvent(tx, order.teamId, created, outbox, buildPayload, now)];
    let latest = events[0]!.data;
    for (const { step, at, read: reading } of stepping) {
      const read = await reading;
      const stepped = await stepEvents(tx, { teamId: order.teamId, orderId: order.id, low: step.low, patch: {}, outbox: step.outbox }, read, buildPayload, at);
      latest = stepped.find((e) => e.id === step.outbox.id)?.data ?? latest;
      events.push(...stepped);
    }
    const { recorded, endpoints } = await recordTeamEvents(tx, events);
    return { written: true, queuedNow: recorded.length === events.length, endpoints, order: latest };
  }).catch((err: unknown) => {
    if (err === NOT_CREATED) return { written: false, queuedNow: false, endpoints: [] };
    throw err;
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

export interface TransitionInput {
  teamId: string;
  orderId: string;
  eventId: number;
  method: CollectionMethod;
  low: LowLevelStatus;
  statusDetail: string | null;
  patch: TransitionPatch;
  outbox: OutboxEnvelope;
}

/**
 * Records one status change (event `eventId`, the order row, its webhook events) in two statements,
 * telling whether the event was new and which endpoints got work. Idempotent on (order, event id): a
 * retried activity changes nothing. The first appends the event and
 * updates the order row (both or neither: one statement) and reads back the payload's parts; the second
 * queues the webhook events (idempotent on their ids). A crash between the two leaves the step's activity
 * unfinished: its retry, which the order's workflow waits for before anything else, finds the event written
 * and queues the webhook events then, with the order as it is at that moment (the same order: nothing else
 * changes it in between).
 */
export async function recordStep(db: DbOrTx, input: TransitionInput, buildPayload: OrderPayloadBuilder): Promise<StepsWritten> {
  const { written, events } = await recordStepPipelined(db, input, buildPayload);
  return { written, ...(await events) };
}

/**
 * `recordStep` for a run of steps in one transaction: the step's webhook events are sent without waiting
 * for their answer, so they travel with the next step's statement (one round trip and one socket write
 * fewer per step). The caller awaits `events` before its transaction commits; a failure there fails the
 * transaction as any statement's would.
 */
export async function recordStepPipelined(
  tx: DbOrTx,
  input: TransitionInput,
  buildPayload: OrderPayloadBuilder,
  /**
   * The context the run's first step gave (`context` of its answer): later steps read only the order and its
   * events. Only for runs whose steps change neither the order's user nor its appointment (a simulated walk).
   */
  context?: StepContext,
): Promise<{ written: boolean; events: Promise<Omit<StepsWritten, 'written'>>; context: StepContext }> {
  const now = new Date();
  const read = await writeStep(tx, stepOf(input, now), context);
  const events = await stepEvents(tx, input, read, buildPayload, now);
  const queued = recordTeamEvents(tx, events).then(({ recorded, endpoints }) => ({ queuedNow: recorded.length === events.length, endpoints }));
  queued.catch(() => {}); // handled by the caller's await; not an unhandled rejection meanwhile
  return { written: read.appended, events: queued, context: context ?? stepContext(read) };
}

function stepOf(input: Omit<TransitionInput, 'outbox'>, now: Date): Parameters<typeof writeStep>[1] {
  const top = topLevelOf(input.method, input.low);
  return {
    teamId: input.teamId,
    orderId: input.orderId,
    eventId: input.eventId,
    status: `${top}.${input.method}.${input.low}`,
    statusDetail: input.statusDetail,
    set: { ...input.patch, status: top, lowLevelStatus: input.low, lowLevelStatusCreatedAt: now, updatedAt: now },
    now,
  };
}

/** The webhook events of a recorded step: the order update (partial results only for teams asking for them) and a critical result. */
async function stepEvents(
  tx: DbOrTx,
  input: Pick<TransitionInput, 'teamId' | 'orderId' | 'low' | 'patch' | 'outbox'>,
  read: StepRead,
  buildPayload: OrderPayloadBuilder,
  now: Date,
): Promise<NewTeamEvent[]> {
  const events: NewTeamEvent[] = [];
  // Partial results are announced only to teams whose configuration asks for them (BEHAVIOUR §1).
  if (input.low !== 'partial_results' || read.partialWebhooks) events.push(await outboxEvent(tx, input.teamId, read, input.outbox, buildPayload, now));
  if (input.low === 'completed' && input.patch.interpretation === 'critical') {
    events.push(criticalResultEvent(input.teamId, read, criticalResultEventId(input.outbox.id), now));
  }
  return events;
}

/** The id of the critical-result event beside an order update (stable across retries). */
export const criticalResultEventId = (orderEventId: string): string => uuidFrom(`${orderEventId}:critical`);

/** `labtest.result.critical` (BEHAVIOUR §3): final results with a critical interpretation, beside the order update. */
function criticalResultEvent(teamId: string, read: StepRead, eventId: string, now: Date): NewTeamEvent {
  const { order } = read.rows;
  return {
    id: eventId,
    teamId,
    userId: order.userId,
    clientUserId: read.user?.clientUserId ?? null,
    eventType: 'labtest.result.critical',
    subjectId: order.id,
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
  };
}

async function outboxEvent(tx: DbOrTx, teamId: string, read: StepRead, outbox: OutboxEnvelope, buildPayload: OrderPayloadBuilder, now: Date): Promise<NewTeamEvent> {
  const orderId = read.rows.order.id;
  const data = buildPayload.fromRows ? buildPayload.fromRows(read.rows) : await buildPayload(tx, teamId, orderId);
  return {
    id: outbox.id,
    teamId,
    userId: read.user?.id ?? null,
    clientUserId: read.user?.clientUserId ?? null,
    eventType: outbox.eventType,
    subjectId: orderId,
    data,
    createdAt: now,
  };
}

/**
 * Whether the order row exists (written by the API's create, or by an earlier attempt), with the endpoints
 * still owed deliveries of the given events, in one statement.
 */
export async function findOrderRecorded(db: DbOrTx, orderId: string, eventIds: string[]): Promise<{ present: boolean; endpoints: string[] }> {
  const rows = await db.execute<{ present: boolean; endpoints: string[] }>(sql`
    select exists (select 1 from ${orders} where ${orders.id} = ${orderId}) as present,
      array(select distinct ${webhookDeliveries.endpointId}::text from ${webhookDeliveries}
            where ${webhookDeliveries.eventId} = any(${`{${eventIds.join(',')}}`}::uuid[]) and ${webhookDeliveries.status} = 'pending') as endpoints`);
  const row = [...rows][0];
  return { present: row?.present ?? false, endpoints: row?.endpoints ?? [] };
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

/** A lab test the team may order (from the shared catalogue or its own), with its lab. */
export async function findVisibleLabTest(db: DbOrTx, teamId: string, labTestId: string) {
  const [row] = await db
    .select({ id: labTests.id, method: labTests.method, status: labTests.status, labId: labTests.labId })
    .from(labTests)
    .where(and(eq(labTests.id, labTestId), or(isNull(labTests.teamId), eq(labTests.teamId, teamId))))
    .limit(1);
  return row ?? null;
}
