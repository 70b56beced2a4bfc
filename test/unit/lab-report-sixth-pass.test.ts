import { describe, expect, it } from 'vitest';
import { parseDate } from '../../domain/lab-report/dates.js';
import { detectHeader, headerRoleOf } from '../../domain/lab-report/layout.js';
import { matchLoinc } from '../../domain/lab-report/loinc-match.js';
import { dobOfBirthNumber, extractMetadata } from '../../domain/lab-report/metadata.js';
import { parseLabReport } from '../../domain/lab-report/parse.js';
import { tokenize } from '../../domain/lab-report/tokens.js';
import { type ExtractedPage, type ParsedResult, type TextLine } from '../../domain/lab-report/types.js';
import { unitKind } from '../../domain/lab-report/units.js';

// Rules of issue 14's sixth pass, each for a class of layout (none keyed to a corpus family).
const cells = (y: number, ...parts: [number, string][]): TextLine => ({ text: parts.map(([, t]) => t).join(' '), y, cells: parts.map(([x, t]) => ({ x, text: t })) });
const text = (t: string, y: number): TextLine => ({ text: t, y });
const page = (lines: TextLine[]): ExtractedPage => ({ page: 1, source: 'text_layer', lines });
const parse = (lines: TextLine[]) => parseLabReport([page(lines)], { currentYear: 2025 });
const byName = (results: ParsedResult[], name: string): ParsedResult => {
  const r = results.find((x) => x.test_name === name);
  if (!r) throw new Error(`no result "${name}" in ${results.map((x) => x.test_name).join(', ')}`);
  return r;
};
const meta = (...lines: string[]) => extractMetadata(lines.map((t) => ({ text: t, page: 1 })), { currentYear: 2025 });

describe('HL7 v2 segments printed as text', () => {
  const message = [
    text('Interface Engine Message Viewer', 10),
    text('MSH|^~\\&|LIS|NORTH_LAB|EHR|CLINIC|20250114153000||ORU^R01|123|P|2.5.1', 20),
    text('PID|1||12345678^^^NORTH_LAB^MR||RIVERA^ANA^M||19720305|F', 30),
    text('OBR|1|998877|AB12345678|24331-1^Lipid panel^LN|||20250114083000|||||||||1234^SMITH^JO^^^MD||||||20250114153000||CH|F', 40),
    text('OBX|1|NM|2093-3^Cholesterol^LN||231|mg/dL|<200|H|||F', 50),
    text('OBX|2|NM|6690-2^WBC^LN||5.4|10*3/uL|3.8-10.8|N|||F|||2025011408', 60),
    text('3000', 70),
    text('NTE|1|L|Fasting specimen.', 80),
    text('OBX|3|NM|2085-9^HDL Cholesterol^LN||38|mg/dL|>=40|L|||F', 90),
  ];

  it('reads each OBX segment as a result: name, value, units, range and abnormal flag', () => {
    const r = parse(message).results;
    expect(r.map((x) => x.test_name)).toEqual(['Cholesterol', 'WBC', 'HDL Cholesterol']);
    expect(byName(r, 'Cholesterol')).toMatchObject({ value: '231', units: 'mg/dL', max_reference_range: 200, flag: 'H', interpretation: 'abnormal' });
    expect(byName(r, 'WBC')).toMatchObject({ value: '5.4', units: '10*3/uL', min_reference_range: 3.8, max_reference_range: 10.8, interpretation: 'normal' });
    expect(byName(r, 'HDL Cholesterol')).toMatchObject({ value: '38', min_reference_range: 40, flag: 'L' });
  });

  it('reads the patient from PID and the dates and filler number from OBR', () => {
    const m = parse(message).metadata;
    expect(m).toMatchObject({ patient_first_name: 'ANA', patient_last_name: 'RIVERA', dob: '1972-03-05', date_collected: '2025-01-14', date_reported: '2025-01-14', specimen_number: 'AB12345678' });
  });

  it('leaves pages with a single pipe-separated line alone', () => {
    const r = parse([cells(10, [40, 'Test'], [200, 'Result'], [260, 'Units']), cells(30, [40, 'Sodium'], [200, '140'], [260, 'mmol/L']), text('OBX|1|NM|2093-3^Cholesterol^LN||231|mg/dL|<200|H|||F', 50)]).results;
    expect(r.map((x) => x.test_name)).toEqual(['Sodium']);
  });
});

