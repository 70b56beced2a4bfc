import { and, eq, inArray } from 'drizzle-orm';
import { platformAccount, platformAccountId } from '../../domain/lab-accounts/platform.js';
import { chooseLabAccount, type Purpose, type Resolution } from '../../domain/lab-accounts/resolution.js';
import type { AllowedBilling, DelegatedFlow, LabAccount, LabAccountStatus } from '../../domain/lab-accounts/types.js';
import type { DbOrTx } from '../client.js';
import { labAccounts, labTests, labs, teams } from '../schema/index.js';

export type LabAccountRow = typeof labAccounts.$inferSelect;

export interface NewLabAccount {
  teamId: string;
  labId: number;
  name: string;
  defaultComment: string | null;
  status?: LabAccountStatus;
  delegatedFlow?: DelegatedFlow;
  delegatedAt?: Date | null;
  allowedBilling?: AllowedBilling;
  providerAccountId?: string | null;
  businessUnits?: string[] | null;
}

/** A team's account at a lab (made by `npm run admin -- create-lab-account`); null when there is no such team. */
export async function createLabAccount(db: DbOrTx, input: NewLabAccount): Promise<LabAccountRow | null> {
  const [team] = await db.select({ id: teams.id }).from(teams).where(eq(teams.id, input.teamId)).limit(1);
  if (!team) return null;
  const [row] = await db.insert(labAccounts).values(input).returning();
  return row!;
}

export function toLabAccount(row: LabAccountRow): LabAccount {
  return {
    id: row.id,
    teamId: row.teamId,
    labId: row.labId,
    name: row.name,
    status: row.status,
    delegatedFlow: row.delegatedFlow,
    delegatedAt: row.delegatedAt ?? row.createdAt,
    allowedBilling: row.allowedBilling,
    defaultComment: row.defaultComment,
    providerAccountId: row.providerAccountId ?? `ACC-${row.id.slice(0, 8).toUpperCase()}`,
    businessUnits: row.businessUnits ?? null,
    createdAt: row.createdAt,
  };
}

/** The platform accounts of every lab (or of the labs given), by lab id. */
export async function platformAccounts(db: DbOrTx, labIds?: number[]): Promise<Map<number, LabAccount>> {
  const rows = await (labIds ? db.select().from(labs).where(inArray(labs.id, labIds)) : db.select().from(labs));
  return new Map(rows.map((lab) => [lab.id, platformAccount(lab)]));
}

async function teamAccounts(db: DbOrTx, teamId: string, labId?: number): Promise<LabAccount[]> {
  const where = labId === undefined ? eq(labAccounts.teamId, teamId) : and(eq(labAccounts.teamId, teamId), eq(labAccounts.labId, labId));
  const rows = await db.select().from(labAccounts).where(where).orderBy(labAccounts.createdAt, labAccounts.id);
  return rows.map(toLabAccount);
}

/**
 * The team's lab account with this id, or the platform account with this id; another team's account
 * is not found.
 */
export async function findLabAccount(db: DbOrTx, teamId: string, id: string): Promise<LabAccount | null> {
  const [row] = await db
    .select()
    .from(labAccounts)
    .where(and(eq(labAccounts.teamId, teamId), eq(labAccounts.id, id)))
    .limit(1);
  if (row) return toLabAccount(row);
  const platform = [...(await platformAccounts(db)).values()].find((a) => a.id === id);
  return platform ?? null;
}

/**
 * The accounts a team can order with (GET /v3/lab_test/lab_account): its own, and the platform account
 * of each lab where it has none of its own (the one resolution falls back to).
 */
export async function listLabAccounts(
  db: DbOrTx,
  teamId: string,
  filter: { labAccountId?: string | undefined; status?: LabAccountStatus[] | undefined; labId?: number | undefined } = {},
): Promise<LabAccount[]> {
  const own = await teamAccounts(db, teamId);
  const withOwn = new Set(own.map((a) => a.labId));
  const platform = [...(await platformAccounts(db)).values()].filter((a) => !withOwn.has(a.labId));
  return [...own, ...platform].filter(
    (a) =>
      (!filter.labAccountId || a.id === filter.labAccountId) &&
      (!filter.status || filter.status.length === 0 || filter.status.includes(a.status)) &&
      (filter.labId === undefined || a.labId === filter.labId),
  );
}

/**
 * The lab account an order at `labId` uses (BEHAVIOUR §6; domain/lab-accounts/resolution.ts): the
 * `lab_account_id` given, checked, or the one resolved when it is omitted. `purpose: 'import'` also
 * accepts `pending` accounts. Never throws for a refusal: the caller maps `{ok: false}` to its answer.
 */
export async function resolveLabAccount(
  db: DbOrTx,
  teamId: string,
  labId: number,
  opts: { labAccountId?: string | null | undefined; purpose?: Purpose } = {},
): Promise<Resolution> {
  const [own, platform] = await Promise.all([teamAccounts(db, teamId), platformAccounts(db, [labId])]);
  return chooseLabAccount({ labId, teamAccounts: own, platform: platform.get(labId) ?? null, requestedId: opts.labAccountId, purpose: opts.purpose ?? 'order' });
}

/** The lab a lab test is performed at (null for a test without a lab). */
export async function labOfLabTest(db: DbOrTx, labTestId: string): Promise<number | null> {
  const [row] = await db.select({ labId: labTests.labId }).from(labTests).where(eq(labTests.id, labTestId)).limit(1);
  return row?.labId ?? null;
}

export { platformAccountId };
