import { randomBytes } from 'node:crypto';
import { and, desc, eq } from 'drizzle-orm';
import { PLATFORM_PAYORS, type Payor, type PayorAddress, type PayorProvider } from '../../domain/insurance/payors.js';
import type { DbOrTx } from '../client.js';
import { teamPayors, userInsurances } from '../schema/index.js';

export type UserInsuranceRow = typeof userInsurances.$inferSelect;

function toPayor(row: typeof teamPayors.$inferSelect): Payor {
  return {
    payorCode: row.payorCode,
    name: row.name,
    aliases: [],
    address: row.address,
    source: 'team',
    providerIds: row.provider && row.providerPayorId ? { [row.provider]: row.providerPayorId } : {},
  };
}

/** The platform payors and the team's own (never another team's). */
export async function listPayors(db: DbOrTx, teamId: string): Promise<Payor[]> {
  const own = await db.select().from(teamPayors).where(eq(teamPayors.teamId, teamId)).orderBy(teamPayors.createdAt);
  return [...PLATFORM_PAYORS, ...own.map(toPayor)];
}

export async function findPayor(db: DbOrTx, teamId: string, payorCode: string): Promise<Payor | null> {
  const platform = PLATFORM_PAYORS.find((p) => p.payorCode === payorCode);
  if (platform) return platform;
  const [row] = await db
    .select()
    .from(teamPayors)
    .where(and(eq(teamPayors.teamId, teamId), eq(teamPayors.payorCode, payorCode)))
    .limit(1);
  return row ? toPayor(row) : null;
}

/** A team's own payor; its code is `TEAM-` and 8 random hex digits. */
export async function createTeamPayor(
  db: DbOrTx,
  input: { teamId: string; name: string; address: PayorAddress; provider: PayorProvider | null; providerPayorId: string | null },
): Promise<Payor> {
  const [row] = await db
    .insert(teamPayors)
    .values({ ...input, payorCode: `TEAM-${randomBytes(4).toString('hex').toUpperCase()}` })
    .returning();
  return toPayor(row!);
}

export async function createUserInsurance(db: DbOrTx, input: typeof userInsurances.$inferInsert): Promise<UserInsuranceRow> {
  const [row] = await db.insert(userInsurances).values(input).returning();
  return row!;
}

/** The user's newest insurance (optionally only primary or only secondary ones). */
export async function latestUserInsurance(db: DbOrTx, teamId: string, userId: string, isPrimary?: boolean): Promise<UserInsuranceRow | null> {
  const where = [eq(userInsurances.teamId, teamId), eq(userInsurances.userId, userId)];
  if (isPrimary !== undefined) where.push(eq(userInsurances.isPrimary, isPrimary));
  const [row] = await db
    .select()
    .from(userInsurances)
    .where(and(...where))
    .orderBy(desc(userInsurances.createdAt), desc(userInsurances.id))
    .limit(1);
  return row ?? null;
}
