import { describe, expect, it } from 'vitest';
import { dobOfDmyNumber, extractMetadata } from '../../domain/lab-report/metadata.js';
import { parseLabReport } from '../../domain/lab-report/parse.js';
import { type ExtractedPage, type ParsedResult, type TextLine } from '../../domain/lab-report/types.js';
import { canonicalUnit, unitKind } from '../../domain/lab-report/units.js';

// Rules of issue 14's eighth pass, each for a class of layout (none keyed to a corpus family).
const text = (t: string, y: number): TextLine => ({ text: t, y });
const page = (lines: TextLine[]): ExtractedPage => ({ page: 1, source: 'text_layer', lines });
const parse = (lines: TextLine[]) => parseLabReport([page(lines)], { currentYear: 2025 });
const byName = (results: ParsedResult[], name: string): ParsedResult => {
  const r = results.find((x) => x.test_name === name);
  if (!r) throw new Error(`no result "${name}" in ${results.map((x) => x.test_name).join(', ')}`);
  return r;
};
const meta = (lines: string[]) => extractMetadata(lines.map((t) => ({ text: t, page: 1 })), { currentYear: 2025 });

describe("a test's code printed before its name", () => {
  it('reads "NPU02192  P-Glukose  5,6  mmol/L" as P-Glukose, the code in a column of its own', () => {
    const r = parse([
      text('NPU-kode    Analyse              Resultat   Enhed      Ref. interval', 10),
      text('NPU02192    P-Glukose            5,6        mmol/L     4,2 - 6,3', 20),
      text('NPU03230    P-Kalium             4,9 *      mmol/L     3,5 - 4,6', 30),
      text('NPU19651    P-Alanintransaminase (ALAT)   27   U/L   10 - 45', 40),
    ]).results;
    expect(r.map((x) => x.test_name)).toEqual(['P-Glukose', 'P-Kalium', 'P-Alanintransaminase (ALAT)']);
    expect(byName(r, 'P-Glukose')).toMatchObject({ value: '5.6', units: 'mmol/L', min_reference_range: 4.2, max_reference_range: 6.3 });
    expect(byName(r, 'P-Kalium')).toMatchObject({ value: '4.9', interpretation: 'abnormal' });
  });

  it('drops a LOINC-shaped code before a name too, and keeps a name the LOINC table knows ("CA125")', () => {
    const r = parse([text('2345-7   Glucose   95   mg/dL   70-99', 10), text('CA125   18   kU/L   <35', 20)]).results;
    expect(r.map((x) => x.test_name)).toEqual(['Glucose', 'CA125']);
  });
});

describe('an identifier after its label is no result', () => {
  it('reads no test from "NATA Accreditation No. 8109" or "Provider Nr 2042", and still reads the rows', () => {
    const r = parse([
      text('NATA Accreditation No. 8109 · ABN 12 345 678 901', 10),
      text('Provider Nr   2042', 20),
      text('Sodium         140      mmol/L    ( 135-145 )', 40),
      text('Potassium      5.6 H    mmol/L    ( 3.5-5.2 )', 50),
    ]).results;
    expect(r.map((x) => x.test_name)).toEqual(['Sodium', 'Potassium']);
    expect(byName(r, 'Potassium')).toMatchObject({ value: '5.6', min_reference_range: 3.5, max_reference_range: 5.2, interpretation: 'abnormal' });
  });
});

