import { describe, expect, it } from 'vitest';
import { matchLoinc } from '../../domain/lab-report/loinc-match.js';
import { parseLabReport } from '../../domain/lab-report/parse.js';
import { type ExtractedPage, type ParsedResult, type TextLine } from '../../domain/lab-report/types.js';
import { canonicalUnit, unitKind } from '../../domain/lab-report/units.js';

// Issue 14, tenth pass: reports in Cyrillic and Greek script (Russian/Ukrainian and Greek laboratories).
const top = (name: string, opts = {}): string | undefined => matchLoinc(name, opts)[0]?.loinc_code;
const row = (y: number, cells: [string, number][]): TextLine => ({
  text: cells.map(([t]) => t).join('   '),
  y,
  cells: cells.map(([t, x]) => ({ text: t, x, width: t.length * 5 })),
});
const parse = (lines: TextLine[]) => parseLabReport([{ page: 1, source: 'text_layer', lines } as ExtractedPage], { currentYear: 2025 }).results;
const byName = (results: ParsedResult[], name: string): ParsedResult => {
  const r = results.find((x) => x.test_name === name);
  if (!r) throw new Error(`no result "${name}" in ${results.map((x) => x.test_name).join(', ')}`);
  return r;
};

describe('units printed in Cyrillic', () => {
  it.each([
    ['г/л', 'g/L', 'mass'],
    ['мг/л', 'mg/L', 'mass'],
    ['мкг/л', 'ug/L', 'mass'],
    ['ммоль/л', 'mmol/L', 'moles'],
    ['мкмоль/л', 'umol/L', 'moles'],
    ['10^9/л', '10^9/L', 'count'],
    ['Ед/л', 'U/L', 'units'],
    ['мкМЕ/мл', 'uIU/mL', 'units'],
    ['мм/ч', 'mm/h', 'esr'],
    ['фл', 'fL', 'fl'],
  ])('"%s" is %s (%s)', (printed, latin, kind) => {
    expect(canonicalUnit(printed)).toBe(latin);
    expect(unitKind(printed)).toBe(kind);
  });
  it('negative: Cyrillic words and lone letters are no units ("Гемоглобин", "с" = "with", "л")', () => {
    expect(unitKind('Гемоглобин')).toBeUndefined();
    expect(unitKind('с')).toBeUndefined();
    expect(unitKind('л')).toBeUndefined();
    expect(unitKind('г/л крови')).toBeUndefined();
  });
  it('a Russian table row keeps its Cyrillic unit as printed', () => {
    const X = { name: 40, value: 240, unit: 302, ref: 370 };
    const r = parse([
      row(10, [['Исследование', X.name], ['Результат', X.value], ['Единицы', X.unit], ['Референсные значения', X.ref]]),
      row(24, [['Гемоглобин (HGB)', X.name], ['141', X.value], ['г/л', X.unit], ['132 - 173', X.ref]]),
      row(38, [['Глюкоза', X.name], ['5,21', X.value], ['ммоль/л', X.unit], ['4,10 - 5,90', X.ref]]),
    ]);
    expect(byName(r, 'Гемоглобин (HGB)').units).toBe('г/л');
    expect(byName(r, 'Глюкоза')).toMatchObject({ units: 'ммоль/л', value: '5.21', min_reference_range: 4.1, max_reference_range: 5.9 });
  });
});

describe('LOINC: names in Cyrillic and Greek', () => {
  it.each([
    ['Глюкоза', { unit: 'ммоль/л' }, '14749-6'],
    ['Креатинин', { unit: 'мкмоль/л' }, '14682-9'],
    ['Холестерин общий', { unit: 'ммоль/л' }, '14647-2'],
    ['АЛТ (аланинаминотрансфераза)', { unit: 'Ед/л' }, '1742-6'],
    ['СОЭ (по Вестергрену)', { unit: 'мм/ч' }, '4537-7'],
    ['ТТГ (тиреотропный гормон)', { unit: 'мкМЕ/мл' }, '3016-3'],
    ['Γλυκόζη', { unit: 'mg/dL' }, '2345-7'],
    ['ΓΛΥΚΟΖΗ', { unit: 'mg/dL' }, '2345-7'],
    ['Χοληστερόλη ολική', { unit: 'mg/dL' }, '2093-3'],
    ['Σίδηρος ορού', { unit: 'μg/dL' }, '2498-4'],
    ['Κρεατινίνη', { unit: 'mg/dL' }, '2160-0'],
  ])('"%s" (%o) → %s', (name, opts, code) => {
    expect(top(name, opts)).toBe(code);
  });
  it('negative: a Greek letter prefix is still read as before ("γ-GT", "β2-Microglobulin"), and an unknown Cyrillic word matches nothing', () => {
    expect(top('γ-GT', { unit: 'U/L' })).toBe('2324-2');
    expect(top('Пролактин', { unit: 'мМЕ/л' })).toBeUndefined();
  });
});
