import { and, eq } from 'drizzle-orm';
import type { DbOrTx } from '../client.js';
import { linkTokens, teamLinkConfig } from '../schema/index.js';

export type LinkTokenRow = typeof linkTokens.$inferSelect;
export type NewLinkToken = typeof linkTokens.$inferInsert;

export async function insertLinkToken(db: DbOrTx, token: NewLinkToken): Promise<LinkTokenRow> {
  const [row] = await db.insert(linkTokens).values(token).returning();
  return row!;
}

/** The token (any team: the token itself is the credential) by the hash of what was presented. */
export async function findLinkToken(db: DbOrTx, tokenHash: string, kind: 'token' | 'code' | 'sign_in' = 'token'): Promise<LinkTokenRow | null> {
  const [row] = await db
    .select()
    .from(linkTokens)
    .where(and(eq(linkTokens.tokenHash, tokenHash), eq(linkTokens.kind, kind)));
  return row ?? null;
}

export interface LinkConfig {
  rejectDuplicateConnection: boolean;
}

export async function teamLinkSettings(db: DbOrTx, teamId: string): Promise<LinkConfig> {
  const [row] = await db.select().from(teamLinkConfig).where(eq(teamLinkConfig.teamId, teamId));
  return { rejectDuplicateConnection: row?.rejectDuplicateConnection ?? false };
}

/** Sets a team's link settings (operators; tests). */
export async function setTeamLinkSettings(db: DbOrTx, teamId: string, config: LinkConfig, now: Date): Promise<void> {
  await db
    .insert(teamLinkConfig)
    .values({ teamId, rejectDuplicateConnection: config.rejectDuplicateConnection, updatedAt: now })
    .onConflictDoUpdate({ target: teamLinkConfig.teamId, set: { rejectDuplicateConnection: config.rejectDuplicateConnection, updatedAt: now } });
}

