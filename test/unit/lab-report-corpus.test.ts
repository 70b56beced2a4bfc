import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { LAYOUTS } from '../fixtures/lab-report-corpus/generator/layouts/index.js';
import { MOLAR_LOINC } from '../fixtures/lab-report-corpus/generator/tests.js';
import type { CorpusManifest, ReportTruth } from '../fixtures/lab-report-corpus/generator/truth.js';

/** The evaluation corpus of bench:parser is well-formed: enough reports and layouts, ground truth for each, real files. */
const root = join(import.meta.dirname, '..', 'fixtures', 'lab-report-corpus');
const manifest = JSON.parse(readFileSync(join(root, 'manifest.json'), 'utf8')) as CorpusManifest;
const truths = manifest.reports.map((r) => JSON.parse(readFileSync(join(root, 'reports', r.truth), 'utf8')) as ReportTruth);

/** Layouts of single-test documents (issue 14's tenth pass: a certificate with one result). */
const SINGLE_TEST = new Set(['certificate']);
// Reports that state only the year of birth (a Vietnamese "Nam sinh: 1975") or only the age (an Indian "Age : 42
// Years"): no full date to read, the truth's dob is empty.
const YEAR_OF_BIRTH_ONLY = new Set(['vietnamese', 'remote-ranges']);

/** LOINC's mod-10 check digit over the digits before the hyphen (Luhn, rightmost digit doubled). */
function loincCheckDigitValid(code: string): boolean {
  const m = /^(\d{1,7})-(\d)$/.exec(code);
  if (!m) return false;
  const digits = m[1]!.split('').reverse().map(Number);
  const sum = digits.reduce((s, d, i) => {
    if (i % 2 === 1) return s + d;
    const x = d * 2;
    return s + (x > 9 ? x - 9 : x);
  }, 0);
  return (10 - (sum % 10)) % 10 === Number(m[2]);
}

describe('lab report evaluation corpus', () => {
  it('has at least 24 reports in at least 6 layouts, 16 text PDFs and 8 images', () => {
    expect(manifest.reports.length).toBeGreaterThanOrEqual(24);
    expect(new Set(manifest.reports.map((r) => r.layout)).size).toBeGreaterThanOrEqual(6);
    expect(manifest.reports.filter((r) => r.kind === 'text_pdf').length).toBeGreaterThanOrEqual(16);
    expect(manifest.reports.filter((r) => r.kind === 'image').length).toBeGreaterThanOrEqual(8);
    for (const r of manifest.reports) expect(LAYOUTS.map((l) => l.name)).toContain(r.layout);
  });

  it('has ground truth for every report, naming its file, with results and metadata', () => {
    truths.forEach((t, i) => {
      const entry = manifest.reports[i]!;
      expect(t.id).toBe(entry.id);
      expect(t.file).toBe(entry.file);
      expect(t.kind).toBe(entry.kind);
      // A certificate reports one test by nature; every other report holds a panel.
      expect(t.results.length).toBeGreaterThan(SINGLE_TEST.has(t.layout) ? 0 : 5);
      expect(t.metadata.patient_last_name).not.toBe('');
      expect(t.metadata.dob).toMatch(YEAR_OF_BIRTH_ONLY.has(t.layout) ? /^$/ : /^\d{4}-\d{2}-\d{2}$/);
      for (const r of t.results) {
        expect(r.test_name).not.toBe('');
        expect(r.value).not.toBe('');
        expect(['normal', 'abnormal', 'critical', 'unknown']).toContain(r.interpretation);
        if (r.reference_range_text === '' && r.flag === '') expect(r.interpretation).toBe('unknown');
        if (r.min_reference_range !== undefined && r.max_reference_range !== undefined) expect(r.min_reference_range).toBeLessThan(r.max_reference_range);
      }
    });
  });

  it('gives every ground-truth LOINC code a valid mod-10 check digit', () => {
    const codes = new Set(truths.flatMap((t) => t.results.map((r) => r.loinc_code)));
    expect(codes.size).toBeGreaterThan(30);
    for (const code of codes) expect(loincCheckDigitValid(code), code).toBe(true);
    expect(loincCheckDigitValid('2345-8')).toBe(false);
  });

  it('gives a row printed in mol units the Moles/volume code, never the Mass/volume one (LOINC keeps them apart)', () => {
    const molar = /^[mµunp]?mol\/l$/i;
    const massInMolar = truths.flatMap((t) => t.results.filter((r) => molar.test(r.units.trim()) && r.loinc_code in MOLAR_LOINC).map((r) => `${t.file}: ${r.test_name} ${r.units} ${r.loinc_code}`));
    expect(massInMolar).toEqual([]);
    // and the molar rows of those tests are there to check (the corpus prints glucose, creatinine, lipids in mmol/L)
    const molarTwins = new Set(Object.values(MOLAR_LOINC));
    expect(truths.flatMap((t) => t.results).filter((r) => molarTwins.has(r.loinc_code)).length).toBeGreaterThan(50);
  });

  it('stores PDFs as PDFs and images as PNG or JPEG (by their bytes), each image at most ~300 KB', () => {
    for (const r of manifest.reports) {
      const bytes = readFileSync(join(root, 'reports', r.file));
      if (r.kind === 'image') {
        const png = bytes.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
        const jpeg = bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff;
        expect(png || jpeg, r.file).toBe(true);
        expect(r.file.endsWith(png ? '.png' : '.jpg')).toBe(true);
        expect(bytes.length).toBeLessThanOrEqual(310 * 1024);
      } else {
        expect(bytes.subarray(0, 5).toString('latin1'), r.file).toBe('%PDF-');
      }
    }
  });
});
