/**
 * The lab catalogue (CONTRACT §3): labs, markers with their LOINC-coded expected results, and lab
 * tests. Labs and markers are shared by every team; lab tests are the shared catalogue (team_id null)
 * plus each team's own, and a team never sees another team's tests.
 */
import { randomUUID } from 'node:crypto';
import { and, asc, count, desc, eq, ilike, inArray, isNull, or, sql, type SQL } from 'drizzle-orm';
import type { CollectionMethod } from '../../domain/orders/status.js';
import type { DbOrTx } from '../client.js';
import { labTestMarkers, labTests, labs, loincCodes, markerResults, markers } from '../schema/index.js';
import { toClientFacingMarker } from './lab-test-view.js';

/** LabTestSampleType, LabTestStatus, MarkerType (CONTRACT §3), in SDK order. */
export const LAB_TEST_SAMPLE_TYPES = ['dried_blood_spot', 'arm_collector', 'serum', 'saliva', 'urine'] as const;
export type LabTestSampleType = (typeof LAB_TEST_SAMPLE_TYPES)[number];
export const LAB_TEST_STATUSES = ['active', 'pending_approval', 'inactive'] as const;
export type LabTestStatus = (typeof LAB_TEST_STATUSES)[number];

export type LabRow = typeof labs.$inferSelect;
export type MarkerRow = typeof markers.$inferSelect;
export type LabTestRow = typeof labTests.$inferSelect;

const visibleTo = (teamId: string) => or(isNull(labTests.teamId), eq(labTests.teamId, teamId))!;

function escapeLike(s: string): string {
  return s.replace(/[\\%_]/g, (ch) => `\\${ch}`);
}

// ---- labs ------------------------------------------------------------------------------------------

export async function listLabs(db: DbOrTx): Promise<LabRow[]> {
  return db.select().from(labs).orderBy(asc(labs.id));
}

export async function findLab(db: DbOrTx, id: number): Promise<LabRow | null> {
  const [row] = await db.select().from(labs).where(eq(labs.id, id)).limit(1);
  return row ?? null;
}

// ---- markers ---------------------------------------------------------------------------------------

/** ClientFacingResult (CONTRACT §3): what a marker yields, with its LOINC code. */
export interface ClientFacingResult {
  id: number;
  name: string;
  slug: string;
  lab_id: number;
  provider_id: string | null;
  required: boolean;
  loinc: { id: number; name: string; slug: string; code: string; unit: string | null } | null;
}

/** The expected results of each marker, by marker id (in the lab's reporting order). */
export async function expectedResultsOf(db: DbOrTx, rows: MarkerRow[]): Promise<Map<number, ClientFacingResult[]>> {
  const out = new Map<number, ClientFacingResult[]>(rows.map((m) => [m.id, []]));
  if (rows.length === 0) return out;
  const labOf = new Map(rows.map((m) => [m.id, m.labId]));
  const found = await db
    .select({ result: markerResults, loinc: loincCodes })
    .from(markerResults)
    .leftJoin(loincCodes, eq(loincCodes.id, markerResults.loincId))
    .where(inArray(markerResults.markerId, [...out.keys()]))
    .orderBy(asc(markerResults.markerId), asc(markerResults.id));
  for (const { result, loinc } of found) {
    out.get(result.markerId)!.push({
      id: result.id,
      name: result.name,
      slug: result.slug,
      lab_id: labOf.get(result.markerId)!,
      provider_id: result.providerId,
      required: result.required,
      loinc: loinc ? { id: loinc.id, name: loinc.name, slug: loinc.slug, code: loinc.code, unit: loinc.unit } : null,
    });
  }
  return out;
}

/** ClientFacingMarkerComplete: the marker with its expected results. */
export async function completeMarkers(db: DbOrTx, rows: MarkerRow[]) {
  const results = await expectedResultsOf(db, rows);
  return rows.map((m) => ({ ...toClientFacingMarker(m), expected_results: results.get(m.id) ?? [] }));
}

export interface Page {
  page: number;
  size: number;
}

/** GetMarkersResponse around one page of markers. */
export async function markersPage(db: DbOrTx, rows: MarkerRow[], total: number, { page, size }: Page) {
  return { markers: await completeMarkers(db, rows), total, page, size, pages: Math.ceil(total / size) };
}

