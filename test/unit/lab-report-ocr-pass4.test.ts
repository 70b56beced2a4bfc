import { describe, expect, it } from 'vitest';
import { separatorRecovered } from '../../domain/lab-report/ocr-recover.js';
import { withCaretForPercent, withGluedFlagsSplit } from '../../domain/lab-report/ocr-tokens.js';
import { parseLabReport } from '../../domain/lab-report/parse.js';
import { impossibleReferenceBound } from '../../domain/lab-report/physiology.js';
import { impossibleWithoutUnit } from '../../domain/lab-report/plausibility.js';
import { type ExtractedPage, type ParsedResult, type TextLine } from '../../domain/lab-report/types.js';

/**
 * General rules for classes of OCR error left after the OCR passes 2 and 3 (issue 14, OCR pass 4):
 * synthetic lines, no corpus document. The "left as read" tests guard against over-reach: where a
 * reading is in doubt, nothing is read.
 */

const cells = (y: number, ...parts: [number, string][]): TextLine => ({ text: parts.map(([, t]) => t).join(' '), y, cells: parts.map(([x, t]) => ({ x, text: t })) });
const page = (lines: TextLine[], source: 'ocr' | 'text_layer'): ExtractedPage => ({ page: 1, lines, source, ...(source === 'ocr' ? { ocrConfidence: 60 } : {}) });
const parse = (lines: TextLine[], source: 'ocr' | 'text_layer' = 'ocr') => parseLabReport([page(lines, source)], { currentYear: 2025 });
const byName = (results: ParsedResult[], name: string): ParsedResult | undefined => results.find((x) => x.test_name === name);
const row = (y: number, ...texts: string[]) => cells(y, ...texts.map((t, i) => [40 + i * 90, t] as [number, string]));
const header = row(10, 'Test', 'Result', 'Flag', 'Units', 'Reference Range');

const result = (value: string, range: string, min: number | undefined, max: number | undefined, extra: Partial<ParsedResult> = {}): ParsedResult => ({
  test_name: 'X',
  value,
  type: 'numeric',
  reference_range_text: range,
  min_reference_range: min,
  max_reference_range: max,
  page: 1,
  ...extra,
});

describe('a lost decimal separator put back where exactly one place agrees with the row (ocr-recover.ts)', () => {
  it('a whole number five times past a range printed with decimals: the one place that lands inside the range', () => {
    const r = separatorRecovered(result('76', '3.8-10.8', 3.8, 10.8, { units: 'Thousand/uL' }), false);
    expect(r).toMatchObject({ value: '7.6', interpretation: 'normal', is_above_max_range: false, is_below_min_range: false });
    // Two decimals in the range allow two places; only one lands inside it.
    expect(separatorRecovered(result('242', '0.40-4.50', 0.4, 4.5), false)?.value).toBe('2.42');
  });

  it('a low flag on a value above its range: the place that puts it below the range, on the flag\'s side', () => {
    const r = separatorRecovered(result('210', '30 - 100', 30, 100, { flag: 'L' }), true);
    expect(r).toMatchObject({ value: '21.0', is_below_min_range: true, is_above_max_range: false });
    // A high flag: the reading must lie above the range (9.0 beside 2.5-7.1, not 0.90).
    expect(separatorRecovered(result('90', '2.5-7.1', 2.5, 7.1, { flag: 'H' }), true)?.value).toBe('9.0');
  });

  it('a value and a range both impossible for the analyte (physiology.ts): both read with one separator', () => {
    const potassium = { units: 'mmol/L', loinc_matches: [{ loinc_code: '2823-3', loinc_name: 'Potassium', confidence_score: 1 }] };
    const r = separatorRecovered(result('43', '35-51', 35, 51, potassium), false);
    expect(r).toMatchObject({ value: '4.3', min_reference_range: 3.5, max_reference_range: 5.1, reference_range_text: '35-51' });
    const parsed = parse([header, row(30, 'Kalium', '43', '', 'mmol/l', '35 - 51'), row(50, 'Natrium', '142', '', 'mmol/l', '136 - 145')]);
    expect(byName(parsed.results, 'Kalium')?.value).toBe('4.3');
  });

  it('left as read: a whole number its row does not contradict, a range printed whole, a text layer', () => {
    expect(separatorRecovered(result('12', '3.5-5.1', 3.5, 5.1), false)).toBeUndefined(); // not five times past the range
    expect(separatorRecovered(result('1528', '30 - 130', 30, 130), false)).toBeUndefined(); // no decimals, no flag, no physiology
    expect(separatorRecovered(result('4.5', '3.5-5.1', 3.5, 5.1), false)).toBeUndefined(); // has its separator
    const lines = [header, row(30, 'Albumin', '46', '', 'g/dL', '3.6-5.1')];
    expect(byName(parse(lines, 'text_layer').results, 'Albumin')?.value).toBe('46');
    expect(byName(parse(lines).results, 'Albumin')?.value).toBe('4.6');
  });

  it('left as read (and dropped by plausibility.ts): two places agree with the row', () => {
    // 45.0 and 4.50 both lie inside 0.10-60.00.
    expect(separatorRecovered(result('450', '0.10-60.00', 0.1, 60, {}), false)).toBeUndefined();
    expect(parse([header, row(30, 'Ferritin', '450', '', 'ug/L', '0.10-60.00')]).results).toEqual([]);
  });
});

