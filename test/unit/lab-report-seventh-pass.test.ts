import { describe, expect, it } from 'vitest';
import { extractMetadata } from '../../domain/lab-report/metadata.js';
import { parseLabReport } from '../../domain/lab-report/parse.js';
import { type ExtractedPage, type ParsedResult, type TextLine } from '../../domain/lab-report/types.js';

// Rules of issue 14's seventh pass, each for a class of layout (none keyed to a corpus family).
const text = (t: string, y: number): TextLine => ({ text: t, y });
const page = (lines: TextLine[]): ExtractedPage => ({ page: 1, source: 'text_layer', lines });
const parse = (lines: TextLine[]) => parseLabReport([page(lines)], { currentYear: 2025 });
const byName = (results: ParsedResult[], name: string): ParsedResult => {
  const r = results.find((x) => x.test_name === name);
  if (!r) throw new Error(`no result "${name}" in ${results.map((x) => x.test_name).join(', ')}`);
  return r;
};

describe('a labelled range on a line under its result', () => {
  it('gives "Valores de referencia: 70 - 100" under a result to that result, and reads no row from it', () => {
    const r = parse([
      text('QUÍMICA SANGUÍNEA', 10),
      text('Glucosa 61 * mg/dL', 20),
      text('Valores de referencia: 70 - 100', 30),
      text('Colesterol total 146 mg/dL', 40),
      text('Valores de referencia: <200', 50),
    ]).results;
    expect(r.map((x) => x.test_name)).toEqual(['Glucosa', 'Colesterol total']);
    expect(byName(r, 'Glucosa')).toMatchObject({ reference_range_text: '70 - 100', min_reference_range: 70, max_reference_range: 100, interpretation: 'abnormal' });
    expect(byName(r, 'Colesterol total')).toMatchObject({ reference_range_text: '<200', max_reference_range: 200, interpretation: 'normal' });
  });

  it('reaches over a line of explanation without digits ("Optimal range: 40 – 80" two lines down)', () => {
    const r = parse([
      text('Vitamin D (25-OH) 72 ng/mL', 20),
      text('Supports bone density, immunity and mood.', 30),
      text('Optimal range: 40 – 80', 40),
    ]).results;
    expect(r).toHaveLength(1);
    expect(r[0]).toMatchObject({ test_name: 'Vitamin D (25-OH)', reference_range_text: '40 – 80', min_reference_range: 40, max_reference_range: 80, interpretation: 'normal' });
  });

  it('leaves a result that printed its own range alone, and does not reach past a line with numbers', () => {
    const own = parse([text('Glucose 95 mg/dL 70-99', 20), text('Reference range: 60 - 110', 30)]).results;
    expect(byName(own, 'Glucose')).toMatchObject({ reference_range_text: '70-99', min_reference_range: 70, max_reference_range: 99 });
    const far = parse([text('Ferritin 86 ng/mL', 20), text('Collected 03/04/2025 08:15', 30), text('Optimal range: 50 – 150', 40)]).results;
    expect(byName(far, 'Ferritin').reference_range_text ?? '').toBe('');
  });
});

describe('health check sheet headings', () => {
  const cells = (y: number, ...parts: [number, string][]): TextLine => ({ text: parts.map(([, t]) => t).join(' '), y, cells: parts.map(([x, t]) => ({ x, text: t })) });
  const header = cells(10, [40, 'Category'], [135, 'Item'], [255, 'Unit'], [310, 'This time'], [370, 'Previous'], [430, 'Reference'], [510, 'Judgement']);

  it('reads "Item" as the name column, "This time" as the result, "Category" as no part of the name, "Judgement" as the flag', () => {
    const r = parse([
      header,
      cells(20, [40, 'Kidney function'], [135, 'Creatinine'], [255, 'mg/dL'], [310, '0.53'], [370, '0.47'], [430, '0.47-0.79'], [528, 'H']),
      cells(30, [135, 'Uric acid'], [255, 'mg/dL'], [310, '8.0'], [370, '8.1'], [430, '2.1-7.0'], [528, 'H']),
    ]).results;
    expect(r.map((x) => [x.test_name, x.value])).toEqual([
      ['Creatinine', '0.53'],
      ['Uric acid', '8.0'],
    ]);
    expect(byName(r, 'Creatinine')).toMatchObject({ units: 'mg/dL', min_reference_range: 0.47, max_reference_range: 0.79, flag: 'H' });
  });
});