export interface MarkerFilter {
  labIds?: number[];
  labSlug?: string;
  /** Name or provider id (the lab's test code), case-insensitive substring. */
  name?: string;
  aLaCarteEnabled?: boolean;
}

export async function listMarkers(db: DbOrTx, f: MarkerFilter, { page, size }: Page) {
  const where: SQL[] = [];
  if (f.labIds?.length) where.push(inArray(markers.labId, f.labIds));
  if (f.labSlug !== undefined) where.push(inArray(markers.labId, db.select({ id: labs.id }).from(labs).where(eq(labs.slug, f.labSlug))));
  if (f.name) {
    const term = `%${escapeLike(f.name)}%`;
    where.push(or(ilike(markers.name, term), ilike(markers.providerId, term))!);
  }
  if (f.aLaCarteEnabled !== undefined) where.push(eq(markers.aLaCarteEnabled, f.aLaCarteEnabled));
  const cond = and(...where);
  const [rows, [totalRow]] = await Promise.all([
    db
      .select()
      .from(markers)
      .where(cond)
      .orderBy(asc(markers.labId), asc(markers.name), asc(markers.id))
      .limit(size)
      .offset((page - 1) * size),
    db.select({ n: count() }).from(markers).where(cond),
  ]);
  return { rows, total: totalRow?.n ?? 0 };
}

export async function findMarkerByProviderId(db: DbOrTx, labId: number, providerId: string): Promise<MarkerRow | null> {
  const [row] = await db
    .select()
    .from(markers)
    .where(and(eq(markers.labId, labId), eq(markers.providerId, providerId)))
    .limit(1);
  return row ?? null;
}

export async function findMarkersByIds(db: DbOrTx, ids: number[]): Promise<MarkerRow[]> {
  if (ids.length === 0) return [];
  return db.select().from(markers).where(inArray(markers.id, ids));
}

/** Markers with these provider ids, at one lab when `labId` is given (else at any lab). */
export async function findMarkersByProviderIds(db: DbOrTx, providerIds: string[], labId?: number): Promise<MarkerRow[]> {
  if (providerIds.length === 0) return [];
  const where = [inArray(markers.providerId, providerIds)];
  if (labId !== undefined) where.push(eq(markers.labId, labId));
  return db.select().from(markers).where(and(...where));
}

/** The markers of lab tests, by lab test id, each list in marker id order. */
export async function markersOfLabTests(db: DbOrTx, labTestIds: string[]): Promise<Map<string, MarkerRow[]>> {
  const out = new Map<string, MarkerRow[]>(labTestIds.map((id) => [id, []]));
  if (labTestIds.length === 0) return out;
  const links = await db
    .select({ labTestId: labTestMarkers.labTestId, marker: markers })
    .from(labTestMarkers)
    .innerJoin(markers, eq(markers.id, labTestMarkers.markerId))
    .where(inArray(labTestMarkers.labTestId, labTestIds))
    .orderBy(asc(markers.id));
  for (const l of links) out.get(l.labTestId)?.push(l.marker);
  return out;
}

// ---- lab tests -------------------------------------------------------------------------------------

/** A lab test the team may see (the shared catalogue or its own), or null. */
export async function findVisibleLabTestRow(db: DbOrTx, teamId: string, id: string): Promise<LabTestRow | null> {
  const [row] = await db
    .select()
    .from(labTests)
    .where(and(eq(labTests.id, id), visibleTo(teamId)))
    .limit(1);
  return row ?? null;
}

/** Visible lab tests among `ids`, by id (unknown and other teams' ids are absent). */
export async function findVisibleLabTestRows(db: DbOrTx, teamId: string, ids: string[]): Promise<Map<string, LabTestRow>> {
  if (ids.length === 0) return new Map();
  const rows = await db
    .select()
    .from(labTests)
    .where(and(inArray(labTests.id, ids), visibleTo(teamId)));
  return new Map(rows.map((r) => [r.id, r]));
}

export interface LabTestFilter {
  generationMethod?: 'auto' | 'manual' | 'all';
  labSlug?: string;
  collectionMethod?: CollectionMethod;
  status?: LabTestStatus;
  /** Tests containing every one of these markers. */
  markerIds?: number[];
  /** Tests containing a marker with each of these provider ids. */
  providerIds?: string[];
  name?: string;
}

export type LabTestOrderKey = 'price' | 'created_at' | 'updated_at';

