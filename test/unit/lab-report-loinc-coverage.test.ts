import { describe, expect, it } from 'vitest';
import { matchLoinc, type MatchOptions } from '../../domain/lab-report/loinc-match.js';
import { isValidLoincCode, loincEntry } from '../../domain/lab-report/loinc-table.js';

const top = (name: string, options: MatchOptions = {}): string | undefined => matchLoinc(name, options)[0]?.loinc_code;

describe('LOINC coverage: allergen-specific IgE', () => {
  it.each([
    ['Timothy grass (g6)', '6265-3'],
    ['House dust mite (d1)', '6095-4'],
    ['D. pteronyssinus', '6095-4'],
    ['Dermatophagoides farinae', '6096-2'],
    ['Cat dander (e1)', '6833-8'],
    ['Dog epithelium', '6098-8'],
    ['Birch pollen (t3)', '6025-1'],
    ['Alternaria (m6)', '6020-2'],
    ['Egg white', '6106-9'],
    ['Milk (f2)', '7258-7'],
    ['Peanut IgE', '6206-7'],
  ])('%s → %s', (name, code) => expect(top(name, { unit: 'kUA/L' })).toBe(code));

  it('an ImmunoCAP code alone names the allergen', () => {
    expect(top('g6', { unit: 'kUA/L' })).toBe('6265-3');
    expect(top('f13', { unit: 'kUA/L' })).toBe('6206-7');
  });

  it('total IgE stays total IgE', () => expect(top('Total IgE', { unit: 'kU/L' })).toBe('19113-0'));
});

describe('LOINC coverage: blood gas analyser (C-NPU notation) goes to whole-blood codes', () => {
  it.each([
    ['cK+', 'mmol/L', '6298-4'],
    ['cNa+', 'mmol/L', '2947-0'],
    ['cCl-', 'mmol/L', '2069-3'],
    ['cCa2+', 'mmol/L', '1994-3'],
    ['cGlu', 'mmol/L', '15074-8'],
    ['cLac', 'mmol/L', '2518-9'],
    ['ctHb', 'g/dL', '30313-1'],
    ['FCOHb', '%', '20563-3'],
    ['FMetHb', '%', '2614-6'],
    ['cHCO3-(P,st)', 'mmol/L', '1960-4'],
    ['cBase(Ecf)', 'mmol/L', '1925-7'],
  ])('%s (%s) → %s', (name, unit, code) => expect(top(name, { unit, panel: 'Electrolyte Values' })).toBe(code));

  it('plain names outside a blood gas stay serum/plasma, and "CK" is creatine kinase', () => {
    expect(top('Potassium', { unit: 'mmol/L' })).toBe('2823-3');
    expect(top('Sodium', { unit: 'mmol/L' })).toBe('2951-2');
    expect(top('Lactate', { unit: 'mmol/L' })).toBe('2524-7');
    expect(top('Hemoglobin', { unit: 'g/dL' })).toBe('718-7');
    expect(top('CK', { unit: 'U/L' })).toBe('2157-6');
  });

  it('plain names under a blood gas heading go to whole blood', () => {
    expect(top('Potassium', { unit: 'mmol/L', panel: 'Blood gas analysis' })).toBe('6298-4');
  });
});

