import { describe, expect, it } from 'vitest';
import { cleanWord, repairCountExponents, repairUnit } from '../../activities/lab-reports/ocr-text.js';
import { nearestLabel } from '../../domain/lab-report/ocr-names.js';
import { splitByGivenNames } from '../../domain/lab-report/person-names.js';
import { tokenize } from '../../domain/lab-report/tokens.js';
import { parseLabReport } from '../../domain/lab-report/parse.js';
import { type ExtractedPage, type ParsedResult, type TextLine } from '../../domain/lab-report/types.js';

/**
 * Issue 14, sixth OCR pass: a range label OCR misread in a letter or two is still the label. Synthetic lines,
 * no corpus document; the negatives guard against reading a word near a label as one.
 */

const cells = (y: number, ...parts: [number, string][]): TextLine => ({ text: parts.map(([, t]) => t).join(' '), y, cells: parts.map(([x, t]) => ({ x, text: t })) });
const page = (lines: TextLine[], source: 'ocr' | 'text_layer'): ExtractedPage => ({ page: 1, lines, source, ...(source === 'ocr' ? { ocrConfidence: 60 } : {}) });
const parse = (lines: TextLine[], source: 'ocr' | 'text_layer' = 'ocr') => parseLabReport([page(lines, source)], { currentYear: 2025 }).results;
const row = (y: number, ...texts: string[]) => cells(y, ...texts.map((t, i) => [40 + i * 120, t] as [number, string]));
const byName = (results: ParsedResult[], name: string): ParsedResult | undefined => results.find((x) => x.test_name.toLowerCase() === name.toLowerCase());

const PHRASES = ['valores de referencia', 'intervalo de referencia', 'desejavel', 'reference range', 'referenzbereich'];

describe('a misread label is its nearest label (ocr-names.ts, nearestLabel)', () => {
  it('a few look-alike letters off: "Valores de refcréncin", "Valores de referéacia", "Descjével"', () => {
    expect(nearestLabel('Valores de refcréncin', PHRASES)).toBe('valores de referencia');
    expect(nearestLabel('Valores de referéacia', PHRASES)).toBe('valores de referencia');
    expect(nearestLabel('Descjével', PHRASES)).toBe('desejavel');
    expect(nearestLabel('Referenzbereieh', PHRASES)).toBe('referenzbereich');
  });

  it('negative: a word that is not a label, or a short one, is left as it came (folded)', () => {
    expect(nearestLabel('Material: Soro', PHRASES)).toBe('material: soro');
    expect(nearestLabel('Resultado', PHRASES)).toBe('resultado');
    expect(nearestLabel('Deseo', PHRASES)).toBe('deseo');
    expect(nearestLabel('Valores de ferritina', PHRASES)).toBe('valores de ferritina');
  });
});

describe('an exam block whose range label OCR misread', () => {
  const block = (label: string) => [
    cells(100, [106, 'UREIA']),
    cells(120, [106, 'Material: Soro Método: Colorimétrico enzimático']),
    cells(150, [106, 'Resultado:'], [251, '27 mg/dL']),
    cells(172, [105, label]),
    cells(194, [131, '15 a 45 mg/dL']),
  ];

  it('"Valores de refcréncin:" alone on its line gives the range under it to the result', () => {
    const r = byName(parse(block('Valores de refcréncin:')), 'Ureia');
    expect(r).toMatchObject({ value: '27', reference_range_text: '15 a 45', min_reference_range: 15, max_reference_range: 45 });
  });

  it('negative: a line that only looks a little like a label ("Valores de ferritina:") gives no range', () => {
    const r = byName(parse(block('Valores de ferritina:')), 'Ureia');
    expect(r?.value).toBe('27');
    expect(r?.reference_range_text ?? '').toBe('');
  });
});

describe('a decimal comma\'s number with a sign glued after it (tokens.ts)', () => {
  it('"0,77-" is the number 0,77 and a sign, not "0" and a word', () => {
    expect(tokenize('0,77-', 0).map((t) => t.text)).toEqual(['0,77-']);
    const [r] = parse([row(100, 'Kreatinin', '0,77-', 'mg/dl', '0,50 - 0,90')]);
    expect(r).toMatchObject({ test_name: 'Kreatinin', value: '0.77' });
  });
  it('negative: a comma followed by a space still ends a number ("5.2, repeated")', () => {
    expect(tokenize('5.2, repeated', 0)[0]).toMatchObject({ kind: 'num', text: '5.2' });
  });
});

describe('a slash and an ell read as one "A" in a unit (ocr-text.ts, repairUnit)', () => {
  it('"GA", "TA", "mmolA" are G/l, T/l, mmol/l', () => {
    expect(repairUnit('GA')).toBe('G/l');
    expect(repairUnit('TA')).toBe('T/l');
    expect(repairUnit('mmolA')).toBe('mmol/l');
  });
  it('negative: a word with an A that no swap makes a unit stays ("IgA", "HbA")', () => {
    expect(repairUnit('IgA')).toBe('IgA');
    expect(repairUnit('HbA')).toBe('HbA');
  });
});

describe('German given names decide the order of a name with no cue (person-names.ts)', () => {
  it('"Leitner Veronika" is family name first', () => {
    expect(splitByGivenNames(['Leitner', 'Veronika'])).toEqual({ first: 'Veronika', last: 'Leitner' });
    expect(splitByGivenNames(['HOFER', 'ULRIKE'])).toEqual({ first: 'ULRIKE', last: 'HOFER' });
  });
});

