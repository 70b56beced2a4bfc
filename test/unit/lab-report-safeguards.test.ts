import { describe, expect, it } from 'vitest';
import { parseLabReport } from '../../domain/lab-report/parse.js';
import { impossibleValue } from '../../domain/lab-report/physiology.js';
import { flagReadAsDigit, lostSeparator, withoutMisreadings } from '../../domain/lab-report/plausibility.js';
import { type ExtractedPage, type ParsedResult, UNREADABLE } from '../../domain/lab-report/types.js';

const result = (over: Partial<ParsedResult>): ParsedResult => ({ test_name: 'Potassium', value: '43', type: 'numeric', page: 1, ...over });

describe('lostSeparator: an OCR integer far above a decimal range', () => {
  it('flags "43" against "3,5 - 5,1" (the range is printed with decimals)', () => {
    expect(lostSeparator(result({ min_reference_range: 3.5, max_reference_range: 5.1, reference_range_text: '3,5 - 5,1' }), false)).toBe(true);
  });

  it('flags "33" with an L flag against 4-6: a low value cannot be far above its range', () => {
    const r = result({ value: '33', min_reference_range: 4, max_reference_range: 6, reference_range_text: '4-6' });
    expect(lostSeparator({ ...r, flag: 'L' }, false)).toBe(true);
    expect(lostSeparator(r, false)).toBe(false);
  });

  it('flags an unflagged value in a report that flags others, even with a whole-number range', () => {
    const r = result({ value: '650', min_reference_range: 70, max_reference_range: 99, reference_range_text: '70-99' });
    expect(lostSeparator(r, true)).toBe(true);
    expect(lostSeparator(r, false)).toBe(false);
  });

  it('keeps a truly high value that is flagged high against a whole-number range', () => {
    expect(lostSeparator(result({ value: '650', flag: 'H', min_reference_range: 70, max_reference_range: 99, reference_range_text: '70-99' }), true)).toBe(false);
  });

  it('keeps values within five times the range, decimals, bounds and values without a range', () => {
    expect(lostSeparator(result({ value: '24', min_reference_range: 3.5, max_reference_range: 5.1, reference_range_text: '3,5 - 5,1' }), false)).toBe(false);
    expect(lostSeparator(result({ value: '43.5', min_reference_range: 3.5, max_reference_range: 5.1, reference_range_text: '3,5 - 5,1' }), true)).toBe(false);
    expect(lostSeparator(result({ value: '<43', type: 'range', max_reference_range: 5.1, reference_range_text: '< 5,1' }), true)).toBe(false);
    expect(lostSeparator(result({ value: '43' }), true)).toBe(false);
  });

  it('flags only when a power of ten brings the value near the range', () => {
    expect(lostSeparator(result({ value: '75', min_reference_range: 5, max_reference_range: 9, reference_range_text: '5,0 - 9,0' }), true)).toBe(true);
    // "70" could only have been 7.0: still far above 0.5-0.9.
    expect(lostSeparator(result({ value: '70', min_reference_range: 0.5, max_reference_range: 0.9, reference_range_text: '0,5 - 0,9' }), true)).toBe(false);
    expect(lostSeparator(result({ value: '20', min_reference_range: 0.001, max_reference_range: 0.002, reference_range_text: '0.001-0.002' }), true)).toBe(false);
  });
});

describe('flagReadAsDigit: "6.0H" read as "6.08"', () => {
  const chol = (value: string, extra: Partial<ParsedResult> = {}) => result({ value, max_reference_range: 5.5, reference_range_text: '<5.5', ...extra });

  it('a value one decimal finer than its range, past it on the side its last digit looks like, unflagged in a flagging report', () => {
    expect(flagReadAsDigit(chol('6.08'), true)).toBe(true);
    expect(flagReadAsDigit(result({ value: '0.71', min_reference_range: 1, reference_range_text: '>1.0' }), true)).toBe(true);
  });

  it('not when the row is flagged, the report flags nothing, the decimals match the range, or the digit says nothing', () => {
    expect(flagReadAsDigit(chol('6.08', { flag: 'H' }), true)).toBe(false);
    expect(flagReadAsDigit(chol('6.08'), false)).toBe(false);
    expect(flagReadAsDigit(chol('6.8'), true)).toBe(false);
    expect(flagReadAsDigit(chol('6.07'), true)).toBe(false);
    expect(flagReadAsDigit(chol('5.08'), true)).toBe(false); // inside the range
  });
});

