import { describe, expect, it } from 'vitest';
import { matchLoinc } from '../../domain/lab-report/loinc-match.js';
import { extractMetadata, type MetadataLine } from '../../domain/lab-report/metadata.js';

const top = (name: string, opts = {}): string | undefined => matchLoinc(name, opts)[0]?.loinc_code;
const lines = (...texts: string[]): MetadataLine[] => texts.map((text) => ({ text, page: 1 }));

describe('LOINC: count units and French/Italian abbreviations', () => {
  it('"G/l" and "T/l" (giga/tera per litre) are counts: a blood count, not a urine strip', () => {
    expect(top('Leucocytes', { unit: 'G/l' })).toBe('6690-2');
    expect(top('Leukozyten', { unit: 'G/l' })).toBe('6690-2');
    expect(top('Érythrocytes', { unit: 'T/l' })).toBe('789-8');
  });
  it('negative: lower-case "g/l" stays a mass (haemoglobin in g/l is not a count)', () => {
    expect(top('Hémoglobine', { unit: 'g/l' })).toBe('718-7');
    expect(top('Leucocytes', { unit: 'g/l' })).not.toBe('6690-2');
  });
  it('"PCR" (protéine C-réactive, proteina C reattiva) in mg/l is CRP', () => {
    expect(top('PCR', { unit: 'mg/l' })).toBe('1988-5');
    expect(top('PCR', { unit: 'mg/dL' })).toBe('1988-5');
  });
  it('negative: "PCR" as a ratio (mg/g, mg/mmol) or in a urine panel stays the protein/creatinine ratio', () => {
    expect(top('PCR', { unit: 'mg/mmol' })).toBe('2890-2');
    expect(top('PCR', { panel: 'Urine chemistry' })).toBe('2890-2');
  });
});

describe('LOINC: names in further languages and prefixes', () => {
  it.each([
    ['3301 fP-Kol', { unit: 'mmol/l' }, '14647-2'], // a lab's test number and a Finnish specimen prefix
    ['B-Leuk', { unit: 'E9/l' }, '6690-2'],
    ['S-Ferrit', { unit: 'µg/l' }, '2276-4'],
    ['Húgysav', { unit: 'µmol/l' }, '14933-6'],
    ['Karbamid', { unit: 'mmol/l' }, '22664-7'],
    ['Trombosit', { unit: '10^3/uL' }, '777-3'],
    ['Gula Darah Puasa', { unit: 'mg/dL' }, '1558-6'],
    ['Glukosa Darah Sewaktu', { unit: 'mg/dL' }, '2345-7'],
    ['P-Hæmoglobin', { unit: 'mmol/l' }, '59260-0'],
    ['γ-GTP', { unit: 'IU/L' }, '2324-2'],
    ['VSH', { unit: 'mm/h' }, '4537-7'],
  ])('%s → %s', (name, opts, code) => {
    expect(top(name, opts)).toBe(code);
  });
  it('negative: a short number before a name is part of it, not a test number', () => {
    expect(top('25 OH Vitamin D', { unit: 'ng/mL' })).toBe(top('25-OH Vitamin D', { unit: 'ng/mL' }));
    expect(top('1234 Zzyzx')).toBeUndefined();
  });
});

describe('LOINC: a glucose the report calls fasting has the fasting code in mass and in mol units', () => {
  it('fasting names give 14771-0 in mmol/L and 1558-6 in mass units', () => {
    expect(top('Glucose à jeun', { unit: 'mmol/l' })).toBe('14771-0');
    expect(top('Nüchternglukose', { unit: 'mmol/L' })).toBe('14771-0');
    expect(top('FPG', { unit: 'mmol/L' })).toBe('14771-0');
    expect(top('Nüchternglukose', { unit: 'mg/dl' })).toBe('1558-6');
  });
  it('negative: a plain name is never fasting', () => {
    expect(top('Glucose', { unit: 'mg/dL' })).toBe('2345-7');
    expect(top('Glucose', { unit: 'mmol/L' })).toBe('14749-6');
  });
});

