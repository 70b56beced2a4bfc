import { and, asc, desc, eq, gte, inArray, lte, or, sql, type SQL } from 'drizzle-orm';
import type { DbOrTx } from '../../client.js';
import { orderEvents, orders, outboxEvents, teams, users } from '../../schema/index.js';
import { deliveriesOf } from '../webhooks.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export interface OrderSearch {
  /** Order id, sample id, user id, client_user_id, or a patient's first/last name (prefix). */
  q?: string | undefined;
  teamId?: string | undefined;
  status?: string | undefined;
  method?: string | undefined;
  from?: Date | undefined;
  to?: Date | undefined;
  /** Keyset cursor: orders strictly older than (createdAt, id). */
  before?: { createdAt: Date; id: string } | undefined;
  limit: number;
}

const lastName = sql`lower(${orders.patientDetails}->>'last_name')`;
const firstName = sql`lower(${orders.patientDetails}->>'first_name')`;
const likePrefix = (s: string) => `${s.toLowerCase().replace(/[\\%_]/g, (m) => `\\${m}`)}%`;

function searchClause(q: string): SQL {
  if (UUID.test(q)) return or(eq(orders.id, q), eq(orders.userId, q))!;
  const words = q.split(/\s+/).filter(Boolean);
  const byName =
    words.length === 2
      ? or(
          and(sql`${firstName} like ${likePrefix(words[0]!)}`, sql`${lastName} like ${likePrefix(words[1]!)}`),
          and(sql`${lastName} like ${likePrefix(words[0]!)}`, sql`${firstName} like ${likePrefix(words[1]!)}`),
        )!
      : or(sql`${lastName} like ${likePrefix(q)}`, sql`${firstName} like ${likePrefix(q)}`)!;
  return or(
    eq(orders.sampleId, q),
    inArray(orders.userId, sql`(select ${users.id} from ${users} where ${users.clientUserId} = ${q})`),
    byName,
  )!;
}

/** Orders of every team, newest first, one keyset page (uses the orders_*_created_idx indexes). */
export async function searchOrders(db: DbOrTx, f: OrderSearch) {
  const where: SQL[] = [];
  if (f.q?.trim()) where.push(searchClause(f.q.trim()));
  if (f.teamId) where.push(eq(orders.teamId, f.teamId));
  if (f.status) where.push(eq(orders.status, f.status));
  if (f.method) where.push(eq(orders.method, f.method));
  if (f.from) where.push(gte(orders.createdAt, f.from));
  if (f.to) where.push(lte(orders.createdAt, f.to));
  if (f.before) where.push(sql`(${orders.createdAt}, ${orders.id}) < (${f.before.createdAt.toISOString()}::timestamptz, ${f.before.id}::uuid)`);
  return db
    .select({
      id: orders.id,
      teamId: orders.teamId,
      teamName: teams.name,
      userId: orders.userId,
      clientUserId: users.clientUserId,
      sampleId: orders.sampleId,
      method: orders.method,
      status: orders.status,
      lowLevelStatus: orders.lowLevelStatus,
      patientFirst: sql<string | null>`${orders.patientDetails}->>'first_name'`,
      patientLast: sql<string | null>`${orders.patientDetails}->>'last_name'`,
      createdAt: orders.createdAt,
      updatedAt: orders.updatedAt,
    })
    .from(orders)
    .innerJoin(teams, eq(teams.id, orders.teamId))
    .innerJoin(users, eq(users.id, orders.userId))
    .where(where.length ? and(...where) : undefined)
    .orderBy(desc(orders.createdAt), desc(orders.id))
    .limit(f.limit);
}

export type OrderSearchRow = Awaited<ReturnType<typeof searchOrders>>[number];

/** One order (any team: operators run the whole deployment) with its events, webhook events and deliveries. */
export async function orderDetail(db: DbOrTx, orderId: string) {
  const [order] = await db
    .select({ order: orders, teamName: teams.name, clientUserId: users.clientUserId })
    .from(orders)
    .innerJoin(teams, eq(teams.id, orders.teamId))
    .innerJoin(users, eq(users.id, orders.userId))
    .where(eq(orders.id, orderId))
    .limit(1);
  if (!order) return null;
  const events = await db.select().from(orderEvents).where(eq(orderEvents.orderId, orderId)).orderBy(asc(orderEvents.id));
  const outbox = await db
    .select()
    .from(outboxEvents)
    .where(and(eq(outboxEvents.subjectId, orderId), eq(outboxEvents.teamId, order.order.teamId)))
    .orderBy(asc(outboxEvents.createdAt), asc(outboxEvents.id));
  const deliveries = await deliveriesOf(db, outbox.map((e) => e.id));
  return { ...order, events, outbox, deliveries };
}

export type OrderDetail = NonNullable<Awaited<ReturnType<typeof orderDetail>>>;

/** Orders per day and top-level status over the last `days` days (for the chart). */
export async function ordersByStatusPerDay(db: DbOrTx, days: number, teamId?: string) {
  const since = new Date(Date.now() - days * 86_400_000);
  return db
    .select({ day: sql<string>`to_char(date_trunc('day', ${orders.createdAt}), 'YYYY-MM-DD')`, status: orders.status, n: sql<number>`count(*)::int` })
    .from(orders)
    .where(and(gte(orders.createdAt, since), teamId ? eq(orders.teamId, teamId) : undefined))
    .groupBy(sql`1`, orders.status)
    .orderBy(sql`1`);
}

