import { describe, expect, it } from 'vitest';
import { matchLoinc } from '../../domain/lab-report/loinc-match.js';

const top = (name: string, opts = {}): string | undefined => matchLoinc(name, opts)[0]?.loinc_code;

describe('matchLoinc: names in English, German and French', () => {
  it.each([
    ['Hemoglobin', { unit: 'g/dL' }, '718-7'],
    ['Haemoglobin', { unit: 'g/L' }, '718-7'],
    ['Hämoglobin', { unit: 'g/dl' }, '718-7'],
    ['Hémoglobine', { unit: 'g/dL' }, '718-7'],
    ['HbA1c', { unit: '%' }, '4548-4'],
    ['Hemoglobin A1c', {}, '4548-4'],
    ['ALT (SGPT)', { unit: 'U/L' }, '1742-6'],
    ['GPT', { unit: 'U/l' }, '1742-6'],
    ['ALAT', { unit: 'UI/L' }, '1742-6'],
    ['AST/GOT', { unit: 'U/L' }, '1920-8'],
    ['TSH', { unit: 'mIU/L' }, '3016-3'],
    ['LDL-C', { unit: 'mg/dL' }, '13457-7'],
    ['eGFR', { unit: 'mL/min/1.73m2' }, '98979-8'],
    ['WBC', { unit: 'x10E3/uL' }, '6690-2'],
    ['Leukozyten', { unit: '/nl' }, '6690-2'],
    ['Leucocytes', { unit: 'G/L' }, '6690-2'],
    ['Glycémie à jeun', { unit: 'g/L' }, '1558-6'],
    ['Kreatinin', { unit: 'mg/dl' }, '2160-0'],
    ['Vitamin D, 25-Hydroxy', { unit: 'ng/mL' }, '62292-8'],
    ['C-Reactive Protein', { unit: 'mg/L' }, '1988-5'],
    ['hs-CRP', { unit: 'mg/L' }, '30522-7'],
    ['Ferritin', { unit: 'ng/mL' }, '2276-4'],
    ['CA 19-9', { unit: 'U/mL' }, '24108-3'],
    ['Sodium, Serum', { unit: 'mmol/L' }, '2951-2'],
    ['Bilirubin, Total', { unit: 'mg/dL' }, '1975-2'],
    ['Cholesterol, Total', { unit: 'mg/dL' }, '2093-3'],
    ['Free T4', { unit: 'ng/dL' }, '3024-7'],
  ])('%s %j → %s', (name, opts, code) => expect(top(name, opts)).toBe(code));

  it('tolerates OCR slips in long words', () => {
    expect(top('Hemoglobn', { unit: 'g/dL' })).toBe('718-7');
    expect(top('Creatinlne', { unit: 'mg/dL' })).toBe('2160-0');
  });

  it('answers [] for names that are not lab tests', () => {
    expect(matchLoinc('Ordering physician')).toEqual([]);
    expect(matchLoinc('')).toEqual([]);
  });
});

describe('matchLoinc: units and context rank ambiguous names', () => {
  it('Neutrophils in % is the fraction code, in 10^3/uL the absolute count', () => {
    expect(top('Neutrophils', { unit: '%' })).toBe('770-8');
    expect(top('Neutrophils', { unit: '10^3/uL' })).toBe('751-8');
    expect(top('Lymphocytes', { unit: 'G/L' })).toBe('731-0');
    expect(top('Neutrophils, Absolute')).toBe('751-8');
    expect(top('Lymphozyten relativ')).toBe('736-9');
  });

  it('mass vs moles follows the unit', () => {
    expect(top('Glucose', { unit: 'mg/dL' })).toBe('2345-7');
    expect(top('Glucose', { unit: 'mmol/L' })).toBe('14749-6');
    expect(top('Creatinine', { unit: 'µmol/L' })).toBe('14682-9');
    expect(top('Cholesterol', { unit: 'mmol/l' })).toBe('14647-2');
    expect(top('HbA1c', { unit: 'mmol/mol' })).toBe('59261-8');
  });

  it('a urine panel turns Glucose, Protein, Blood and WBC into urine codes', () => {
    expect(top('Glucose', { panel: 'URINALYSIS', qualitative: true })).toBe('25428-4');
    expect(top('Protein', { panel: 'Urinalysis', qualitative: true })).toBe('20454-5');
    expect(top('Blood', { panel: 'Urine dipstick', qualitative: true })).toBe('5794-3');
    expect(top('WBC', { unit: '/hpf', panel: 'Microscopic Examination of Urine' })).toBe('5821-4');
    expect(top('pH', { panel: 'Urinalysis' })).toBe('5803-2');
    expect(top('Glucose', { specimen: 'Urine', unit: 'mg/dL' })).toBe('5792-7');
  });

  it('a blood gas panel turns pH into the arterial code', () => {
    expect(top('pH', { panel: 'Arterial blood gas' })).toBe('2744-1');
  });

  it('serum/blood context keeps blood codes ahead of urine codes', () => {
    expect(top('Protein', { unit: 'g/dL' })).toBe('2885-2');
    expect(top('Glucose', { panel: 'Chemistry', unit: 'mg/dL' })).toBe('2345-7');
  });
});

