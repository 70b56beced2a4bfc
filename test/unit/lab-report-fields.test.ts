import { describe, expect, it } from 'vitest';
import { inferDateOrder, parseDate } from '../../domain/lab-report/dates.js';
import { parseFlag } from '../../domain/lab-report/flags.js';
import { interpret } from '../../domain/lab-report/interpret.js';
import { extractMetadata, splitPersonName } from '../../domain/lab-report/metadata.js';
import { parseRange } from '../../domain/lab-report/ranges.js';
import { applyRangeLabels, tokenize } from '../../domain/lab-report/tokens.js';
import { unitKind } from '../../domain/lab-report/units.js';
import { normaliseNumber, parseValue } from '../../domain/lab-report/values.js';

describe('numbers and values', () => {
  it.each([
    ['5,3', true, '5.3'],
    ['5.3', true, '5.3'],
    ['1.234,5', true, '1234.5'],
    ['1,234.5', false, '1234.5'],
    ['1,250', false, '1250'],
    ['1,250', true, '1.250'],
    // Where commas are decimal, a point before three digits groups thousands (Brazilian counts per mm³).
    ['7.910', true, '7910'],
    ['150.000', true, '150000'],
    ['7.910', false, '7.910'],
    ['0.125', true, '0.125'],
    ['5.35', true, '5.35'],
    ['0,05', false, '0.05'],
    ['-2,5', true, '-2.5'],
    ['.5', false, '0.5'],
  ])('normaliseNumber(%s, decimalComma=%s) = %s', (raw, dc, out) => expect(normaliseNumber(raw, dc)).toBe(out));

  it('reads bounded values as their own kind', () => {
    expect(parseValue('<0,5', true)).toMatchObject({ value: '<0.5', type: 'range', high: 0.5, highInclusive: false });
    expect(parseValue('> 60', false)).toMatchObject({ value: '>60', type: 'range', low: 60 });
    expect(parseValue('≤5.6', false)).toMatchObject({ value: '<=5.6', highInclusive: true });
  });

  it('reads qualitative values, percentages, titres and sediment spans', () => {
    expect(parseValue('Negative', false)).toMatchObject({ type: 'boolean', qualitative: 'negative' });
    expect(parseValue('Nonreactive', false)).toMatchObject({ type: 'boolean', qualitative: 'negative' });
    expect(parseValue('Positiv', true)).toMatchObject({ type: 'boolean', qualitative: 'positive' });
    expect(parseValue('Trace', false)).toMatchObject({ type: 'comment' });
    expect(parseValue('2+', false)).toMatchObject({ type: 'boolean', qualitative: 'positive' });
    expect(parseValue('45%', false)).toMatchObject({ value: '45', type: 'percentage' });
    expect(parseValue('1:80', false)).toMatchObject({ value: '1:80', type: 'ratio' });
    expect(parseValue('0-2', false)).toMatchObject({ value: '0-2', type: 'range', low: 0, high: 2 });
    expect(parseValue('Hemoglobin', false)).toBeUndefined();
  });
});

describe('reference ranges', () => {
  it.each([
    ['70-99', false, 70, 99],
    ['3.5 - 5.3', false, 3.5, 5.3],
    ['3,5 - 5,3', true, 3.5, 5.3],
    ['0.5–1.2', false, 0.5, 1.2],
    ['70 to 99 mg/dL', false, 70, 99],
    ['[3,5 ; 5,3]', true, 3.5, 5.3],
    ['-2.0 - 2.0', false, -2, 2],
    ['4,0 bis 10,0', true, 4, 10],
  ])('%s → %s..%s', (text, dc, min, max) => expect(parseRange(text, dc)).toMatchObject({ text, min, max }));

  it.each([
    ['<200', undefined, 200, false],
    ['<=5.6', undefined, 5.6, true],
    ['< 5.7 %', undefined, 5.7, false],
    ['up to 5', undefined, 5, true],
    ['bis 5', undefined, 5, true],
    ["jusqu'à 5", undefined, 5, true],
  ])('upper bound %s', (text, min, max, inclusive) => {
    const r = parseRange(text, false)!;
    expect(r.min).toBe(min);
    expect(r.max).toBe(max);
    expect(r.maxInclusive).toBe(inclusive);
  });

  it('lower bounds, one-sex ranges, several-sex ranges and text ranges', () => {
    expect(parseRange('>39', false)).toMatchObject({ min: 39, minInclusive: false });
    expect(parseRange('>= 40', false)).toMatchObject({ min: 40, minInclusive: true });
    expect(parseRange('M: 13-17', false)).toMatchObject({ text: 'M: 13-17', min: 13, max: 17 });
    const both = parseRange('M: 13-17 F: 12-16', false)!;
    expect(both.text).toBe('M: 13-17 F: 12-16');
    expect(both.min).toBeUndefined();
    expect(parseRange('Negative', false)).toMatchObject({ text: 'Negative', qualitative: 'negative' });
    expect(parseRange('see comment below', false)).toBeUndefined();
  });
});

