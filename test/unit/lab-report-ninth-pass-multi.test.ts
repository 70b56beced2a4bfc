import { describe, expect, it } from 'vitest';
import { parseLabReport } from '../../domain/lab-report/parse.js';
import { readByProximity } from '../../domain/lab-report/proximity.js';
import { parseRange } from '../../domain/lab-report/ranges.js';
import { type ExtractedPage, type ParsedResult, type TextLine } from '../../domain/lab-report/types.js';

// Ninth pass: lines that hold two results, and ranges printed over several lines (each rule for a class of layout).
const text = (t: string, y: number): TextLine => ({ text: t, y });
/** A line of positioned cells, as a PDF's text layer gives it: [text, x] pairs. */
const cells = (y: number, ...cs: [string, number][]): TextLine => ({ text: cs.map((c) => c[0]).join(' '), y, cells: cs.map(([t, x]) => ({ text: t, x, width: t.length * 5 })) });
const page = (lines: TextLine[]): ExtractedPage => ({ page: 1, source: 'text_layer', lines });
const parse = (lines: TextLine[]) => parseLabReport([page(lines)], { currentYear: 2025 }).results;
const named = (results: ParsedResult[], name: string): ParsedResult[] => results.filter((x) => x.test_name === name);

describe('one test printed in two units on one line', () => {
  it('reads both readings of "Urea  6.1 mmol/L (2.8-7.2)  17 mg/dL (8-20)", the first printed first', () => {
    const r = parse([
      text('Analyte          SI units                   Conventional units', 10),
      text('Urea             6.1 mmol/L (2.8-7.2)       17 mg/dL (8-20)', 20),
      text('Albumin          52 g/L (35-50) H           5.2 g/dL (3.5-5.0) H', 30),
    ]);
    const urea = named(r, 'Urea');
    expect(urea.map((x) => [x.value, x.units])).toEqual([
      ['6.1', 'mmol/L'],
      ['17', 'mg/dL'],
    ]);
    expect(urea[1]).toMatchObject({ min_reference_range: 8, max_reference_range: 20 });
    const albumin = named(r, 'Albumin');
    expect(albumin.map((x) => [x.value, x.units, x.interpretation])).toEqual([
      ['52', 'g/L', 'abnormal'],
      ['5.2', 'g/dL', 'abnormal'],
    ]);
  });

  it('does not split a second group in the same unit (a previous result), nor a bare range after the value', () => {
    const r = parse([
      text('Potassium        4.4 mmol/L (3.5-5.1)       4.0 mmol/L', 10),
      text('Sodium           141 mmol/L                 136-146', 20),
    ]);
    expect(named(r, 'Potassium').map((x) => x.value)).toEqual(['4.4']);
    expect(named(r, 'Sodium').map((x) => x.value)).toEqual(['141']);
  });

  it('does not take a class number after a value for a second reading, the unit being only in the heading or the name', () => {
    // From OCR, an allergen code in brackets may read as a unit ("(e1)" as "(e/l)").
    const lines = [
      cells(10, ['Allergen', 20], ['Result (kUA/L)', 300], ['Class', 420]),
      cells(20, ['Horse dander (e/l)', 20], ['12.40', 300], ['3', 430]),
      cells(30, ['Mould mix (mx1)', 20], ['0.08', 300], ['0', 430]),
    ];
    const r = parseLabReport([{ page: 1, source: 'ocr', lines }], { currentYear: 2025 }).results;
    expect(r.map((x) => x.value)).toEqual(['12.40', '0.08']);
  });
});

describe('two tests side by side on one line', () => {
  it('reads both halves of a table printed two tests to a line, its header repeated', () => {
    const r = parse([
      text('Test     Result   Unit       Range         Test      Result   Unit       Range', 10),
      text('Hb       151      g/L        135-175       Hct       0.45     L/L        0.40-0.52', 20),
      text('Lymph %  22.5     %          20-45         Lymph abs   1.64     10^9/L     1.0-4.0', 30),
      text('Mono %   11.9 +   %          2-10          Mono abs    0.85 +   10^9/L     0.2-0.8', 40),
    ]);
    expect(r.map((x) => x.test_name)).toEqual(['Hb', 'Hct', 'Lymph %', 'Lymph abs', 'Mono %', 'Mono abs']);
    expect(named(r, 'Hct')[0]).toMatchObject({ value: '0.45', units: 'L/L', min_reference_range: 0.4, max_reference_range: 0.52 });
    expect(named(r, 'Mono abs')[0]).toMatchObject({ value: '0.85', interpretation: 'abnormal' });
  });

  it('reads the same halves separated by a bar, without a header', () => {
    const r = parse([text('Ferritin  88 ug/L  30-400  |  Transferrin  2.7 g/L  2.0-3.6', 10)]);
    expect(r.map((x) => [x.test_name, x.value])).toEqual([
      ['Ferritin', '88'],
      ['Transferrin', '2.7'],
    ]);
  });

  it('does not make a second test of words after a complete row (a comment, a method)', () => {
    const r = parse([text('Ferritin     88     ug/L     30-400     Comment     see note 2', 10)]);
    expect(r.map((x) => x.test_name)).toEqual(['Ferritin']);
  });
});

