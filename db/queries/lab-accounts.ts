import { and, eq } from 'drizzle-orm';
import type { DbOrTx } from '../client.js';
import { labAccounts, labTests, teams } from '../schema/index.js';

export type LabAccountRow = typeof labAccounts.$inferSelect;

/** A team's account at a lab (made by `npm run admin -- create-lab-account`); null when there is no such team. */
export async function createLabAccount(
  db: DbOrTx,
  input: { teamId: string; labId: number; name: string; defaultComment: string | null },
): Promise<LabAccountRow | null> {
  const [team] = await db.select({ id: teams.id }).from(teams).where(eq(teams.id, input.teamId)).limit(1);
  if (!team) return null;
  const [row] = await db.insert(labAccounts).values(input).returning();
  return row!;
}

/** The team's lab account with this id; another team's account is not found. */
export async function findLabAccount(db: DbOrTx, teamId: string, id: string): Promise<LabAccountRow | null> {
  const [row] = await db
    .select()
    .from(labAccounts)
    .where(and(eq(labAccounts.teamId, teamId), eq(labAccounts.id, id)))
    .limit(1);
  return row ?? null;
}

/** The lab a lab test is performed at (null for a test without a lab). */
export async function labOfLabTest(db: DbOrTx, labTestId: string): Promise<number | null> {
  const [row] = await db.select({ labId: labTests.labId }).from(labTests).where(eq(labTests.id, labTestId)).limit(1);
  return row?.labId ?? null;
}
