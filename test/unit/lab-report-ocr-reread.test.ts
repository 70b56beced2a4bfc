import { describe, expect, it } from 'vitest';
import { type OcrLine, rereadPlan } from '../../activities/lab-reports/ocr.js';

/** A line of words side by side, 40 pixels apart, read with confidence 90. */
const line = (...texts: string[]): OcrLine => {
  let x = 0;
  const words = texts.map((text) => {
    const bbox = { x0: x, y0: 0, x1: x + 30, y1: 20 };
    x += 40;
    return { text, confidence: 90, bbox };
  });
  return { bbox: { x0: 0, y0: 0, x1: x, y1: 20 }, words };
};

const planned = (lines: OcrLine[]) => rereadPlan(lines).map((p) => [p.first, p.after?.first ?? null, p.decimalRow]);

describe('which numbers are re-read for a lost decimal separator', () => {
  it('a value in the scale of its whole range waits for the range: re-read only if the range gains a separator', () => {
    expect(planned([line('Glucose', '84', 'mg/dL', '65-99')])).toEqual([
      ['84', '65-99', false],
      ['65-99', null, false],
    ]);
    // 100 has three digits and 89 two: both within 96-106.
    expect(planned([line('Chloride', '100', '89', 'mmol/L', '96-106')]).map((p) => p[1])).toEqual(['96-106', '96-106', null]);
  });

  it('a range too short to have lost a separator settles its values at once (not re-read)', () => {
    expect(planned([line('AST', '17', '19', 'U/L', '0-40')])).toEqual([]);
  });

  it('re-reads values out of the range scale, with a leading zero, or on a row with a decimal', () => {
    expect(planned([line('Potassium', '32', 'mmol/L', '3.5-5.2')])).toEqual([['32', null, true]]);
    expect(planned([line('Glucose', '840', 'mg/dL', '65-99')])).toEqual([
      ['840', null, false],
      ['65-99', null, false],
    ]);
    expect(planned([line('Glucose', '84', 'mg/dL', '65-99', '01')]).map((p) => [p[0], p[1]])).toEqual([
      ['84', '65-99'],
      ['65-99', null],
      ['01', null],
    ]);
    expect(planned([line('Calcium', '95', '8.7', '01/15/2025', 'mg/dL', '87-102')])).toEqual([
      ['95', null, true],
      ['87-102', null, true],
    ]);
    // No range on the row: re-read.
    expect(planned([line('Bilirubin', '11', 'mg/dL')])).toEqual([['11', null, false]]);
  });

  it('skips the time or code after a date, and a date is no decimal', () => {
    expect(planned([line('Date', 'collected:', '05/09/2025', '0757')])).toEqual([]);
    expect(planned([line('Entnahme', '12.03.2024', '14:40'), line('Kalium', '45', '12.03.2024')])).toEqual([['45', null, false]]);
  });
});
