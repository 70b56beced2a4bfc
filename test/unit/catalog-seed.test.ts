import { describe, expect, it } from 'vitest';
import { LAB_TEST_SAMPLE_TYPES } from '../../db/queries/catalog.js';
import { CATALOG_LAB_TESTS, CATALOG_LABS, CATALOG_MARKERS, catalogLabTestId } from '../../db/seed/catalog-data.js';
import { LOINC } from '../../db/seed/loinc-codes.js';
import { COLLECTION_METHODS } from '../../domain/orders/status.js';

/** LOINC's mod-10 check digit, written here on its own: from the right, double every other digit. */
function checkDigit(body: string): number {
  let sum = 0;
  [...body].reverse().forEach((ch, i) => {
    const d = Number(ch) * (i % 2 === 0 ? 2 : 1);
    sum += d > 9 ? d - 9 : d;
  });
  return (10 - (sum % 10)) % 10;
}

function validLoinc(code: string): boolean {
  const m = /^(\d{1,7})-(\d)$/.exec(code);
  return m !== null && checkDigit(m[1]!) === Number(m[2]);
}

describe('LOINC check digit', () => {
  it('accepts published codes and refuses a changed digit', () => {
    for (const code of ['2345-7', '4548-4', '3016-3', '2276-4', '1989-3', '13457-7', '2089-1', '2085-9', '2571-8', '2160-0', '1742-6', '1920-8', '718-7']) {
      expect(validLoinc(code), code).toBe(true);
    }
    for (const code of ['2345-8', '4548-1', '13457-1', '2345', 'A123-4', '2345-77']) expect(validLoinc(code), code).toBe(false);
  });
});