describe('a flag glued to its value ("46.8+", "26.1-", "28(L)") split off (ocr-tokens.ts)', () => {
  const header4 = row(10, 'Test', 'Result', 'Units', 'Range');
  it('a plus or minus sign, or H or L in brackets, after a number: the number is the value and the sign its flag', () => {
    const parsed = parse([header4, row(30, 'HCT', '46.8+', '%', '36.0-46.0'), row(50, 'WBC', '2.8(L)', '10^9/L', '4.0-11.0'), row(70, 'Platelets', '420(H)', '10^9/L', '150-400')]);
    expect(byName(parsed.results, 'HCT')).toMatchObject({ value: '46.8', flag: '+', interpretation: 'abnormal', is_above_max_range: true });
    expect(byName(parsed.results, 'WBC')).toMatchObject({ value: '2.8', flag: 'L', is_below_min_range: true });
    expect(byName(parsed.results, 'Platelets')).toMatchObject({ value: '420', flag: 'H' });
  });

  it('the sign\'s side then decides where a lost separator goes ("261-" beside 27.0-33.0 is 26.1, below)', () => {
    const parsed = parse([header4, row(30, 'MCH', '261-', 'pg', '27.0-33.0'), row(50, 'LYMPH%', '482+', '%', '20.0-40.0')]);
    expect(byName(parsed.results, 'MCH')).toMatchObject({ value: '26.1', flag: '-', is_below_min_range: true });
    expect(byName(parsed.results, 'LYMPH%')).toMatchObject({ value: '48.2', flag: '+', is_above_max_range: true });
  });

  it('left as read: a dipstick grade ("2+"), a sign before the number, a text layer', () => {
    const tok = (text: string) => ({ kind: 'word' as const, text, chunk: 0 });
    expect(withGluedFlagsSplit([tok('2+')]).tokens).toEqual([tok('2+')]);
    expect(withGluedFlagsSplit([tok('-26.1')]).tokens).toEqual([tok('-26.1')]);
    expect(withGluedFlagsSplit([tok('26.1-')]).tokens).toEqual([{ kind: 'num', text: '26.1', chunk: 0 }]);
    expect(byName(parse([header4, row(30, 'HCT', '46.8+', '%', '36.0-46.0')], 'text_layer').results, 'HCT')).toBeUndefined();
  });

  it('dropped: a value over three times past its range on the sign\'s side (garbled: "39.1+" beside 0.36-0.46)', () => {
    const parsed = parse([header4, row(30, 'Hct', '39.1+', 'L/L', '0.36-0.46'), row(50, 'MCV', '70.2+', 'fL', '80.0-100.0')]);
    expect(byName(parsed.results, 'Hct')).toBeUndefined();
    // On the other side it is left as read (a speck beside a row is read as a lone "+" too).
    expect(byName(parsed.results, 'MCV')).toMatchObject({ value: '70.2', flag: '+' });
  });
});

describe('"10%9/L": a caret read as a percent sign in a count unit (ocr-tokens.ts)', () => {
  it('the number 10 and "%9/L" are the unit 10^9/L', () => {
    const parsed = parse([row(10, 'Test', 'Result', 'Units', 'Range'), row(30, 'Platelets', '225', '10%9/L', '145 - 350')]);
    expect(byName(parsed.results, 'Platelets')).toMatchObject({ value: '225', units: '10^9/L' });
  });

  it('left as read: an exponent counts are not given in, or no volume after it', () => {
    const t = (kind: 'num' | 'word', text: string) => ({ kind, text, chunk: 0 });
    expect(withCaretForPercent([t('num', '10'), t('word', '%9/L')])).toEqual([{ kind: 'unit', text: '10^9/L', chunk: 0 }]);
    expect(withCaretForPercent([t('num', '10'), t('word', '%5/L')])).toEqual([t('num', '10'), t('word', '%5/L')]);
    expect(withCaretForPercent([t('num', '10'), t('word', '%9/kg')])).toEqual([t('num', '10'), t('word', '%9/kg')]);
    expect(withCaretForPercent([t('num', '12'), t('word', '%9/L')])).toEqual([t('num', '12'), t('word', '%9/L')]);
  });
});

