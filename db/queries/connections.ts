import { and, asc, eq, ne, sql } from 'drizzle-orm';
import type { DbOrTx } from '../client.js';
import { linkTokens, providerConnections, users } from '../schema/index.js';
import { providerDisplay } from '../../domain/providers.js';
import { connectionErrorType, type LinkErrorType } from '../../domain/link/outcomes.js';
import { resourceAvailability, type LinkMethod } from '../../domain/link/catalog.js';
import { recordTeamEvent } from './events.js';
import { teamLinkSettings } from './link.js';

export type ConnectionRow = typeof providerConnections.$inferSelect;

interface Subject {
  teamId: string;
  userId: string;
  provider: string;
}

export interface Activation extends Subject {
  method: LinkMethod;
  externalUserId: string;
  sealedCredentials: string | null;
  linkTokenId: string | null;
  /** Made by the workflow: a retried write records the event once. */
  eventId: string;
}

async function teamUser(tx: DbOrTx, teamId: string, userId: string) {
  const [user] = await tx
    .select({ clientUserId: users.clientUserId })
    .from(users)
    .where(and(eq(users.id, userId), eq(users.teamId, teamId)));
  return user ?? null;
}

/**
 * Makes a connection active in one transaction: the connection row (created, or re-linked), the link
 * token consumed, and `provider.connection.created` in the event log. Refuses a provider account already
 * linked to another user of the team when the team rejects duplicates. Idempotent on retry.
 */
export async function activateConnection(
  db: DbOrTx,
  a: Activation,
  now: Date,
): Promise<{ connectionId: string; endpoints: string[] } | { duplicate: true } | { userGone: true }> {
  return db.transaction(async (tx) => {
    const user = await teamUser(tx, a.teamId, a.userId);
    if (!user) return { userGone: true as const };
    if ((await teamLinkSettings(tx, a.teamId)).rejectDuplicateConnection) {
      const [other] = await tx
        .select({ id: providerConnections.id })
        .from(providerConnections)
        .innerJoin(users, eq(users.id, providerConnections.userId))
        .where(
          and(
            eq(users.teamId, a.teamId),
            ne(providerConnections.userId, a.userId),
            eq(providerConnections.provider, a.provider),
            eq(providerConnections.externalUserId, a.externalUserId),
          ),
        )
        .limit(1);
      if (other) return { duplicate: true as const };
    }
    const fields = {
      externalUserId: a.externalUserId,
      status: 'connected',
      method: a.method,
      sealedCredentials: a.sealedCredentials,
      errorType: null,
      errorMessage: null,
      erroredAt: null,
      updatedAt: now,
    };
    const [row] = await tx
      .insert(providerConnections)
      .values({ userId: a.userId, provider: a.provider, createdAt: now, ...fields })
      .onConflictDoUpdate({ target: [providerConnections.userId, providerConnections.provider], set: fields })
      .returning({ id: providerConnections.id });
    if (a.linkTokenId) {
      await tx
        .update(linkTokens)
        .set({ consumedAt: sql`coalesce(${linkTokens.consumedAt}, ${now.toISOString()}::timestamptz)` })
        .where(and(eq(linkTokens.id, a.linkTokenId), eq(linkTokens.teamId, a.teamId)));
    }
    const provider = providerDisplay(a.provider);
    const endpoints = await recordTeamEvent(tx, {
      id: a.eventId,
      teamId: a.teamId,
      eventType: 'provider.connection.created',
      userId: a.userId,
      clientUserId: user.clientUserId,
      subjectId: row!.id,
      createdAt: now,
      data: {
        user_id: a.userId,
        provider,
        source: provider,
        external_user_id: a.externalUserId,
        resource_availability: resourceAvailability(a.provider),
      },
    });
    return { connectionId: row!.id, endpoints };
  });
}

export interface LinkFailure extends Subject {
  errorType: LinkErrorType;
  message: string;
  eventId: string;
}

/**
 * A link attempt failed at the provider: an existing connection of the user to it is marked `error`,
 * and `provider.connection.error` goes to the event log, in one transaction.
 */
export async function recordLinkFailure(db: DbOrTx, f: LinkFailure, now: Date): Promise<string[]> {
  return db.transaction(async (tx) => {
    const user = await teamUser(tx, f.teamId, f.userId);
    if (!user) return [];
    const errorType = connectionErrorType(f.errorType);
    await tx
      .update(providerConnections)
      .set({ status: 'error', errorType, errorMessage: f.message, erroredAt: now, updatedAt: now })
      .where(and(eq(providerConnections.userId, f.userId), eq(providerConnections.provider, f.provider)));
    return recordTeamEvent(tx, {
      id: f.eventId,
      teamId: f.teamId,
      eventType: 'provider.connection.error',
      userId: f.userId,
      clientUserId: user.clientUserId,
      createdAt: now,
      data: { provider: f.provider, user_id: f.userId, message: f.message, error_type: errorType, error_details: f.message },
    });
  });
}

/** The user's connections (the user must be the team's), oldest first. */
export async function connectionsOfUser(db: DbOrTx, teamId: string, userId: string): Promise<ConnectionRow[]> {
  const rows = await db
    .select({ connection: providerConnections })
    .from(providerConnections)
    .innerJoin(users, eq(users.id, providerConnections.userId))
    .where(and(eq(users.teamId, teamId), eq(providerConnections.userId, userId)))
    .orderBy(asc(providerConnections.createdAt));
  return rows.map((r) => r.connection);
}

/** Removes the user's connection to a provider; its id, or null when there was none. */
export async function deleteConnection(db: DbOrTx, teamId: string, userId: string, provider: string): Promise<string | null> {
  const [row] = await db
    .delete(providerConnections)
    .where(
      and(
        eq(providerConnections.userId, userId),
        eq(providerConnections.provider, provider),
        sql`exists (select 1 from ${users} where ${users.id} = ${providerConnections.userId} and ${users.teamId} = ${teamId})`,
      ),
    )
    .returning({ id: providerConnections.id });
  return row?.id ?? null;
}

/** Counts for `GET /v2/user/metrics`: live users of the team and their connections by status. */
export async function teamConnectionMetrics(db: DbOrTx, teamId: string): Promise<{ users: number; connected: number; errored: number }> {
  const [row] = await db
    .select({
      users: sql<number>`count(distinct ${users.id})::int`,
      connected: sql<number>`count(${providerConnections.id}) filter (where ${providerConnections.status} = 'connected')::int`,
      errored: sql<number>`count(${providerConnections.id}) filter (where ${providerConnections.status} = 'error')::int`,
    })
    .from(users)
    .leftJoin(providerConnections, eq(providerConnections.userId, users.id))
    .where(and(eq(users.teamId, teamId), sql`${users.deletedAt} is null`));
  return row ?? { users: 0, connected: 0, errored: 0 };
}
