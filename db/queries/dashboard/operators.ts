import { createHash, randomBytes } from 'node:crypto';
import { and, desc, eq, gt, isNull, lt, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../client.js';
import { operatorAudit, operatorLoginFailures, operatorSessions, operators, type OperatorRole } from '../../schema/operators.js';

export type OperatorRow = typeof operators.$inferSelect;
export interface SessionOperator {
  id: string;
  email: string;
  role: OperatorRole;
  csrfToken: string;
}

export const sha256 = (value: string): string => createHash('sha256').update(value).digest('hex');

/** Creates an operator, or returns null when the email is taken. */
export async function insertOperator(db: DbOrTx, o: { email: string; passwordHash: string; role: OperatorRole }): Promise<OperatorRow | null> {
  const [row] = await db
    .insert(operators)
    .values({ email: o.email.trim().toLowerCase(), passwordHash: o.passwordHash, role: o.role })
    .onConflictDoNothing()
    .returning();
  return row ?? null;
}

export async function findOperatorByEmail(db: DbOrTx, email: string): Promise<OperatorRow | null> {
  const [row] = await db
    .select()
    .from(operators)
    .where(and(eq(operators.email, email.trim().toLowerCase()), isNull(operators.disabledAt)))
    .limit(1);
  return row ?? null;
}

/** Opens a session; returns the cookie token (only its hash is stored). */
export async function createSession(db: DbOrTx, operatorId: string, ttlSeconds: number): Promise<string> {
  const token = randomBytes(32).toString('base64url');
  await db.insert(operatorSessions).values({
    tokenHash: sha256(token),
    operatorId,
    csrfToken: randomBytes(32).toString('base64url'),
    expiresAt: new Date(Date.now() + ttlSeconds * 1000),
  });
  // Expired sessions of this operator go with each new login.
  await db.delete(operatorSessions).where(and(eq(operatorSessions.operatorId, operatorId), lt(operatorSessions.expiresAt, new Date())));
  return token;
}

export async function findSession(db: DbOrTx, token: string): Promise<SessionOperator | null> {
  const [row] = await db
    .select({ id: operators.id, email: operators.email, role: operators.role, csrfToken: operatorSessions.csrfToken })
    .from(operatorSessions)
    .innerJoin(operators, eq(operators.id, operatorSessions.operatorId))
    .where(and(eq(operatorSessions.tokenHash, sha256(token)), gt(operatorSessions.expiresAt, new Date()), isNull(operators.disabledAt)))
    .limit(1);
  return row ?? null;
}

export async function deleteSession(db: DbOrTx, token: string): Promise<void> {
  await db.delete(operatorSessions).where(eq(operatorSessions.tokenHash, sha256(token)));
}

/** Failed logins under each of `keys` within the window. */
export async function recentLoginFailures(db: DbOrTx, keys: string[], windowSeconds: number): Promise<Map<string, number>> {
  const since = new Date(Date.now() - windowSeconds * 1000);
  const rows = await db
    .select({ key: operatorLoginFailures.key, n: sql<number>`count(*)::int` })
    .from(operatorLoginFailures)
    .where(and(sql`${operatorLoginFailures.key} = any(${sql.param(keys)}::text[])`, gt(operatorLoginFailures.at, since)))
    .groupBy(operatorLoginFailures.key);
  return new Map(rows.map((r) => [r.key, r.n]));
}

export async function recordLoginFailure(db: DbOrTx, keys: string[]): Promise<void> {
  await db.insert(operatorLoginFailures).values(keys.map((key) => ({ key })));
  await db.delete(operatorLoginFailures).where(lt(operatorLoginFailures.at, new Date(Date.now() - 24 * 3600 * 1000)));
}

export interface AuditEntry {
  operator: { id: string | null; email: string };
  action: string;
  targetType?: string | undefined;
  targetId?: string | undefined;
  detail?: Record<string, unknown> | undefined;
}

export async function recordAudit(db: DbOrTx, e: AuditEntry): Promise<void> {
  await db.insert(operatorAudit).values({
    operatorId: e.operator.id,
    operatorEmail: e.operator.email,
    action: e.action,
    targetType: e.targetType ?? null,
    targetId: e.targetId ?? null,
    detail: e.detail ?? null,
  });
}

export async function listAudit(db: DbOrTx, f: { targetType?: string; targetId?: string; limit: number }) {
  const where = [];
  if (f.targetType) where.push(eq(operatorAudit.targetType, f.targetType));
  if (f.targetId) where.push(eq(operatorAudit.targetId, f.targetId));
  return db
    .select()
    .from(operatorAudit)
    .where(where.length ? and(...where) : undefined)
    .orderBy(desc(operatorAudit.at), desc(operatorAudit.id))
    .limit(f.limit);
}
