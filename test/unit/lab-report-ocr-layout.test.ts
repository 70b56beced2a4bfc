import { describe, expect, it } from 'vitest';
import { detectHeader } from '../../domain/lab-report/layout.js';
import { repairOcrName } from '../../domain/lab-report/ocr-names.js';
import { parseLabReport } from '../../domain/lab-report/parse.js';
import type { TextLine } from '../../domain/lab-report/types.js';

const cells = (y: number, ...cs: [string, number, number][]): TextLine => ({ text: cs.map((c) => c[0]).join(' '), y, cells: cs.map(([text, x, width]) => ({ text, x, width })) });

describe('header cells OCR joined', () => {
  it('splits a cell holding two headings into two columns, placed by their share of its width', () => {
    const layout = detectHeader(cells(100, ['Analyses', 96, 70], ['Résultats Unités', 507, 150], ['Valeurs de référence', 719, 160], ['Antériorités', 948, 90]));
    expect(layout?.columns.map((c) => c.role)).toEqual(['name', 'result', 'unit', 'range', 'previous']);
    expect(layout!.columns[2]!.x).toBeGreaterThan(570);
    expect(layout!.columns[2]!.x).toBeLessThan(620);
  });

  it('leaves a cell of one heading, or of words that are no headings, whole', () => {
    expect(detectHeader(cells(100, ['Test', 10, 40], ['Reference Range', 300, 120], ['Result', 500, 50]))?.columns.map((c) => c.role)).toEqual(['name', 'range', 'result']);
    expect(detectHeader(cells(100, ['Patient', 10, 60], ['Results Summary', 300, 140]))).toBeUndefined();
  });

  it('reads the rows under such a header, the unit from its own column', () => {
    const page = {
      page: 1,
      source: 'ocr' as const,
      lines: [
        cells(100, ['Analyses', 96, 70], ['Résultats Unités', 507, 150], ['Valeurs de référence', 719, 160]),
        cells(140, ['GLYCÉMIE À JEUN', 97, 160], ['0,87', 543, 32], ['g/L', 614, 25], ['(0,70 à 1,10)', 718, 95]),
        cells(170, ['CHOLESTÉROL HDL', 89, 150], ['0,59', 534, 32], ['g/L', 605, 25], ['(0,40 à 0,80)', 709, 95]),
      ],
    };
    const { results } = parseLabReport([page]);
    expect(results.map((r) => [r.test_name, r.value, r.units])).toEqual([
      ['GLYCÉMIE À JEUN', '0.87', 'g/L'],
      ['CHOLESTÉROL HDL', '0.59', 'g/L'],
    ]);
  });
});

describe('a short value right-aligned under a wide result heading', () => {
  it('is the result when it starts past the midpoint to the unit heading and the result column is empty', () => {
    const page = {
      page: 1,
      source: 'ocr' as const,
      lines: [
        cells(100, ['Analyses', 96, 70], ['Résultats', 500, 80], ['Unités', 600, 50], ['Valeurs de référence', 719, 160]),
        cells(140, ['ACIDE URIQUE', 95, 110], ['41', 556, 18], ['mg/L', 611, 35], ['(26 à 60)', 715, 75]),
      ],
    };
    expect(parseLabReport([page]).results.map((r) => [r.test_name, r.value, r.units, r.reference_range_text])).toEqual([['ACIDE URIQUE', '41', 'mg/L', '26 à 60']]);
  });
});

describe('one garbled OCR word beside a value', () => {
  const report = (source: 'ocr' | 'text_layer') => [
    {
      page: 1,
      source,
      lines: [
        cells(100, ['Date', 90, 30], ['26/03/24', 293, 60], ['27/09/24', 393, 60], ['19/12/24', 492, 60]),
        cells(120, ['GGT', 80, 30], ['39', 323, 18], ['34', 423, 18], ['37', 523, 18], ['ws', 572, 20], ['(5-50)', 714, 45]),
        cells(140, ['Bilirubin', 83, 60], ['15', 324, 18], ['14', 424, 18], ['13', 524, 18], ['umol/L', 573, 45], ['(2-20)', 716, 45]),
      ],
    },
  ];

  it('is left out of an OCR row that has a range, and the row is read', () => {
    expect(parseLabReport(report('ocr')).results.map((r) => [r.test_name, r.value, r.units ?? null])).toEqual([
      ['GGT', '37', null],
      ['Bilirubin', '13', 'umol/L'],
    ]);
  });

  it('still keeps a printed row with an unexplained word from being read through the columns', () => {
    expect(parseLabReport(report('text_layer')).results.map((r) => r.test_name)).not.toContain('GGT');
  });
});

describe('test names OCR misread by one look-alike', () => {
  it('repairs a short word into a name the LOINC table knows', () => {
    expect(repairOcrName('Het')).toBe('Hct');
    expect(repairOcrName('Tota1 Protein')).toBe('Total Protein');
    // i for l in a two-letter symbol (a cumulative table's column heading).
    expect(repairOcrName('ci')).toBe('cl');
  });

  it('leaves known names and names no single swap makes known', () => {
    for (const n of ['Glucose', 'Hct', 'pH', 'Ph', 'Ca', 'Na', 'SUR', 'Potassio', 'Method']) expect(repairOcrName(n)).toBe(n);
  });
});
