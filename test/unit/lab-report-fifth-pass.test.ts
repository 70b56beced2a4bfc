import { describe, expect, it } from 'vitest';
import { headerRoleOf } from '../../domain/lab-report/layout.js';
import { dobOfPersonalNumber, extractMetadata } from '../../domain/lab-report/metadata.js';
import { parseLabReport } from '../../domain/lab-report/parse.js';
import { parseAgeBand, rangeForAge } from '../../domain/lab-report/ranges.js';
import { type ExtractedPage, type ParsedResult, type TextLine } from '../../domain/lab-report/types.js';
import { unitKind } from '../../domain/lab-report/units.js';

// Rules of issue 14's fifth pass, each for a class of layout (none keyed to a corpus family).
const cells = (y: number, ...parts: [number, string][]): TextLine => ({ text: parts.map(([, t]) => t).join(' '), y, cells: parts.map(([x, t]) => ({ x, text: t })) });
const text = (t: string, y: number): TextLine => ({ text: t, y });
const page = (lines: TextLine[]): ExtractedPage => ({ page: 1, source: 'text_layer', lines });
const parse = (lines: TextLine[]) => parseLabReport([page(lines)], { currentYear: 2025 });
const byName = (results: ParsedResult[], name: string): ParsedResult => {
  const r = results.find((x) => x.test_name === name);
  if (!r) throw new Error(`no result "${name}" in ${results.map((x) => x.test_name).join(', ')}`);
  return r;
};

describe('column headings with a qualifier or a combined cell', () => {
  it.each([
    ['Age-Specific Reference Range', 'range'],
    ['Adult Reference Interval', 'range'],
    ['Reference / Risk Categories', 'range'],
    ['Reference Range (age-specific)', 'range'],
    ['Result (Ref. Range) Flag', 'result'],
    ['Result / Flag / Units', 'result'],
    ['Reference Range', 'range'],
  ])('%s → %s', (heading, role) => expect(headerRoleOf(heading)).toBe(role));

  it.each([['Result / Flag'.replace('Result', 'Units')], ['Units / Comments'], ['Patient Date Of Birth'], ['Flag (Result)'], ['Reference / Units Comments Here']])('%s names no single column', (heading) =>
    expect(headerRoleOf(heading)).toBeUndefined(),
  );

  it('reads rows under an age-specific range heading through its column', () => {
    const r = parse([
      cells(10, [40, 'Test'], [200, 'Result'], [260, 'Flag'], [300, 'Units'], [380, 'Age-Specific Reference Range']),
      cells(30, [40, 'Potassium'], [200, '4.9'], [260, 'H'], [300, 'mmol/L'], [380, '3.4 - 4.7']),
      cells(44, [40, 'Sodium'], [200, '140'], [300, 'mmol/L'], [380, '135 - 145']),
    ]).results;
    expect(byName(r, 'Potassium')).toMatchObject({ value: '4.9', min_reference_range: 3.4, max_reference_range: 4.7, flag: 'H' });
    expect(byName(r, 'Sodium')).toMatchObject({ min_reference_range: 135, max_reference_range: 145, interpretation: 'normal' });
  });

  it('takes the name from the name column, not a code column beside it, and the range and flag from the result cell', () => {
    const r = parse([
      cells(10, [40, 'Code'], [96, 'Test'], [274, 'Result (Ref. Range) Flag'], [424, 'Unit']),
      cells(30, [40, 'CRE'], [96, 'Creatinine'], [274, '86 (64 - 104)'], [424, 'umol/L']),
      cells(44, [40, 'HDL'], [96, 'HDL-Cholesterol'], [274, '0.79 (>1.0) L'], [424, 'mmol/L']),
    ]).results;
    expect(r.map((x) => x.test_name)).toEqual(['Creatinine', 'HDL-Cholesterol']);
    expect(byName(r, 'Creatinine')).toMatchObject({ value: '86', units: 'umol/L', min_reference_range: 64, max_reference_range: 104 });
    expect(byName(r, 'HDL-Cholesterol')).toMatchObject({ value: '0.79', min_reference_range: 1, flag: 'L', interpretation: 'abnormal' });
  });
});

