import { describe, expect, it } from 'vitest';
import { regionsOf } from '../../domain/lab-report/blocks.js';
import { parseLabReport } from '../../domain/lab-report/parse.js';
import { type ExtractedPage, type ParsedResult, type TextLine } from '../../domain/lab-report/types.js';

// Synthetic pages of positioned words, as the PDF text layer or OCR gives them: each cell has x and width.
const line = (y: number, ...cells: [number, string][]): TextLine => ({
  text: cells.map(([, t]) => t).join(' '),
  y,
  cells: cells.map(([x, t]) => ({ x, text: t, width: t.length * 5 })),
});
const page = (lines: TextLine[], source: 'text_layer' | 'ocr' = 'text_layer'): ExtractedPage => ({ page: 1, source, lines });
const parse = (p: ExtractedPage) => parseLabReport([p], { currentYear: 2025 });
const brief = (r: ParsedResult) => [r.test_name, r.value, r.units ?? '', r.min_reference_range, r.max_reference_range, r.interpretation];

describe('reading regions', () => {
  it('cuts a two-column panel into two regions but keeps a table whole', () => {
    const twoColumns = [
      line(100, [40, 'Sodium'], [300, 'Potassium']),
      line(112, [40, '140 mmol/L'], [300, '4.2 mmol/L']),
      line(124, [40, 'Ref 135-145'], [300, 'Ref 3.5-5.1']),
    ];
    expect(regionsOf(twoColumns, () => true).map((r) => r.lines.length)).toEqual([3, 3]);
    const table = [
      line(100, [40, 'Sodium'], [200, '140'], [260, 'mmol/L'], [340, '135-145']),
      line(112, [40, 'Potassium'], [200, '4.2'], [260, 'mmol/L'], [340, '3.5-5.1']),
    ];
    // The right-hand columns hold no names: they do not read alone, so no cut is taken.
    expect(regionsOf(table, (side) => side.some((l) => /[a-z]{4}/i.test(l.cells.map((c) => c.text).join(' ').replace(/mmol/g, '')))).length).toBe(1);
  });
});

describe('parseLabReport without table rows', () => {
  it('reads a compact two-column panel, the reference under each value', () => {
    const { results } = parse(
      page([
        line(60, [40, 'Patient: Jane Doe'], [300, 'DOB: 01/02/1980']),
        line(100, [40, 'Sodium'], [300, 'Potassium']),
        line(112, [40, '147 mmol/L'], [300, '4.2 mmol/L']),
        line(124, [40, 'Ref 135-145'], [300, 'Ref 3.5-5.1']),
        line(150, [40, 'Glucose'], [300, 'Creatinine']),
        line(162, [40, '88 mg/dL'], [300, '0.9 mg/dL']),
        line(174, [40, 'Ref 70-99'], [300, 'Ref 0.6-1.3']),
      ]),
    );
    // Reading order between the two columns is not asserted: each pair of rows is its own band.
    expect(results.map(brief).sort((a, b) => String(a[0]).localeCompare(String(b[0])))).toEqual([
      ['Creatinine', '0.9', 'mg/dL', 0.6, 1.3, 'normal'],
      ['Glucose', '88', 'mg/dL', 70, 99, 'normal'],
      ['Potassium', '4.2', 'mmol/L', 3.5, 5.1, 'normal'],
      ['Sodium', '147', 'mmol/L', 135, 145, 'abnormal'],
    ]);
  });

  it('reads consumer cards: name, a plain-language line, the value above its range text, a badge', () => {
    const { results } = parse(
      page([
        line(100, [40, 'Glucose'], [400, 'Above Range']),
        line(112, [40, 'Sugar in your blood, your main source of energy.']),
        line(130, [40, '112 mg/dL']),
        line(142, [40, 'Normal range: 70 - 99 mg/dL']),
        line(190, [40, 'Vitamin D, 25-Hydroxy'], [400, 'In Range']),
        line(202, [40, 'Helps keep bones strong.']),
        line(220, [40, '41 ng/mL']),
        line(232, [40, 'Normal range: 30 - 100 ng/mL']),
      ]),
    );
    expect(results.map(brief)).toEqual([
      ['Glucose', '112', 'mg/dL', 70, 99, 'abnormal'],
      ['Vitamin D, 25-Hydroxy', '41', 'ng/mL', 30, 100, 'normal'],
    ]);
    expect(results[0]!.flag).toBe('Above Range');
  });

  it('finds nothing where nothing is printed (a letter with dates and numbers but no results)', () => {
    const { results } = parse(
      page([
        line(60, [40, 'Dear Jane Doe,']),
        line(80, [40, 'Your appointment on 12/03/2025 at 10:30 is confirmed.']),
        line(100, [40, 'Room 12, 2nd floor, 1200 Main Street']),
      ]),
    );
    expect(results).toEqual([]);
  });
});
