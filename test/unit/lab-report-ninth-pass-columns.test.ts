import { describe, expect, it } from 'vitest';
import { detectHeader, headerRoleOf } from '../../domain/lab-report/layout.js';
import { parseLabReport } from '../../domain/lab-report/parse.js';
import { rangeOfLimits } from '../../domain/lab-report/rows.js';
import { type ExtractedPage, type ParsedResult, type TextLine } from '../../domain/lab-report/types.js';

// Column semantics read from the header (issue 14, ninth pass): synthetic rows, each rule with a case it must not touch.
/** A line of positioned cells: [text, x] pairs, as a PDF's text layer or OCR gives them. */
const row = (y: number, cells: [string, number][]): TextLine => ({
  text: cells.map(([t]) => t).join('   '),
  y,
  cells: cells.map(([t, x]) => ({ text: t, x, width: t.length * 5 })),
});
const parse = (lines: TextLine[], source: ExtractedPage['source'] = 'text_layer') => parseLabReport([{ page: 1, source, lines }], { currentYear: 2025 }).results;
const byName = (results: ParsedResult[], name: string): ParsedResult => {
  const r = results.find((x) => x.test_name === name);
  if (!r) throw new Error(`no result "${name}" in ${results.map((x) => x.test_name).join(', ')}`);
  return r;
};

describe('a header naming a lower-limit and an upper-limit column', () => {
  const X = { code: 20, name: 70, value: 230, unit: 290, low: 360, high: 420, flag: 480, status: 520 };
  const head = (low: string, high: string) =>
    row(10, [['Ord.', X.code], ['Analyte', X.name], ['Value', X.value], ['Unit', X.unit], [low, X.low], [high, X.high], ['Flag', X.flag], ['Status', X.status]]);

  it('makes one range of the two limit cells, bounds one side when only one limit is printed, and takes the flag from the flag column', () => {
    const r = parse([
      head('Lower Limit', 'Upper Limit'),
      row(20, [['MG', X.code], ['Magnesium', X.name], ['2.6', X.value], ['mg/dL', X.unit], ['1.7', X.low], ['2.2', X.high], ['H', X.flag], ['C', X.status]]),
      row(30, [['UA', X.code], ['Uric Acid', X.name], ['5.1', X.value], ['mg/dL', X.unit], ['3.4', X.low], ['7.0', X.high], ['P', X.status]]),
      row(40, [['LPA', X.code], ['Lipoprotein (a)', X.name], ['22', X.value], ['nmol/L', X.unit], ['75', X.high], ['F', X.status]]),
      row(50, [['APOA', X.code], ['Apolipoprotein A1', X.name], ['151', X.value], ['mg/dL', X.unit], ['110', X.low], ['F', X.status]]),
    ]);
    expect(r.map((x) => x.test_name)).toEqual(['Magnesium', 'Uric Acid', 'Lipoprotein (a)', 'Apolipoprotein A1']);
    // "C" under Status is the report's status (corrected), not a critical flag.
    expect(byName(r, 'Magnesium')).toMatchObject({ value: '2.6', units: 'mg/dL', min_reference_range: 1.7, max_reference_range: 2.2, flag: 'H', interpretation: 'abnormal' });
    expect(byName(r, 'Uric Acid')).toMatchObject({ min_reference_range: 3.4, max_reference_range: 7, interpretation: 'normal' });
    expect(byName(r, 'Uric Acid').flag).toBeUndefined();
    const lpa = byName(r, 'Lipoprotein (a)');
    expect(lpa).toMatchObject({ max_reference_range: 75, interpretation: 'normal' });
    expect(lpa.min_reference_range).toBeUndefined();
    const apo = byName(r, 'Apolipoprotein A1');
    expect(apo).toMatchObject({ min_reference_range: 110, interpretation: 'normal' });
    expect(apo.max_reference_range).toBeUndefined();
  });

  it('reads German and Spanish limit headings ("Untergrenze | Obergrenze", "Mínimo | Máximo")', () => {
    for (const [low, high] of [
      ['Untergrenze', 'Obergrenze'],
      ['Mínimo', 'Máximo'],
      ['Min', 'Max'],
    ]) {
      const layout = detectHeader(row(10, [['Test', 10], ['Result', 200], ['Units', 260], [low!, 320], [high!, 380]]));
      expect(layout?.columns.map((c) => c.role)).toEqual(['name', 'result', 'unit', 'low', 'high']);
    }
  });

  it('does not make a range of one limit column alone, nor of limits printed the wrong way round', () => {
    const layout = detectHeader(row(10, [['Test', 10], ['Result', 200], ['Units', 260], ['Max', 320], ['Flag', 380]]));
    expect(layout?.columns.map((c) => c.role)).toEqual(['name', 'result', 'unit', 'other', 'flag']);
    expect(rangeOfLimits('9.5', '3.1', false)).toBeUndefined();
    expect(rangeOfLimits('abc', '3.1', false)).toBeUndefined();
    expect(rangeOfLimits('', '', false)).toBeUndefined();
    expect(rangeOfLimits('3,1', '9,5', true)).toMatchObject({ min: 3.1, max: 9.5 });
  });

  it('keeps a lone Status column as the flag column', () => {
    const layout = detectHeader(row(10, [['Test', 10], ['Result', 200], ['Units', 260], ['Range', 320], ['Status', 400]]));
    expect(layout?.columns.map((c) => c.role)).toEqual(['name', 'result', 'unit', 'range', 'flag']);
  });
});

