import { describe, expect, it } from 'vitest';
import { cleanWord, joinUnitPieces, repairUnit } from '../../activities/lab-reports/ocr-text.js';

describe('cleanWord: specks stuck to OCR words', () => {
  it.each([
    ['„4.7', '4.7'],
    ['“(45', '(45'],
    ['{150', '(150'],
    ['400}', '400)'],
    ['5.01,', '5.01'],
    ['98.', '98'],
    ['Hämoglobin’', 'Hämoglobin'],
    ['’', ''],
    ['°', ''],
    ['‚598', '598'],
    ['…viorres', 'viorres'],
  ])('%s → %s', (raw, clean) => expect(cleanWord(raw)).toBe(clean));

  it('keeps marks reports print on their own, and words it has no reason to touch', () => {
    for (const w of ['-', '<', '>', '%', '*', '+', '**', '(L)', '3,5', '<0.5', 'H', 'mg/dL', 'U/L', '1:80']) expect(cleanWord(w)).toBe(w);
  });

  it('keeps a leading point before a number (the parser judges it, it is not guessed away)', () => {
    expect(cleanWord('.57')).toBe('.57');
  });
});

describe('repairUnit: a single look-alike swap that makes a known unit', () => {
  it.each([
    ['mgidL', 'mg/dL'],
    ['mmoliL', 'mmol/L'],
    ['mmo1/L', 'mmol/L'],
    ['IHPF', '/HPF'],
    ['x1049/L', 'x10^9/L'],
    ['x10"9/L', 'x10^9/L'],
    ['x10/9/L', 'x10^9/L'],
    ['x10/12/L', 'x10^12/L'],
  ])('%s → %s', (raw, unit) => expect(repairUnit(raw)).toBe(unit));

  it.each([
    ['gL', 'g/L'],
    ['UL', 'U/L'],
    ['mmolL', 'mmol/L'],
    ['mgdL', 'mg/dL'],
    ['KuL', 'K/uL'],
    ['mmoll.', 'mmol/l'],
    ['gl:', 'g/l'],
    ['mg/dl.', 'mg/dl'],
  ])('a lost slash or a closing speck: %s → %s', (raw, unit) => expect(repairUnit(raw)).toBe(unit));

  it('splits a value run into a unit that lost its slash, the digits as read', () => {
    expect(repairUnit('15UL')).toBe('15 U/L');
    expect(repairUnit('7.5gdL')).toBe('7.5 g/dL');
    for (const w of ['4H', '12mg', '15U/L', '4l']) expect(repairUnit(w)).toBe(w);
  });

  it('never reads millilitres or words as a unit that lost its slash', () => {
    for (const w of ['mL', 'ml', 'HDL', 'LDL', 'Hgb', 'INR', 'pH', 'IgG', 'Fer', 'Total', 'Ratio', 'UM', 'gn.', 's.', 'h.', 'n.n.']) expect(repairUnit(w)).toBe(w);
  });

  it('leaves known units, names, numbers and words that no single swap makes a unit', () => {
    for (const w of ['mg/dL', 'mmol/L', 'Glucose', 'Iron', 'Leukozyten', '4l', '105', 'H', 'Potassium', 'ugh']) expect(repairUnit(w)).toBe(w);
  });
});

describe('joinUnitPieces: a unit split around its slash', () => {
  it('joins pieces that make a known unit', () => {
    expect(joinUnitPieces(['mmol', '/L'])).toEqual(['mmol/L']);
    expect(joinUnitPieces(['U/', 'L'])).toEqual(['U/L']);
    expect(joinUnitPieces(['mmo1', '/', 'L'])).toEqual(['mmol/L']);
    expect(joinUnitPieces(['4.2', 'mmol', '/L', 'H'])).toEqual(['4.2', 'mmol/L', 'H']);
  });

  it('leaves a name before a count unit, and words without a slash', () => {
    expect(joinUnitPieces(['Leukozyten', '/nl'])).toEqual(['Leukozyten', '/nl']);
    expect(joinUnitPieces(['5,7', '/nl'])).toEqual(['5,7', '/nl']);
    expect(joinUnitPieces(['Total', 'Protein'])).toEqual(['Total', 'Protein']);
  });
});