export interface LabTestOrder {
  key: LabTestOrderKey;
  direction: 'asc' | 'desc';
}

/** Keyset position after the last row of a page: the order column as Postgres prints it, and the id. */
export interface LabTestCursor {
  key: LabTestOrderKey;
  direction: 'asc' | 'desc';
  value: string;
  id: string;
}

export function encodeCursor(c: LabTestCursor): string {
  return Buffer.from(JSON.stringify([c.key, c.direction, c.value, c.id])).toString('base64url');
}

/** A timestamp as Postgres prints it whose fields are in range (JS would roll 2024-02-30 over; compare back). */
function plausibleTimestamp(value: string): boolean {
  const [date = '', time = ''] = value.split(' ');
  const year = Number(date.slice(0, 4));
  const d = new Date(`${date}T00:00:00Z`);
  if (Number.isNaN(d.getTime()) || d.toISOString().slice(0, 10) !== date || year < 1900 || year > 2200) return false;
  const [h, m, sec] = time.slice(0, 8).split(':').map(Number);
  const offset = Number(time.slice(time.search(/[+-]/) + 1, time.search(/[+-]/) + 3));
  return h! <= 23 && m! <= 59 && sec! <= 59 && offset <= 15;
}

/** The cursor in `text`, or null when it is not one this service made. */
export function decodeCursor(text: string): LabTestCursor | null {
  try {
    const v: unknown = JSON.parse(Buffer.from(text, 'base64url').toString('utf8'));
    if (!Array.isArray(v) || v.length !== 4 || !v.every((x) => typeof x === 'string')) return null;
    const [key, direction, value, id] = v as string[];
    if (key !== 'price' && key !== 'created_at' && key !== 'updated_at') return null;
    if (direction !== 'asc' && direction !== 'desc') return null;
    if (!/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(id!)) return null;
    // The value goes back to Postgres as a parameter cast to the column's type: check it parses.
    if (!(key === 'price' ? /^-?\d+(\.\d+)?$/ : /^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d(\.\d+)?[+-]\d\d(:\d\d)?$/).test(value!)) return null;
    // …and fits it: a real instant of 1900..2200 (Postgres refuses hour 25 or year 0), a price of at most 24 characters.
    if (key === 'price' ? value!.length > 24 : !plausibleTimestamp(value!)) return null;
    return { key, direction, value: value!, id: id! };
  } catch {
    return null;
  }
}

const ORDER_COLUMNS = { price: labTests.price, created_at: labTests.createdAt, updated_at: labTests.updatedAt } as const;
const CAST = { price: sql`numeric`, created_at: sql`timestamptz`, updated_at: sql`timestamptz` } as const;

function labTestConditions(db: DbOrTx, teamId: string, f: LabTestFilter): SQL[] {
  const where: SQL[] = [visibleTo(teamId)];
  if (f.generationMethod === 'auto') where.push(eq(labTests.autoGenerated, true));
  if (f.generationMethod === 'manual') where.push(eq(labTests.autoGenerated, false));
  if (f.labSlug !== undefined) where.push(inArray(labTests.labId, db.select({ id: labs.id }).from(labs).where(eq(labs.slug, f.labSlug))));
  if (f.collectionMethod) where.push(eq(labTests.method, f.collectionMethod));
  if (f.status) where.push(eq(labTests.status, f.status));
  if (f.name) where.push(ilike(labTests.name, `%${escapeLike(f.name)}%`));
  const markerIds = [...new Set(f.markerIds ?? [])];
  if (markerIds.length > 0) {
    where.push(
      inArray(
        labTests.id,
        db
          .select({ id: labTestMarkers.labTestId })
          .from(labTestMarkers)
          .where(inArray(labTestMarkers.markerId, markerIds))
          .groupBy(labTestMarkers.labTestId)
          .having(sql`count(distinct ${labTestMarkers.markerId}) = ${markerIds.length}`),
      ),
    );
  }
  const providerIds = [...new Set(f.providerIds ?? [])];
  if (providerIds.length > 0) {
    where.push(
      inArray(
        labTests.id,
        db
          .select({ id: labTestMarkers.labTestId })
          .from(labTestMarkers)
          .innerJoin(markers, eq(markers.id, labTestMarkers.markerId))
          .where(inArray(markers.providerId, providerIds))
          .groupBy(labTestMarkers.labTestId)
          .having(sql`count(distinct ${markers.providerId}) = ${providerIds.length}`),
      ),
    );
  }
  return where;
}