describe('a reference given as category tiers on successive lines', () => {
  it('joins the tiers with "; ", without bounds, and says nothing of the value', () => {
    const r = parse([
      cells(10, ['Test', 20], ['Result', 200], ['Unit', 260], ['Reference', 330]),
      cells(20, ['25-OH Vitamin D', 20], ['33.0', 200], ['ng/mL', 260], ['Deficient', 330], ['<12', 420]),
      cells(30, ['Insufficient', 330], ['12-<20', 420]),
      cells(40, ['Adequate', 330], ['20-50', 420]),
      cells(50, ['Cystatin C', 20], ['0.91', 200], ['mg/L', 260], ['0.61-0.95', 330]),
    ]);
    expect(named(r, '25-OH Vitamin D')[0]).toMatchObject({ reference_range_text: 'Deficient <12; Insufficient 12-<20; Adequate 20-50' });
    expect(named(r, '25-OH Vitamin D')[0]!.min_reference_range).toBeUndefined();
    expect(named(r, '25-OH Vitamin D')[0]!.interpretation).toBeUndefined();
    expect(named(r, 'Cystatin C')[0]).toMatchObject({ min_reference_range: 0.61, max_reference_range: 0.95 });
  });

  it('joins tiers named by a code and up to six words ("S3a Mild to moderate loss 45-59")', () => {
    const r = parse([
      cells(10, ['Test', 20], ['Result', 200], ['Unit', 260], ['Reference', 360]),
      cells(20, ['Estimated GFR', 20], ['88', 200], ['mL/min/1.73m2', 260], ['S1 Normal or high', 360], ['>=90', 480]),
      cells(30, ['S2 Mildly reduced', 360], ['60-89', 480]),
      cells(40, ['S3a Mild to moderate loss', 360], ['45-59', 480]),
      cells(50, ['S3b Moderate to severe loss', 360], ['30-44', 480]),
    ]);
    expect(named(r, 'Estimated GFR')[0]!.reference_range_text).toBe('S1 Normal or high >=90; S2 Mildly reduced 60-89; S3a Mild to moderate loss 45-59; S3b Moderate to severe loss 30-44');
  });

  it('does not join the next result under a plain range to it', () => {
    const r = parse([text('Creatinine     0.9     mg/dL     0.6-1.2', 10), text('Urea Nitrogen     14     mg/dL     7-20', 20)]);
    expect(r.map((x) => [x.test_name, x.reference_range_text])).toEqual([
      ['Creatinine', '0.6-1.2'],
      ['Urea Nitrogen', '7-20'],
    ]);
  });

  it('reads "20-<30" as a span whose upper bound is excluded, and no inverted one', () => {
    expect(parseRange('20-<30', false)).toMatchObject({ min: 20, max: 30, minInclusive: true, maxInclusive: false });
    expect(parseRange('12 - < 20 ng/mL', false)).toMatchObject({ min: 12, max: 20, maxInclusive: false });
    expect(parseRange('30-<20', false)?.min).toBeUndefined();
  });
});

describe('a tier of a range read by proximity', () => {
  const line = (y: number, ...cells: [string, number][]) => ({
    line: { text: cells.map((c) => c[0]).join(' '), y },
    y,
    cells: cells.map(([t, x]) => ({ text: t, x, right: x + t.length * 5 })),
  });
  const opts = { decimalComma: false, isKnownName: () => false };

  it('takes "ng/mL  Deficient <12" under a heading for a range, not a value of the heading', () => {
    const rows = readByProximity([line(10, ['VITAMINS', 0]), line(20, ['ng/mL', 300], ['Deficient <12', 360])], opts);
    expect(rows).toEqual([]);
  });

  it('still reads a value with its unit under a name', () => {
    const rows = readByProximity([line(10, ['Ferritin', 0]), line(20, ['<12', 300], ['ng/mL', 360])], opts);
    expect(rows.map((p) => [p.row.name, p.row.value.value])).toEqual([['Ferritin', '<12']]);
  });
});

describe('an absolute count marked by "#" after its name', () => {
  it('reads "GRAN#  3.12  x10^9/L  1.8-7.0" as a result named GRAN#', () => {
    const r = parse([text('GRAN%     61.0     %     45-75', 10), text('GRAN#     3.12     x10^9/L     1.8-7.0', 20)]);
    expect(r.map((x) => [x.test_name, x.value])).toEqual([
      ['GRAN%', '61.0'],
      ['GRAN#', '3.12'],
    ]);
  });

  it('still reads no result from an identifier after "#" ("Licence #  5521", "Specimen#  884120")', () => {
    const r = parse([text('Licence #     5521', 10), text('Specimen#     884120', 20), text('Sodium     140     mmol/L     135-145', 30)]);
    expect(r.map((x) => x.test_name)).toEqual(['Sodium']);
  });
});

