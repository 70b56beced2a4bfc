import { and, asc, count, eq, inArray, isNotNull, isNull, sql } from 'drizzle-orm';
import type postgres from 'postgres';
import type { DbOrTx } from '../client.js';
import { blobErasures, parsingJobs, providerConnections, users, wearableSamples } from '../schema/index.js';

export type UserRow = typeof users.$inferSelect;
export type ConnectionRow = typeof providerConnections.$inferSelect;

export interface UserFields {
  clientUserId: string;
  fallbackTimeZone?: string | undefined;
  fallbackBirthDate?: string | undefined;
  ingestionStart?: string | undefined;
  ingestionEnd?: string | undefined;
}

export type InsertUserResult = { created: UserRow } | { duplicateOf: UserRow };

/** Inserts a user; a `client_user_id` already used in the team yields the existing user instead. */
export async function insertUser(db: DbOrTx, teamId: string, fields: UserFields, now: Date): Promise<InsertUserResult> {
  const [created] = await db
    .insert(users)
    .values({
      teamId,
      clientUserId: fields.clientUserId,
      createdOn: now,
      fallbackTimeZone: fields.fallbackTimeZone,
      fallbackTimeZoneUpdatedAt: fields.fallbackTimeZone ? now : undefined,
      fallbackBirthDate: fields.fallbackBirthDate,
      fallbackBirthDateUpdatedAt: fields.fallbackBirthDate ? now : undefined,
      ingestionStart: fields.ingestionStart,
      ingestionEnd: fields.ingestionEnd,
    })
    .onConflictDoNothing({ target: [users.teamId, users.clientUserId] })
    .returning();
  if (created) return { created };
  const existing = await findUserByClientUserId(db, teamId, fields.clientUserId);
  if (!existing) throw new Error('user insert conflicted but no existing user was found');
  return { duplicateOf: existing };
}

/** Finds a user of the team, whether or not it is scheduled for deletion. */
/**
 * The hottest reads are built once per database handle (drizzle prepared queries): building a query
 * costs more CPU than Postgres spends answering a primary-key lookup (see bench:api).
 */
function preparedFor<T>(cache: WeakMap<object, T>, db: DbOrTx, build: () => T): T {
  let q = cache.get(db);
  if (!q) {
    q = build();
    cache.set(db, q);
  }
  return q;
}

const findUserQueries = new WeakMap<object, ReturnType<typeof buildFindUser>>();
const buildFindUser = (db: DbOrTx) =>
  db
    .select()
    .from(users)
    .where(and(eq(users.teamId, sql.placeholder('teamId')), eq(users.id, sql.placeholder('userId'))))
    .limit(1)
    .prepare('find_user');

export async function findUser(db: DbOrTx, teamId: string, userId: string): Promise<UserRow | null> {
  const [row] = await preparedFor(findUserQueries, db, () => buildFindUser(db)).execute({ teamId, userId });
  return row ?? null;
}

/** What GET /v2/user/{id} shows of a connection. */
export type ConnectionSummary = Pick<ConnectionRow, 'provider' | 'createdAt'>;

interface UserWithConnectionsRow {
  id: string;
  team_id: string;
  client_user_id: string;
  created_on: string;
  fallback_time_zone: string | null;
  fallback_time_zone_updated_at: string | null;
  fallback_birth_date: string | null;
  fallback_birth_date_updated_at: string | null;
  ingestion_start: string | null;
  ingestion_end: string | null;
  deleted_at: string | null;
  provider: string | null;
  connected_at: string | null;
}

/** Timestamps arrive as Postgres text (drizzle turns postgres.js's parsers off); drizzle maps them the same way. */
const toDate = (v: string | null) => (v === null ? null : new Date(v));

/**
 * A user of the team with its connections (oldest first), in one round trip; null when not the team's.
 * The hottest read of the API (GET /v2/user/{id}, bench:api): one statement prepared by postgres.js and
 * mapped by hand, without drizzle's query and result layers. `pg` is the client under drizzle (DbHandle.sql):
 * drizzle turned its date parsers off, so timestamps and dates come as text.
 */
