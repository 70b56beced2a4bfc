/**
 * Seeds the shared lab catalogue (catalog-data.ts) into Postgres: idempotent, keyed by business keys
 * (lab slug, (lab, provider id), LOINC code, marker result slug within its marker, lab test slug), and
 * writing only what differs, so a second run changes nothing. One transaction under an advisory lock:
 * two processes seeding at once take turns, and a reader never sees half a catalogue.
 *
 * Rows the data no longer names are left alone where something may refer to them (markers, used by
 * teams' own tests; lab tests, used by orders); a marker's expected results and a catalogue test's
 * marker list are made to match the data exactly.
 */
import { and, eq, inArray, isNull, sql } from 'drizzle-orm';
import type { Db, DbOrTx } from '../client.js';
import { labTestMarkers, labTests, labs, loincCodes, markerResults, markers } from '../schema/index.js';
import { CATALOG_LAB_TESTS, CATALOG_LABS, CATALOG_MARKERS, catalogLabTestId } from './catalog-data.js';
import { LOINC } from './loinc-codes.js';

/** Advisory lock key of catalogue seeding (any constant; the migration lock is 727274). */
const CATALOG_SEED_LOCK = 727275;

export interface SeedCounts {
  inserted: number;
  updated: number;
  deleted: number;
}

export type SeedSummary = Record<'labs' | 'loincCodes' | 'markers' | 'markerResults' | 'labTests' | 'labTestMarkers', SeedCounts>;

const zero = (): SeedCounts => ({ inserted: 0, updated: 0, deleted: 0 });

/** JSON with object keys sorted: jsonb gives keys back in its own order, so compare this. */
const canonical = (v: unknown): string =>
  JSON.stringify(v, (_k, x: unknown) =>
    x && typeof x === 'object' && !Array.isArray(x) ? Object.fromEntries(Object.entries(x).sort(([a], [b]) => (a < b ? -1 : 1))) : x,
  );

/** True when `row` already holds every value of `want` (arrays and objects compared by content). */
function same<T extends object>(row: T, want: Partial<T>): boolean {
  return Object.entries(want).every(([k, v]) => {
    const have = (row as Record<string, unknown>)[k];
    return v !== null && typeof v === 'object' ? canonical(have) === canonical(v) : have === v;
  });
}