describe('reference ranges: bounds in words', () => {
  it.each([
    ['below 5.0', undefined, 5],
    ['less than 200 mg/dL', undefined, 200],
    ['under 40', undefined, 40],
    ['inferior a 190', undefined, 190],
    ['Inferior a 190 mg/dL', undefined, 190],
    ['moins de 5,0', undefined, 5],
    ['unter 5,7', undefined, 5.7],
    ['above 1.0', 1, undefined],
    ['over 60', 60, undefined],
    ['greater than 39', 39, undefined],
    ['superior a 40', 40, undefined],
    ['plus de 1,5', 1.5, undefined],
    ['über 40', 40, undefined],
    ['Desejável: inferior a 190 mg/dL', undefined, 190],
    ['Ideal: above 1.0', 1, undefined],
  ])('%s → %s..%s', (text, min, max) => {
    const r = parseRange(text, /,\d/.test(text))!;
    expect(r).toBeDefined();
    expect(r.min).toBe(min);
    expect(r.max).toBe(max);
  });

  it('a word that only looks like a bound is no range', () => {
    expect(parseRange('over the last three months', false)).toBeUndefined();
    expect(parseRange('below normal', false)).toBeUndefined();
  });
});

describe('reference ranges: brackets and no-range markers', () => {
  it.each([
    ['(130 - 180)', '130 - 180', 130, 180],
    ['[4.0 - 11.0]', '4.0 - 11.0', 4, 11],
    ['(<5.0)', '<5.0', undefined, 5],
    ['(>1.0)', '>1.0', 1, undefined],
    ['135-145)', '135-145', 135, 145],
  ])('%s is read as %s', (raw, text, min, max) => {
    const r = parseRange(raw, false)!;
    expect(r.text).toBe(text);
    expect(r.min).toBe(min);
    expect(r.max).toBe(max);
  });

  it('keeps the brackets of the French "[a ; b]" notation', () => {
    expect(parseRange('[3,5 ; 5,3]', true)).toMatchObject({ text: '[3,5 ; 5,3]', min: 3.5, max: 5.3 });
  });

  it('the spelled-out inclusive bound "> OR = 60"', () => {
    expect(parseRange('> OR = 60', false)).toMatchObject({ text: '> OR = 60', min: 60, minInclusive: true });
    expect(parseRange('< or = 5.0 mg/dL', false)).toMatchObject({ max: 5, maxInclusive: true });
    expect(parseValue('> OR = 60', false)).toMatchObject({ value: '>=60', type: 'range', low: 60, lowInclusive: true });
  });

  it('"Not Estab." is a range text without bounds', () => {
    const r = parseRange('Not Estab.', false)!;
    expect(r.text).toBe('Not Estab.');
    expect(r.min).toBeUndefined();
    expect(r.max).toBeUndefined();
    expect(r.qualitative).toBeUndefined();
  });
});