describe('metadata: labels in several languages joined by "/"', () => {
  it('reads the value after the last part of a slashed birth-date label', () => {
    const m = extractMetadata(lines('Nom, Prénom / Name, Vorname   Rossier, Chantal', 'Né(e) le / Geb. / Nata il   14.11.1958   (f)'), { dateOrder: 'dmy' });
    expect(m.dob).toBe('1958-11-14');
    expect([m.patient_first_name, m.patient_last_name]).toEqual(['Chantal', 'Rossier']);
  });
  it('joins a part that is no known label (another language, an OCR slip) into the label', () => {
    const m = extractMetadata(lines('Cognome, Nome / Nom, Prénom / Nachnme, Vrname   Brunner, Elia', 'Nato/a il / Ne le / Gb.   03.02.1977'), { dateOrder: 'dmy' });
    expect([m.patient_first_name, m.patient_last_name]).toEqual(['Elia', 'Brunner']);
    expect(m.dob).toBe('1977-02-03');
  });
  it('negative: a part that labels another field ends the label ("Specimen / Collected" stay two labels)', () => {
    const m = extractMetadata(lines('Patient: Omar Haddad', 'Specimen / Collected:   12/03/2024'), { dateOrder: 'dmy' });
    expect(m.specimen_number ?? '').toBe('');
    expect(m.date_collected).toBe('2024-03-12');
  });
});

describe('metadata: labels OCR misread by one letter', () => {
  it('reads a birth-date label with one letter wrong, missing or extra', () => {
    expect(extractMetadata(lines('Nume:   IONESCU MARIA', 'Data naskerii:   11.04.1969'), { dateOrder: 'dmy' }).dob).toBe('1969-04-11');
    expect(extractMetadata(lines('Patient: Lena Park', 'Date of brth:   1988-07-30')).dob).toBe('1988-07-30');
  });
  it('negative: a result row one letter from a word is not a label, and short words are not corrected', () => {
    const m = extractMetadata(lines('Patient: Lena Park', 'Collestrol total   5.2   mmol/L', 'DOX:   1990-01-01'));
    expect(m.date_collected ?? '').toBe('');
    expect(m.dob).toBe('');
  });
  it('a birth-date label with stray points before the value ("DOB:.")', () => {
    expect(extractMetadata(lines('Name: Ruth Ellery', 'DOB:.   21/09/1950   Sex: F'), { dateOrder: 'dmy' }).dob).toBe('1950-09-21');
  });
});

describe('metadata: OCR slips around labels and names', () => {
  it('a short label misread by one letter before a colon ("Patent:"), a semicolon for a colon', () => {
    const a = extractMetadata(lines('Patiet:   Moreau, Claire   DOB:   1979-02-14'));
    expect([a.patient_first_name, a.patient_last_name]).toEqual(['Claire', 'Moreau']);
    const b = extractMetadata(lines('patient; Ivan Petrov DOB: 1966-10-05'));
    expect([b.patient_first_name, b.patient_last_name]).toEqual(['Ivan', 'Petrov']);
  });
  it('negative: a short word before a colon that is a result name is not taken for a label', () => {
    const m = extractMetadata(lines('Patient: Ivan Petrov', 'Sodium:   140   mmol/L', 'Calcium:   2.4'));
    expect([m.patient_first_name, m.patient_last_name]).toEqual(['Ivan', 'Petrov']);
    expect(m.dob).toBe('');
  });
  it('a title with a comma before the name ("Mrs, …") is dropped, not read as the family name', () => {
    const a = extractMetadata(lines('Patient Name:   Ms, Noura Haddad   MRN: 55120'));
    expect([a.patient_first_name, a.patient_last_name]).toEqual(['Noura', 'Haddad']);
    const b = extractMetadata(lines('Naam:   Dhr, van Dijk, Pieter'));
    expect([b.patient_first_name, b.patient_last_name]).toEqual(['Pieter', 'van Dijk']);
  });
  it('negative: a family name before a comma is kept when it is no title', () => {
    const m = extractMetadata(lines('Name:   Mora, Lucia'));
    expect([m.patient_first_name, m.patient_last_name]).toEqual(['Lucia', 'Mora']);
  });
  it('a space OCR put before a four-digit year ("11/23/ 1947"), but not before a two-digit one', () => {
    expect(extractMetadata(lines('Name: Ruth Ellery', 'Date of Birth: 11/23/ 1947')).dob).toBe('1947-11-23');
    expect(extractMetadata(lines('Name: Ruth Ellery', 'Date of Birth: 11/23/ 47')).dob).toBe('');
  });
});
