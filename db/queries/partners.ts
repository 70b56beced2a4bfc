import { and, asc, eq, isNull, max } from 'drizzle-orm';
import { mintPartnerKey } from '../../domain/api-keys.js';
import type { ServiceEnvironment, ServiceRegion } from '../../domain/environment.js';
import type { DbOrTx } from '../client.js';
import { labTests, labs, orderEvents, orders, partnerKeys } from '../schema/index.js';

export const PARTNER_KINDS = ['courier', 'lab', 'operator'] as const;
export type PartnerKind = (typeof PARTNER_KINDS)[number];

/** Who is calling the partner API: set by the partner-auth middleware. */
export interface Partner {
  id: string;
  name: string;
  kind: PartnerKind;
  /** Lab keys only: the lab whose orders the key may report for. */
  labId: number | null;
}

export type PartnerKeyRow = typeof partnerKeys.$inferSelect;

/** Creates a partner key. The key text is returned once; only its hash is stored. */
export async function createPartnerKey(
  db: DbOrTx,
  input: { name: string; kind: PartnerKind; labId: number | null; environment: ServiceEnvironment; region: ServiceRegion },
): Promise<{ partnerKeyId: string; apiKey: string }> {
  if ((input.kind === 'lab') !== (input.labId !== null)) throw new Error('a lab key needs a lab, and only a lab key has one');
  const minted = mintPartnerKey(input.environment, input.region);
  const [row] = await db
    .insert(partnerKeys)
    .values({ name: input.name, kind: input.kind, labId: input.labId, keyHash: minted.hash, hint: minted.hint })
    .returning({ id: partnerKeys.id });
  if (!row) throw new Error('partner key insert returned nothing');
  return { partnerKeyId: row.id, apiKey: minted.key };
}

/** The partner owning a live (not revoked) key with this hash, or null. */
export async function findPartnerByKeyHash(db: DbOrTx, keyHash: string): Promise<Partner | null> {
  const [row] = await db
    .select({ id: partnerKeys.id, name: partnerKeys.name, kind: partnerKeys.kind, labId: partnerKeys.labId })
    .from(partnerKeys)
    .where(and(eq(partnerKeys.keyHash, keyHash), isNull(partnerKeys.revokedAt)))
    .limit(1);
  return row ?? null;
}

/** Every partner key, revoked ones included, with its lab's slug (never the hash). */
export async function listPartnerKeys(db: DbOrTx) {
  return db
    .select({
      id: partnerKeys.id,
      name: partnerKeys.name,
      kind: partnerKeys.kind,
      labSlug: labs.slug,
      hint: partnerKeys.hint,
      createdAt: partnerKeys.createdAt,
      revokedAt: partnerKeys.revokedAt,
    })
    .from(partnerKeys)
    .leftJoin(labs, eq(labs.id, partnerKeys.labId))
    .orderBy(asc(partnerKeys.createdAt), asc(partnerKeys.id));
}

/** Revokes a key; idempotent. Returns false when no key has this id. */
export async function revokePartnerKey(db: DbOrTx, id: string): Promise<boolean> {
  const [row] = await db.select({ revokedAt: partnerKeys.revokedAt }).from(partnerKeys).where(eq(partnerKeys.id, id)).limit(1);
  if (!row) return false;
  if (!row.revokedAt) await db.update(partnerKeys).set({ revokedAt: new Date() }).where(eq(partnerKeys.id, id));
  return true;
}

export async function findLabBySlug(db: DbOrTx, slug: string): Promise<{ id: number; slug: string } | null> {
  const [row] = await db.select({ id: labs.id, slug: labs.slug }).from(labs).where(eq(labs.slug, slug)).limit(1);
  return row ?? null;
}

/** What the partner API needs of an order: no patient or team data beyond the ids. */
export interface PartnerOrderRef {
  id: string;
  method: string;
  lowLevelStatus: string;
  workflowId: string;
  labId: number | null;
}

/**
 * Finds an order by its id or by the sample id printed on its kit, across teams (partners serve
 * every team). Callers must check the partner may see it (a lab key: only its lab's orders).
 */
export async function findOrderForPartner(db: DbOrTx, by: { orderId: string } | { sampleId: string }): Promise<PartnerOrderRef | null> {
  const [row] = await db
    .select({
      id: orders.id,
      method: orders.method,
      lowLevelStatus: orders.lowLevelStatus,
      workflowId: orders.workflowId,
      labId: labTests.labId,
    })
    .from(orders)
    .innerJoin(labTests, eq(labTests.id, orders.labTestId))
    .where('orderId' in by ? eq(orders.id, by.orderId) : eq(orders.sampleId, by.sampleId))
    .limit(1);
  return row ?? null;
}

/** The order's low-level status and last event id in the read model (its workflow keeps them current). */
export async function orderProgress(db: DbOrTx, orderId: string): Promise<{ low: string; lastEventId: number } | null> {
  const [row] = await db
    .select({ low: orders.lowLevelStatus, lastEventId: max(orderEvents.id) })
    .from(orders)
    .leftJoin(orderEvents, eq(orderEvents.orderId, orders.id))
    .where(eq(orders.id, orderId))
    .groupBy(orders.id);
  return row ? { low: row.low, lastEventId: row.lastEventId ?? 0 } : null;
}
