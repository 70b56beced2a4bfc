import { describe, expect, it } from 'vitest';
import { cleanWord, repairCountExponents, repairUnit } from '../../activities/lab-reports/ocr-text.js';
import { detectHeader, headerRoleOf, isRangeOrUnitHeading } from '../../domain/lab-report/layout.js';
import { garbledOcrName } from '../../domain/lab-report/ocr-names.js';
import { parseLabReport } from '../../domain/lab-report/parse.js';
import { type ExtractedPage, type ParsedResult, type TextLine } from '../../domain/lab-report/types.js';

/**
 * General rules for classes of OCR error found on the scanned images of issue 14's fifth OCR pass (hl7,
 * tiered ranges, Portuguese, transposed, pipe export, Polish, absolute differential, kenshin): synthetic
 * lines, no corpus document. The "left as read" tests guard against over-reach.
 */

const cells = (y: number, ...parts: [number, string][]): TextLine => ({ text: parts.map(([, t]) => t).join(' '), y, cells: parts.map(([x, t]) => ({ x, text: t })) });
const page = (lines: TextLine[], source: 'ocr' | 'text_layer'): ExtractedPage => ({ page: 1, lines, source, ...(source === 'ocr' ? { ocrConfidence: 60 } : {}) });
const parse = (lines: TextLine[], source: 'ocr' | 'text_layer' = 'ocr') => parseLabReport([page(lines, source)], { currentYear: 2025 });
const byName = (results: ParsedResult[], name: string): ParsedResult | undefined => results.find((x) => x.test_name === name);
const row = (y: number, ...texts: string[]) => cells(y, ...texts.map((t, i) => [40 + i * 120, t] as [number, string]));

describe('a raised 2 or 3 read as a mark at the end of a unit (ocr-text.ts, repairUnit)', () => {
  it('"?", "*" or "°" after a unit of volume or area is its superscript, where one reading is a known unit', () => {
    expect(repairUnit('/mm?')).toBe('/mm³');
    expect(repairUnit('cells/mm*')).toBe('cells/mm³');
    // With one more look-alike: an accent on a letter, a slash read as "f".
    expect(repairUnit('milhöes/mm?')).toBe('milhoes/mm³');
    expect(repairUnit('fmm?')).toBe('/mm³');
  });

  it('a mark other than "?" after a word that is a unit without it is a flag or a footnote: left as read', () => {
    expect(repairUnit('mg/dL*')).toBe('mg/dL*');
    expect(repairUnit('mmol/L°')).toBe('mmol/L°');
    // Words that no superscript makes a unit.
    expect(repairUnit('what?')).toBe('what?');
    expect(repairUnit('/mmn*')).toBe('/mmn*');
  });
});

describe('a power of ten whose caret or litre slash OCR read as another glyph (ocr-text.ts)', () => {
  it('"x1079/L", "x10%9/L", "x10°91L", "x10°9/1L": a count unit of 10^9 per litre', () => {
    for (const w of ['x1079/L', 'x10%9/L', 'x10°91L', 'x10°9/1L']) expect(repairUnit(w)).toBe('x10^9/L');
    expect(repairUnit('x10°12/L')).toBe('x10^12/L');
  });

  it('a power of ten without an exponent that counts are given in is left as read', () => {
    expect(repairUnit('x1075/L')).toBe('x1075/L');
    expect(repairUnit('x10°5/L')).toBe('x10°5/L');
  });

  it('"10%uL" alone in a cell, printed without its "x": the exponent the test is counted in', () => {
    expect(repairCountExponents(['White blood cells', '10%uL', '6.6'])).toEqual(['White blood cells', '10^3/uL', '6.6']);
    // "10 mL" is a volume, not a power of ten: a letter after the 10 is no exponent.
    expect(repairCountExponents(['White blood cells', '10 mL', '6.6'])).toEqual(['White blood cells', '10 mL', '6.6']);
    // A name the table does not know as a count: left as read.
    expect(repairCountExponents(['Vitamin C', '10%uL', '6.6'])).toEqual(['Vitamin C', '10%uL', '6.6']);
  });
});

describe('a comma and a point side by side in a number (ocr-text.ts, cleanWord)', () => {
  it('one of the two is a speck: the separator the word\'s other numbers use is kept, else the first', () => {
    expect(cleanWord('3,80-5,.20')).toBe('3,80-5,20');
    expect(cleanWord('3.80-5.,20')).toBe('3.80-5.20');
    expect(cleanWord('7.,5')).toBe('7.5');
  });

  it('numbers with one separator each, or grouped thousands, are left as read', () => {
    expect(cleanWord('1,234.56')).toBe('1,234.56');
    expect(cleanWord('3,5-5,1')).toBe('3,5-5,1');
  });
});

