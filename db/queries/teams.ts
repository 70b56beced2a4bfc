import { and, asc, eq, isNull } from 'drizzle-orm';
import { mintApiKey } from '../../domain/api-keys.js';
import type { ServiceEnvironment, ServiceRegion } from '../../domain/environment.js';
import type { Db, DbOrTx } from '../client.js';
import { apiKeys, teams } from '../schema/index.js';

export interface CreatedTeam {
  teamId: string;
  apiKey: string;
}

/** Creates a team with one API key. The key text is returned once and only its hash is stored. */
export async function createTeam(
  db: Db,
  input: { name: string; environment: ServiceEnvironment; region: ServiceRegion },
): Promise<CreatedTeam> {
  return db.transaction(async (tx) => {
    const [team] = await tx.insert(teams).values(input).returning({ id: teams.id });
    if (!team) throw new Error('team insert returned nothing');
    const minted = mintApiKey(input.environment, input.region);
    await tx.insert(apiKeys).values({ teamId: team.id, keyHash: minted.hash, hint: minted.hint });
    return { teamId: team.id, apiKey: minted.key };
  });
}

export async function listTeams(db: DbOrTx) {
  return db.select().from(teams).orderBy(asc(teams.createdAt));
}

export async function countTeams(db: DbOrTx): Promise<number> {
  return (await db.$count(teams));
}

/** Revokes every live key of the team and issues a new one. Returns null when the team does not exist. */
export async function rotateTeamKey(db: Db, teamId: string): Promise<CreatedTeam | null> {
  return db.transaction(async (tx) => {
    const [team] = await tx.select().from(teams).where(eq(teams.id, teamId)).for('update');
    if (!team) return null;
    await tx
      .update(apiKeys)
      .set({ revokedAt: new Date() })
      .where(and(eq(apiKeys.teamId, teamId), isNull(apiKeys.revokedAt)));
    const minted = mintApiKey(team.environment, team.region);
    await tx.insert(apiKeys).values({ teamId, keyHash: minted.hash, hint: minted.hint });
    return { teamId, apiKey: minted.key };
  });
}

/** The team owning a live key with this hash, or null. */
export async function findTeamByKeyHash(db: DbOrTx, keyHash: string): Promise<{ teamId: string } | null> {
  const [row] = await db
    .select({ teamId: apiKeys.teamId })
    .from(apiKeys)
    .where(and(eq(apiKeys.keyHash, keyHash), isNull(apiKeys.revokedAt)))
    .limit(1);
  return row ?? null;
}