describe('matchLoinc: qualifiers a code asserts (fasting, calculated) need the report to say them', () => {
  it('a plain "Glucose" is 2345-7; fasting only when the name or the panel says so', () => {
    expect(top('Glucose', { unit: 'mg/dL', panel: 'Basic Metabolic Panel (8)' })).toBe('2345-7');
    expect(top('Glucose', { unit: 'mg/dL', panel: 'FASTING GLUCOSE' })).toBe('1558-6');
    expect(top('Glucose', { unit: 'mmol/L', panel: 'Fasting bloods' })).toBe('14771-0');
    expect(top('Glycémie', { unit: 'g/L', panel: 'Bilan à jeun' })).toBe('1558-6');
    expect(top('Glucose', { unit: 'mg/dL', rangeText: 'Fasting: 70-99' })).toBe('1558-6');
    expect(top('Glucose, fasting', { unit: 'mg/dL' })).toBe('1558-6');
    expect(top('Glycémie à jeun', { unit: 'g/L' })).toBe('1558-6');
    expect(top('FBS', { unit: 'mg/dL' })).toBe('1558-6');
  });

  it('a footnote marker is not part of the name ("Glucose ^A" is not "Glucose à jeun")', () => {
    expect(top('Glucose ^A', { unit: 'mg/dL', panel: 'Basic Metabolic Panel (8)' })).toBe('2345-7');
    expect(top('Creatinine ^1', { unit: 'mg/dL' })).toBe('2160-0');
    expect(matchLoinc('Glucose ^A', { unit: 'mg/dL' })[0]!.confidence_score).toBeGreaterThanOrEqual(0.95);
  });

  it('LDL: calculated when the report says so, else English/French plain names calculated, German plain name 2089-1', () => {
    // English and French labs routinely calculate LDL in the lipid panel; German labs measure it directly.
    expect(top('LDL Cholesterol', { unit: 'mg/dL', panel: 'LIPID PANEL' })).toBe('13457-7');
    expect(top('LDL Cholesterol', { unit: 'mmol/L', panel: 'LIPIDS' })).toBe('39469-2');
    expect(top('LDL-C', { unit: 'mg/dL' })).toBe('13457-7');
    expect(top('LDL-Cholesterin', { unit: 'mg/dl', panel: 'Fettstoffwechsel' })).toBe('2089-1');
    expect(top('LDL-Cholesterin', { unit: 'mmol/l' })).toBe('22748-8');
    // Said in the name, the panel or the range text: calculated.
    expect(top('LDL-Cholesterin berechnet', { unit: 'mg/dl' })).toBe('13457-7');
    expect(top('LDL-Cholesterin (calc)', { unit: 'mg/dl' })).toBe('13457-7');
    expect(top('LDL-Cholesterin', { unit: 'mg/dl', panel: 'LDL (berechnet)' })).toBe('13457-7');
    expect(top('LDL-Cholesterin', { unit: 'mg/dl', rangeText: '< 116 (Friedewald)' })).toBe('13457-7');
    expect(top('LDL, calculated', { unit: 'mg/dL' })).toBe('13457-7');
    expect(top('Cholestérol LDL (calculé)', { unit: 'g/L' })).toBe('13457-7');
    // Said "direct": the direct-assay code.
    expect(top('LDL-Cholesterin direkt', { unit: 'mg/dl' })).toBe('18262-6');
    expect(top('Direct LDL', { unit: 'mg/dL' })).toBe('18262-6');
  });
});

describe('matchLoinc: calibration', () => {
  it('an exact alias with agreeing unit is ≥ 0.95; candidates are ≤ 5, best first', () => {
    const m = matchLoinc('Platelets', { unit: '10^3/uL' });
    expect(m[0]!.confidence_score).toBeGreaterThanOrEqual(0.95);
    expect(m.length).toBeLessThanOrEqual(5);
    for (let i = 1; i < m.length; i++) expect(m[i - 1]!.confidence_score).toBeGreaterThanOrEqual(m[i]!.confidence_score);
  });

  it('a contradicting unit costs confidence', () => {
    const pct = matchLoinc('Neutrophils', { unit: '%' }).find((x) => x.loinc_code === '751-8');
    expect(pct!.confidence_score).toBeLessThan(0.7);
  });

  it('a weak fuzzy match stays below 0.6', () => {
    const m = matchLoinc('Hemoglobin variant screen electrophoresis');
    expect(m[0]?.confidence_score ?? 0).toBeLessThan(0.6);
  });

  it('an unresolved mass/moles tie is reported with less confidence than a resolved one', () => {
    const tie = matchLoinc('Glucose')[0]!.confidence_score;
    const resolved = matchLoinc('Glucose', { unit: 'mg/dL' })[0]!.confidence_score;
    expect(tie).toBeLessThan(resolved);
  });

  it('Lipoprotein (a) without a unit: the molar code first (EAS/IFCC report nmol/L), never sure; a unit decides', () => {
    const m = matchLoinc('Lipoprotein (a)', { panel: 'Fettstoffwechsel (Serum)', qualitative: true });
    expect(m.slice(0, 2).map((x) => x.loinc_code)).toEqual(['43583-4', '10835-7']);
    expect(m[0]!.confidence_score).toBeLessThan(0.9);
    expect(matchLoinc('Lp(a)', { panel: 'Lipids' })[0]!.confidence_score).toBeLessThan(0.9);
    expect(top('Lipoprotein (a)', { unit: 'mg/dL' })).toBe('10835-7');
    expect(top('Lp(a)', { unit: 'nmol/L' })).toBe('43583-4');
    expect(matchLoinc('Lp(a)', { unit: 'nmol/L' })[0]!.confidence_score).toBeGreaterThanOrEqual(0.95);
  });

  it('returns the LoincMatch shape of the contract', () => {
    const [m] = matchLoinc('TSH', { unit: 'mIU/L' });
    expect(m).toMatchObject({ loinc_code: '3016-3', loinc_name: 'Thyrotropin [Units/volume] in Serum or Plasma', display_name: 'TSH' });
    expect(Array.isArray(m!.aliases)).toBe(true);
  });
});
