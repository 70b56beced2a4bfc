import { describe, expect, it } from 'vitest';
import { parseLabReport } from '../../domain/lab-report/parse.js';
import { lostDigit } from '../../domain/lab-report/plausibility.js';
import { type ExtractedPage, type ParsedResult, type TextLine } from '../../domain/lab-report/types.js';

/**
 * Issue 14, seventh OCR pass: classes of OCR failure on the image families still below 0.85, each rule written for
 * the class and tested here on made-up lines (no corpus document's wording); the negatives guard against over-reach.
 */

const cells = (y: number, ...parts: [number, string][]): TextLine => ({ text: parts.map(([, t]) => t).join(' '), y, cells: parts.map(([x, t]) => ({ x, text: t })) });
const page = (lines: TextLine[], source: 'ocr' | 'text_layer'): ExtractedPage => ({ page: 1, lines, source, ...(source === 'ocr' ? { ocrConfidence: 60 } : {}) });
const parse = (lines: TextLine[], source: 'ocr' | 'text_layer' = 'ocr') => parseLabReport([page(lines, source)], { currentYear: 2025 }).results;
const row = (y: number, ...texts: string[]) => cells(y, ...texts.map((t, i) => [40 + i * 120, t] as [number, string]));
const byName = (results: ParsedResult[], name: string): ParsedResult | undefined => results.find((x) => x.test_name.toLowerCase() === name.toLowerCase());
const result = (value: string, min: number | undefined, max: number | undefined, flag?: string): ParsedResult => ({
  test_name: 'Analyte',
  value,
  type: 'numeric',
  min_reference_range: min,
  max_reference_range: max,
  ...(flag ? { flag } : {}),
  page: 1,
});

describe('a value that lost a digit: far below its range, not flagged low (plausibility.ts, lostDigit)', () => {
  it('below a fifth of the lower bound, no flag, in a report that flags: a digit was lost', () => {
    expect(lostDigit(result('9', 60, 110), true)).toBe(true);
    expect(lostDigit(result('2', 12, 18), true)).toBe(true);
    // a mark without a side, or a high flag, does not say the value is low
    expect(lostDigit(result('9', 60, 110, '*'), true)).toBe(true);
    expect(lostDigit(result('9', 60, 110, 'H'), true)).toBe(true);
  });

  it('negative: flagged low or critical, near the range, a report without flags, or a range from zero', () => {
    expect(lostDigit(result('9', 60, 110, 'L'), true)).toBe(false);
    expect(lostDigit(result('9', 60, 110, 'LL'), true)).toBe(false);
    expect(lostDigit(result('9', 60, 110, 'C'), true)).toBe(false);
    expect(lostDigit(result('15', 60, 110), true)).toBe(false);
    expect(lostDigit(result('9', 60, 110), false)).toBe(false);
    expect(lostDigit(result('0.1', 0, 5), true)).toBe(false);
    expect(lostDigit(result('3', undefined, 40), true)).toBe(false);
    // decimals far below a whole-number range: the range lost its separators ("75-115" for 7.5-11.5), not the value a digit
    expect(lostDigit(result('11.9', 75, 115), true)).toBe(false);
    expect(lostDigit(result('4,8', 36, 46), true)).toBe(false);
  });

  it('end to end: dropped from an OCR page that flags, kept from a text layer', () => {
    const lines = [
      row(100, 'Test', 'Result', 'Units', 'Range'),
      row(120, 'Cholesterol', '9', 'mg/dL', '120-200'),
      row(140, 'Creatinine', '0.41 L', 'mg/dL', '0.60-1.20'),
      row(160, 'Sodium', '139', 'mmol/L', '135-145'),
    ];
    const ocr = parse(lines);
    expect(byName(ocr, 'Cholesterol')).toBeUndefined();
    expect(byName(ocr, 'Creatinine')?.value).toBe('0.41');
    expect(byName(ocr, 'Sodium')?.value).toBe('139');
    expect(byName(parse(lines, 'text_layer'), 'Cholesterol')?.value).toBe('9');
  });
});
