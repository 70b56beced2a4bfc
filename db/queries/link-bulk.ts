import { and, asc, desc, eq, gt, inArray, isNull, lt, or, sql } from 'drizzle-orm';
import type { DbOrTx } from '../client.js';
import type { BulkItemResult } from '../../domain/link/bulk.js';
import { linkBulkOps, providerConnections, users } from '../schema/index.js';
import type { ConnectionRow } from './connections.js';

export type BulkOpRow = typeof linkBulkOps.$inferSelect;
export type BulkOpType = BulkOpRow['type'];

export async function insertBulkOp(
  db: DbOrTx,
  op: { teamId: string; type: BulkOpType; provider: string; total: number; results?: Record<string, BulkItemResult>; startedAt: Date },
): Promise<BulkOpRow> {
  // started_at from the app clock (milliseconds): the list's cursor carries it exactly.
  const [row] = await db
    .insert(linkBulkOps)
    .values({ teamId: op.teamId, type: op.type, provider: op.provider, total: op.total, results: op.results ?? {}, startedAt: op.startedAt })
    .returning();
  return row!;
}

export async function findBulkOp(db: DbOrTx, teamId: string, id: string): Promise<BulkOpRow | null> {
  const [row] = await db
    .select()
    .from(linkBulkOps)
    .where(and(eq(linkBulkOps.id, id), eq(linkBulkOps.teamId, teamId)));
  return row ?? null;
}

/** One user's outcome; writing the same user again (a retried step) replaces it. */
export async function recordBulkItem(db: DbOrTx, bulkOpId: string, userId: string, result: BulkItemResult): Promise<void> {
  await db
    .update(linkBulkOps)
    .set({ results: sql`${linkBulkOps.results} || jsonb_build_object(${userId}::text, ${JSON.stringify(result)}::jsonb)` })
    .where(eq(linkBulkOps.id, bulkOpId));
}

/** Ends the op: `failure` when every user failed, `aborted` when asked, otherwise `success`. */
export async function finishBulkOp(db: DbOrTx, bulkOpId: string, now: Date, aborted = false): Promise<BulkOpRow | null> {
  const [row] = await db
    .update(linkBulkOps)
    .set({
      status: aborted
        ? sql`'aborted'`
        : sql`case when ${linkBulkOps.total} > 0 and not exists (
            select 1 from jsonb_each(${linkBulkOps.results}) r where r.value->>'outcome' in ('imported', 'triggered')
          ) then 'failure' else 'success' end`,
      endedAt: sql`coalesce(${linkBulkOps.endedAt}, ${now.toISOString()}::timestamptz)`,
    })
    .where(and(eq(linkBulkOps.id, bulkOpId), eq(linkBulkOps.status, 'in_progress')))
    .returning();
  return row ?? null;
}

export interface BulkOpCursor {
  startedAt: Date;
  id: string;
}

/** The team's ops, newest first, `limit` after the cursor. */
export async function listBulkOps(db: DbOrTx, teamId: string, limit: number, after: BulkOpCursor | null): Promise<BulkOpRow[]> {
  const keyset = after
    ? or(lt(linkBulkOps.startedAt, after.startedAt), and(eq(linkBulkOps.startedAt, after.startedAt), lt(linkBulkOps.id, after.id)))
    : undefined;
  return db
    .select()
    .from(linkBulkOps)
    .where(and(eq(linkBulkOps.teamId, teamId), keyset))
    .orderBy(desc(linkBulkOps.startedAt), desc(linkBulkOps.id))
    .limit(limit);
}

/** Which of these ids are live users of the team. */
export async function liveTeamUserIds(db: DbOrTx, teamId: string, userIds: string[]): Promise<Set<string>> {
  if (!userIds.length) return new Set();
  const rows = await db
    .select({ id: users.id })
    .from(users)
    .where(and(eq(users.teamId, teamId), inArray(users.id, userIds), isNull(users.deletedAt)));
  return new Set(rows.map((r) => r.id));
}

/**
 * The team's connections to a provider (of live users), optionally of some users only; in id order after
 * `afterId`, at most `limit` (an export page).
 */
export async function teamProviderConnections(
  db: DbOrTx,
  teamId: string,
  provider: string,
  options: { userIds?: string[] | undefined; afterId?: string | null; limit?: number } = {},
): Promise<ConnectionRow[]> {
  if (options.userIds && !options.userIds.length) return [];
  const query = db
    .select({ connection: providerConnections })
    .from(providerConnections)
    .innerJoin(users, eq(users.id, providerConnections.userId))
    .where(
      and(
        eq(users.teamId, teamId),
        isNull(users.deletedAt),
        eq(providerConnections.provider, provider),
        options.userIds ? inArray(providerConnections.userId, options.userIds) : undefined,
        options.afterId ? gt(providerConnections.id, options.afterId) : undefined,
      ),
    )
    .orderBy(asc(providerConnections.id));
  const rows = options.limit ? await query.limit(options.limit) : await query;
  return rows.map((r) => r.connection);
}

/** Pauses the team's connections of these users to a provider; the connections paused (already paused ones too). */
export async function pauseTeamConnections(db: DbOrTx, teamId: string, provider: string, userIds: string[], now: Date): Promise<ConnectionRow[]> {
  if (!userIds.length) return [];
  return db
    .update(providerConnections)
    .set({ status: 'paused', updatedAt: now })
    .where(
      and(
        eq(providerConnections.provider, provider),
        inArray(providerConnections.userId, userIds),
        sql`exists (select 1 from ${users} where ${users.id} = ${providerConnections.userId} and ${users.teamId} = ${teamId} and ${users.deletedAt} is null)`,
      ),
    )
    .returning();
}