describe('seeded lab catalogue', () => {
  const labBySlug = new Map(CATALOG_LABS.map((l) => [l.slug, l]));

  it('has at least 3 labs, 40 markers and 12 lab tests', () => {
    expect(CATALOG_LABS.length).toBeGreaterThanOrEqual(3);
    expect(CATALOG_MARKERS.length).toBeGreaterThanOrEqual(40);
    expect(CATALOG_LAB_TESTS.length).toBeGreaterThanOrEqual(12);
  });

  it('codes every expected result with a well-formed LOINC code with a valid check digit', () => {
    const codes = Object.values(LOINC).map((f) => f.code);
    expect(new Set(codes).size).toBe(codes.length); // one entry per LOINC code
    for (const f of Object.values(LOINC)) {
      expect(validLoinc(f.code), `${f.display} ${f.code}`).toBe(true);
      expect(f.name.length).toBeGreaterThan(0);
    }
    for (const m of CATALOG_MARKERS) {
      if (m.type === 'biomarker') expect(m.results, m.name).toHaveLength(1);
      else expect(m.results.length, m.name).toBeGreaterThanOrEqual(2);
      for (const r of m.results) {
        expect(validLoinc(r.loincCode), `${m.name}: ${r.name} ${r.loincCode}`).toBe(true);
        expect(LOINC[r.slug].code).toBe(r.loincCode);
      }
      expect(new Set(m.results.map((r) => r.slug)).size, m.name).toBe(m.results.length);
    }
  });

  it('uses the published codes for the common biomarkers', () => {
    const expected: Record<string, [string, string | null]> = {
      glucose: ['2345-7', 'mg/dL'],
      'hemoglobin-a1c': ['4548-4', '%'],
      tsh: ['3016-3', 'mIU/L'],
      ferritin: ['2276-4', 'ng/mL'],
      'vitamin-d3': ['1989-3', 'ng/mL'],
      'ldl-cholesterol-calculated': ['13457-7', 'mg/dL'],
      'ldl-cholesterol': ['2089-1', 'mg/dL'],
      'hdl-cholesterol': ['2085-9', 'mg/dL'],
      triglycerides: ['2571-8', 'mg/dL'],
      creatinine: ['2160-0', 'mg/dL'],
      alt: ['1742-6', 'U/L'],
      ast: ['1920-8', 'U/L'],
      hemoglobin: ['718-7', 'g/dL'],
    };
    for (const [key, [code, unit]] of Object.entries(expected)) {
      const fact = LOINC[key as keyof typeof LOINC];
      expect([fact.code, fact.unit], key).toEqual([code, unit]);
    }
  });

  it('gives every marker a unique provider id at its lab, a price and turnaround times', () => {
    const keys = CATALOG_MARKERS.map((m) => `${m.labSlug}|${m.providerId}`);
    expect(new Set(keys).size).toBe(keys.length);
    const slugs = CATALOG_MARKERS.map((m) => `${m.labSlug}|${m.slug}`);
    expect(new Set(slugs).size).toBe(slugs.length);
    for (const m of CATALOG_MARKERS) {
      expect(labBySlug.has(m.labSlug), m.name).toBe(true);
      expect(m.price, m.name).toMatch(/^\d+\.\d{2}$/);
      expect(m.commonTatDays).toBeGreaterThan(0);
      expect(m.worstCaseTatDays).toBeGreaterThanOrEqual(m.commonTatDays);
      if (m.type === 'biomarker') expect(m.unit === null || m.unit.length > 0).toBe(true);
    }
    expect(CATALOG_MARKERS.some((m) => m.type === 'panel')).toBe(true);
  });

  it('builds every lab test from markers offered by its lab, with a method and sample type the lab supports', () => {
    const offered = new Set(CATALOG_MARKERS.map((m) => `${m.labSlug}|${m.providerId}`));
    for (const t of CATALOG_LAB_TESTS) {
      const lab = labBySlug.get(t.labSlug);
      expect(lab, t.slug).toBeDefined();
      expect(lab!.collectionMethods, t.slug).toContain(t.method);
      expect(lab!.sampleTypes, t.slug).toContain(t.sampleType);
      expect(t.markers.length, t.slug).toBeGreaterThan(0);
      expect(new Set(t.markers).size, t.slug).toBe(t.markers.length);
      for (const providerId of t.markers) expect(offered.has(`${t.labSlug}|${providerId}`), `${t.slug}: ${providerId}`).toBe(true);
      expect(t.price).toBeGreaterThan(0);
      expect(t.slug).toMatch(/^[a-z0-9]+(-[a-z0-9]+)*$/);
    }
    expect(new Set(CATALOG_LAB_TESTS.map((t) => t.slug)).size).toBe(CATALOG_LAB_TESTS.length);
  });

  it('covers the collection methods and sample types of CONTRACT §3', () => {
    for (const lab of CATALOG_LABS) {
      for (const m of lab.collectionMethods) expect(COLLECTION_METHODS).toContain(m);
      for (const s of lab.sampleTypes) expect(LAB_TEST_SAMPLE_TYPES).toContain(s);
    }
    const methods = new Set(CATALOG_LAB_TESTS.map((t) => t.method));
    for (const m of ['testkit', 'walk_in_test', 'at_home_phlebotomy', 'on_site_collection']) expect(methods, m).toContain(m);
    const samples = new Set(CATALOG_LAB_TESTS.map((t) => t.sampleType));
    for (const s of LAB_TEST_SAMPLE_TYPES) expect(samples, s).toContain(s);
  });

  it('derives stable, distinct UUIDs for the catalogue lab tests from their slugs', () => {
    const ids = CATALOG_LAB_TESTS.map((t) => catalogLabTestId(t.slug));
    expect(new Set(ids).size).toBe(ids.length);
    for (const id of ids) expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(catalogLabTestId('northstar-hba1c-kit')).toBe(catalogLabTestId('northstar-hba1c-kit'));
    expect(catalogLabTestId('northstar-hba1c-kit')).not.toBe(catalogLabTestId('northstar-thyroid-kit'));
  });
});
