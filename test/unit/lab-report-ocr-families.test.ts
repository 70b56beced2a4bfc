import { describe, expect, it } from 'vitest';
import { repairArrowGlyphs, repairCountExponents, repairLineCells } from '../../activities/lab-reports/ocr-text.js';
import { parseLabReport } from '../../domain/lab-report/parse.js';
import { arrowReadAsDigit, rangeReadAsResult } from '../../domain/lab-report/plausibility.js';
import { flagFromLastDigit, newestOf } from '../../domain/lab-report/transposed.js';
import { type ExtractedPage, type ParsedResult, type TextLine } from '../../domain/lab-report/types.js';

/**
 * General rules for classes of OCR error that the weakest image families of the corpus showed (issue
 * 14, OCR families pass): synthetic lines, no corpus document.
 */

const cells = (y: number, ...parts: [number, string][]): TextLine => ({ text: parts.map(([, t]) => t).join(' '), y, cells: parts.map(([x, t]) => ({ x, text: t })) });
const ocrPage = (lines: TextLine[]): ExtractedPage => ({ page: 1, lines, source: 'ocr', ocrConfidence: 80 });
const parse = (lines: TextLine[]) => parseLabReport([ocrPage(lines)], { currentYear: 2025 });
const byName = (results: ParsedResult[], name: string): ParsedResult | undefined => results.find((x) => x.test_name === name);

describe('transposed tables read by OCR', () => {
  const xs = [30, 100, 160, 220, 280, 340];
  const row = (y: number, ...texts: string[]) => cells(y, ...texts.map((t, i) => [xs[i]!, t] as [number, string]).filter(([, t]) => t !== ''));

  it('a header of test names stays one when OCR misread a name into a look-alike ("Plc") or into a column heading word ("ab" for Hb)', () => {
    const { results } = parse([
      row(24, 'Date', 'ab', 'WCC', 'Plc', 'RCC', 'PCV'),
      row(32, 'Units', 'g/L', 'x10^9/L', 'x10^9/L', 'x10^12/L', 'L/L'),
      row(40, 'Range', '115-165', '4.0-11.0', '150-400', '3.8-5.8', '0.37-0.47'),
      row(54, '14/04/2024', '146', '7.2', '301', '5.66', '0.41'),
      row(65, '09/08/2024', '141', '6.8', '288', '5.01', '0.42'),
      row(76, '20/12/2024', '145', '7.3', '296', '5.16', '0.39'),
    ]);
    expect(results.map((r) => [r.test_name, r.value])).toEqual([
      ['WCC', '7.3'],
      ['Plt', '296'],
      ['RCC', '5.16'],
      ['PCV', '0.39'],
    ]);
  });

  it('one date OCR misread into no date ("20/22/2024") after dates in order is the newest row', () => {
    const { results } = parse([
      row(24, 'Date', 'Na', 'K', 'Creat'),
      row(32, 'Units', 'mmol/L', 'mmol/L', 'umol/L'),
      row(46, '14/04/2024', '147', '4.8', '99'),
      row(57, '09/08/2024', '134', '4.0', '76'),
      row(68, '20/22/2024', '139', '4.4', '72'),
    ]);
    expect(results.map((r) => [r.test_name, r.value])).toEqual([
      ['Na', '139'],
      ['K', '4.4'],
      ['Creat', '72'],
    ]);
  });

  it('newestOf: the readable dates give the direction; an unreadable one is newest only past the newest end', () => {
    expect(newestOf(['14/04/2024', '09/08/2024', '20/22/2024'])).toBe(2);
    expect(newestOf(['20/22/2024', '09/08/2024', '14/04/2024'])).toBe(0);
    expect(newestOf(['14/04/2024', '20/22/2024', '09/12/2024'])).toBe(2);
    expect(newestOf(['14/04/2024', '09/08/2024', '20/12/2024'])).toBe(2);
    // Too little to go on: the table gives nothing rather than a guess.
    expect(newestOf(['09/08/2024', '20/22/2024'])).toBeUndefined();
    expect(newestOf(['14/04/2024', '39/08/2024', '20/22/2024'])).toBeUndefined();
  });

  it('flagFromLastDigit: a flag letter read as one more digit than the column prints (H as 8, L as 1 or 4)', () => {
    expect(flagFromLastDigit('10,28', ['9.6H', '9.8H'], undefined)).toBe('10,2H');
    expect(flagFromLastDigit('3.21', ['3.6', '3.8'], { min: 3.5, max: 5.5 })).toBe('3.2L');
    expect(flagFromLastDigit('2.04', ['2.6', '2.2 L'], { min: 2.2 })).toBe('2.0L');
    // The range says the other side, a last digit that is no flag's look-alike, older values that
    // disagree on decimals or have none, or no older value: left as read.
    expect(flagFromLastDigit('4.51', ['4.1', '4.0'], { min: 3.5, max: 5.2 })).toBe('4.51');
    expect(flagFromLastDigit('10.25', ['9.6', '9.8'], undefined)).toBe('10.25');
    expect(flagFromLastDigit('10.28', ['9.65', '9.6'], undefined)).toBe('10.28');
    expect(flagFromLastDigit('10.8', ['9', '10'], undefined)).toBe('10.8');
    expect(flagFromLastDigit('10.28', [], undefined)).toBe('10.28');
    expect(flagFromLastDigit('5.66', ['5.6', '5.8'], undefined)).toBe('5.66');
  });

  it('the newest value of a column printed with one decimal, read with two ending in 8, is the value flagged H', () => {
    const { results } = parse([
      row(24, 'Date', 'Neut', 'Lymph'),
      row(32, 'Units', 'x10^9/L', 'x10^9/L'),
      row(46, '14/04/2024', '9.6H', '2.8'),
      row(57, '09/08/2024', '9.8H', '3.2'),
      row(68, '20/12/2024', '10.28', '3.0'),
    ]);
    expect(byName(results, 'Neut')).toMatchObject({ value: '10.2', flag: 'H' });
    expect(byName(results, 'Lymph')).toMatchObject({ value: '3.0' });
  });
});