describe('a tier label read with its bound on the token path', () => {
  it('keeps the tier word with the bound ("Deficient <12"), the tiers below then joining it', () => {
    // No result column is known (its heading garbled): the row is read by its tokens.
    const r = parse([
      cells(10, ['Test', 20], ['- Reslt', 200], ['Unit', 260], ['Reference', 330]),
      cells(20, ['Folate, serum', 20], ['9.4', 200], ['ng/mL', 260], ['Deficient', 330], ['<3.0', 440]),
      cells(30, ['Borderline', 330], ['3.0-5.9', 440]),
      cells(40, ['Normal', 330], ['>=6.0', 440]),
    ]);
    expect(named(r, 'Folate, serum')[0]).toMatchObject({ value: '9.4', reference_range_text: 'Deficient <3.0; Borderline 3.0-5.9; Normal >=6.0' });
    expect(named(r, 'Folate, serum')[0]!.interpretation).toBeUndefined();
  });

  it('does not take a word that names no category for a tier ("Fasting <100" keeps its bound)', () => {
    const r = parse([text('Glucose     92     mg/dL     <100', 10)]);
    expect(named(r, 'Glucose')[0]).toMatchObject({ reference_range_text: '<100', max_reference_range: 100, interpretation: 'normal' });
  });
});

describe('tiers from OCR', () => {
  const ocr = (lines: TextLine[]) => parseLabReport([{ page: 1, source: 'ocr', lines }], { currentYear: 2025 }).results;
  const header = cells(10, ['Test', 20], ['Result', 200], ['Unit', 260], ['Reference', 330]);

  it('reads a tier past a speck ("=  Borderline  5.0-6.9") and keeps a span\'s own dash ("12.5 - 16.0")', () => {
    const r = ocr([
      header,
      cells(20, ['Uric acid', 20], ['6.1', 200], ['mg/dL', 260], ['Ideal', 330], ['<5.0', 440]),
      cells(30, ['=', 60], ['Borderline', 330], ['5.0-6.9', 440]),
      cells(40, ['Raised', 330], ['>=7.0', 440]),
      cells(50, ['Oestrone', 20], ['41', 200], ['pg/mL', 260], ['Early phase', 330], ['12.5 - 16.0', 440]),
      cells(60, ['Late phase', 330], ['20.5 - 40.5', 440]),
    ]);
    expect(named(r, 'Uric acid')[0]!.reference_range_text).toBe('Ideal <5.0; Borderline 5.0-6.9; Raised >=7.0');
    expect(named(r, 'Oestrone')[0]!.reference_range_text).toBe('Early phase 12.5 - 16.0; Late phase 20.5 - 40.5');
  });

  it('takes a tier line of the range column whose bound was not read for no result, and still reads the next row', () => {
    const r = ocr([
      header,
      cells(20, ['Lp(a)', 20], ['88', 200], ['nmol/L', 260], ['Desirable', 330], ['<75', 440]),
      cells(30, ['Borderline', 330], ['75-125', 440]),
      cells(40, ['High risk', 330], ['vas', 440]),
      cells(50, ['Apo B', 20], ['0.92', 200], ['g/L', 260], ['0.60-1.17', 330]),
    ]);
    expect(r.map((x) => x.test_name)).toEqual(['Lp(a)', 'Apo B']);
    expect(named(r, 'Lp(a)')[0]!.reference_range_text).toBe('Desirable <75; Borderline 75-125');
  });
});

describe('the left test of two side by side when the right one is unreadable', () => {
  const ocr = (lines: TextLine[]) => parseLabReport([{ page: 1, source: 'ocr', lines }], { currentYear: 2025 }).results;

  it('reads the left test ("Hb 128 g/L 115-165") and leaves out the right one, its value garbled ("Hct 39.1+")', () => {
    const r = ocr([text('Hb     128     g/L     115-165     Hct     39.1+     0.36-0.46', 10), text('Sodium     139     mmol/L     135-145', 20)]);
    expect(r.map((x) => [x.test_name, x.value])).toEqual([
      ['Hb', '128'],
      ['Sodium', '139'],
    ]);
  });

  it('reads nothing from such a line whose left part has no range', () => {
    const r = ocr([text('Hb     128     g/L     Hct     39.1+     0.36-0.46', 10)]);
    expect(r.map((x) => x.test_name)).not.toContain('Hct');
    expect(r.filter((x) => x.value === '39.1')).toEqual([]);
  });
});
