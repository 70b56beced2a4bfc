import { describe, expect, it } from 'vitest';
import { patientSex } from '../../domain/lab-report/metadata.js';
import { headingUnit } from '../../domain/lab-report/panels.js';
import { parseLabReport } from '../../domain/lab-report/parse.js';
import { rangeForSex, sexOfRange } from '../../domain/lab-report/ranges.js';
import { type ExtractedPage, type TextLine } from '../../domain/lab-report/types.js';
import { byName, line, parseLines, row } from '../support/lab-report-lines.js';

// Issue 14, tenth pass: ranges for both sexes with the patient's sex stated, a panel's unit in its heading,
// a single-test certificate's labelled lines.
const parse = parseLines;
const meta = (...texts: string[]) => texts.map((text) => ({ text, page: 1 }));

describe('the patient\'s sex and ranges printed for both sexes', () => {
  it('reads the sex a report states, after an age too ("Age/Sex: 54 Y / M"), in Russian and Greek', () => {
    expect(patientSex(meta('Patient: Jane Roe   Sex: Female'))).toBe('F');
    expect(patientSex(meta('Age/Sex   : 54 Y / M'))).toBe('M');
    expect(patientSex(meta('Пол:   Мужской'))).toBe('M');
    expect(patientSex(meta('ΦΥΛΟ:   Θήλυ'))).toBe('F');
  });
  it('negative: no label, or two labels that disagree, give no sex', () => {
    expect(patientSex(meta('Female hormone panel'))).toBeUndefined();
    expect(patientSex(meta('Sex: M', 'Gender: Female'))).toBeUndefined();
  });
  it('one line with both sexes gives the patient\'s bounds; negative: no sex, a third range, or other text give none', () => {
    expect(rangeForSex('M: 13.0-17.0 F: 12.0-15.0', 'F', false)).toMatchObject({ min: 12, max: 15, text: 'M: 13.0-17.0 F: 12.0-15.0' });
    expect(rangeForSex('Male 0.7-1.3 / Female 0.6-1.1', 'M', false)).toMatchObject({ min: 0.7, max: 1.3 });
    expect(rangeForSex('M: 13.0-17.0 F: 12.0-15.0', undefined, false)).toBeUndefined();
    expect(rangeForSex('M: 13-17 F: 12-15 Child: 11-14', 'F', false)).toBeUndefined();
    expect(rangeForSex('Adult 13-17 F: 12-15', 'F', false)).toBeUndefined();
    expect(sexOfRange('Female: 0.59 - 1.04', false)).toBe('F');
    expect(sexOfRange('Follicular: 2.4 - 12.6', false)).toBeUndefined();
  });
  const X = { name: 40, value: 200, unit: 250, ref: 320 };
  it('a report stating the sex: the one-line range takes that sex\'s bounds and the interpretation follows them', () => {
    const r = parse([
      line(10, 'Patient Name: Akinyi Odhiambo   Sex: Female'),
      row(24, [['TEST', X.name], ['RESULT', X.value], ['UNITS', X.unit], ['REFERENCE RANGE', X.ref]]),
      row(38, [['Haemoglobin', X.name], ['12.4', X.value], ['g/dL', X.unit], ['M: 13.0-17.0 F: 12.0-15.0', X.ref]]),
    ]);
    expect(byName(r, 'Haemoglobin')).toMatchObject({ min_reference_range: 12, max_reference_range: 15, interpretation: 'normal', reference_range_text: 'M: 13.0-17.0 F: 12.0-15.0' });
  });
  it('the other sex\'s line printed first: the line of the patient\'s sex under it is the row\'s range', () => {
    const r = parse([
      line(10, 'Patient: Karen Davis   Sex: Female'),
      row(24, [['Test', X.name], ['Result', X.value], ['Units', X.unit], ['Reference Range', X.ref]]),
      row(38, [['Hemoglobin', X.name], ['12.9', X.value], ['g/dL', X.unit], ['Male: 13.2 - 17.1', X.ref]]),
      row(50, [['Female: 11.7 - 15.5', X.ref]]),
      row(64, [['Glucose', X.name], ['88', X.value], ['mg/dL', X.unit], ['70 - 99', X.ref]]),
    ]);
    expect(byName(r, 'Hemoglobin')).toMatchObject({ min_reference_range: 11.7, max_reference_range: 15.5, interpretation: 'normal' });
    expect(r).toHaveLength(2);
  });
  it('negative: with no sex stated, the first line keeps its bounds and the both-sexes line none (as before)', () => {
    const r = parse([
      row(24, [['Test', X.name], ['Result', X.value], ['Units', X.unit], ['Reference Range', X.ref]]),
      row(38, [['Haemoglobin', X.name], ['12.4', X.value], ['g/dL', X.unit], ['M: 13.0-17.0 F: 12.0-15.0', X.ref]]),
    ]);
    expect(byName(r, 'Haemoglobin').min_reference_range).toBeUndefined();
  });
});