describe('tokens: range labels, bracketed bounds, separators', () => {
  const kinds = (text: string) => tokenize(text, 0).map((t) => [t.kind, t.text]);
  const labelled = (text: string) =>
    applyRangeLabels(tokenize(text, 0), (t) => parseRange(t, false) !== undefined).map((t) => [t.kind, t.text, t.labelled ?? false]);

  it('reads a bracketed bound as a range, not a word or a value', () => {
    expect(kinds('3.9 mmol/L (<5.0)')).toEqual([['num', '3.9'], ['unit', 'mmol/L'], ['range', '(<5.0)']]);
    expect(kinds('[> 1.0]')).toEqual([['range', '[> 1.0]']]);
  });

  it.each([
    ['normal range 135-145', '135-145'],
    ['normal range >40', '>40'],
    ['Ref: <100', '<100'],
    ['Ref:3.5-5.0', '3.5-5.0'],
    ['Referenzbereich: 135-145', '135-145'],
    ['Norm: 3,5-5,1', '3,5-5,1'],
    ['valeurs de référence : 135 à 145', '135 à 145'],
    ['VN: 0.5-1.2', '0.5-1.2'],
    ['(Ref: 135-145)', '135-145)'],
    ['reference range: Negative', 'Negative'],
  ])('"%s": the label makes the next token the range', (text, range) => {
    expect(labelled(text)).toEqual([['range', range, true]]);
  });

  it('a label without a range after it is an ordinary word; "normal" alone is not a label', () => {
    expect(labelled('Ref: 12 lab')).toEqual([['word', 'Ref:', false], ['num', '12', false], ['word', 'lab', false]]);
    expect(kinds('Normal')).toEqual([['qual', 'Normal']]);
  });

  it('dashes and a comma after a unit are separators; a comma inside a name stays', () => {
    expect(kinds('Sodium — 140 mmol/L, ok')).toEqual([['word', 'Sodium'], ['sep', '—'], ['num', '140'], ['unit', 'mmol/L'], ['sep', ','], ['word', 'ok']]);
    expect(kinds('Glucose, fasting')).toEqual([['word', 'Glucose,'], ['word', 'fasting']]);
  });

  it('"Not Estab." in a range column is one range token', () => {
    expect(kinds('59 % Not Estab. 01')).toEqual([['num', '59'], ['unit', '%'], ['range', 'Not Estab.'], ['num', '01']]);
  });
});

describe('flags', () => {
  it.each([
    ['H', 'abnormal', 'high'],
    ['L', 'abnormal', 'low'],
    ['HH', 'critical', 'high'],
    ['LL', 'critical', 'low'],
    ['A', 'abnormal', undefined],
    ['High', 'abnormal', 'high'],
    ['Low', 'abnormal', 'low'],
    ['critical', 'critical', undefined],
    ['!!', 'critical', undefined],
    ['*', 'abnormal', undefined],
    ['erhöht', 'abnormal', 'high'],
    ['N', 'normal', undefined],
  ])('%s → %s', (flag, severity, direction) => expect(parseFlag(flag)).toMatchObject({ flag, severity, direction }));

  it('drops brackets and is not fooled by words', () => {
    expect(parseFlag('(H)')).toMatchObject({ flag: 'H', direction: 'high' });
    expect(parseFlag('[High]')).toMatchObject({ flag: 'High', direction: 'high' });
    expect(parseFlag('(L)')).toMatchObject({ flag: 'L', direction: 'low' });
    expect(parseFlag('Glucose')).toBeUndefined();
  });
});

describe('interpretation', () => {
  const v = (s: string) => parseValue(s, false)!;
  const r = (s: string) => parseRange(s, false)!;

  it('takes the flag when there is one', () => {
    expect(interpret(v('105'), r('65-99'), parseFlag('H'))).toEqual({ interpretation: 'abnormal', is_above_max_range: true, is_below_min_range: false });
    expect(interpret(v('2.1'), r('3.5-5.1'), parseFlag('LL'))).toMatchObject({ interpretation: 'critical', is_below_min_range: true });
    expect(interpret(v('Positive'), undefined, parseFlag('A'))).toEqual({ interpretation: 'abnormal' });
  });

  it('else compares with the range', () => {
    expect(interpret(v('85'), r('70-99'), undefined)).toEqual({ interpretation: 'normal', is_above_max_range: false, is_below_min_range: false });
    expect(interpret(v('250'), r('<200'), undefined)).toEqual({ interpretation: 'abnormal', is_above_max_range: true });
    expect(interpret(v('200'), r('<200'), undefined)).toMatchObject({ interpretation: 'abnormal', is_above_max_range: true });
    expect(interpret(v('45'), r('>39'), undefined)).toEqual({ interpretation: 'normal', is_below_min_range: false });
    expect(interpret(v('<0.5'), r('0-5'), undefined)).toMatchObject({ interpretation: 'normal' });
    expect(interpret(v('>90'), r('>59'), undefined)).toMatchObject({ interpretation: 'normal', is_below_min_range: false });
    expect(interpret(v('Positive'), r('Negative'), undefined)).toEqual({ interpretation: 'abnormal' });
    expect(interpret(v('Negative'), r('Negative'), undefined)).toEqual({ interpretation: 'normal' });
  });

  it('says nothing when it cannot tell', () => {
    expect(interpret(v('95'), undefined, undefined)).toEqual({});
    expect(interpret(v('<5'), r('2-10'), undefined)).toEqual({ is_above_max_range: false });
    expect(interpret(v('95'), r('M: 13-17 F: 12-16'), undefined)).toEqual({});
    expect(interpret(v('Trace'), r('Negative'), undefined)).toEqual({});
  });
});