describe('units of other languages and scaled units', () => {
  it('knows the hour of an ESR in Indonesian, Scandinavian, Italian and Spanish ("mm/jam", "mm/t", "mm/ora", "mm/hora")', () => {
    for (const u of ['mm/jam', 'mm/t', 'mm/tim', 'mm/ora', 'mm/hora']) expect(unitKind(u), u).toBe('esr');
  });

  it('knows counts per µL with an Indonesian or Turkish multiplier ("juta/µL", "ribu/µL", "milyon/µL")', () => {
    for (const u of ['juta/µL', 'ribu/uL', 'milyon/µL']) expect(unitKind(u), u).toBe('count');
  });

  it('reads a negative power of ten before a unit as that unit scaled ("x10^-3 IU/L", "×10⁻³ IU/L")', () => {
    expect(canonicalUnit('x10^-3 IU/L')).toBe('10^-3IU/L');
    expect(unitKind('x10^-3 IU/L')).toBe('units');
    expect(unitKind('×10⁻³ IU/L')).toBe('units');
    const r = parse([text('P-Thyrotropin (TSH)   1,48   x10^-3 IU/L   0,30 - 4,00', 10), text('Eritrosit   4.77   juta/µL   4.50 - 5.50', 20)]).results;
    expect(byName(r, 'P-Thyrotropin (TSH)')).toMatchObject({ value: '1.48', min_reference_range: 0.3, max_reference_range: 4 });
    expect(byName(r, 'Eritrosit')).toMatchObject({ value: '4.77', units: 'juta/µL' });
  });

  it('still reads "10-35 U/L" as a range and its unit, not a scaled unit', () => {
    const r = parse([text('AST   25   10-35 U/L', 10)]).results;
    expect(r[0]).toMatchObject({ test_name: 'AST', value: '25', units: 'U/L', min_reference_range: 10, max_reference_range: 35 });
  });
});

describe('patient metadata in Danish, Norwegian, Finnish, Hungarian and Indonesian conventions', () => {
  it('takes the birth date from a CPR number, a fødselsnummer or a henkilötunnus (day first, century from the number)', () => {
    expect(dobOfDmyNumber('160979-2345')).toBe('1979-09-16');
    expect(dobOfDmyNumber('150305-4123')).toBe('2005-03-15');
    expect(dobOfDmyNumber('050583-123A', true)).toBe('1983-05-05');
    expect(dobOfDmyNumber('010203A456B', true)).toBe('2003-02-01');
    expect(dobOfDmyNumber('150305-4123', true)).toBe('1905-03-15');
    expect(dobOfDmyNumber('24117812345')).toBe('1978-11-24');
    expect(dobOfDmyNumber('310299-1234')).toBe('');
    expect(meta(['CPR-nr.:   160979-2345        Navn:   Christensen, Mette'])).toMatchObject({ dob: '1979-09-16', patient_first_name: 'Mette', patient_last_name: 'Christensen' });
    expect(meta(['Potilas   MÄKINEN Tiina', 'Henkilötunnus   050583-123A'])).toMatchObject({ dob: '1983-05-05', patient_first_name: 'Tiina', patient_last_name: 'MÄKINEN' });
  });

  it('reads "Név: Kiss Zsuzsanna" family name first and "Születési dátum: 1993.02.05."', () => {
    expect(meta(['Név:   Kiss Zsuzsanna          Mintaszám:   17025169', 'Születési dátum:   1993.02.05.'])).toMatchObject({
      patient_first_name: 'Zsuzsanna',
      patient_last_name: 'Kiss',
      dob: '1993-02-05',
    });
  });

  it('reads "Nama Pasien : TN. HENDRA SANTOSO" without the courtesy title and the date of "Tgl. Lahir / Umur"', () => {
    expect(meta(['Nama Pasien   : TN. HENDRA SANTOSO', 'Tgl. Lahir / Umur   : 28-11-1959 / 65 th'])).toMatchObject({
      patient_first_name: 'HENDRA',
      patient_last_name: 'SANTOSO',
      dob: '1959-11-28',
    });
    expect(meta(['DOB / Age:   03/22/1961 (63)', 'Patient Name:   Jane Doe'])).toMatchObject({ dob: '1961-03-22' });
  });
});