export async function findUserWithConnections(
  pg: postgres.Sql,
  teamId: string,
  userId: string,
): Promise<{ user: UserRow; connections: ConnectionSummary[] } | null> {
  const rows = await pg<UserWithConnectionsRow[]>`
    select u.id, u.team_id, u.client_user_id, u.created_on, u.fallback_time_zone, u.fallback_time_zone_updated_at,
      u.fallback_birth_date, u.fallback_birth_date_updated_at, u.ingestion_start, u.ingestion_end, u.deleted_at,
      c.provider, c.created_at as connected_at
    from users u left join provider_connections c on c.user_id = u.id
    where u.team_id = ${teamId} and u.id = ${userId}
    order by c.created_at`;
  const first = rows[0];
  if (!first) return null;
  const user: UserRow = {
    id: first.id,
    teamId: first.team_id,
    clientUserId: first.client_user_id,
    createdOn: new Date(first.created_on),
    fallbackTimeZone: first.fallback_time_zone,
    fallbackTimeZoneUpdatedAt: toDate(first.fallback_time_zone_updated_at),
    fallbackBirthDate: first.fallback_birth_date,
    fallbackBirthDateUpdatedAt: toDate(first.fallback_birth_date_updated_at),
    ingestionStart: first.ingestion_start,
    ingestionEnd: first.ingestion_end,
    deletedAt: toDate(first.deleted_at),
  };
  const connections: ConnectionSummary[] = [];
  for (const r of rows) if (r.provider !== null) connections.push({ provider: r.provider, createdAt: new Date(r.connected_at!) });
  return { user, connections };
}

export async function findUserByClientUserId(db: DbOrTx, teamId: string, clientUserId: string): Promise<UserRow | null> {
  const [row] = await db
    .select()
    .from(users)
    .where(and(eq(users.teamId, teamId), eq(users.clientUserId, clientUserId)))
    .limit(1);
  return row ?? null;
}

/** Live (not deleted) users of a team, oldest first, with the total for the envelope. */
export async function listUsers(db: DbOrTx, teamId: string, page: { offset: number; limit: number }) {
  const live = and(eq(users.teamId, teamId), isNull(users.deletedAt));
  const [rows, totals] = await Promise.all([
    db.select().from(users).where(live).orderBy(asc(users.createdOn), asc(users.id)).offset(page.offset).limit(page.limit),
    db.select({ total: count() }).from(users).where(live),
  ]);
  return { rows, total: totals[0]?.total ?? 0 };
}

export interface UserPatch {
  clientUserId?: string | undefined;
  fallbackTimeZone?: string | undefined;
  fallbackBirthDate?: string | undefined;
  ingestionStart?: string | undefined;
  ingestionEnd?: string | undefined;
}

export type UpdateUserResult = { updated: UserRow } | { duplicateOf: UserRow } | { notFound: true };

/** Applies a partial update to a live user. Fallback values get a fresh `updated_at`. */
export async function updateUser(db: DbOrTx, teamId: string, userId: string, patch: UserPatch, now: Date): Promise<UpdateUserResult> {
  if (patch.clientUserId !== undefined) {
    const other = await findUserByClientUserId(db, teamId, patch.clientUserId);
    if (other && other.id !== userId) return { duplicateOf: other };
  }
  const set: Partial<typeof users.$inferInsert> = {};
  if (patch.clientUserId !== undefined) set.clientUserId = patch.clientUserId;
  if (patch.fallbackTimeZone !== undefined) Object.assign(set, { fallbackTimeZone: patch.fallbackTimeZone, fallbackTimeZoneUpdatedAt: now });
  if (patch.fallbackBirthDate !== undefined) Object.assign(set, { fallbackBirthDate: patch.fallbackBirthDate, fallbackBirthDateUpdatedAt: now });
  if (patch.ingestionStart !== undefined) set.ingestionStart = patch.ingestionStart;
  if (patch.ingestionEnd !== undefined) set.ingestionEnd = patch.ingestionEnd;
  const where = and(eq(users.teamId, teamId), eq(users.id, userId), isNull(users.deletedAt));
  if (Object.keys(set).length === 0) {
    const [row] = await db.select().from(users).where(where).limit(1);
    return row ? { updated: row } : { notFound: true };
  }
  try {
    const [row] = await db.update(users).set(set).where(where).returning();
    return row ? { updated: row } : { notFound: true };
  } catch (err) {
    // A concurrent request took the client_user_id between our check and the update.
    if (isUniqueViolation(err) && patch.clientUserId !== undefined) {
      const other = await findUserByClientUserId(db, teamId, patch.clientUserId);
      if (other) return { duplicateOf: other };
    }
    throw err;
  }
}

/** Marks a user for deletion (idempotent: an already-marked user keeps its first mark). */
export async function markUserDeleted(db: DbOrTx, teamId: string, userId: string, now: Date): Promise<UserRow | null> {
  await db
    .update(users)
    .set({ deletedAt: now })
    .where(and(eq(users.teamId, teamId), eq(users.id, userId), isNull(users.deletedAt)));
  return findUser(db, teamId, userId);
}