describe('a header naming a laboratory range column and a target range column', () => {
  const X = { name: 20, value: 180, unit: 230, a: 300, b: 380, flag: 460 };
  it('takes the laboratory range, whichever column comes first, and interprets the value by it', () => {
    const lines = (first: string, second: string, cellsOf: (lab: string, target: string) => [string, string]) => [
      row(10, [['Marker', X.name], ['Value', X.value], ['Unit', X.unit], [first, X.a], [second, X.b], ['Flag', X.flag]]),
      row(20, [['Apolipoprotein B', X.name], ['96', X.value], ['mg/dL', X.unit], [cellsOf('<130', '<80')[0], X.a], [cellsOf('<130', '<80')[1], X.b], ['Above target', X.flag]]),
      row(30, [['Zinc', X.name], ['84', X.value], ['ug/dL', X.unit], [cellsOf('60-120', '90-110')[0], X.a], [cellsOf('60-120', '90-110')[1], X.b]]),
    ];
    const labFirst = parse(lines('Laboratory Range', 'Target Range', (lab, target) => [lab, target]));
    const targetFirst = parse(lines('Functional Range', 'Reference Range', (lab, target) => [target, lab]));
    for (const r of [labFirst, targetFirst]) {
      expect(byName(r, 'Apolipoprotein B')).toMatchObject({ value: '96', max_reference_range: 130, interpretation: 'normal' });
      expect(byName(r, 'Zinc')).toMatchObject({ min_reference_range: 60, max_reference_range: 120, interpretation: 'normal' });
    }
  });

  it('still takes a target band as the range when it is the only range column', () => {
    const layout = detectHeader(row(10, [['Marker', 20], ['Value', 180], ['Unit', 230], ['Optimal Range', 300], ['Flag', 400]]));
    expect(layout?.columns.map((c) => c.role)).toEqual(['name', 'result', 'unit', 'range', 'flag']);
  });
});

describe('a header with a previous-result column before the current one', () => {
  const X = { name: 20, prev: 160, cur: 250, unit: 330, change: 400, range: 460 };
  it('reads the current column as the value, and neither the previous value nor the change', () => {
    const r = parse([
      row(10, [['Analyte', X.name], ['Last result (12/01/2023)', X.prev], ['Current (03/05/2024)', X.cur], ['Unit', X.unit], ['Delta', X.change], ['Ref. range', X.range]]),
      row(20, [['Phosphate', X.name], ['1.02', X.prev], ['1.31', X.cur], ['mmol/L', X.unit], ['+0.29', X.change], ['0.81-1.45', X.range]]),
      row(30, [['Urea', X.name], ['8.9', X.prev], ['9.4 H', X.cur], ['mmol/L', X.unit], ['+0.5', X.change], ['2.5-7.8', X.range]]),
      row(40, [['Magnesium', X.name], ['0.84', X.cur], ['mmol/L', X.unit], ['0.70-1.00', X.range]]),
    ]);
    expect(r.map((x) => [x.test_name, x.value])).toEqual([
      ['Phosphate', '1.31'],
      ['Urea', '9.4'],
      ['Magnesium', '0.84'],
    ]);
    expect(byName(r, 'Urea')).toMatchObject({ flag: 'H', min_reference_range: 2.5, max_reference_range: 7.8, interpretation: 'abnormal' });
  });

  it('reads dated previous and result headings, and keeps a result heading with a unit in brackets', () => {
    expect(headerRoleOf('Previous (01/10/23)')).toBe('previous');
    expect(headerRoleOf('Vorwert 12.03.2023')).toBe('previous');
    expect(headerRoleOf('Result 2024-04-04')).toBe('result');
    expect(headerRoleOf('Result (mg/dL)')).toBe('result');
    // A date after a word that names no column makes no heading.
    expect(headerRoleOf('Printed 04/04/24')).toBeUndefined();
  });
});