const code = (loinc_code: string) => ({ loinc_matches: [{ loinc_code, loinc_name: '', confidence_score: 1 }] });

describe('a reference interval out of place for its analyte lost its separators, and so did the value beside it (physiology.ts, ocr-recover.ts)', () => {
  it('an upper bound no reference interval of the analyte has in its unit (or, with no unit read, in any unit)', () => {
    expect(impossibleReferenceBound('6690-2', 105, 'ini')).toBe(true); // leukocytes "39-105": not per nL, not per µL
    expect(impossibleReferenceBound('6690-2', 10.5, '/nl')).toBe(false);
    expect(impossibleReferenceBound('6690-2', 11000, undefined)).toBe(false); // per µL or mm³
    expect(impossibleReferenceBound('22664-7', 78, 'mmol/L')).toBe(true); // urea "25-78"
    expect(impossibleReferenceBound('22664-7', 43, 'mg/dL')).toBe(false);
    expect(impossibleReferenceBound('3084-1', 70, 'mg/dl')).toBe(true); // uric acid "34-70"
    expect(impossibleReferenceBound('2951-2', 1450, 'mmol/L')).toBe(false); // sodium: not in the table, never out of place
  });

  it('the value, whole and over three times past the range read with one separator, is read with one too', () => {
    expect(separatorRecovered(result('57', '39-105', 39, 105, { units: 'ini', ...code('6690-2') }), false)).toMatchObject({ value: '5.7', min_reference_range: 3.9, max_reference_range: 10.5 });
    // Below the range read so, with no flag: near it is enough once the range is known to have lost its separators.
    expect(separatorRecovered(result('31', '34-70', 34, 70, { units: 'mg/dl', ...code('3084-1') }), false)).toMatchObject({ value: '3.1', is_below_min_range: true });
    const parsed = parse([header, row(30, 'Urea', '41', '', 'mmol/L', '25-78')]);
    expect(byName(parsed.results, 'Urea')?.value).toBe('4.1');
  });

  it('left as read: a range in place, or a value not past the range read with one separator', () => {
    expect(separatorRecovered(result('57', '39-105', 39, 105, { units: 'mg/dL', ...code('22664-7') }), false)).toBeUndefined(); // urea 39-105 mg/dL: a range in place
    expect(separatorRecovered(result('12', '39-105', 39, 105, { units: '/nl', ...code('6690-2') }), false)).toBeUndefined(); // 12 is not three times 10.5
  });
});

describe('a value with no unit, impossible for its analyte in every unit and outside its own range (plausibility.ts)', () => {
  it('is dropped: "Serum Sodium 4 136 - 145"', () => {
    expect(impossibleWithoutUnit(result('4', '136 - 145', 136, 145, code('2951-2')))).toBe(true);
  });

  it('left as read: a range that agrees (the name may be matched to the wrong test), a unit read, a possible value', () => {
    expect(impossibleWithoutUnit(result('0.052', '<0.060', undefined, 0.06, code('718-7')))).toBe(false);
    expect(impossibleWithoutUnit(result('4', '136 - 145', 136, 145, { units: 'mmol/L', ...code('2951-2') }))).toBe(false);
    expect(impossibleWithoutUnit(result('120', '136 - 145', 136, 145, code('2951-2')))).toBe(false);
  });
});

describe('a whole number with a leading zero ("048 H"): the separator goes right after the zero (ocr-recover.ts)', () => {
  it('read 0.48 beside a range printed with two decimals, on the side its flag says', () => {
    expect(separatorRecovered(result('048', '0,36 - 0,46', 0.36, 0.46, { flag: 'H' }), true)).toMatchObject({ value: '0.48', is_above_max_range: true });
    expect(separatorRecovered(result('041', '0.36-0.46', 0.36, 0.46), false)).toMatchObject({ value: '0.41', interpretation: 'normal' });
  });

  it('left as read (and dropped): other decimals in the range, or a reading the row does not agree with', () => {
    expect(separatorRecovered(result('048', '0.4-5.0', 0.4, 5), false)).toBeUndefined();
    expect(separatorRecovered(result('048', '0.36-0.46', 0.36, 0.46), false)).toBeUndefined(); // above the range without a flag
    expect(separatorRecovered(result('048', '', undefined, undefined), false)).toBeUndefined();
  });
});