describe('risk categories under a result', () => {
  it('joins category lines with ">=" bounds and bracketed asides, and keeps no bounds', () => {
    const r = parse([
      cells(10, [40, 'Test'], [200, 'Result'], [260, 'Units'], [330, 'Reference / Risk Categories']),
      cells(30, [40, 'HDL Cholesterol'], [200, '71'], [260, 'mg/dL'], [330, 'Low (higher risk)'], [430, '<40']),
      cells(40, [330, 'High (lower risk)'], [430, '>=60']),
      cells(56, [40, 'Cholesterol, Total'], [200, '213'], [260, 'mg/dL'], [330, 'Desirable'], [430, '<200']),
      cells(66, [330, 'Borderline high'], [430, '200-239']),
      cells(76, [330, 'High'], [430, '>=240']),
    ]).results;
    expect(r).toHaveLength(2);
    const hdl = byName(r, 'HDL Cholesterol');
    expect(hdl.reference_range_text).toBe('Low (higher risk) <40; High (lower risk) >=60');
    expect(hdl.min_reference_range).toBeUndefined();
    expect(hdl.max_reference_range).toBeUndefined();
    const chol = byName(r, 'Cholesterol, Total');
    expect(chol.reference_range_text).toBe('Desirable <200; Borderline high 200-239; High >=240');
    expect(chol.max_reference_range).toBeUndefined();
  });
});

describe('lines wholly inside the range column', () => {
  it('are no results, even with a word and a number ("High  10  >=240", categories jumbled by OCR)', () => {
    const r = parse([
      cells(10, [40, 'Test'], [200, 'Result'], [260, 'Units'], [330, 'Reference / Risk Categories']),
      cells(30, [40, 'Cholesterol, Total'], [200, '176'], [260, 'mg/dL'], [330, 'Desirable'], [430, '<200']),
      cells(40, [332, 'High'], [390, '10'], [431, '>=240']),
      cells(56, [40, 'Triglycerides'], [200, '248'], [260, 'mg/dL'], [330, 'Normal'], [430, '<150']),
    ]).results;
    expect(r.map((x) => x.test_name)).toEqual(['Cholesterol, Total', 'Triglycerides']);
  });
});

describe('ranges by age band', () => {
  const y = 365.25;
  it('parses band labels in years, months, open bands', () => {
    expect(parseAgeBand('1-3 y 0.10 - 0.36', false)).toMatchObject({ from: 1, to: 3, unit: y, range: { min: 0.1, max: 0.36 } });
    expect(parseAgeBand('13-15 y (M) 116 - 468', false)).toMatchObject({ from: 13, to: 15, range: { min: 116, max: 468 } });
    expect(parseAgeBand('<1 yr: 122-469', false)).toMatchObject({ from: 0, to: 0 });
    expect(parseAgeBand('15+ years 50-117', false)).toMatchObject({ from: 15, to: Infinity });
    expect(parseAgeBand('6-12 mo 9.5-14.0', false)?.unit).toBeCloseTo(y / 12);
    expect(parseAgeBand('Follicular phase 2.4 - 12.6', false)).toBeUndefined();
    expect(parseAgeBand('1-3 y see note', false)).toBeUndefined();
    expect(parseAgeBand('135 - 145', false)).toBeUndefined();
  });

  it('picks the band that holds the age; on a shared bound the band starting there', () => {
    const bands = ['1-3 y 0.10 - 0.36', '3-5 y 0.20 - 0.43', '5-12 y 0.31 - 0.61'].map((b) => parseAgeBand(b, false)!);
    expect(rangeForAge(bands, 2.5 * y)).toMatchObject({ min: 0.1, max: 0.36 });
    expect(rangeForAge(bands, 3.2 * y)).toMatchObject({ min: 0.2, max: 0.43 });
    expect(rangeForAge(bands, 11.9 * y)).toMatchObject({ min: 0.31, max: 0.61 });
    expect(rangeForAge(bands, 40 * y)).toBeUndefined();
    expect(rangeForAge(bands, Number.NaN)).toBeUndefined();
    const open = ['<1 y 122-469', '1-9 y 142-335', '10+ y 129-417'].map((b) => parseAgeBand(b, false)!);
    expect(rangeForAge(open, 0.5 * y)).toMatchObject({ min: 122 });
    expect(rangeForAge(open, 9.5 * y)).toMatchObject({ min: 142 });
    expect(rangeForAge(open, 30 * y)).toMatchObject({ min: 129 });
  });

  it('refuses to choose between bands by sex for the same ages', () => {
    const bands = ['13-15 y (M) 116 - 468', '13-15 y (F) 57 - 254'].map((b) => parseAgeBand(b, false)!);
    expect(rangeForAge(bands, 14 * y)).toBeUndefined();
  });

  const report = (dob: string | undefined) => [
    ...(dob ? [text(`Patient: Price, Logan    DOB: ${dob}`, 4)] : [text('Patient: Price, Logan', 4)]),
    text('Collected: 05/13/2024 10:37', 12),
    cells(30, [40, 'Test'], [200, 'Result'], [250, 'Flag'], [290, 'Units'], [360, 'Reference Range']),
    cells(50, [40, 'Creatinine'], [200, '0.43'], [250, 'H'], [290, 'mg/dL'], [360, '1-3 y'], [430, '0.10 - 0.36']),
    cells(60, [360, '3-5 y'], [430, '0.20 - 0.43']),
    cells(70, [360, '5-12 y'], [430, '0.31 - 0.61']),
    cells(86, [40, 'Phosphorus'], [200, '4.9'], [290, 'mg/dL'], [360, '1-4 y'], [430, '3.8 - 6.5']),
    cells(96, [360, '4-12 y'], [430, '3.7 - 5.6']),
  ];

  it("takes the bounds of the patient's band (birth date and collection date printed), the text keeps every band", () => {
    const r = parse(report('06/21/2021')).results;
    expect(r).toHaveLength(2);
    const creat = byName(r, 'Creatinine');
    expect(creat.reference_range_text).toBe('1-3 y 0.10 - 0.36; 3-5 y 0.20 - 0.43; 5-12 y 0.31 - 0.61');
    expect(creat).toMatchObject({ min_reference_range: 0.1, max_reference_range: 0.36, flag: 'H', interpretation: 'abnormal' });
    expect(byName(r, 'Phosphorus')).toMatchObject({ min_reference_range: 3.8, max_reference_range: 6.5, interpretation: 'normal' });
  });

  it('keeps no bounds when the age is not known', () => {
    const r = parse(report(undefined)).results;
    expect(r).toHaveLength(2);
    expect(byName(r, 'Phosphorus').min_reference_range).toBeUndefined();
    expect(byName(r, 'Phosphorus').reference_range_text).toBe('1-4 y 3.8 - 6.5; 4-12 y 3.7 - 5.6');
  });
});