describe('a name that ends with a word that is also a metadata label', () => {
  it('reads "Prothrombin Time" and "Thrombin Time" rows, a control column beside them ignored', () => {
    const r = parse([
      cells(10, [50, 'Test'], [200, 'Result'], [260, 'Units'], [330, 'Control'], [400, 'Reference Range']),
      cells(30, [50, 'Prothrombin Time'], [200, '10.4 L'], [260, 'sec'], [330, '12.7'], [400, '10.5 - 13.5']),
      cells(44, [50, 'INR'], [200, '1.03'], [400, '0.8 - 1.2']),
      cells(58, [50, 'Thrombin Time'], [200, '19.8'], [260, 'sec'], [330, '12.3'], [400, '14.0 - 21.0']),
    ]).results;
    expect(r.map((x) => x.test_name)).toEqual(['Prothrombin Time', 'INR', 'Thrombin Time']);
    expect(byName(r, 'Prothrombin Time')).toMatchObject({ value: '10.4', units: 'sec', min_reference_range: 10.5, flag: 'L' });
    expect(byName(r, 'Thrombin Time')).toMatchObject({ value: '19.8', max_reference_range: 21 });
  });

  it('still takes a labelled line of the header for metadata, not a result', () => {
    const r = parse([text('Collection Time: 08:20   Status: Final', 5), cells(10, [50, 'Test'], [200, 'Result'], [260, 'Units']), cells(30, [50, 'Sodium'], [200, '140'], [260, 'mmol/L'])]).results;
    expect(r.map((x) => x.test_name)).toEqual(['Sodium']);
  });
});

describe('interval bands printed as columns', () => {
  it('takes the optimal band as the range and leaves the bands outside it', () => {
    const r = parse([
      cells(10, [40, 'Nutrient'], [190, 'Result'], [235, 'Units'], [280, 'Status'], [360, 'Deficient'], [425, 'Insufficient'], [495, 'Optimal']),
      cells(30, [40, 'Vitamin D, 25-Hydroxy'], [190, '24'], [235, 'ng/mL'], [289, 'Insufficient'], [360, '<20'], [425, '20-29'], [495, '30-100']),
      cells(48, [40, 'Ferritin'], [190, '88'], [235, 'ng/mL'], [289, 'Optimal'], [360, '<15'], [425, '15-49'], [495, '50-150']),
    ]).results;
    expect(r.map((x) => x.test_name)).toEqual(['Vitamin D, 25-Hydroxy', 'Ferritin']);
    expect(byName(r, 'Vitamin D, 25-Hydroxy')).toMatchObject({ min_reference_range: 30, max_reference_range: 100, interpretation: 'abnormal' });
    expect(byName(r, 'Ferritin')).toMatchObject({ min_reference_range: 50, max_reference_range: 150, interpretation: 'normal' });
  });

  it.each([['Optimal', 'range'], ['Desirable', 'range'], ['Deficient', 'other'], ['Insufficient', 'other'], ['Above optimal', 'other'], ['Nutrient', 'name'], ['Allergen', 'name'], ['Class', 'other']])(
    '%s → %s',
    (heading, role) => expect(headerRoleOf(heading)).toBe(role),
  );
});

describe('OCR cells merged into the unit column', () => {
  it('keeps the unit and leaves the status and band cells OCR joined to it', () => {
    const ocrPage = (lines: TextLine[]): ExtractedPage => ({ page: 1, source: 'ocr', lines });
    const r = parseLabReport(
      [
        ocrPage([
          cells(10, [61, 'Nutrient'], [376, 'Result'], [456, 'Units'], [563, 'Status'], [728, 'Deficient'], [865, 'Insufficient'], [1011, 'Optimal']),
          cells(30, [64, 'Vitamin D, 25-Hydroxy'], [377, '133'], [470, 'ng/mL'], [564, '= Above optimal <20'], [867, '20-29'], [1011, '30-100']),
          cells(50, [66, 'Vitamin B12'], [377, '1240'], [473, 'pg/mL W Above optimal <200'], [868, '200-399'], [1014, '400-1100']),
        ]),
      ],
      { currentYear: 2025 },
    ).results;
    expect(byName(r, 'Vitamin B12')).toMatchObject({ value: '1240', units: 'pg/mL', min_reference_range: 400, max_reference_range: 1100 });
  });
});

describe('a unit named in the result heading', () => {
  it('"Result (kUA/L)" is the result column and gives its unit to rows printing none', () => {
    expect(headerRoleOf('Result (kUA/L)')).toBe('result');
    expect(detectHeader(cells(10, [48, 'Allergen'], [248, 'Result (kUA/L)'], [348, 'Class']))?.columns.find((c) => c.role === 'result')?.unit).toBe('kUA/L');
    const r = parse([
      cells(10, [48, 'Allergen'], [248, 'Result (kUA/L)'], [348, 'Class']),
      cells(30, [48, 'Timothy grass (g6)'], [248, '12.40'], [358, '3']),
      cells(44, [48, 'Birch (t3)'], [248, '<0.10'], [358, '0']),
      text('Class 3  3.50-17.4  High', 80),
    ]).results;
    expect(r.map((x) => x.test_name)).toEqual(['Timothy grass (g6)', 'Birch (t3)']);
    expect(byName(r, 'Timothy grass (g6)')).toMatchObject({ value: '12.40', units: 'kUA/L' });
    expect(byName(r, 'Timothy grass (g6)').reference_range_text).toBeUndefined();
  });
});