describe('units: spelled-out count prefixes', () => {
  it.each(['Thousand/uL', 'Million/uL', 'Billion/L'])('%s is a count', (u) => expect(unitKind(u)).toBe('count'));
  it.each(['milhões/mm³', 'milhoes/mm3', 'millones/mm3'])('%s (Portuguese, Spanish multiplier) is a count', (u) => expect(unitKind(u)).toBe('count'));
  it('does not take a word of its own before /mm3 as a count', () => expect(unitKind('milho/mm3')).toBeUndefined());
});

describe('units', () => {
  it.each([
    ['mg/dL', 'mass'],
    ['g/L', 'mass'],
    ['µg/l', 'mass'],
    ['mmol/L', 'moles'],
    ['µmol/l', 'moles'],
    ['mEq/L', 'moles'],
    ['x10E3/uL', 'count'],
    ['10^9/L', 'count'],
    ['G/L', 'count'],
    ['T/L', 'count'],
    ['/nl', 'count'],
    ['K/uL', 'count'],
    ['%', 'percent'],
    ['U/L', 'units'],
    ['UI/L', 'units'],
    ['mIU/L', 'units'],
    ['µIU/mL', 'units'],
    ['fL', 'fl'],
    ['pg', 'pg'],
    ['pg/mL', 'mass'],
    ['mL/min/1.73m2', 'rate'],
    ['mm/h', 'esr'],
    ['/hpf', 'per-field'],
    ['mmol/mol', 'molar-ratio'],
    ['mg/g', 'mass-ratio'],
    ['sec', 'time'],
  ])('%s is %s', (u, kind) => expect(unitKind(u)).toBe(kind));

  it('does not take words for units', () => {
    expect(unitKind('Glucose')).toBeUndefined();
    expect(unitKind('H')).toBeUndefined();
  });
});

describe('dates', () => {
  it.each([
    ['1980-02-01', undefined, '1980-02-01'],
    ['01.02.1980', undefined, '1980-02-01'],
    ['25/12/1980', undefined, '1980-12-25'],
    ['12/25/1980', undefined, '1980-12-25'],
    ['01/02/1980', 'dmy', '1980-02-01'],
    ['01/02/1980', 'mdy', '1980-01-02'],
    ['01/02/1980', undefined, ''],
    ['2 Feb 1980', undefined, '1980-02-01'.replace('01', '02')],
    ['Feb 2, 1980', undefined, '1980-02-02'],
    ['02-Feb-1980', undefined, '1980-02-02'],
    ['2. Februar 1980', undefined, '1980-02-02'],
    ['1er mars 1980', undefined, '1980-03-01'],
    ['12 décembre 1975', undefined, '1975-12-12'],
    ['31/02/1980', 'dmy', ''],
  ] as const)('%s (%s) → %s', (text, order, out) => expect(parseDate(text, { order })).toBe(out));

  it('places two-digit birth years in the past', () => {
    expect(parseDate('03/15/62', { isBirthDate: true, currentYear: 2025 })).toBe('1962-03-15');
    expect(parseDate('03/15/12', { isBirthDate: true, currentYear: 2025 })).toBe('2012-03-15');
  });

  it('infers the document order from its own dates, then its language and spelling', () => {
    expect(inferDateOrder('Collected 03/14/2024 DOB 01/02/1980', 'en')).toBe('mdy');
    expect(inferDateOrder('Collected 14/03/2024 DOB 01/02/1980', 'en')).toBe('dmy');
    expect(inferDateOrder('DOB 01/02/1980', 'de')).toBe('dmy');
    expect(inferDateOrder('DOB 01/02/1980 Haemoglobin Colour', 'en')).toBe('dmy');
    expect(inferDateOrder('DOB 01/02/1980 Hemoglobin Color', 'en')).toBe('mdy');
    expect(inferDateOrder('DOB 01/02/1980', 'en')).toBeUndefined();
  });
});