/**
 * Ids of the visible lab tests matching `f`, in `order` (ties broken by id). With `limit`, one page
 * after `after`, and the cursor of the next page when there is one.
 */
export async function listLabTestIds(
  db: DbOrTx,
  teamId: string,
  f: LabTestFilter,
  order: LabTestOrder,
  page?: { limit: number; after: LabTestCursor | null },
): Promise<{ ids: string[]; next: LabTestCursor | null }> {
  const col = ORDER_COLUMNS[order.key];
  const dir = order.direction === 'asc' ? asc : desc;
  const where = labTestConditions(db, teamId, f);
  if (page?.after) {
    // Row comparison: (col, id) strictly after the cursor's position in this direction.
    const cmp = order.direction === 'asc' ? sql`>` : sql`<`;
    where.push(sql`(${col}, ${labTests.id}) ${cmp} (${page.after.value}::${CAST[order.key]}, ${page.after.id}::uuid)`);
  }
  const query = db
    .select({ id: labTests.id, position: sql<string>`${col}::text` })
    .from(labTests)
    .where(and(...where))
    .orderBy(dir(col), dir(labTests.id));
  const rows = page ? await query.limit(page.limit + 1) : await query;
  if (!page || rows.length <= page.limit) return { ids: rows.map((r) => r.id), next: null };
  const shown = rows.slice(0, page.limit);
  const last = shown[shown.length - 1]!;
  return { ids: shown.map((r) => r.id), next: { key: order.key, direction: order.direction, value: last.position, id: last.id } };
}

export interface NewTeamLabTest {
  teamId: string;
  name: string;
  description: string;
  method: CollectionMethod;
  sampleType: LabTestSampleType;
  fasting: boolean;
  labId: number;
  markers: MarkerRow[];
}

export function slugify(name: string): string {
  return (
    name
      .normalize('NFKD')
      .replace(/[\u0300-\u036f]/g, '')
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-+|-+$/g, '')
      .slice(0, 80) || 'lab-test'
  );
}

/**
 * A team's own lab test from markers of one lab: price is the sum of the markers' prices, turnaround
 * the slowest marker's. Its slug comes from the name (suffixed with the id if the team has it already).
 */
export async function createTeamLabTest(db: DbOrTx, input: NewTeamLabTest): Promise<string> {
  const price = input.markers.reduce((sum, m) => sum + (m.price ? Number(m.price) : 0), 0);
  const maxOf = (xs: (number | null)[]) => (xs.some((x) => x !== null) ? Math.max(...xs.filter((x): x is number => x !== null)) : null);
  return db.transaction(async (tx) => {
    const id = randomUUID();
    const base = slugify(input.name);
    const values = {
      id,
      teamId: input.teamId,
      name: input.name,
      description: input.description,
      sampleType: input.sampleType,
      method: input.method,
      price: Math.round(price * 100) / 100,
      status: 'active',
      fasting: input.fasting,
      labId: input.labId,
      autoGenerated: false,
      hasCollectionInstructions: input.method === 'testkit',
      commonTatDays: maxOf(input.markers.map((m) => m.commonTatDays)),
      worstCaseTatDays: maxOf(input.markers.map((m) => m.worstCaseTatDays)),
    };
    const [inserted] = await tx.insert(labTests).values({ ...values, slug: base }).onConflictDoNothing().returning({ id: labTests.id });
    if (!inserted) await tx.insert(labTests).values({ ...values, slug: `${base}-${id.slice(0, 8)}` });
    await tx.insert(labTestMarkers).values(input.markers.map((m) => ({ labTestId: id, markerId: m.id })));
    return id;
  });
}

/** Changes a team's own lab test; false when the team has no such test. */
export async function updateTeamLabTest(
  db: DbOrTx,
  teamId: string,
  id: string,
  patch: { name?: string; description?: string; status?: LabTestStatus },
): Promise<boolean> {
  const [row] = await db
    .update(labTests)
    .set({ ...patch, updatedAt: new Date() })
    .where(and(eq(labTests.id, id), eq(labTests.teamId, teamId)))
    .returning({ id: labTests.id });
  return row !== undefined;
}