export async function restoreUser(db: DbOrTx, teamId: string, userId: string): Promise<void> {
  await db.update(users).set({ deletedAt: null }).where(and(eq(users.teamId, teamId), eq(users.id, userId)));
}

/**
 * Erases a user scheduled for deletion (its wearable samples, and by cascade its connections, parsing jobs and
 * wearable summaries). Idempotent.
 * In the same transaction, every blob the user's jobs name (uploaded files, extracted text) is queued
 * in `blob_erasures`: the hashes must outlive the job rows until the blobs are dealt with
 * (pendingBlobErasures), even if the process dies right after this commits.
 */
export async function eraseUser(db: DbOrTx, teamId: string, userId: string, now: Date = new Date()): Promise<boolean> {
  return db.transaction(async (tx) => {
    // Locking the user row holds off new job rows of the user (their foreign key check needs a share
    // lock on it); locking the jobs holds off changes to their hashes (the extracted text's, set later).
    const [user] = await tx
      .select({ id: users.id })
      .from(users)
      .where(and(eq(users.teamId, teamId), eq(users.id, userId), isNotNull(users.deletedAt)))
      .for('update');
    if (!user) return false;
    const jobs = await tx
      .select({ fileSha256s: parsingJobs.fileSha256s, pagesSha256: parsingJobs.pagesSha256 })
      .from(parsingJobs)
      .where(eq(parsingJobs.userId, userId))
      .for('update');
    const hashes = blobsOfJobs(jobs);
    if (hashes.length > 0) {
      await tx
        .insert(blobErasures)
        .values(hashes.map((sha256) => ({ userId, sha256, queuedAt: now })))
        .onConflictDoNothing();
    }
    // Wearable samples carry no foreign key (a partitioned table, written in bulk): erase them here.
    await tx.delete(wearableSamples).where(eq(wearableSamples.userId, userId));
    await tx.delete(users).where(eq(users.id, userId));
    return true;
  });
}

/** Every blob the jobs name, once each, in a stable order. */
export function blobsOfJobs(jobs: { fileSha256s: string[]; pagesSha256: string | null }[]): string[] {
  const all = new Set<string>();
  for (const job of jobs) {
    for (const sha of job.fileSha256s) all.add(sha);
    if (job.pagesSha256) all.add(job.pagesSha256);
  }
  return [...all].sort();
}

/** Blobs of an erased user not yet dealt with (see eraseUser). */
export async function pendingBlobErasures(db: DbOrTx, userId: string): Promise<string[]> {
  const rows = await db.select({ sha256: blobErasures.sha256 }).from(blobErasures).where(eq(blobErasures.userId, userId));
  return rows.map((r) => r.sha256).sort();
}

/** One blob of an erased user dealt with: deleted, or left to the jobs still naming it. */
export async function dropBlobErasure(db: DbOrTx, userId: string, sha256: string): Promise<void> {
  await db.delete(blobErasures).where(and(eq(blobErasures.userId, userId), eq(blobErasures.sha256, sha256)));
}

const connectionsOfUserQueries = new WeakMap<object, ReturnType<typeof buildConnectionsOfUser>>();
const buildConnectionsOfUser = (db: DbOrTx) =>
  db
    .select()
    .from(providerConnections)
    .where(eq(providerConnections.userId, sql.placeholder('userId')))
    .orderBy(asc(providerConnections.createdAt))
    .prepare('connections_of_user');

export async function listConnections(db: DbOrTx, userIds: string[]): Promise<Map<string, ConnectionRow[]>> {
  const byUser = new Map<string, ConnectionRow[]>();
  if (userIds.length === 0) return byUser;
  const rows =
    userIds.length === 1
      ? await preparedFor(connectionsOfUserQueries, db, () => buildConnectionsOfUser(db)).execute({ userId: userIds[0] })
      : await db
          .select()
          .from(providerConnections)
          .where(inArray(providerConnections.userId, userIds))
          .orderBy(asc(providerConnections.createdAt));
  for (const row of rows) {
    const list = byUser.get(row.userId) ?? [];
    list.push(row);
    byUser.set(row.userId, list);
  }
  return byUser;
}

function isUniqueViolation(err: unknown): boolean {
  const code = (err as { code?: unknown; cause?: { code?: unknown } } | null);
  return code?.code === '23505' || code?.cause?.code === '23505';
}