describe('repairCountExponents: a power of ten whose exponent OCR garbled, told by the analyte', () => {
  it.each([
    [['White Blood Cells', '7.7', 'x 10%/L', '4.5-11.0'], 'x10^9/L'],
    [['Platelet Count', '331', 'x 10%uL', '150 - 400'], 'x10^3/uL'],
    [['Absolute Neutrophils', '5.46', 'x 109/uL', '1.8-7.7'], 'x10^3/uL'],
    [['Absolute Lymphocytes', '3.44', 'x 10P/uL', '1.0-4.8'], 'x10^3/uL'],
    [['Red Blood Cells', '5.51', 'x 10%/uL', '4.50 - 5.90'], 'x10^6/uL'],
    [['RBC', '4.9', 'x10"/L', '4.5-6.5'], 'x10^12/L'],
  ])('%j → unit %s', (line, unit) => {
    const out = repairCountExponents(line);
    expect(out[2]).toBe(unit);
    expect([out[0], out[1], out[3]]).toEqual([line[0], line[1], line[3]]);
  });

  it('the unit is found in a cell that holds the value too', () => {
    expect(repairCountExponents(['Platelets', '250 x 10P/uL'])).toEqual(['Platelets', '250 x10^3/uL']);
  });

  it('leaves lines alone when the name is no count the LOINC table knows, or the cell is no power of ten', () => {
    for (const line of [
      ['Sodium', '140', 'x 10%/L'],
      ['Qwertyuiop', '7.7', 'x 10%/L'],
      ['Component', 'Value', 'Units'],
      ['White Blood Cells', '7.7', '45-110'],
      ['White Blood Cells', '7.7', '10 L'],
      ['White Blood Cells', '7.7', 'x10^3/uL'],
      ['WBC', '6.1', '×10³/µL'],
      ['Platelets', '250', 'x103/uL'],
      ['7.7', 'x 10%/L'],
    ]) {
      expect(repairCountExponents(line)).toEqual(line);
    }
  });

  it('the row is then read with its unit (it was refused with a garbled unit cell)', () => {
    const header = cells(10, [20, 'Component'], [200, 'Value'], [300, 'Units'], [400, 'Reference Range']);
    const line = (y: number, ...texts: string[]) => cells(y, ...texts.map((t, i) => [[20, 200, 300, 400][i]!, t] as [number, string]));
    const raw = ['Platelet Count', '331', 'x 10%uL', '150 - 400'];
    expect(byName(parse([header, line(30, ...raw)]).results, 'Platelet Count')).toBeUndefined();
    const read = byName(parse([header, line(30, ...repairCountExponents(raw))]).results, 'Platelet Count');
    expect(read).toMatchObject({ value: '331', units: 'x10^3/uL', min_reference_range: 150, max_reference_range: 400 });
  });
});