describe('column headings of more languages and of drug-level tables', () => {
  it('reads a Finnish table ("Tutkimus | Tulos | Yksikkö | Viitearvot") with the unit from its column', () => {
    const r = parse([
      text('Tutkimus            Tulos        Yksikkö     Viitearvot', 10),
      text('2474 B -Leuk         10,1   H     E9/l        3,4 - 8,2', 20),
      text('3008 P -K             4,3         mmol/l      3,4 - 4,7', 30),
    ]).results;
    expect(r).toHaveLength(2);
    expect(r[0]).toMatchObject({ value: '10.1', units: 'E9/l', min_reference_range: 3.4, max_reference_range: 8.2, interpretation: 'abnormal' });
  });

  it('takes a "Cut-off" or "Therapeutic" column as the range column', () => {
    const r = parse([
      text('Analyte          Result     Units     Cut-off', 10),
      text('Ethanol          <10        mg/dL     <10', 20),
      text('Salicylate       8          mg/dL     <30', 30),
      text('Drug             Result     Units     Therapeutic     Toxic', 50),
      text('Digoxin          0.9        ng/mL     0.8-2.0         >2.4', 60),
    ]).results;
    expect(byName(r, 'Ethanol')).toMatchObject({ value: '<10', reference_range_text: '<10', max_reference_range: 10 });
    expect(byName(r, 'Salicylate')).toMatchObject({ value: '8', max_reference_range: 30, interpretation: 'normal' });
    expect(byName(r, 'Digoxin')).toMatchObject({ value: '0.9', min_reference_range: 0.8, max_reference_range: 2 });
  });

  it('reads a Hungarian and an Indonesian table by their headings', () => {
    const hu = parse([
      text('Vizsgálat          Eredmény     Mértékegység     Referencia tartomány     Eltérés', 10),
      text('Kreatinin          35           µmol/L           44 - 80                  –', 20),
    ]).results;
    expect(hu[0]).toMatchObject({ test_name: 'Kreatinin', value: '35', min_reference_range: 44, max_reference_range: 80 });
    const id = parse([
      text('PEMERIKSAAN        HASIL    KET    NILAI RUJUKAN     SATUAN     METODE', 10),
      text('SGPT (ALT)         62       H      0 - 45            U/L        IFCC', 20),
    ]).results;
    expect(id[0]).toMatchObject({ test_name: 'SGPT (ALT)', value: '62', units: 'U/L', min_reference_range: 0, max_reference_range: 45, interpretation: 'abnormal' });
  });
});

describe('"E9/l": a power of ten written with E', () => {
  it('is a count per litre, as 10^9/L is', () => {
    expect(unitKind('E9/l')).toBe('count');
    expect(unitKind('E12/l')).toBe('count');
    expect(unitKind('E/l')).toBe('units');
  });
});

describe('counts grouped with a point between thousands where decimals also take a point', () => {
  it('reads "8.609  5.000 - 10.000 /µL" as 8609 in 5000-10000, and leaves "13.5 g/dL" and a specific gravity alone', () => {
    const r = parse([
      text('Hemoglobin      13.5       g/dL    13.0 - 17.0', 10),
      text('Leukosit        8.609      5.000 - 10.000      /µL', 20),
      text('Trombosit       273.500    150.000 - 400.000   /µL', 30),
      text('Specific gravity   1.015   1.005-1.030', 40),
    ]).results;
    expect(byName(r, 'Hemoglobin')).toMatchObject({ value: '13.5', min_reference_range: 13, max_reference_range: 17 });
    expect(byName(r, 'Leukosit')).toMatchObject({ value: '8609', min_reference_range: 5000, max_reference_range: 10000, interpretation: 'normal' });
    expect(byName(r, 'Trombosit')).toMatchObject({ value: '273500', min_reference_range: 150000, max_reference_range: 400000 });
    expect(byName(r, 'Specific gravity')).toMatchObject({ value: '1.015', min_reference_range: 1.005, max_reference_range: 1.03 });
  });
});

describe('text-layer joins and stated bounds', () => {
  it('splits a unit ending in litres from a badge word run into it ("umol/LAbove optimal"), and keeps "/LPF"', () => {
    const r = parse([text('Homocysteine 10.2 umol/LAbove optimal', 10), text('Hyaline casts   0-2   /LPF', 20)]).results;
    expect(byName(r, 'Homocysteine')).toMatchObject({ value: '10.2', units: 'umol/L' });
  });

  it('reads no result from a sentence ending in a comparison ("Target for patients at high risk: below 70 mg/dL")', () => {
    const r = parse([text('LDL Cholesterol   92   mg/dL   <100', 10), text('Target for patients at high risk: below 70 mg/dL', 20)]).results;
    expect(r.map((x) => x.test_name)).toEqual(['LDL Cholesterol']);
  });
});

describe('a name with a stray mark beside it', () => {
  it('reads "Potilas  NIEMINEN Sanna -" as Sanna NIEMINEN (a word without letters is no part of a name)', () => {
    expect(meta(['Potilas   NIEMINEN Sanna -'])).toMatchObject({ patient_first_name: 'Sanna', patient_last_name: 'NIEMINEN' });
  });
});
