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
    expect(regionsOf(twoColumns, () => 1).map((r) => r.lines.length)).toEqual([3, 3]);
    const table = [
      line(100, [40, 'Sodium'], [200, '140'], [260, 'mmol/L'], [340, '135-145']),
      line(112, [40, 'Potassium'], [200, '4.2'], [260, 'mmol/L'], [340, '3.5-5.1']),
    ];
    // The right-hand columns hold no names: they do not read alone, so no cut is taken.
    expect(regionsOf(table, (side) => (side.some((l) => /[a-z]{4}/i.test(l.cells.map((c) => c.text).join(' ').replace(/mmol/g, ''))) ? 1 : 0)).length).toBe(1);
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

  it('reads a grid of cards under full-width lines, the status word on the name line being a badge', () => {
    const { results } = parse(
      page([
        line(40, [40, 'Riverbend Clinical Laboratory — Results Summary for your visit']),
        line(60, [40, 'Patient: Jane Doe'], [260, 'DOB: 01/02/1980'], [400, 'Accession: A1234']),
        line(100, [40, 'BASIC METABOLIC PANEL AND MORE TESTS']),
        line(126, [50, 'Glucose'], [250, 'HIGH'], [320, 'Sodium'], [500, 'NORMAL']),
        line(145, [50, '112 mg/dL'], [320, '141 mmol/L']),
        line(159, [50, 'Ref. range 70 - 99 mg/dL'], [320, 'Ref. range 135 - 146 mmol/L']),
        line(192, [50, 'Potassium'], [250, 'NORMAL'], [320, 'Calcium'], [500, 'LOW']),
        line(211, [50, '4.1 mmol/L'], [320, '8.1 mg/dL']),
        line(225, [50, 'Ref. range 3.5 - 5.3 mmol/L'], [320, 'Ref. range 8.6 - 10.3 mg/dL']),
        line(400, [200, 'Riverbend Clinical Laboratory · CLIA 05D0000000']),
      ]),
    );
    // The status word is the flag of the value below it, never a value; each card keeps its own badge.
    expect(results.map((r) => [...brief(r), r.flag]).sort((a, b) => String(a[0]).localeCompare(String(b[0])))).toEqual([
      ['Calcium', '8.1', 'mg/dL', 8.6, 10.3, 'abnormal', 'LOW'],
      ['Glucose', '112', 'mg/dL', 70, 99, 'abnormal', 'HIGH'],
      ['Potassium', '4.1', 'mmol/L', 3.5, 5.3, 'normal', 'NORMAL'],
      ['Sodium', '141', 'mmol/L', 135, 146, 'normal', 'NORMAL'],
    ]);
  });

  it('skips the end labels of a range bar and a sentence with a number in it, and keeps the last card of each page', () => {
    const card = (y: number, name: string, about: string, value: string, lo: string, hi: string, range: string) => [
      line(y, [40, name], [400, 'In Range']),
      line(y + 14, [40, about]),
      line(y + 36, [40, value]),
      line(y + 42, [280, lo], [390, hi]),
      line(y + 54, [40, range]),
    ];
    const pageOf = (n: number, lines: TextLine[]): ExtractedPage => ({ page: n, source: 'text_layer', lines: [line(30, [40, 'Northstar Labs'], [450, 'Your Lab Results']), ...lines, line(760, [40, 'Northstar Labs, Austin TX'], [500, `Page ${n} of 2`])] });
    const { results } = parseLabReport(
      [
        // With digits masked the two cards' value, bar and range lines are the same: still not page furniture.
        pageOf(1, card(90, 'HDL Cholesterol', 'The good cholesterol, best checked every 12 months.', '53 mg/dL', '40', '60', 'Range: 40 - 60 mg/dL')),
        pageOf(2, card(90, 'LDL Cholesterol', 'The cholesterol that builds up in arteries.', '82 mg/dL', '0', '99', 'Range: 0 - 99 mg/dL')),
      ],
      { currentYear: 2025 },
    );
    expect(results.map(brief)).toEqual([
      ['HDL Cholesterol', '53', 'mg/dL', 40, 60, 'normal'],
      ['LDL Cholesterol', '82', 'mg/dL', 0, 99, 'normal'],
    ]);
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
