import { describe, expect, it } from 'vitest';
import { isValidLoincCode, LOINC_RELEASE, LOINC_TABLE, LOINC_TABLE_VERSION, loincCheckDigit, loincEntry } from '../../domain/lab-report/loinc-table.js';
import { unitKind } from '../../domain/lab-report/units.js';

describe('LOINC check digit (mod 10)', () => {
  it.each([
    ['2345', 7],
    ['718', 7],
    ['6690', 2],
    ['4548', 4],
    ['12345', 5],
    ['98979', 8],
  ])('%s → %i', (body, digit) => expect(loincCheckDigit(body)).toBe(digit));

  it('refuses a wrong check digit and malformed codes', () => {
    expect(isValidLoincCode('2345-7')).toBe(true);
    expect(isValidLoincCode('2345-8')).toBe(false);
    expect(isValidLoincCode('2345')).toBe(false);
    expect(isValidLoincCode('LP1234-5')).toBe(false);
  });
});

describe('curated LOINC table', () => {
  it('is versioned and names the LOINC release it follows', () => {
    expect(LOINC_TABLE_VERSION).toMatch(/^\d{4}\.\d+$/);
    expect(LOINC_RELEASE).toMatch(/^2\.\d+$/);
  });

  it('has at least 300 entries with unique, check-digit-valid codes', () => {
    expect(LOINC_TABLE.length).toBeGreaterThanOrEqual(300);
    const codes = LOINC_TABLE.map((e) => e.code);
    expect(new Set(codes).size).toBe(codes.length);
    expect(codes.filter((c) => !isValidLoincCode(c))).toEqual([]);
  });

  it('gives every entry a long name, a display name, English aliases and a system', () => {
    for (const e of LOINC_TABLE) {
      expect(e.name.length, e.code).toBeGreaterThan(3);
      expect(e.display.length, e.code).toBeGreaterThan(1);
      expect(e.aliases.en.length, e.code).toBeGreaterThan(0);
      expect(e.system, e.code).toBeTruthy();
    }
  });

  it('gives every quantitative entry units we can classify, and leaves qualitative ones unitless', () => {
    const qualitative = /\[(Presence|Type)\]|^(Color|Appearance|Clarity|pH|Specific gravity) of|^pH of|Base excess|INR|Ratio\]|\/Creatinine|\/Globulin|free\/Prostate|Cholesterol\.total\/|Urea nitrogen\/Creatinine/;
    for (const e of LOINC_TABLE) {
      if (e.units.length === 0) {
        expect(qualitative.test(e.name), `${e.code} ${e.name} has no units`).toBe(true);
        continue;
      }
      const known = e.units.filter((u) => unitKind(u) !== undefined);
      expect(known.length, `${e.code} ${e.units.join(',')}`).toBeGreaterThan(0);
    }
  });

  it('covers the common panels in English, German and French', () => {
    const byAlias = (lang: 'en' | 'de' | 'fr', alias: string): string[] =>
      LOINC_TABLE.filter((e) => e.aliases[lang].some((a) => a.toLowerCase() === alias.toLowerCase())).map((e) => e.code);
    expect(byAlias('en', 'HbA1c')).toContain('4548-4');
    expect(byAlias('de', 'Glukose')).toContain('2345-7');
    expect(byAlias('fr', 'Glycémie')).toContain('2345-7');
    expect(byAlias('de', 'Hämoglobin')).toContain('718-7');
    expect(byAlias('fr', 'Hémoglobine')).toContain('718-7');
    expect(byAlias('de', 'GPT')).toContain('1742-6');
    expect(byAlias('fr', 'ASAT')).toContain('1920-8');
    expect(byAlias('de', 'Leukozyten')).toContain('6690-2');
    expect(byAlias('fr', 'Leucocytes')).toContain('6690-2');
    expect(byAlias('en', 'eGFR')).toContain('98979-8');
    expect(byAlias('en', 'LDL-C')).toContain('13457-7');
    expect(byAlias('en', 'TSH')).toContain('3016-3');
    const panels = new Set(LOINC_TABLE.flatMap((e) => e.panels));
    for (const p of ['cbc', 'diff', 'chem', 'lipid', 'liver', 'renal', 'thyroid', 'iron', 'vitamin', 'hormone', 'inflammation', 'coag', 'diabetes', 'urinalysis', 'electrolyte', 'cardiac', 'tumor', 'serology']) {
      expect(panels.has(p as never), p).toBe(true);
    }
  });

  it('has both the absolute and the % code for each differential cell type', () => {
    for (const [abs, pct] of [['751-8', '770-8'], ['731-0', '736-9'], ['742-7', '5905-5'], ['711-2', '713-8'], ['704-7', '706-2']] as const) {
      expect(loincEntry(abs)?.name).toMatch(/\[#\/volume\]/);
      expect(loincEntry(pct)?.name).toMatch(/\/100 leukocytes/);
    }
  });
});