export async function seedCatalog(db: Db, log: (msg: string) => void = () => {}): Promise<SeedSummary> {
  const summary = await db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(${CATALOG_SEED_LOCK})`);
    const s: SeedSummary = { labs: zero(), loincCodes: zero(), markers: zero(), markerResults: zero(), labTests: zero(), labTestMarkers: zero() };
    const labIds = await seedLabs(tx, s.labs);
    const loincIds = await seedLoinc(tx, s.loincCodes);
    const markerIds = await seedMarkers(tx, labIds, s.markers);
    await seedMarkerResults(tx, labIds, markerIds, loincIds, s.markerResults);
    await seedLabTests(tx, labIds, markerIds, s.labTests, s.labTestMarkers);
    return s;
  });
  const changes = Object.entries(summary)
    .filter(([, c]) => c.inserted + c.updated + c.deleted > 0)
    .map(([table, c]) => `${table} +${c.inserted} ~${c.updated} -${c.deleted}`);
  log(
    `lab catalogue: ${CATALOG_LABS.length} labs, ${CATALOG_MARKERS.length} markers, ${CATALOG_LAB_TESTS.length} lab tests; ` +
      (changes.length ? `changed ${changes.join(', ')}` : 'already up to date'),
  );
  return summary;
}

async function seedLabs(tx: DbOrTx, counts: SeedCounts): Promise<Map<string, number>> {
  const existing = await tx.select().from(labs).where(inArray(labs.slug, CATALOG_LABS.map((l) => l.slug)));
  const bySlug = new Map(existing.map((l) => [l.slug, l]));
  const ids = new Map(existing.map((l) => [l.slug, l.id]));
  for (const lab of CATALOG_LABS) {
    const row = bySlug.get(lab.slug);
    if (!row) {
      const [created] = await tx.insert(labs).values(lab).returning({ id: labs.id });
      ids.set(lab.slug, created!.id);
      counts.inserted++;
    } else if (!same(row, lab)) {
      await tx.update(labs).set(lab).where(eq(labs.id, row.id));
      counts.updated++;
    }
  }
  return ids;
}

async function seedLoinc(tx: DbOrTx, counts: SeedCounts): Promise<Map<string, number>> {
  const wanted = Object.entries(LOINC).map(([slug, f]) => ({ code: f.code, name: f.name, slug, unit: f.unit }));
  const existing = await tx.select().from(loincCodes).where(inArray(loincCodes.code, wanted.map((w) => w.code)));
  const byCode = new Map(existing.map((r) => [r.code, r]));
  const missing = wanted.filter((w) => !byCode.has(w.code));
  if (missing.length > 0) {
    // ON CONFLICT: a test fixture may have added the same code meanwhile; ours then wins below.
    const created = await tx.insert(loincCodes).values(missing).onConflictDoNothing().returning();
    for (const r of created) byCode.set(r.code, r);
    counts.inserted += created.length;
  }
  for (const w of wanted) {
    const row = byCode.get(w.code);
    if (row && !same(row, w)) {
      await tx.update(loincCodes).set(w).where(eq(loincCodes.id, row.id));
      counts.updated++;
    }
  }
  if (byCode.size < wanted.length) {
    for (const r of await tx.select().from(loincCodes).where(inArray(loincCodes.code, wanted.map((w) => w.code)))) byCode.set(r.code, r);
  }
  return new Map([...byCode.values()].map((r) => [r.code, r.id]));
}

const markerKey = (labId: number, providerId: string) => `${labId}|${providerId}`;

async function seedMarkers(tx: DbOrTx, labIds: Map<string, number>, counts: SeedCounts): Promise<Map<string, number>> {
  const existing = await tx.select().from(markers).where(inArray(markers.labId, [...labIds.values()]));
  const byKey = new Map(existing.map((m) => [markerKey(m.labId, m.providerId), m]));
  const ids = new Map<string, number>();
  const toInsert: (typeof markers.$inferInsert)[] = [];
  for (const m of CATALOG_MARKERS) {
    const labId = labIds.get(m.labSlug)!;
    const values = {
      labId,
      providerId: m.providerId,
      name: m.name,
      slug: m.slug,
      description: m.description,
      type: m.type,
      unit: m.unit,
      price: m.price,
      aLaCarteEnabled: m.aLaCarteEnabled,
      commonTatDays: m.commonTatDays,
      worstCaseTatDays: m.worstCaseTatDays,
      isOrderable: true,
      aoe: m.aoe,
    };
    const row = byKey.get(markerKey(labId, m.providerId));
    if (!row) toInsert.push(values);
    else {
      ids.set(markerKey(labId, m.providerId), row.id);
      if (!same(row, values)) {
        await tx.update(markers).set(values).where(eq(markers.id, row.id));
        counts.updated++;
      }
    }
  }
  if (toInsert.length > 0) {
    const created = await tx.insert(markers).values(toInsert).returning({ id: markers.id, labId: markers.labId, providerId: markers.providerId });
    for (const c of created) ids.set(markerKey(c.labId, c.providerId), c.id);
    counts.inserted += created.length;
  }
  return ids;
}

async function seedMarkerResults(
  tx: DbOrTx,
  labIds: Map<string, number>,
  markerIds: Map<string, number>,
  loincIds: Map<string, number>,
  counts: SeedCounts,
) {
  const existing = await tx.select().from(markerResults).where(inArray(markerResults.markerId, [...markerIds.values()]));
  const byMarker = new Map<number, (typeof existing)[number][]>();
  for (const r of existing) byMarker.set(r.markerId, [...(byMarker.get(r.markerId) ?? []), r]);
  const toInsert: (typeof markerResults.$inferInsert)[] = [];
  const keep = new Set<number>();
  for (const m of CATALOG_MARKERS) {
    const markerId = markerIds.get(markerKey(labIds.get(m.labSlug)!, m.providerId))!;
    const current = byMarker.get(markerId) ?? [];
    for (const r of m.results) {
      const values = { markerId, name: r.name, slug: r.slug, providerId: r.providerId, required: r.required, loincId: loincIds.get(r.loincCode)! };
      // Matched by slug, so a result keeps its id (ClientFacingResult.id) across seeds.
      const row = current.find((c) => c.slug === r.slug);
      if (!row) toInsert.push(values);
      else {
        keep.add(row.id);
        if (!same(row, values)) {
          await tx.update(markerResults).set(values).where(eq(markerResults.id, row.id));
          counts.updated++;
        }
      }
    }
  }
  const stale = existing.filter((r) => !keep.has(r.id)).map((r) => r.id);
  if (stale.length > 0) {
    await tx.delete(markerResults).where(inArray(markerResults.id, stale));
    counts.deleted += stale.length;
  }
  if (toInsert.length > 0) {
    await tx.insert(markerResults).values(toInsert);
    counts.inserted += toInsert.length;
  }
}

async function seedLabTests(tx: DbOrTx, labIds: Map<string, number>, markerIds: Map<string, number>, tests: SeedCounts, links: SeedCounts) {
  const ids = CATALOG_LAB_TESTS.map((t) => catalogLabTestId(t.slug));
  const existing = await tx.select().from(labTests).where(and(inArray(labTests.id, ids), isNull(labTests.teamId)));
  const byId = new Map(existing.map((t) => [t.id, t]));
  const base = Date.now();
  for (const [i, t] of CATALOG_LAB_TESTS.entries()) {
    const id = catalogLabTestId(t.slug);
    const labId = labIds.get(t.labSlug)!;
    const ms = CATALOG_MARKERS.filter((m) => m.labSlug === t.labSlug && t.markers.includes(m.providerId));
    const values = {
      slug: t.slug,
      name: t.name,
      description: t.description,
      sampleType: t.sampleType,
      method: t.method,
      price: t.price,
      status: 'active',
      fasting: t.fasting,
      labId,
      autoGenerated: false,
      hasCollectionInstructions: t.hasCollectionInstructions,
      commonTatDays: Math.max(...ms.map((m) => m.commonTatDays)),
      worstCaseTatDays: Math.max(...ms.map((m) => m.worstCaseTatDays)),
    };
    const row = byId.get(id);
    if (!row) {
      // created_at a millisecond apart keeps the catalogue in the data's order when listed by creation.
      const [created] = await tx
        .insert(labTests)
        .values({ ...values, id, teamId: null, createdAt: new Date(base + i), updatedAt: new Date(base + i) })
        .onConflictDoNothing()
        .returning({ id: labTests.id });
      if (!created) throw new Error(`lab catalogue: a global lab test with slug ${t.slug} exists under another id`);
      tests.inserted++;
    } else if (!same(row, values)) {
      await tx.update(labTests).set({ ...values, updatedAt: new Date() }).where(eq(labTests.id, id));
      tests.updated++;
    }
  }

  const current = await tx.select().from(labTestMarkers).where(inArray(labTestMarkers.labTestId, ids));
  const want = new Set<string>();
  const toInsert: (typeof labTestMarkers.$inferInsert)[] = [];
  const have = new Set(current.map((l) => `${l.labTestId}|${l.markerId}`));
  for (const t of CATALOG_LAB_TESTS) {
    const labTestId = catalogLabTestId(t.slug);
    for (const providerId of t.markers) {
      const markerId = markerIds.get(markerKey(labIds.get(t.labSlug)!, providerId));
      if (markerId === undefined) throw new Error(`lab catalogue: ${t.slug} names marker ${providerId}, which ${t.labSlug} does not offer`);
      const key = `${labTestId}|${markerId}`;
      want.add(key);
      if (!have.has(key)) toInsert.push({ labTestId, markerId });
    }
  }
  if (toInsert.length > 0) {
    await tx.insert(labTestMarkers).values(toInsert).onConflictDoNothing();
    links.inserted += toInsert.length;
  }
  for (const l of current.filter((l) => !want.has(`${l.labTestId}|${l.markerId}`))) {
    await tx.delete(labTestMarkers).where(and(eq(labTestMarkers.labTestId, l.labTestId), eq(labTestMarkers.markerId, l.markerId)));
    links.deleted++;
  }
}