describe('a range column read by OCR', () => {
  const X = { name: 20, value: 200, unit: 280, range: 360 };
  const head = row(10, [['Test', X.name], ['Result', X.value], ['Units', X.unit], ['Reference Range', X.range]]);
  it('reads two plain numbers in the range column as a range whose dash was lost, but not two falling numbers', () => {
    const r = parse(
      [
        head,
        row(20, [['Total Protein', X.name], ['58', X.value], ['g/L', X.unit], ['64 83', X.range]]),
        row(30, [['Albumin', X.name], ['41', X.value], ['g/L', X.unit], ['52 35', X.range]]),
      ],
      'ocr',
    );
    expect(byName(r, 'Total Protein')).toMatchObject({ min_reference_range: 64, max_reference_range: 83, interpretation: 'abnormal' });
    expect(byName(r, 'Albumin').min_reference_range).toBeUndefined();
  });

  it('does not read "3%" as a value under a column whose unit is not a percentage', () => {
    const r = parse(
      [
        head,
        row(20, [['Total Protein', X.name], ['3%', X.value], ['g/L', X.unit], ['64-83', X.range]]),
        row(30, [['Neutrophils', X.name], ['61%', X.value], ['%', X.unit], ['40-75', X.range]]),
      ],
      'ocr',
    );
    expect(r.find((x) => x.test_name === 'Total Protein')).toBeUndefined();
    expect(byName(r, 'Neutrophils')).toMatchObject({ value: '61' });
  });
});

describe('a code cell before the name cell, with no header read (issue 14: never no results when results are printed)', () => {
  const X = { code: 20, name: 70, value: 230, unit: 290, low: 360, high: 420, status: 500 };
  it('reads the name from the second cell and the value after it, the bare limits and a status letter tolerated', () => {
    const r = parse([
      row(10, [['Chemistry Export', 20]]),
      row(20, [['LIPA', X.code], ['Lipase', X.name], ['38', X.value], ['U/L', X.unit], ['13', X.low], ['60', X.high], ['F', X.status]]),
      row(30, [['PHOS', X.code], ['Phosphorus, Inorganic', X.name], ['3.9', X.value], ['mg/dL', X.unit], ['2.5', X.low], ['4.5', X.high], ['P', X.status]]),
      row(40, [['CK', X.code], ['CK', X.name], ['142', X.value], ['U/L', X.unit], ['39', X.low], ['308', X.high], ['F', X.status]]),
    ]);
    expect(r.map((x) => [x.test_name, x.value, x.units])).toEqual([
      ['Lipase', '38', 'U/L'],
      ['Phosphorus, Inorganic', '3.9', 'mg/dL'],
      ['CK', '142', 'U/L'],
    ]);
  });

  it('does not take the second cell alone for the name when the first makes a test name with it, nor a capital qualifier', () => {
    const r = parse([
      row(10, [['LDL', X.code], ['Cholesterol', X.name], ['3.1', X.value], ['mmol/L', X.unit], ['(<3.0)', X.low]]),
      row(20, [['GLUCOSE', X.code], ['FASTING', X.name], ['95', X.value], ['mg/dL', X.unit], ['70-99', X.low]]),
    ]);
    expect(r.map((x) => x.test_name)).not.toContain('FASTING');
    expect(r.map((x) => x.test_name)).not.toContain('Cholesterol');
  });
});

describe('a code cell before the name cell, read by OCR', () => {
  it('does not take a misread word after a test name for the name ("TSH | nn | 3,1")', () => {
    const r = parse([row(10, [['TSH', 20], ['nn', 90], ['3,1', 230], ['mU/l', 300], ['0,3 - 4,2', 380]])], 'ocr');
    expect(r.map((x) => x.test_name)).not.toContain('nn');
  });
});

describe('a previous-result column beside a current result that cannot be read', () => {
  const X = { name: 20, prev: 160, cur: 250, unit: 330, change: 400, range: 460 };
  const head = row(10, [['Test', X.name], ['Previous (02/11/23)', X.prev], ['Result (14/05/24)', X.cur], ['Units', X.unit], ['Change', X.change], ['Reference', X.range]]);
  it('never takes the previous value (nor the change) for the result, and still reads the other rows', () => {
    const r = parse(
      [
        head,
        row(20, [['Ferritin', X.name], ['41', X.prev], ['5g', X.cur], ['ug/L', X.unit], ['+6', X.change], ['30-400', X.range]]),
        row(30, [['Transferrin', X.name], ['2.6', X.prev], ['2.9', X.cur], ['g/L', X.unit], ['+0.3', X.change], ['2.0-3.6', X.range]]),
        row(40, [['Iron', X.name], ['14', X.prev], ['17', X.cur], ['umol/L', X.unit], ['+3', X.change], ['10-30', X.range]]),
      ],
      'ocr',
    );
    expect(r.find((x) => x.test_name === 'Ferritin')).toBeUndefined();
    expect(r.map((x) => [x.test_name, x.value])).toEqual([
      ['Transferrin', '2.9'],
      ['Iron', '17'],
    ]);
  });

  it('reads a row that has no previous value through the current column', () => {
    const r = parse([head, row(20, [['Folate', X.name], ['23', X.cur], ['nmol/L', X.unit], ['>7', X.range]])]);
    expect(byName(r, 'Folate')).toMatchObject({ value: '23', units: 'nmol/L' });
  });
});