describe('one-letter names with an ion charge', () => {
  it('reads "K+" as potassium on an analyser ticket, and a bare letter not', () => {
    const r = parse([
      cells(10, [187, 'GLU'], [221, '112'], [247, 'mg/dL'], [276, '73-118']),
      cells(21, [187, 'K+'], [221, '4.4'], [247, 'mmol/L 3.6-5.1']),
      cells(32, [187, 'X'], [221, '4.4'], [247, 'mmol/L 3.6-5.1']),
    ]).results;
    expect(r.map((x) => x.test_name)).toEqual(['GLU', 'K+']);
    expect(byName(r, 'K+')).toMatchObject({ value: '4.4', units: 'mmol/L', min_reference_range: 3.6, max_reference_range: 5.1 });
  });
});

describe('units and metadata in more languages', () => {
  it('knows Polish count units', () => {
    expect(unitKind('tys/µl')).toBe('count');
    expect(unitKind('mln/µl')).toBe('count');
    expect(unitKind('tys')).toBeUndefined();
  });

  const lines = (...texts: string[]) => texts.map((t) => ({ text: t, page: 1 }));
  it('reads the birth date a Swedish personal number begins with', () => {
    expect(dobOfPersonalNumber('19650412-1234')).toBe('1965-04-12');
    expect(dobOfPersonalNumber('650412-1234', 2025)).toBe('1965-04-12');
    expect(dobOfPersonalNumber('100412-1234', 2025)).toBe('2010-04-12');
    expect(dobOfPersonalNumber('100412+1234', 2025)).toBe('1910-04-12');
    expect(dobOfPersonalNumber('19651332-1234')).toBe('');
    expect(dobOfPersonalNumber('K751126676')).toBe('');
    const m = extractMetadata(lines('Namn:   Andersson, Erik        Provnummer:   K751126676', 'Personnummer:   19650412-1234      Provtagningstid:   2024-04-16 08:12'));
    expect(m).toMatchObject({ patient_first_name: 'Erik', patient_last_name: 'Andersson', dob: '1965-04-12', date_collected: '2024-04-16', specimen_number: 'K751126676' });
  });

  it('reads Polish labels, the family name first after "Pacjent"', () => {
    const m = extractMetadata(lines('Pacjent:   Kowalska Anna        PESEL:   85031212345', 'Data urodzenia:   12.03.1985    Data i godz. pobrania:   10.05.2024 08:03'), { dateOrder: 'dmy' });
    expect(m).toMatchObject({ patient_first_name: 'Anna', patient_last_name: 'Kowalska', dob: '1985-03-12', date_collected: '2024-05-10' });
  });

  it('reads the value after a bilingual pair of labels', () => {
    const m = extractMetadata(lines('Patient / Patient:   TREMBLAY, Liam', 'Date of Birth / Date de naissance:   1961-05-07'));
    expect(m).toMatchObject({ patient_first_name: 'Liam', patient_last_name: 'TREMBLAY', dob: '1961-05-07' });
  });
});