describe('arrowReadAsDigit: an up arrow after the value read as its last digit', () => {
  const result = (value: string, range: string, min?: number, max?: number, flag?: string): ParsedResult => ({
    test_name: 'T',
    value,
    type: 'numeric',
    page: 1,
    reference_range_text: range,
    ...(min === undefined ? {} : { min_reference_range: min }),
    ...(max === undefined ? {} : { max_reference_range: max }),
    ...(flag === undefined ? {} : { flag }),
  });

  it('one decimal more than the range, ending in 1, above the range even without that digit', () => {
    expect(arrowReadAsDigit(result('16.51', '12,0 - 15,5', 12, 15.5))).toBe(true);
    expect(arrowReadAsDigit(result('6,61', '2,4 - 5,7', 2.4, 5.7))).toBe(true);
    expect(arrowReadAsDigit(result('131', '< 115', undefined, 115))).toBe(false); // no decimals to count
  });

  it('a range whose separators were lost too ("120-155" for 12,0 - 15,5) is read a tenth as large', () => {
    expect(arrowReadAsDigit(result('16.51', '120-155', 120, 155))).toBe(true);
    expect(arrowReadAsDigit(result('6.61', '24-57', 24, 57))).toBe(true);
  });

  it('leaves values that say it only once, or not at all', () => {
    expect(arrowReadAsDigit(result('6.009', '0,27 - 4,20', 0.27, 4.2))).toBe(false); // ends in 9
    expect(arrowReadAsDigit(result('4.51', '3.5 - 5.1', 3.5, 5.1))).toBe(false); // inside the range
    expect(arrowReadAsDigit(result('5.21', '3.5 - 5.2', 3.5, 5.2))).toBe(false); // 5.2 is not above 5.2
    expect(arrowReadAsDigit(result('16.51', '12.00 - 15.50', 12, 15.5))).toBe(false); // as many decimals as the range
    expect(arrowReadAsDigit(result('16.51', '12,0 - 15,5', 12, 15.5, 'H'))).toBe(false); // flagged: the arrow was read
    expect(arrowReadAsDigit(result('2.51', '40-100', 40, 100))).toBe(false); // below even a tenth of a whole-number range
  });

  it('such a value is read without the arrow digit on an OCR page (ocr-recover.ts), kept as printed on a text layer', () => {
    const lines = [cells(10, [20, 'Test'], [200, 'Result'], [300, 'Units'], [400, 'Reference Range']), cells(30, [20, 'Hemoglobin'], [200, '16.51'], [300, 'g/dL'], [400, '12.0 - 15.5']), cells(50, [20, 'Sodium'], [200, '140'], [300, 'mmol/L'], [400, '136 - 145'])];
    expect(parse(lines).results.map((r) => [r.test_name, r.value, r.flag])).toEqual([
      ['Hemoglobin', '16.5', '↑'],
      ['Sodium', '140', undefined],
    ]);
    const text = parseLabReport([{ page: 1, lines, source: 'text_layer' }], { currentYear: 2025 });
    expect(text.results.map((r) => [r.test_name, r.value])).toEqual([
      ['Hemoglobin', '16.51'],
      ['Sodium', '140'],
    ]);
  });
});