describe('a panel heading that gives the unit of its rows', () => {
  it('reads the unit in brackets at the heading\'s end or after "Units:"; negative: words in brackets are no unit', () => {
    expect(headingUnit('LIPID PROFILE (mg/dL)')).toBe('mg/dL');
    expect(headingUnit('ELECTROLYTES - Units: mmol/L')).toBe('mmol/L');
    expect(headingUnit('Electrolytes [mmol/L]')).toBe('mmol/L');
    expect(headingUnit('CBC (continued)')).toBeUndefined();
    expect(headingUnit('Lipids (fasting)')).toBeUndefined();
  });
  it('rows without a unit column take their panel heading\'s unit; negative: a row printing its own unit keeps it', () => {
    const X = { name: 50, value: 250, ref: 330, remark: 450 };
    const r = parse([
      line(10, 'LIPID PROFILE (mg/dL)'),
      row(24, [['TEST', X.name], ['RESULT', X.value], ['REFERENCE VALUES', X.ref], ['REMARK', X.remark]]),
      row(38, [['Total Cholesterol', X.name], ['175', X.value], ['<200', X.ref]]),
      row(52, [['LDL Cholesterol', X.name], ['144', X.value], ['<130', X.ref], ['High', X.remark]]),
      line(70, 'ELECTROLYTES - Units: mmol/L'),
      row(84, [['Sodium', X.name], ['138', X.value], ['135 - 145', X.ref]]),
      row(98, [['Potassium', X.name], ['5.6 mmol/L', X.value], ['3.5 - 5.0', X.ref]]),
    ]);
    expect(byName(r, 'Total Cholesterol').units).toBe('mg/dL');
    expect(byName(r, 'LDL Cholesterol')).toMatchObject({ units: 'mg/dL', interpretation: 'abnormal' });
    expect(byName(r, 'Sodium').units).toBe('mmol/L');
    expect(byName(r, 'Sodium').loinc_matches?.[0]?.loinc_code).toBe('2951-2');
    expect(byName(r, 'Potassium').units).toBe('mmol/L');
  });
});