describe('metadata', () => {
  const lines = (...texts: string[]) => texts.map((text) => ({ text, page: 1 }));

  it.each([
    ['DOE, JOHN', 'JOHN', 'DOE'],
    ['Doe, John A.', 'John', 'Doe'],
    ['John Doe', 'John', 'Doe'],
    ['Mr. John Q Doe', 'John', 'Doe'],
    ['MUSTERMANN Max', 'Max', 'MUSTERMANN'],
    ['Marie DUPONT', 'Marie', 'DUPONT'],
  ])('splitPersonName(%s)', (raw, first, last) => expect(splitPersonName(raw)).toEqual({ first, last }));

  it('reads several label/value pairs on one line', () => {
    const m = extractMetadata(lines('Patient Name: DOE, JOHN    DOB: 04/23/1975    Sex: M', 'Collected: 03/01/2024 08:15   Reported: 03/02/2024', 'Accession #: WX123456Z'), { dateOrder: 'mdy' });
    expect(m).toEqual({ patient_first_name: 'JOHN', patient_last_name: 'DOE', dob: '1975-04-23', lab_name: '', date_collected: '2024-03-01', date_reported: '2024-03-02', specimen_number: 'WX123456Z' });
  });

  it('reads German and French labels', () => {
    const de = extractMetadata(lines('Nachname: Müller   Vorname: Anna   Geb.-Datum: 3.7.1990', 'Auftragsnummer: 123456'), { dateOrder: 'dmy' });
    expect(de).toMatchObject({ patient_first_name: 'Anna', patient_last_name: 'Müller', dob: '1990-07-03', specimen_number: '123456' });
    const fr = extractMetadata(lines('Nom : DUPONT    Prénom : Marie', 'Date de naissance : 07/11/1962', 'Laboratoire : Biomnis Lyon'), { dateOrder: 'dmy' });
    expect(fr).toMatchObject({ patient_first_name: 'Marie', patient_last_name: 'DUPONT', dob: '1962-11-07', lab_name: 'Biomnis Lyon' });
  });

  it('reads a row of labels above a row of values', () => {
    const m = extractMetadata(lines('Patient Name      Date of Birth      Specimen ID', 'Jane Roe          1988-06-30         S-2024-0001'));
    expect(m).toMatchObject({ patient_first_name: 'Jane', patient_last_name: 'Roe', dob: '1988-06-30', specimen_number: 'S-2024-0001' });
  });

  it('leaves an ambiguous DOB empty instead of guessing, and takes the lab from the letterhead', () => {
    const m = extractMetadata(lines('Acme Clinical Laboratories', 'Patient: Jane Roe   DOB: 01/02/1980'));
    expect(m.dob).toBe('');
    expect(m.lab_name).toBe('Acme Clinical Laboratories');
  });
});

describe('fields seen on layouts beyond the corpus', () => {
  it('a healthy-category label before one bound is the range: "Desirable : < 200"', () => {
    expect(parseRange('Desirable : < 200', false)).toMatchObject({ text: 'Desirable : < 200', max: 200, maxInclusive: false });
    expect(parseRange('Optimal: <100', false)).toMatchObject({ max: 100 });
    expect(parseRange('Borderline: 200-239', false)).toBeUndefined();
  });
  it('"n.n." keeps its closing point and is a negative; "s. Kommentar" is a comment', () => {
    expect(tokenize('n.n.', 0)).toEqual([{ kind: 'qual', text: 'n.n.', chunk: 0 }]);
    expect(parseValue('n.n.', true)).toMatchObject({ value: 'n.n.', type: 'boolean', qualitative: 'negative' });
    expect(parseValue('s. Kommentar', true)).toMatchObject({ type: 'comment' });
  });
  it('not detected against an upper limit is normal; against a lower one it is not judged', () => {
    const nn = parseValue('n.n.', true)!;
    expect(interpret(nn, parseRange('< 14', true), undefined)).toMatchObject({ interpretation: 'normal' });
    expect(interpret(nn, parseRange('> 40', true), undefined).interpretation).toBeUndefined();
  });
  it('Indian spellings of units: gm/dL, cells/cu.mm, lakhs/cu.mm', () => {
    expect(unitKind('gm/dL')).toBe('mass');
    expect(unitKind('cells/cu.mm')).toBe('count');
    expect(unitKind('lakhs/cu.mm')).toBe('count');
    expect(unitKind('mill/cu.mm')).toBe('count');
  });
});
