import { describe, expect, it } from 'vitest';
import { nearestLabel } from '../../domain/lab-report/ocr-names.js';
import { parseLabReport } from '../../domain/lab-report/parse.js';
import { type ExtractedPage, type ParsedResult, type TextLine } from '../../domain/lab-report/types.js';

/**
 * Issue 14, sixth OCR pass: a range label OCR misread in a letter or two is still the label. Synthetic lines,
 * no corpus document; the negatives guard against reading a word near a label as one.
 */

const cells = (y: number, ...parts: [number, string][]): TextLine => ({ text: parts.map(([, t]) => t).join(' '), y, cells: parts.map(([x, t]) => ({ x, text: t })) });
const page = (lines: TextLine[], source: 'ocr' | 'text_layer'): ExtractedPage => ({ page: 1, lines, source, ...(source === 'ocr' ? { ocrConfidence: 60 } : {}) });
const parse = (lines: TextLine[], source: 'ocr' | 'text_layer' = 'ocr') => parseLabReport([page(lines, source)], { currentYear: 2025 }).results;
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