describe('repairArrowGlyphs: an up arrow after the value read as a thin glyph of its own', () => {
  it.each([
    [['Cholesterol LDL', '129 1', 'mg/dl', '<115'], '129 ↑'],
    [['TSH', '6,009 ı', 'uIU/ml', '0,27-4,20'], '6,009 ↑'],
    [['Glucose', '131 l', 'mg/dL', '70 - 99'], '131 ↑'],
    [['Ferritin', '1,250 |', 'ng/mL', '24 - 336'], '1,250 ↑'],
  ])('%j → %s when the line\'s range says the value is above it', (line, cell) => {
    expect(repairArrowGlyphs(line)[1]).toBe(cell);
  });

  it('leaves the cell as read inside or below the range, with no range, or when the value is a bound', () => {
    for (const line of [
      ['Cholesterol LDL', '99 1', 'mg/dl', '<115'],
      ['Sodium', '131 1', 'mmol/L', '136 - 145'],
      ['Cholesterol LDL', '129 1', 'mg/dl'],
      ['CRP', '<5 1', 'mg/L', '<3'],
      ['129 1', 'mg/dl', '<115'],
      ['Cholesterol LDL', '129 12', 'mg/dl', '<115'],
    ]) {
      expect(repairArrowGlyphs(line)).toEqual(line);
    }
  });

  it('the row is then read, flagged by the arrow (it was refused with two numbers in its result cell)', () => {
    const header = cells(10, [20, 'Test'], [200, 'Result'], [300, 'Units'], [400, 'Reference Range']);
    const line = (texts: string[]) => cells(30, ...texts.map((t, i) => [[20, 200, 300, 400][i]!, t] as [number, string]));
    const raw = ['Cholesterol LDL', '129 1', 'mg/dl', '<115'];
    expect(byName(parse([header, line(raw)]).results, 'Cholesterol LDL')).toBeUndefined();
    expect(byName(parse([header, line(repairLineCells(raw))]).results, 'Cholesterol LDL')).toMatchObject({ value: '129', flag: '↑', interpretation: 'abnormal' });
  });
});

describe('rangeReadAsResult: a range line whose label OCR misread', () => {
  const result = (test_name: string, value: string, code?: string): ParsedResult => ({
    test_name,
    value,
    type: 'numeric',
    page: 1,
    ...(code ? { loinc_matches: [{ loinc_code: code, loinc_name: '', display_name: '', confidence_score: 0.95 }] } : {}),
  });

  it('a name ending in the words a one-sided range puts before its bound', () => {
    expect(rangeReadAsResult(result('Desejével: inferior a', '190'))).toBe(true);
    expect(rangeReadAsResult(result('Descjével: superior a', '40'))).toBe(true);
    expect(rangeReadAsResult(result('Optirnal: less than', '100'))).toBe(true);
    expect(rangeReadAsResult(result('Wiinschenswert: unter', '200'))).toBe(true);
  });

  it('test names, and names the LOINC table knows, are left alone', () => {
    expect(rangeReadAsResult(result('Cholesterol total', '155'))).toBe(false);
    expect(rangeReadAsResult(result('Vitamin B12', '651'))).toBe(false);
    expect(rangeReadAsResult(result('HDL', '40'))).toBe(false);
    expect(rangeReadAsResult(result('Cholesterol below', '190', '2093-3'))).toBe(false);
  });

  it('such a line gives no result on an OCR page', () => {
    const lines = [cells(10, [20, 'Resultado:'], [120, '155 mg/dL']), cells(30, [20, 'Desejével: inferior a 190 mg/dL']), cells(50, [20, 'Sodium'], [120, '140 mmol/L'])];
    expect(parse(lines).results.map((r) => r.test_name)).not.toContain('Desejével: inferior a');
  });
});