describe('withoutMisreadings', () => {
  it('drops leading-zero integers on any page, and suspect values on OCR pages only', () => {
    const rows = [
      result({ test_name: 'Creatinine', value: '096', page: 1 }),
      result({ test_name: 'Potassium', value: '43', page: 1, min_reference_range: 3.5, max_reference_range: 5.1, reference_range_text: '3.5-5.1' }),
      result({ test_name: 'Potassium', value: '43', page: 2, min_reference_range: 3.5, max_reference_range: 5.1, reference_range_text: '3.5-5.1' }),
      result({ test_name: 'Sodium', value: '140', page: 2, min_reference_range: 135, max_reference_range: 145, reference_range_text: '135-145' }),
    ];
    const kept = withoutMisreadings(rows, new Set([2]));
    expect(kept.map((r) => [r.test_name, r.page])).toEqual([
      ['Potassium', 1],
      ['Sodium', 2],
    ]);
  });

  it('is applied by parseLabReport to OCR pages (where one separator place agrees with the row, ocr-recover.ts puts it back first)', () => {
    const lines = ['Test   Result   Unit   Reference', 'Kalium   43   mmol/l   3,5 - 5,1', 'Natrium   142   mmol/l   136 - 145'];
    const asPage = (source: ExtractedPage['source']): ExtractedPage => ({ page: 1, source, lines: lines.map((text, i) => ({ text, y: i * 14 })) });
    expect(parseLabReport([asPage('ocr')]).results.map((r) => [r.test_name, r.value])).toEqual([['Kalium', '4.3'], ['Natrium', '142']]);
    expect(parseLabReport([asPage('text_layer')]).results.map((r) => r.test_name)).toEqual(['Kalium', 'Natrium']);
  });

  it('drops an OCR value printed without its leading zero (".57": a speck read as a point); text layers keep it', () => {
    const lines = ['Test   Result   Unit   Reference', 'HDL   .57   mg/dL   > 40', 'LDL   56   mg/dL   < 100'];
    const asPage = (source: ExtractedPage['source']): ExtractedPage => ({ page: 1, source, lines: lines.map((text, i) => ({ text, y: i * 14 })) });
    expect(parseLabReport([asPage('ocr')]).results.map((r) => [r.test_name, r.value])).toEqual([['LDL', '56']]);
    expect(parseLabReport([asPage('text_layer')]).results.map((r) => [r.test_name, r.value])).toEqual([
      ['HDL', '0.57'],
      ['LDL', '56'],
    ]);
  });
});

describe('parseLabReport: metadata lines are not results', () => {
  it('a labelled collection line ending in a number is not a row', () => {
    const lines = ['TEST   REFERENCE RANGE   RESULT   UNITS', '+ Collected: 21-JUN-2024 08:20 Specimen: Serum   3', 'Sodium   136 - 145   138   mmol/L'];
    const page: ExtractedPage = { page: 1, source: 'ocr', lines: lines.map((text, i) => ({ text, y: i * 14 })) };
    expect(parseLabReport([page]).results.map((r) => [r.test_name, r.value])).toEqual([['Sodium', '138']]);
  });
});

describe('parseLabReport: words the extractor marked unreadable', () => {
  it('a row holding an unreadable number is not read (no other number is taken for its value)', () => {
    const lines = ['Test   Result   Unit   Reference', `Chloride   ${UNREADABLE}155   mmol/L   98 - 107   408`, 'Sodium   138   mmol/L   136 - 145'];
    const page: ExtractedPage = { page: 1, source: 'ocr', lines: lines.map((text, i) => ({ text, y: i * 14 })) };
    expect(parseLabReport([page]).results.map((r) => [r.test_name, r.value])).toEqual([['Sodium', '138']]);
    const readable: ExtractedPage = { ...page, lines: page.lines.map((l) => ({ ...l, text: l.text.replace(UNREADABLE, '') })) };
    expect(parseLabReport([readable]).results.map((r) => r.test_name)).toContain('Chloride');
  });

  it('an unreadable range bound leaves the row standing without its range', () => {
    const lines = ['Test   Result   Unit   Reference', `Calcium   2,36   mmol/l   ${UNREADABLE}215-255`, 'Kalium   4,3   mmol/l   3,5 - 5,1'];
    const page: ExtractedPage = { page: 1, source: 'ocr', lines: lines.map((text, i) => ({ text, y: i * 14 })) };
    const results = parseLabReport([page]).results;
    expect(results.map((r) => [r.test_name, r.value, r.reference_range_text, r.units])).toEqual([
      ['Calcium', '2.36', undefined, 'mmol/l'],
      ['Kalium', '4.3', '3,5 - 5,1', 'mmol/l'],
    ]);
  });
});

