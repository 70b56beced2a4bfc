import { and, desc, eq, isNull, sql } from 'drizzle-orm';
import type { DbOrTx } from '../client.js';
import { labTests, linkTokens, orders, providerConnections, users } from '../schema/index.js';

/** A live (not deleted) user of any team: the portal's signed link names the user, not the team. */
export async function portalUser(db: DbOrTx, userId: string) {
  const [row] = await db
    .select({ id: users.id, teamId: users.teamId, clientUserId: users.clientUserId })
    .from(users)
    .where(and(eq(users.id, userId), isNull(users.deletedAt)));
  return row ?? null;
}

/** What the user portal shows: the user's connected sources and latest orders (or the one order). */
export async function portalView(db: DbOrTx, userId: string, orderId?: string) {
  const [connections, userOrders] = await Promise.all([
    db
      .select({ provider: providerConnections.provider, status: providerConnections.status, createdAt: providerConnections.createdAt })
      .from(providerConnections)
      .where(eq(providerConnections.userId, userId))
      .orderBy(providerConnections.createdAt),
    db
      .select({ id: orders.id, status: orders.status, lowLevelStatus: orders.lowLevelStatus, method: orders.method, testName: labTests.name, createdAt: orders.createdAt })
      .from(orders)
      .innerJoin(labTests, eq(labTests.id, orders.labTestId))
      .where(and(eq(orders.userId, userId), orderId ? eq(orders.id, orderId) : sql`true`))
      .orderBy(desc(orders.createdAt))
      .limit(20),
  ]);
  return { connections, orders: userOrders };
}

/** Consumes a sign-in token at once (single use): the row when it was live, else null. */
export async function consumeSignInToken(db: DbOrTx, tokenHash: string, now: Date) {
  const [row] = await db
    .update(linkTokens)
    .set({ consumedAt: now })
    .where(and(eq(linkTokens.tokenHash, tokenHash), eq(linkTokens.kind, 'sign_in'), isNull(linkTokens.consumedAt), sql`${linkTokens.expiresAt} > ${now.toISOString()}::timestamptz`))
    .returning({ userId: linkTokens.userId, teamId: linkTokens.teamId });
  return row ?? null;
}
