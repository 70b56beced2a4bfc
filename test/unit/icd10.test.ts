import { describe, expect, it } from 'vitest';
import { ICD10 } from '../../domain/icd10/codes.js';
import { lookupIcd10, normalizeIcd10, searchDiagnoses, validateIcdCodes } from '../../domain/icd10/validate.js';

describe('ICD-10 format', () => {
  it('normalises case, dots and spaces', () => {
    expect(normalizeIcd10(' e119 ')).toBe('E11.9');
    expect(normalizeIcd10('Z13.220')).toBe('Z13.220');
    expect(normalizeIcd10('I10')).toBe('I10');
  });
  it('rejects what is not shaped like a code', () => {
    for (const bad of ['', '11.9', 'U07.1', 'E1', 'E11.12345', 'E11-9', 'hello']) expect(normalizeIcd10(bad)).toBeNull();
  });
  it('every table key is already normal', () => {
    for (const code of Object.keys(ICD10)) expect(normalizeIcd10(code)).toBe(code);
  });
});

describe('validateIcdCodes', () => {
  it('known billable codes are valid', () => {
    expect(validateIcdCodes(['E11.9', 'E78.5', 'I10'])).toEqual({ valid: true, errors: [], violations: [], warnings: [] });
    expect(lookupIcd10('e559')?.description).toBe('Vitamin D deficiency, unspecified');
  });
  it('format errors, unknown codes, categories and repeats are errors', () => {
    const r = validateIcdCodes(['E11', 'X99.9', 'bad!', 'I10', 'i10']);
    expect(r.valid).toBe(false);
    expect(r.errors).toEqual([
      'E11 (Type 2 diabetes mellitus) is a category, not a billable code: use a more specific code',
      'X99.9 is not a known ICD-10-CM code',
      'bad! is not a valid ICD-10 code format',
      'I10 is given more than once',
    ]);
  });
  it('Excludes1 pairs are violations, Excludes2 pairs warnings', () => {
    const r = validateIcdCodes(['E11.9', 'R73.03']);
    expect(r.valid).toBe(false);
    expect(r.violations).toContainEqual({ code: 'E11.9', conflicts_with: 'R73.03', type: 'excludes1' });
    const w = validateIcdCodes(['K76.0', 'K75.81']);
    expect(w).toEqual({ valid: true, errors: [], violations: [], warnings: [{ code: 'K76.0', overlaps_with: 'K75.81', type: 'excludes2' }] });
  });
  it('secondary-only codes need a primary diagnosis', () => {
    expect(validateIcdCodes(['Z68.30']).valid).toBe(false);
    expect(validateIcdCodes(['E66.9', 'Z68.30']).valid).toBe(true);
  });
});

describe('searchDiagnoses', () => {
  it('by code prefix and by words', () => {
    expect(searchDiagnoses('E11').map((d) => d.diagnosis_code)).toEqual(['E11.22', 'E11.65', 'E11.9']);
    expect(searchDiagnoses('vitamin d')[0]).toEqual({ diagnosis_code: 'E55.9', description: 'Vitamin D deficiency, unspecified', is_secondary: false });
    expect(searchDiagnoses('insulin')[0]?.is_secondary).toBe(true);
    expect(searchDiagnoses('   ')).toEqual([]);
  });
});