describe('parseLabReport: fasting', () => {
  it('"Fasting Blood Sugar" is a test; "Fasting: Yes" / "Fasting hours 12" are the patient state', () => {
    const lines = ['Test Name   Result   Unit   Bio. Ref. Interval', 'Fasting Blood Sugar (FBS)   92   mg/dL   70 - 100', 'Fasting: Yes', 'Fasting hours   12   h'];
    const page: ExtractedPage = { page: 1, source: 'text_layer', lines: lines.map((text, i) => ({ text, y: i * 14 })) };
    expect(parseLabReport([page]).results.map((r) => [r.test_name, r.value])).toEqual([['Fasting Blood Sugar (FBS)', '92']]);
  });
});

describe('parseLabReport: names and LOINC context', () => {
  it('drops a caret footnote mark from a name, and lets the range text say "calculated"', () => {
    const lines = ['Test   Result   Units   Reference Interval', 'Glucose ^A   92   mg/dL   65 - 99', 'LDL-Cholesterin   96   mg/dl   < 100 (Friedewald)'];
    const page: ExtractedPage = { page: 1, source: 'text_layer', lines: lines.map((text, i) => ({ text, y: i * 14 })) };
    const results = parseLabReport([page]).results;
    expect(results.map((r) => r.test_name)).toEqual(['Glucose', 'LDL-Cholesterin']);
    expect(results[1]!.loinc_matches?.[0]?.loinc_code).toBe('13457-7');
  });
});

describe('impossibleValue: limits no human sample reaches', () => {
  it.each([
    ['2823-3', 43, 'mmol/l', true],
    ['2823-3', 9.8, 'mmol/L', false],
    ['718-7', 129, 'g/dL', true],
    ['718-7', 129, 'g/L', false],
    ['6301-6', 81, undefined, true],
    ['6301-6', 8.1, undefined, false],
    ['3094-0', 0, 'mg/dL', true],
    ['2345-7', 650, 'mg/dL', false],
  ] as const)('%s %s %s → %s', (code, value, unit, impossible) => expect(impossibleValue(code, value, unit)).toBe(impossible));

  it('with a unit that is no unit (OCR garbage), judges the value in every unit of the analyte', () => {
    expect(impossibleValue('6301-6', 81, 'GENE')).toBe(true);
    expect(impossibleValue('6301-6', 1.1, 'GENE')).toBe(false);
    expect(impossibleValue('718-7', 129, 'ws')).toBe(false); // possible in g/L
  });

  it('says nothing for analytes or units it has no limits for', () => {
    expect(impossibleValue('3016-3', 9999, 'mIU/L')).toBe(false);
    expect(impossibleValue('2823-3', 43, 'mg/dL')).toBe(false);
    expect(impossibleValue(undefined, 43, 'mmol/L')).toBe(false);
  });

  it('reads an impossible OCR value whose range lost its separator too with one separator in both (ocr-recover.ts); a text layer keeps it as printed', () => {
    const lines = ['Test   Result   Unit   Reference', 'Kalium   43   mmol/l   35 - 51', 'Natrium   142   mmol/l   136 - 145'];
    const asPage = (source: ExtractedPage['source']): ExtractedPage => ({ page: 1, source, lines: lines.map((text, i) => ({ text, y: i * 14 })) });
    expect(parseLabReport([asPage('ocr')]).results.map((r) => [r.test_name, r.value])).toEqual([['Kalium', '4.3'], ['Natrium', '142']]);
    expect(parseLabReport([asPage('text_layer')]).results.map((r) => r.test_name)).toEqual(['Kalium', 'Natrium']);
  });
});