describe('decimal commas decided without thousands-shaped points (parse.ts)', () => {
  it('counts grouped with points ("7.830") do not outweigh decimal commas that OCR partly read as points', () => {
    const lines = [
      row(10, 'Hemoglobina', '12.3', 'g/dL', '13,5 a 17,5'),
      row(20, 'Hematocrito', '41,2', '%', '41,0 a 53,0'),
      row(30, 'VCM', '91,4', 'fL', '80,0 a 100,0'),
      row(40, 'Leucocitos', '7.830', '/mm³', '4.000 a 11.000'),
      row(50, 'Neutrofilos', '5.080', '/mm³', '1.600 a 7.700'),
      row(60, 'Plaquetas', '386.000', '/mm³', '150.000 a 450.000'),
    ];
    const r = parse(lines).results;
    expect(byName(r, 'Neutrofilos')?.value).toBe('5080');
    expect(byName(r, 'Leucocitos')?.value).toBe('7830');
  });

  it('a report of decimal points keeps them (three decimals after a zero are no thousands)', () => {
    const r = parse([row(10, 'Specific gravity', '1.020', '', '1.005-1.030'), row(20, 'Glucose', '5.4', 'mmol/L', '3.9-5.5'), row(30, 'Sodium', '140', 'mmol/L', '135-145')]).results;
    expect(byName(r, 'Glucose')?.value).toBe('5.4');
  });
});

describe('a name of specks and a garbled word (ocr-names.ts, garbledOcrName)', () => {
  it('no run of three letters and not even half matched by the LOINC table: not a test', () => {
    expect(garbledOcrName('W711 un', 0.2)).toBe(true);
    expect(garbledOcrName('I} 1', 0)).toBe(true);
  });

  it('short names the table knows or half matches ("y-GT" for γ-GT), and unknown names with a word, stay', () => {
    expect(garbledOcrName('K', 0.95)).toBe(false);
    expect(garbledOcrName('Hb', 0.9)).toBe(false);
    expect(garbledOcrName('y-GT', 0.567)).toBe(false);
    expect(garbledOcrName('Zonulin', 0.1)).toBe(false);
  });

  it('from OCR, such a row is no result; from a text layer it is read as before', () => {
    const lines = [row(10, 'Glucose', '5.4', 'mmol/L', '3.9-5.5'), row(20, 'W711 un', '4.31', 'x10^12/L', '4.50-5.90'), row(30, 'y-GT', '37', 'U/l', 'bis 60')];
    expect(parse(lines).results.map((x) => x.test_name)).toEqual(['Glucose', 'y-GT']);
    expect(parse(lines, 'text_layer').results.map((x) => x.test_name)).toContain('W711 un');
  });
});

describe('a whole-number range beside a decimal value, separators lost (rows.ts)', () => {
  it('from OCR the range is read a tenth as large, and a line of two tests side by side still splits', () => {
    const r = parse([
      row(10, 'Test', 'Result', 'Unit', 'Ref. Range', 'Test', 'Result', 'Unit', 'Ref. Range'),
      row(20, 'NEUT%', '42.9', '%', '400-750', 'NEUT#', '2.68', 'x10^9/L', '2.00-7.50'),
    ]).results;
    expect(byName(r, 'NEUT%')).toMatchObject({ value: '42.9', min_reference_range: 40, max_reference_range: 75, interpretation: 'normal' });
    expect(byName(r, 'NEUT#')).toMatchObject({ value: '2.68', min_reference_range: 2, max_reference_range: 7.5 });
  });

  it('a flagged value keeps its range as printed (the lab says it is that far out)', () => {
    const r = parse([row(10, 'Ferritin', '3.2', 'L', 'ng/mL', '30-400')]).results;
    expect(byName(r, 'Ferritin')).toMatchObject({ reference_range_text: '30-400', interpretation: 'abnormal' });
  });
});

describe('column headings with a speck or a misread letter (layout.ts)', () => {
  it('"- Result": a speck before a heading is no part of it', () => {
    expect(headerRoleOf('- Result')).toBe('result');
    expect(headerRoleOf('= Units')).toBe('unit');
  });

  it('a long heading one letter from a known one heads its column, beside two headings read as such', () => {
    const layout = detectHeader(row(10, 'Test', 'Wynik', 'Jednostka', 'Zakies referencyjny'));
    expect(layout?.columns.map((c) => c.role)).toEqual(['name', 'result', 'unit', 'range']);
    expect(isRangeOrUnitHeading('Referenee range')).toBe(true);
  });

  it('short words one letter from a heading are not headings ("Ranke" is no "Range"), nor a line of one familiar heading', () => {
    expect(isRangeOrUnitHeading('Ranke')).toBe(false);
    expect(detectHeader(row(10, 'Glucose', 'Zakies referencyjny'))).toBeUndefined();
  });

  it('a second table under a misread range heading is read through its own columns', () => {
    const wide = (y: number, ...texts: string[]) => cells(y, ...texts.map((t, i) => [40 + i * 160, t] as [number, string]));
    const r = parse([
      row(10, 'Test', 'Wynik', 'Jednostka', 'Zakres referencyjny'),
      row(20, 'Glukoza', '90', 'mg/dl', '70-99'),
      wide(30, 'Test', 'Metoda', 'Wynik', 'Jednostka', 'Zakies referencyjny'),
      wide(40, 'Cholesterol LDL', 'enz.', '129', 'mg/dl', '< 115'),
    ]).results;
    expect(byName(r, 'Cholesterol LDL')).toMatchObject({ value: '129', units: 'mg/dl', max_reference_range: 115, interpretation: 'abnormal' });
    expect(isRangeOrUnitHeading('Zakies referencyjny')).toBe(true);
  });
});