describe('a speck between a number and its flag mark (ocr-text.ts, cleanWord)', () => {
  it('"11,3°*" is "11,3*"', () => {
    expect(cleanWord('11,3°*')).toBe('11,3*');
    expect(cleanWord("145'*")).toBe('145*');
  });
  it('negative: a raised exponent inside a unit stays ("10°9/L"), and so does a number with no flag mark', () => {
    expect(cleanWord('10°9/L')).toBe('10°9/L');
    expect(cleanWord('5.4')).toBe('5.4');
  });
});

describe('a name OCR joined with the birth-date label after it (parse.ts, withLabelGaps)', () => {
  const meta = (texts: string[], source: 'ocr' | 'text_layer' = 'ocr') =>
    parseLabReport([page(texts.map((t, i) => cells(60 + i * 20, [40, t])), source)], { currentYear: 2025 }).metadata;
  it('"Taylor, Susan DOB 12/11/1951 Collected …" and "Linda Rodriguez - DOB: 04/03/1949" name the patient', () => {
    expect(meta(['Meadowbrook Reference Laboratory', 'Taylor, Susan DOB 12/11/1951 Collected 05/27/2025 Reported 05/29/2025'])).toMatchObject({ patient_first_name: 'Susan', patient_last_name: 'Taylor' });
    expect(meta(['Test Results', 'Linda Rodriguez - DOB: 04/03/1949'])).toMatchObject({ patient_first_name: 'Linda', patient_last_name: 'Rodriguez' });
  });
  it('negative: a sentence with no label after the words is no name', () => {
    expect(meta(['Test Results', 'Fasting specimen received late'])).toMatchObject({ patient_first_name: '', patient_last_name: '' });
  });
});

describe('a lone lower-case letter after an OCR row is a speck, not a flag (rows.ts)', () => {
  it('"a" at the row\'s end does not flag 40,9 inside 36,0 - 48,0', () => {
    const [r] = parse([row(100, 'Hämatokrit', '40,9', '%', '36,0 - 48,0', 'a')]);
    expect(r).toMatchObject({ value: '40.9', interpretation: 'normal' });
  });
  it('negative: a capital "A" is still a flag, and text-layer rows keep a lower-case one', () => {
    expect(parse([row(100, 'Hämatokrit', '40,9', '%', '36,0 - 48,0', 'A')])[0]?.interpretation).toBe('abnormal');
    expect(parse([row(100, 'Hämatokrit', '40,9', '%', '36,0 - 48,0', 'a')], 'text_layer')[0]?.interpretation).toBe('abnormal');
  });
});

describe('an EHR row with a status and a site after its fields (rows.ts)', () => {
  const full = (unit: string) => [
    row(100, 'Glucose', '86', 'mg/dL', '70-99', '06/06/2024 07:23', 'Final', 'MAIN'),
    cells(124, [77, 'Sodium'], [421, '142'], [596, unit], [733, '136-145'], [886, '06/06/2024 07:23'], [1087, '06/06/2024 08:44'], [1274, 'Final'], [1377, 'MAIN']),
  ];
  it('"Final" is no stray word: a row whose unit OCR garbled ("mmovL") is still read', () => {
    expect(byName(parse(full('mmovL')), 'Sodium')).toMatchObject({ value: '142', reference_range_text: '136-145' });
  });
  it('"mmovL" is mmol/L (a "v" for an ell and a slash)', () => {
    expect(repairUnit('mmovL')).toBe('mmol/L');
  });
  it('negative: two stray words that are no status still reject the row', () => {
    expect(byName(parse(full('mmovL').map((l, i) => (i === 1 ? { ...l, cells: l.cells!.map((c) => (c.text === 'Final' ? { ...c, text: 'Pending review' } : c)) } : l))), 'Sodium')).toBeUndefined();
  });
});

describe('a count unit OCR read as digits only (ocr-text.ts, repairCountExponents)', () => {
  it('"10791" is 10^9/l and "10124" is 10^12/l in the unit\'s place, for tests counted so', () => {
    expect(repairCountExponents(['Trombocitai', '256', '10791', '140 - 400'])).toEqual(['Trombocitai', '256', '10^9/l', '140 - 400']);
    expect(repairCountExponents(['Eritrocitai', '5,74 ↑', '10124', '4,20 - 5,60'])).toEqual(['Eritrocitai', '5,74 ↑', '10^12/l', '4,20 - 5,60']);
  });
  it('negative: not for a test not counted per litre, nor in the value\'s place', () => {
    expect(repairCountExponents(['Glucose', '105', '10791', '70-99'])).toEqual(['Glucose', '105', '10791', '70-99']);
    expect(repairCountExponents(['Platelets', '10791', '150-400'])).toEqual(['Platelets', '10791', '150-400']);
  });
});

describe('a real extreme with a "+" beside its range (plausibility.ts)', () => {
  it('glucose 27,7 + beside 3,9 - 6,1 stands (the table knows glucose reaches it)', () => {
    const r = parse([row(100, 'Glucose', '27,7 +', 'mmol/l', '3,9 - 6,1')]);
    expect(byName(r, 'Glucose')?.value).toBe('27.7');
  });
  it('negative: potassium 46,8 + beside 3,5 - 5,1 is still no reading (a lost separator)', () => {
    expect(byName(parse([row(100, 'Potassium', '46,8 +', 'mmol/l', '3,5 - 5,1')]), 'Potassium')).toBeUndefined();
  });
});
