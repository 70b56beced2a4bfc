import { and, asc, eq, inArray } from 'drizzle-orm';
import { FINISHED_STATUSES } from '../../domain/orders/lifecycles.js';
import type { LowLevelStatus } from '../../domain/orders/status.js';
import type { DbOrTx } from '../client.js';
import { orders } from '../schema/index.js';

/** `order_transaction` as shown on every order (spec: the order object) and by GET /v3/order_transaction/{id}. */
export interface OrderTransactionView {
  id: string;
  status: 'active' | 'completed' | 'cancelled';
  orders: {
    id: string;
    created_at: string;
    updated_at: string;
    low_level_status: string;
    low_level_status_created_at: string;
    origin: string;
    parent_id: string | null;
  }[];
}

/**
 * A transaction is active while one of its orders is still going (an order offering a redraw counts until
 * its redraw exists); then completed if one of its orders completed, else cancelled (all cancelled or failed).
 */
export function transactionStatus(members: { id: string; low: string; parentId: string | null }[]): OrderTransactionView['status'] {
  const redrawn = new Set(members.map((m) => m.parentId).filter(Boolean));
  const going = (m: { id: string; low: string }) => (m.low === 'redraw_available' ? !redrawn.has(m.id) : !FINISHED_STATUSES.has(m.low as LowLevelStatus));
  if (members.some(going)) return 'active';
  return members.some((m) => m.low === 'completed' || m.low === 'corrected') ? 'completed' : 'cancelled';
}

export type TransactionMember = OrderTransactionView['orders'][number];

/** A transaction's view from its members (in ascending creation order), its status derived from them. */
export function transactionView(id: string, members: TransactionMember[]): OrderTransactionView {
  return { id, status: transactionStatus(members.map((o) => ({ id: o.id, low: o.low_level_status, parentId: o.parent_id }))), orders: members };
}

/** An order as its transaction lists it. */
export function transactionMember(o: Pick<typeof orders.$inferSelect, 'id' | 'createdAt' | 'updatedAt' | 'lowLevelStatus' | 'lowLevelStatusCreatedAt' | 'origin' | 'parentId'>): TransactionMember {
  return {
    id: o.id,
    created_at: o.createdAt.toISOString(),
    updated_at: o.updatedAt.toISOString(),
    low_level_status: o.lowLevelStatus,
    low_level_status_created_at: o.lowLevelStatusCreatedAt.toISOString(),
    origin: o.origin,
    parent_id: o.parentId,
  };
}

/** The team's transactions by id, with their orders in ascending creation order. */
export async function orderTransactionViews(db: DbOrTx, teamId: string, transactionIds: string[]): Promise<Map<string, OrderTransactionView>> {
  if (transactionIds.length === 0) return new Map();
  const rows = await db
    .select({
      transactionId: orders.transactionId,
      id: orders.id,
      createdAt: orders.createdAt,
      updatedAt: orders.updatedAt,
      lowLevelStatus: orders.lowLevelStatus,
      lowLevelStatusCreatedAt: orders.lowLevelStatusCreatedAt,
      origin: orders.origin,
      parentId: orders.parentId,
    })
    .from(orders)
    .where(and(eq(orders.teamId, teamId), inArray(orders.transactionId, transactionIds)))
    .orderBy(asc(orders.createdAt), asc(orders.id));
  const members = new Map<string, TransactionMember[]>();
  for (const r of rows) {
    const list = members.get(r.transactionId) ?? [];
    list.push(transactionMember(r));
    members.set(r.transactionId, list);
  }
  return new Map([...members].map(([id, list]) => [id, transactionView(id, list)]));
}

/** One transaction of the team, or null (another team's transaction is not found either). */
export async function orderTransactionView(db: DbOrTx, teamId: string, transactionId: string): Promise<OrderTransactionView | null> {
  return (await orderTransactionViews(db, teamId, [transactionId])).get(transactionId) ?? null;
}