describe('a single-test certificate', () => {
  it('"Test:" names the "Result:" under it; "Protective level:" / "Reference interval:" is its range, not a result', () => {
    const r = parse([
      line(10, 'HEPATITIS B IMMUNITY CERTIFICATE', 200),
      line(30, 'This is to certify that a blood sample from Oliver Turner, date of birth 8 November 1954,'),
      row(60, [['Test:', 80], ['Anti-HBs (Hepatitis B surface antibody), quantitative', 210]]),
      row(80, [['Method:', 80], ['Chemiluminescent microparticle immunoassay (CMIA)', 210]]),
      row(100, [['Result:', 80], ['176.1 mIU/mL', 210]]),
      row(120, [['Protective level:', 80], ['>= 10 mIU/mL', 210]]),
      row(140, [['Interpretation:', 80], ['IMMUNE (protective antibody level)', 210]]),
    ]);
    expect(r).toHaveLength(1);
    expect(r[0]).toMatchObject({ test_name: 'Anti-HBs (Hepatitis B surface antibody), quantitative', value: '176.1', units: 'mIU/mL', min_reference_range: 10, interpretation: 'normal' });
    expect(r[0]!.loinc_matches?.[0]?.loinc_code).toBe('16935-9');
  });
  it('the same with "Reference interval:"; negative: a "Result:" line with no test named above it is no result', () => {
    const r = parse([row(60, [['Test:', 80], ['HbA1c (glycated haemoglobin)', 210]]), row(80, [['Result:', 80], ['6.1 %', 210]]), row(100, [['Reference interval:', 80], ['4.0 - 5.6 %', 210]])]);
    expect(r[0]).toMatchObject({ test_name: 'HbA1c (glycated haemoglobin)', value: '6.1', max_reference_range: 5.6, interpretation: 'abnormal' });
    expect(parse([row(80, [['Result:', 80], ['6.1 %', 210]])])).toHaveLength(0);
  });
});

describe('a method column between the result and the unit (OCR)', () => {
  const X = { name: 45, value: 214, method: 269, unit: 363, ref: 429 };
  const r = (y: number, name: string, value: string, method: string, unit: string, ref: string) =>
    row(y, [[name, X.name], [value, X.value], [method, X.method], [unit, X.unit], [ref, X.ref]]);
  const page = [
    row(100, [['TEST', X.name], ['RESULT', X.value], ['METHOD', X.method], ['UNIT', X.unit], ['REFERENCE RANGE', X.ref]]),
    r(118, 'Glucose (Fasting)', '83', 'GOD-PAP', 'mg/dL', '70-100'),
    r(135, 'Urea', '53H', 'Urease-GLDH', 'mg/dL', '10-50'),
    r(152, 'Creatinine', '1.22 H', 'Jaffe Kinetic', 'mg/dL', '0.60-1.10'),
    r(169, 'ALT (SGPT)', '15', 'FCC', 'U/L', '<41'),
    r(186, 'Alkaline Phosphatase', '28 L', 'PHOTOMETRY', 'U/L', '40 - 129'),
    r(203, 'Total Cholesterol', '212H', 'CHOD-PAP', 'mg/dL', '<200'),
    r(220, 'Ferritin', '46', 'C.LILA', 'ng/mL', '13-150'),
  ];
  it('a bound in the range column, with the method cell before it, is the row\'s range, not a result named by the method', () => {
    const results = parseLabReport([{ page: 1, source: 'ocr', lines: page } as ExtractedPage], { currentYear: 2025 }).results;
    expect(results.map((x) => x.test_name)).not.toContain('FCC');
    expect(results.map((x) => x.test_name)).not.toContain('CHOD-PAP');
    expect(byName(results, 'ALT (SGPT)')).toMatchObject({ value: '15', reference_range_text: '<41' });
    expect(byName(results, 'Total Cholesterol')).toMatchObject({ value: '212', reference_range_text: '<200' });
  });
  it('negative: a result whose value is a bound ("<0.5") is kept when no row on its line has that range', () => {
    const results = parse([
      row(100, [['TEST', X.name], ['RESULT', X.value], ['UNIT', X.unit], ['REFERENCE RANGE', X.ref]]),
      row(118, [['CRP', X.name], ['<0.5', X.value], ['mg/L', X.unit], ['<5.0', X.ref]]),
    ]);
    expect(byName(results, 'CRP')).toMatchObject({ value: '<0.5', reference_range_text: '<5.0' });
  });
});

