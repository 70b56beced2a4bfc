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

const planned = (lines: OcrLine[]) => rereadPlan(lines).map((p) => [p.first, p.decimalRow]);

describe('which numbers are re-read for a lost decimal separator', () => {
  it('every bare number and range, with whether its row has a decimal number (then all three sizes are read)', () => {
    expect(planned([line('Glucose', '84', 'mg/dL', '65-99', '01')])).toEqual([
      ['84', false],
      ['65-99', false],
      ['01', false],
    ]);
    expect(planned([line('Potassium', '32', 'mmol/L', '3.5-5.2')])).toEqual([['32', true]]);
    // Its range lost its separators too: still re-read.
    expect(planned([line('Potassio', '42', 'mEq/L', '35-51')])).toEqual([
      ['42', false],
      ['35-51', false],
    ]);
    expect(planned([line('Sodium', '148H', 'mmol/L', '134-144')]).map((p) => p[0])).toEqual(['148', '134-144']);
  });

  it('skips the time or code after a date, and a date is no decimal', () => {
    expect(planned([line('Date', 'collected:', '05/09/2025', '0757')])).toEqual([]);
    expect(planned([line('Entnahme', '12.03.2024', '14:40'), line('Kalium', '45', '12.03.2024')])).toEqual([['45', false]]);
    expect(planned([line('Calcium', '95', '8.7', '01/15/2025', 'mg/dL', '87-102')])).toEqual([
      ['95', true],
      ['87-102', true],
    ]);
  });
});
