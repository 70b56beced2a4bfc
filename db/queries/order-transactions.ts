import { and, asc, eq, inArray } from 'drizzle-orm';
import { FINISHED_STATUSES } from '../../domain/orders/lifecycles.js';
import type { LowLevelStatus } from '../../domain/orders/status.js';
import type { DbOrTx } from '../client.js';
import { orderTransactions, orders } from '../schema/index.js';

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

/** The team's transactions by id, with their orders in ascending creation order. */
export async function orderTransactionViews(db: DbOrTx, teamId: string, transactionIds: string[]): Promise<Map<string, OrderTransactionView>> {
  const views = new Map<string, OrderTransactionView>();
  if (transactionIds.length === 0) return views;
  const rows = await db
    .select({
      transactionId: orders.transactionId,
      id: orders.id,
      createdAt: orders.createdAt,
      updatedAt: orders.updatedAt,
      low: orders.lowLevelStatus,
      lowAt: orders.lowLevelStatusCreatedAt,
      origin: orders.origin,
      parentId: orders.parentId,
    })
    .from(orders)
    .where(and(eq(orders.teamId, teamId), inArray(orders.transactionId, transactionIds)))
    .orderBy(asc(orders.createdAt), asc(orders.id));
  for (const r of rows) {
    const view = views.get(r.transactionId) ?? { id: r.transactionId, status: 'active' as const, orders: [] };
    view.orders.push({
      id: r.id,
      created_at: r.createdAt.toISOString(),
      updated_at: r.updatedAt.toISOString(),
      low_level_status: r.low,
      low_level_status_created_at: r.lowAt.toISOString(),
      origin: r.origin,
      parent_id: r.parentId,
    });
    views.set(r.transactionId, view);
  }
  for (const view of views.values()) {
    view.status = transactionStatus(view.orders.map((o) => ({ id: o.id, low: o.low_level_status, parentId: o.parent_id })));
  }
  return views;
}

/** One transaction of the team, or null (another team's transaction is not found either). */
export async function orderTransactionView(db: DbOrTx, teamId: string, transactionId: string): Promise<OrderTransactionView | null> {
  return (await orderTransactionViews(db, teamId, [transactionId])).get(transactionId) ?? null;
}

/** Opens the transaction of an initial order (idempotent). */
export async function openOrderTransaction(db: DbOrTx, row: { id: string; teamId: string; createdAt: Date }): Promise<void> {
  await db.insert(orderTransactions).values(row).onConflictDoNothing({ target: orderTransactions.id });
}
