import { randomUUID } from 'node:crypto';
import { and, eq, isNull, sql } from 'drizzle-orm';
import postgres from 'postgres';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createDb, type DbHandle } from '../../db/client.js';
import { runMigrations } from '../../db/migrate.js';
import { labTestMarkers, labTests, labs, loincCodes, markerResults, markers } from '../../db/schema/index.js';
import { seedCatalog, type SeedSummary } from '../../db/seed/catalog.js';
import { CATALOG_LAB_TESTS, CATALOG_LABS, CATALOG_MARKERS, catalogLabTestId } from '../../db/seed/catalog-data.js';

/**
 * Seeding on a fresh install: a database of its own on the run's Postgres server (the shared test
 * database is read by other test files, so the catalogue there is never tampered with).
 */
const dbName = `labflow_seed_${randomUUID().slice(0, 8)}`;
let url: string;
let handle: DbHandle;

async function onServer(statement: string) {
  const admin = postgres(inject('databaseUrl'), { max: 1, onnotice: () => {} });
  try {
    await admin.unsafe(statement);
  } finally {
    await admin.end();
  }
}

beforeAll(async () => {
  await onServer(`create database ${dbName}`);
  const u = new URL(inject('databaseUrl'));
  u.pathname = `/${dbName}`;
  url = u.toString();
});
afterAll(async () => {
  await handle?.close();
  await onServer(`drop database if exists ${dbName} with (force)`);
});

const unchanged = (s: SeedSummary) => Object.values(s).every((c) => c.inserted + c.updated + c.deleted === 0);

describe('seedCatalog', () => {
  it('seeds a fresh install through the migrate entry point, also when two processes start at once', async () => {
    const logs: string[][] = [[], []];
    await Promise.all(logs.map((lines) => runMigrations(url, (m) => lines.push(m))));
    handle = createDb(url, { max: 4 });
    const db = handle.db;
    // One of the two seeded, the other found it done.
    const seedLines = logs.map((lines) => lines.find((l) => l.startsWith('lab catalogue:'))!);
    expect(seedLines.filter((l) => l.endsWith('already up to date'))).toHaveLength(1);

    const [counts] = await db.execute<{ labs: number; markers: number; tests: number; links: number; results: number; uncoded: number }>(sql`
      select (select count(*)::int from labs) as labs, (select count(*)::int from markers) as markers,
             (select count(*)::int from lab_tests where team_id is null) as tests,
             (select count(*)::int from lab_test_markers) as links,
             (select count(*)::int from marker_results) as results,
             (select count(*)::int from marker_results where loinc_id is null) as uncoded`);
    expect(counts).toEqual({
      labs: CATALOG_LABS.length,
      markers: CATALOG_MARKERS.length,
      tests: CATALOG_LAB_TESTS.length,
      links: CATALOG_LAB_TESTS.reduce((n, t) => n + t.markers.length, 0),
      results: CATALOG_MARKERS.reduce((n, m) => n + m.results.length, 0),
      uncoded: 0,
    });
    // The same lab test ids as on every other install.
    const ids = (await db.select({ id: labTests.id }).from(labTests).where(isNull(labTests.teamId))).map((r) => r.id).sort();
    expect(ids).toEqual(CATALOG_LAB_TESTS.map((t) => catalogLabTestId(t.slug)).sort());
  });

  it('changes nothing when run again, also concurrently', async () => {
    const db = handle.db;
    const other = createDb(url, { max: 2 });
    try {
      const summaries = await Promise.all([seedCatalog(db), seedCatalog(other.db), seedCatalog(db)]);
      expect(summaries.every(unchanged)).toBe(true);
    } finally {
      await other.close();
    }
  });

  it('puts back what drifted from the data, keeping result ids', async () => {
    const db = handle.db;
    const [lab] = await db.select().from(labs).where(eq(labs.slug, 'northstar'));
    const [a1c] = await db.select().from(markers).where(and(eq(markers.labId, lab!.id), eq(markers.providerId, 'NS-101')));
    const [result] = await db.select().from(markerResults).where(eq(markerResults.markerId, a1c!.id));
    const kit = catalogLabTestId('northstar-heart-kit');

    await db.update(markers).set({ name: 'Renamed', price: '1.00' }).where(eq(markers.id, a1c!.id));
    await db.update(markerResults).set({ loincId: null }).where(eq(markerResults.id, result!.id));
    await db.insert(markerResults).values({ markerId: a1c!.id, name: 'Stray', slug: 'stray' });
    await db.delete(labTestMarkers).where(and(eq(labTestMarkers.labTestId, kit), eq(labTestMarkers.markerId, a1c!.id)));
    await db.update(labTests).set({ price: 1, status: 'inactive' }).where(eq(labTests.id, kit));
    await db.update(loincCodes).set({ name: 'wrong' }).where(eq(loincCodes.code, '4548-4'));

    const s = await seedCatalog(db);
    expect(s.markers.updated).toBe(1);
    expect(s.markerResults).toEqual({ inserted: 0, updated: 1, deleted: 1 });
    expect(s.labTestMarkers.inserted).toBe(1);
    expect(s.labTests.updated).toBe(1);
    expect(s.loincCodes.updated).toBe(1);
    expect(unchanged(await seedCatalog(db))).toBe(true);

    const [marker] = await db.select().from(markers).where(eq(markers.id, a1c!.id));
    expect(marker).toMatchObject({ name: 'Hemoglobin A1c', price: '14.00' });
    const results = await db.select().from(markerResults).where(eq(markerResults.markerId, a1c!.id));
    expect(results.map((r) => r.id)).toEqual([result!.id]);
    const [loinc] = await db.select().from(loincCodes).where(eq(loincCodes.id, results[0]!.loincId!));
    expect(loinc).toMatchObject({ code: '4548-4', name: 'Hemoglobin A1c/Hemoglobin.total in Blood' });
    const [test] = await db.select().from(labTests).where(eq(labTests.id, kit));
    expect(test).toMatchObject({ price: 69, status: 'active' });
  });
});