describe('a legend of grade letters', () => {
  const cells = (y: number, ...parts: [number, string][]): TextLine => ({ text: parts.map(([, t]) => t).join(' '), y, cells: parts.map(([x, t]) => ({ x, text: t })) });
  const header = cells(10, [40, 'Test'], [200, 'Result'], [260, 'Unit'], [320, 'Reference'], [420, 'Flag']);
  const rows = [
    cells(20, [40, 'Glucose'], [200, '92'], [260, 'mg/dL'], [320, '70-99'], [420, 'A']),
    cells(30, [40, 'Uric acid'], [200, '8.0'], [260, 'mg/dL'], [320, '2.1-7.0'], [420, 'C']),
  ];

  it('reads the letters as the legend printed on the report defines them', () => {
    const r = parse([header, ...rows, text('A: No abnormality B: Slight abnormality C: Re-examination advised D: Treatment required', 50)]).results;
    expect(byName(r, 'Glucose')).toMatchObject({ flag: 'A', interpretation: 'normal' });
    expect(byName(r, 'Uric acid')).toMatchObject({ flag: 'C', interpretation: 'abnormal' });
  });

  it('without such a legend, leaves the letters as flags are read elsewhere (A abnormal)', () => {
    const r = parse([header, ...rows]).results;
    expect(byName(r, 'Glucose').interpretation).toBe('abnormal');
  });
});

describe('Romanian metadata labels', () => {
  const meta = (...lines: string[]) => extractMetadata(lines.map((t) => ({ text: t, page: 1 })), { currentYear: 2025 });

  it('reads "Nume" as the family name first, "Data nașterii", "Data recoltării" and "Data validării"', () => {
    const m = meta('Nume: DUMITRESCU BOGDAN', 'Data nașterii: 23.08.1975', 'Data recoltării: 27.01.2025 09:17', 'Data validării: 28.01.2025 16:00');
    expect(m).toMatchObject({ patient_last_name: 'DUMITRESCU', patient_first_name: 'BOGDAN', dob: '1975-08-23', date_collected: '2025-01-27', date_reported: '2025-01-28' });
  });
});

describe('a labelled range with its unit after it', () => {
  it('keeps the unit out of the range and gives it to a result printed without one', () => {
    const r = parse([text('MCV 85', 20), text('Reference range: 80 - 100 fL', 30)]).results;
    expect(byName(r, 'MCV')).toMatchObject({ units: 'fL', reference_range_text: '80 - 100', min_reference_range: 80, max_reference_range: 100 });
  });
});

describe('a status of words after the value', () => {
  const cells = (y: number, ...parts: [number, string][]): TextLine => ({ text: parts.map(([, t]) => t).join(' '), y, cells: parts.map(([x, t]) => ({ x, text: t })) });

  it('reads "Above optimal" / "Below optimal" as a high / low flag, keeping the row', () => {
    const r = parse([
      cells(10, [62, 'Hemoglobin A1c'], [438, '5.4 %'], [495, 'Above optimal']),
      cells(20, [62, 'Ferritin'], [438, '31 ng/mL'], [495, 'Below optimal']),
    ]).results;
    expect(byName(r, 'Hemoglobin A1c')).toMatchObject({ value: '5.4', units: '%', flag: 'Above optimal', interpretation: 'abnormal', is_above_max_range: true });
    expect(byName(r, 'Ferritin')).toMatchObject({ value: '31', flag: 'Below optimal', interpretation: 'abnormal', is_below_min_range: true });
  });
});