describe('worded bounds and both-sexes ranges in a row read without columns (OCR of a header it could not read)', () => {
  const ocrParse = (lines: TextLine[]) => parseLabReport([{ page: 1, source: 'ocr', lines } as ExtractedPage], { currentYear: 2025 }).results;
  const X = { name: 190, value: 550, unit: 675, ref: 845 };
  const r = (y: number, name: string, value: string, unit: string, ref: string) => row(y, [[name, X.name], [value, X.value], [unit, X.unit], [ref, X.ref]]);
  it('"Above 1.0", "Below 5.0", "At least 60" are ranges like "Up to 40"; a second sex label that lost its colon still belongs to the range', () => {
    const results = ocrParse([
      line(10, 'Sex:   Female', 200),
      row(40, [['RE SE', 198], ['RESULT Uns', 561], ['REFERENCE RANGE', 856], ['EAS', 1190]]),
      r(60, 'Haemoglobin', '13.7', 'g/dL', 'M: 13.0-17.0 F 12.0-15.0'),
      r(80, 'ALT (SGPT)', '28', 'U/L', 'Up to 40'),
      r(100, 'HDL Cholesterol', '1.50', 'mmol/L', 'Above 1.0'),
      r(120, 'CRP', '2.1', 'mg/L', 'Below 5.0'),
      r(140, 'eGFR', '84', 'mL/min/1.73m2', 'At least 60'),
    ]);
    expect(byName(results, 'HDL Cholesterol')).toMatchObject({ reference_range_text: 'Above 1.0', min_reference_range: 1, interpretation: 'normal' });
    expect(byName(results, 'CRP')).toMatchObject({ max_reference_range: 5, interpretation: 'normal' });
    expect(byName(results, 'eGFR')).toMatchObject({ min_reference_range: 60 });
    expect(byName(results, 'Haemoglobin')).toMatchObject({ reference_range_text: 'M: 13.0-17.0 F 12.0-15.0', min_reference_range: 12, max_reference_range: 15 });
  });
  it('negative: "above" / "below" before a word is a status, not a range ("Above optimal", "Below reference range")', () => {
    const results = ocrParse([r(60, 'Vitamin D', '92', 'ng/mL', 'Above optimal'), r(80, 'Ferritin', '12', 'ng/mL', 'Below reference range')]);
    expect(byName(results, 'Vitamin D').reference_range_text).toBeUndefined();
    expect(byName(results, 'Ferritin').reference_range_text).toBeUndefined();
  });
});

describe('a range label alone on its line, the range on the next', () => {
  it('"Valores de referência:" then "70 a 99 mg/dL", or "Desejável: inferior a 190 mg/dL", is the range of the result above', () => {
    const r = parse([
      line(10, 'GLICOSE'),
      row(24, [['Resultado:', 50], ['84 mg/dL', 120]]),
      line(38, 'Valores de referência:'),
      line(52, '70 a 99 mg/dL', 62),
      line(70, 'COLESTEROL TOTAL'),
      row(84, [['Resultado:', 50], ['152 mg/dL', 120]]),
      line(98, 'Valores de referência:'),
      line(112, 'Desejável: inferior a 190 mg/dL', 62),
    ]);
    expect(byName(r, 'GLICOSE')).toMatchObject({ value: '84', min_reference_range: 70, max_reference_range: 99, interpretation: 'normal' });
    expect(byName(r, 'COLESTEROL TOTAL')).toMatchObject({ value: '152', max_reference_range: 190 });
    expect(r).toHaveLength(2);
  });
  it('negative: a line of numbers after a lone label with no result waiting above is left alone, and without the label a bare range line is no range', () => {
    expect(parse([line(10, 'Valores de referência:'), line(24, '70 a 99 mg/dL', 62)])).toHaveLength(0);
    const r = parse([line(10, 'GLICOSE'), row(24, [['Resultado:', 50], ['84 mg/dL', 120]]), line(38, 'Método: enzimático'), line(52, '70 a 99 mg/dL', 62)]);
    expect(byName(r, 'GLICOSE').reference_range_text).toBeUndefined();
  });
});