describe('units', () => {
  it('reads UCUM powers of ten ("10*3/uL") as one unit token', () => expect(tokenize('5.0 10*3/uL', 0).map((t) => t.kind)).toEqual(['num', 'unit']));
  it('knows allergen-specific units (kUA/L)', () => expect(unitKind('kUA/L')).toBe('units'));
});

describe('metadata', () => {
  it.each([
    ['655412/1234', '1965-04-12'],
    ['020812/9186', '2002-08-12'],
    ['481103/123', '1948-11-03'],
    ['121314/1234', ''],
  ])('the birth date a birth number begins with: %s → %s', (n, dob) => expect(dobOfBirthNumber(n, 2025)).toBe(dob));

  it('reads a Czech header: Pacient (family name in capitals), Rodné číslo, Datum odběru, Číslo žádanky', () => {
    const m = meta('Pacient:   HORÁKOVÁ Eva         Datum odběru:   10.7.2025 07:06', 'Rodné číslo:   945325/1234', 'Číslo žádanky:   53102776');
    expect(m).toMatchObject({ patient_first_name: 'Eva', patient_last_name: 'HORÁKOVÁ', dob: '1994-03-25', date_collected: '2025-07-10', specimen_number: '53102776' });
  });

  it('reads a Turkish header: Hasta Adı Soyadı, Doğum Tarihi, Numune Alma Tarihi, Onay Tarihi, Barkod No', () => {
    const m = meta('Hasta Adı Soyadı   : Mehmet DEMİR        Barkod No   : 2125184046', 'Doğum Tarihi   : 07.11.1998', 'Numune Alma Tarihi   : 09.02.2025 08:17', 'Onay Tarihi   : 12.02.2025 16:33');
    expect(m).toMatchObject({ patient_first_name: 'Mehmet', patient_last_name: 'Demir', dob: '1998-11-07', date_collected: '2025-02-09', date_reported: '2025-02-12', specimen_number: '2125184046' });
  });

  it('reads "D.O.B.:" with its closing point', () => expect(meta('D.O.B.:   18-Apr-2000').dob).toBe('2000-04-18'));

  it('reads dotted dates day-first even where slashed dates are month-first', () => expect(parseDate('07.11.1998', { order: 'mdy' })).toBe('1998-11-07'));

  it('takes the lab from a letterhead joined to a title by a spaced hyphen', () =>
    expect(meta('Summit Valley Medical Laboratories - Interface Engine Message Viewer', 'Patient Name:   Jo Smith').lab_name).toBe('Summit Valley Medical Laboratories'));

  it('takes a letterhead of eight words naming a hospital and its laboratory', () =>
    expect(meta('T.C. SAĞLIK BAKANLIĞI', 'İzmir Bozyaka Eğitim ve Araştırma Hastanesi Merkez Laboratuvarı', 'LABORATUVAR SONUÇ RAPORU', 'Hasta Adı Soyadı   : Emre ÇELİK').lab_name).toBe(
      'İzmir Bozyaka Eğitim ve Araştırma Hastanesi Merkez Laboratuvarı',
    ));

  it('takes a letterhead written in sentence case, not the document title under it', () =>
    expect(meta('Ústav laboratorní medicíny, Fakultní nemocnice Ostrava', 'VÝSLEDKY LABORATORNÍCH VYŠETŘENÍ', 'Pacient:   NOVÁK Jan').lab_name).toBe('Ústav laboratorní medicíny, Fakultní nemocnice Ostrava'));
});

describe("an analyser's input block", () => {
  it('reads the settings entered under "Input" as no results, and the sections after it as usual', () => {
    const r = parse([
      text('Input', 10),
      cells(22, [70, 'Temperature'], [210, '37.0 °C']),
      cells(34, [70, 'FO2(I)'], [210, '21.0 %']),
      text('Blood Gas Values', 50),
      cells(62, [70, 'pH'], [190, '7.412'], [305, '[7.350 - 7.450]']),
      cells(74, [70, 'cK+'], [190, '3.8'], [235, 'mmol/L'], [305, '[3.5 - 4.5]']),
    ]).results;
    expect(r.map((x) => x.test_name)).toEqual(['pH', 'cK+']);
  });
});

describe("a blood gas analyser's ion notation", () => {
  it.each([
    // the whole-blood codes of the analyser's notation (lab-report-loinc-coverage.test.ts), never CK
    ['cK+', '6298-4'],
    ['cNa+', '2947-0'],
    ['cCl-', '2069-3'],
  ])('%s names the ion (%s), not an analyte spelled like the rest', (name, code) => expect(matchLoinc(name, { unit: 'mmol/L' })[0]?.loinc_code).toBe(code));
});