describe('LOINC coverage: further languages', () => {
  it.each([
    // Czech
    ['Draslík', 'mmol/l', '2823-3'],
    ['Sodík', 'mmol/l', '2951-2'],
    ['Glukóza', 'mmol/l', '14749-6'],
    ['Triacylglyceroly', 'mmol/l', '14927-8'],
    ['Močovina', 'mmol/l', '22664-7'],
    // Turkish
    ['Üre', 'mg/dL', '3091-6'],
    ['Trigliserid', 'mg/dL', '2571-8'],
    ['Lökosit', '10^3/µL', '6690-2'],
    ['Serbest T4', 'ng/dL', '3024-7'],
    // Swedish
    ['P-Glukos', 'mmol/L', '14749-6'],
    ['B-EVF', 'L/L', '4544-3'],
    ['S-Fritt T4', 'pmol/L', '14920-3'],
    // Polish
    ['Potas', 'mmol/l', '2823-3'],
    ['Sód', 'mmol/l', '2951-2'],
    ['Płytki krwi', 'tys/µl', '777-3'],
    ['Cholesterol całkowity', 'mg/dl', '2093-3'],
    ['Żelazo', 'µg/dl', '2498-4'],
    ['Kwas moczowy', 'mg/dl', '3084-1'],
    // Portuguese
    ['Leucócitos', '10^3/µL', '6690-2'],
    ['Hemácias', '10^6/µL', '789-8'],
    ['HCM', 'pg', '785-6'],
    ['CHCM', 'g/dL', '786-4'],
    ['VCM', 'fL', '787-2'],
    ['Hemoglobina', 'g/dL', '718-7'],
    ['Ureia', 'mg/dL', '3091-6'],
    // Italian, Spanish, Dutch
    ['Azotemia', 'mg/dL', '3091-6'],
    ['Globuli bianchi', '10^3/µL', '6690-2'],
    ['Potasio', 'mmol/L', '2823-3'],
    ['Ácido úrico', 'mg/dL', '3084-1'],
    ['Alkalisch fosfatase', 'U/L', '6768-6'],
    ['Vrij T4', 'pmol/L', '14920-3'],
  ])('%s (%s) → %s', (name, unit, code) => expect(top(name, { unit })).toBe(code));

  it('a fasting word in another language asks for the fasting code, as "fasting" does', () => {
    expect(top('Glukoz (Açlık)', { unit: 'mg/dL' })).toBe('1558-6');
    expect(top('Glukoza na czczo', { unit: 'mg/dl' })).toBe('1558-6');
    expect(top('Glukoz', { unit: 'mg/dL' })).toBe('2345-7');
  });
});

describe('LOINC coverage: other gaps', () => {
  it('RBC magnesium is not serum magnesium', () => {
    expect(top('Magnesium, RBC', { unit: 'mg/dL' })).toBe('32510-0');
    expect(top('Magnesium', { unit: 'mg/dL' })).toBe('19123-9');
  });

  it('the APTT ratio is not the APTT', () => {
    expect(top('APTT Ratio')).toBe('63561-5');
    expect(top('APTT', { unit: 's' })).toBe('14979-9');
  });

  it.each([
    ['AMY', 'U/L', '1798-8'],
    ['CRE', 'mg/dL', '2160-0'],
    ['NA+', 'mmol/L', '2951-2'],
    ['K+', 'mmol/L', '2823-3'],
    ['CL-', 'mmol/L', '2075-0'],
    ['tCO2', 'mmol/L', '2028-9'],
    ['Gluc', 'mg/dL', '2345-7'],
  ])('point-of-care / short name %s → %s', (name, unit, code) => expect(top(name, { unit })).toBe(code));

  it('AMH', () => expect(top('Anti-Mullerian Hormone', { unit: 'ng/mL' })).toBe('38476-8'));

  it('every code added is in the table with a valid check digit', () => {
    const added = ['6265-3', '6095-4', '6096-2', '6833-8', '6098-8', '6025-1', '6020-2', '6106-9', '7258-7', '6206-7', '30313-1', '20563-3', '2614-6', '2518-9', '32510-0', '63561-5', '38476-8'];
    for (const code of added) {
      expect(isValidLoincCode(code), code).toBe(true);
      expect(loincEntry(code), code).toBeDefined();
    }
  });
});

describe('LOINC coverage: molar non-HDL cholesterol', () => {
  it('"Non-HDL Cholesterol" in mmol/L is non-HDL, not HDL', () => {
    expect(top('Non-HDL Cholesterol', { unit: 'mmol/L' })).toBe('70204-3');
    expect(top('Non-HDL Cholesterol', { unit: 'mg/dL' })).toBe('43396-1');
    expect(isValidLoincCode('70204-3')).toBe(true);
  });
});
