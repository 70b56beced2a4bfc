import { describe, expect, it } from 'vitest';
import { headerRoleOf } from '../../domain/lab-report/layout.js';
import { matchLoinc } from '../../domain/lab-report/loinc-match.js';
import { extractMetadata, type MetadataLine } from '../../domain/lab-report/metadata.js';
import { foldSameLength, foldText } from '../../domain/lab-report/text.js';
import { type TextLine } from '../../domain/lab-report/types.js';
import { byName, line, parseLines, row } from '../support/lab-report-lines.js';

// Issue 14, eleventh pass: Nordic letters folded, Scandinavian range headings, Norwegian date labels, a
// toxicology unit as a lab, blood mercury in the LOINC table, and a decision limit restated in a note.
const parse = parseLines;
const meta = (...texts: string[]): MetadataLine[] => texts.map((text) => ({ text, page: 1 }));

describe('Nordic letters and headings', () => {
  it('folds ø and æ as readers transliterate them, and keeps lengths for same-length folding', () => {
    expect(foldText('Fødselsdato')).toBe('fodselsdato');
    expect(foldText('Kjønn: Mann')).toBe('kjonn: mann');
    expect(foldText('Vævsprøve')).toBe('vaevsprove');
    expect(foldSameLength('Prøvenr.')).toHaveLength('Prøvenr.'.length);
    expect(foldSameLength('Æg')).toBe('æg');
  });
  it('reads "Ref.område", "Ref. intervall", "Referensvärden" as the range column; negative: a reference number or a low limit', () => {
    expect(headerRoleOf('Ref.område')).toBe('range');
    expect(headerRoleOf('Ref. område')).toBe('range');
    expect(headerRoleOf('Ref. intervall')).toBe('range');
    expect(headerRoleOf('Referensvärden')).toBe('range');
    expect(headerRoleOf('Referanseverdier')).toBe('range');
    expect(headerRoleOf('Ref No.')).toBeUndefined();
    expect(headerRoleOf('Ref. low')).toBe('low');
  });
  it('a table under "Analyse | Resultat | Enhet | Ref.område" keeps its decimal-comma ranges and the "*" after a value', () => {
    const X = { name: 40, value: 220, unit: 290, ref: 360 };
    const r = parse([
      line(10, 'Navn: LIE, Astrid   Kjønn: Kvinne'),
      row(30, [['Analyse', X.name], ['Resultat', X.value], ['Enhet', X.unit], ['Ref.område', X.ref]]),
      row(44, [['Natrium', X.name], ['141', X.value], ['mmol/L', X.unit], ['137 - 145', X.ref]]),
      row(57, [['Kalsium', X.name], ['2,71 *', X.value], ['mmol/L', X.unit], ['2,15 - 2,51', X.ref]]),
      row(70, [['Albumin', X.name], ['41', X.value], ['g/L', X.unit], ['36 - 48', X.ref]]),
    ]);
    expect(byName(r, 'Natrium')).toMatchObject({ min_reference_range: 137, max_reference_range: 145, interpretation: 'normal' });
    expect(byName(r, 'Kalsium')).toMatchObject({ value: '2.71', min_reference_range: 2.15, max_reference_range: 2.51, interpretation: 'abnormal' });
  });
  it('reads Norwegian labels: Fødselsdato, Prøvetatt, Besvart', () => {
    const m = extractMetadata(meta('Navn: BERG, Sindre   Prøvenr.: 25-104233', 'Fødselsdato: 03.02.1961   Prøvetatt: 14.05.2025 kl. 08:10', 'Besvart: 15.05.2025 kl. 12:02'), { dateOrder: 'dmy' });
    expect(m).toMatchObject({ dob: '1961-02-03', date_collected: '2025-05-14', date_reported: '2025-05-15' });
  });
});

describe('a toxicology laboratory and its analytes', () => {
  it('takes a toxicology unit in the letterhead as the lab', () => {
    const m = extractMetadata(meta('Humber Regional Toxicology Unit, Hull', 'Patient: WARD, Lena   Date of Birth: 04/09/1972'));
    expect(m.lab_name).toBe('Humber Regional Toxicology Unit, Hull');
  });
  it('maps blood mercury to 5685-3 (Mercury [Mass/volume] in Blood); negative: serum zinc is not mercury', () => {
    expect(matchLoinc('Mercury (whole blood)', { unit: 'µg/L' })[0]?.loinc_code).toBe('5685-3');
    expect(matchLoinc('Blood mercury', { unit: 'ug/L' })[0]?.loinc_code).toBe('5685-3');
    expect(matchLoinc('Zinc', { unit: 'µmol/L' })[0]?.loinc_code).not.toBe('5685-3');
  });
});

describe('a decision limit restated in a note', () => {
  const X = { name: 40, value: 200, flag: 250, unit: 290, ref: 360 };
  const cell = (y: number, cells: [string, number][]): TextLine => ({ ...row(y, cells), cells: cells.map(([t, x]) => ({ text: t, x, width: t.length * 4 })) });
  const table = [
    cell(20, [['Test', X.name], ['Result', X.value], ['Flag', X.flag], ['Units', X.unit], ['Reference limit', X.ref]]),
    cell(34, [['Vitamin D total (D2 + D3)', X.name], ['41', X.value], ['ng/mL', X.unit], ['≥ 30', X.ref]]),
    cell(47, [['Sodium', X.name], ['139', X.value], ['mmol/L', X.unit], ['135 – 145', X.ref]]),
    cell(60, [['Triglycerides', X.name], ['182', X.value], ['H', X.flag], ['mg/dL', X.unit], ['≤ 150', X.ref]]),
    cell(73, [['Ferritin', X.name], ['88', X.value], ['ng/mL', X.unit], ['30 – 400', X.ref]]),
  ];
  it('"Limits: vitamin D ≥ 30 ng/mL per guidance" under a row "Vitamin D total (D2 + D3)" with that bound is no result', () => {
    const r = parse([...table, cell(100, [['Limits: vitamin D ≥ 30 ng/mL per the society guidance; sodium per the laboratory.', 40]])]);
    expect(r.map((x) => x.test_name)).toEqual(['Vitamin D total (D2 + D3)', 'Sodium', 'Triglycerides', 'Ferritin']);
  });
  it('negative: a note whose bound is not the row\'s range stays a reading; a censored row named like another stays', () => {
    const other = parse([...table, cell(100, [['Limits: vitamin D ≥ 20 ng/mL per the society guidance; sodium per the laboratory.', 40]])]);
    expect(other.map((x) => x.test_name)).toContain('vitamin D');
    const again = parse([
      cell(20, [['Test', X.name], ['Result', X.value], ['Units', X.unit], ['Reference', X.ref]]),
      cell(34, [['Lead', X.name], ['3.2', X.value], ['ug/dL', X.unit], ['<5.0', X.ref]]),
      cell(47, [['Mercury', X.name], ['<1.0', X.value], ['ug/L', X.unit], ['<10.0', X.ref]]),
      cell(60, [['Cadmium', X.name], ['0.4', X.value], ['ug/L', X.unit], ['<1.0', X.ref]]),
    ]);
    expect(byName(again, 'Mercury')).toMatchObject({ value: '<1.0' });
  });
});
