import { describe, expect, it } from 'vitest';
import { matchLoinc } from '../../domain/lab-report/loinc-match.js';
import { extractMetadata, type MetadataLine } from '../../domain/lab-report/metadata.js';
import { parseLabReport } from '../../domain/lab-report/parse.js';
import { rangeStatements } from '../../domain/lab-report/remote-ranges.js';
import { foldText } from '../../domain/lab-report/text.js';

// Issue 14, thirteenth pass: rules written after measuring the croatian, vietnamese and unit-in-name families
// unseen. Synthetic lines in those conventions, not the corpus documents; negatives guard against over-reach.
/** Lines as parse.ts hands them over: column gaps kept as runs of three spaces. */
const lines = (...texts: string[]): MetadataLine[] => texts.map((text) => ({ text, page: 1 }));

describe('South Slavic labels and a hospital letterhead', () => {
  it('"Datum rođenja: 03.04.1995." is the birth date; "Datum uzorkovanja" / "Datum izdavanja nalaza" the dates; "Broj uzorka" the specimen', () => {
    const m = extractMetadata(
      lines('KBC Sveti Duje', 'Odjel za laboratorijsku dijagnostiku', 'Prezime i ime:   MARIĆ IVANA   Broj uzorka:   2430303098', 'Datum rođenja:   03.04.1995.   Datum uzorkovanja:   06.10.2024. 07:06', 'Spol:   Ž   Datum izdavanja nalaza:   07.10.2024. 14:04'),
      { dateOrder: 'dmy', currentYear: 2025 },
    );
    expect(m).toMatchObject({ patient_first_name: 'IVANA', patient_last_name: 'MARIĆ', dob: '1995-04-03', date_collected: '2024-10-06', date_reported: '2024-10-07', specimen_number: '2430303098' });
  });
  it('the hospital above its laboratory department is the lab ("KBC …", "… bolnički centar …")', () => {
    expect(extractMetadata(lines('KBC Sveti Duje', 'Odjel za laboratorijsku dijagnostiku', 'Prezime i ime:   MARIĆ IVANA')).lab_name).toBe('KBC Sveti Duje');
    expect(extractMetadata(lines('Klinički bolnički centar Jadran', 'Odjel za laboratorijsku dijagnostiku', 'Prezime i ime:   MARIĆ IVANA')).lab_name).toBe('Klinički bolnički centar Jadran');
  });
  it('letters with a stroke fold to their base letter ("đ", "ł", "ı")', () => {
    expect(foldText('Datum rođenja Małgorzata Yıldız')).toBe('datum rodenja malgorzata yildiz');
  });
});

describe('Vietnamese labels, with or without accents', () => {
  const sheet = (name: string) =>
    extractMetadata(lines('SO Y TE NAM DINH   So phieu: 2501016245', 'BENH VIEN DA KHOA TINH NAM DINH', 'KHOA XET NGHIEM', `Ho ten:   ${name}   Nam sinh: 1990   Gioi tinh: Nam`, 'Thoi gian lay mau: 09:01 01/01/2025   Thoi gian tra ket qua: 17:12 02/01/2025'), { dateOrder: 'dmy', currentYear: 2025 });
  it('"Ho ten: BUI VAN AN" is family name first; the hospital is the lab; the year of birth alone is no birth date', () => {
    expect(sheet('BUI VAN AN')).toMatchObject({ patient_first_name: 'VAN AN', patient_last_name: 'BUI', dob: '', lab_name: 'BENH VIEN DA KHOA TINH NAM DINH', date_collected: '2025-01-01', date_reported: '2025-01-02' });
  });
  it('"Hoten:" with the space OCR lost is the same label', () => {
    expect(extractMetadata(lines('BENH VIEN DA KHOA TINH NAM DINH', 'Hoten: BUI THI HUONG   Nam sinh: 1973   Gioi tinh: Nu'))).toMatchObject({ patient_first_name: 'THI HUONG', patient_last_name: 'BUI' });
  });
  it('negative: a name that opens with no known family name is not cut by the list', () => {
    expect(sheet('ALEX SMITH JONES')).toMatchObject({ patient_first_name: '', patient_last_name: '' });
  });
});

describe('a name with the test in brackets after it (loinc-match.ts)', () => {
  it('"So luong bach cau (WBC)", "Huyet sac to (HGB)": the bracket names the test when the whole name is not known', () => {
    expect(matchLoinc('So luong bach cau (WBC)')[0]?.loinc_code).toBe('6690-2');
    expect(matchLoinc('Huyet sac to (HGB)')[0]?.loinc_code).toBe('718-7');
  });
  it('negative: a known name keeps its own match ("Cholesterol (calc)" is not matched by "calc")', () => {
    expect(matchLoinc('Glucose (fasting)')[0]?.display_name ?? '').toMatch(/glucose/i);
  });
  it('Croatian electrolytes: "Natrij", "Kalij"', () => {
    expect(matchLoinc('Natrij', { unit: 'mmol/L' })[0]?.loinc_code).toBe('2951-2');
    expect(matchLoinc('Kalij', { unit: 'mmol/L' })[0]?.loinc_code).toBe('2823-3');
  });
});

describe('reference intervals printed apart from the results (remote-ranges.ts)', () => {
  const row = (y: number, cells: [string, number][]) => ({ text: cells.map(([t]) => t).join('   '), y, cells: cells.map(([t, x]) => ({ text: t, x, width: t.length * 5 })) });
  const parse = (lines: ReturnType<typeof row>[]) => parseLabReport([{ page: 1, source: 'text_layer', lines }], { currentYear: 2025 }).results;
  const table = [
    row(100, [['TEST NAME', 40], ['TECHNOLOGY', 280], ['VALUE', 380], ['UNITS', 460]]),
    row(120, [['THYROID STIMULATING HORMONE (TSH)', 44], ['C.L.I.A', 280], ['7.16', 380], ['μIU/mL', 460]]),
    row(132, [['BLOOD UREA NITROGEN (BUN)', 44], ['PHOTOMETRY', 280], ['12.8', 380], ['mg/dL', 460]]),
    row(144, [['CALCIUM', 44], ['PHOTOMETRY', 280], ['10.9', 380], ['mg/dL', 460]]),
  ];
  it('"Bio. Ref. Interval — TSH: 0.54 - 5.30 µIU/mL" lines give each result its interval and are no results', () => {
    const results = parse([...table, row(200, [['Bio. Ref. Interval — TSH: 0.54 - 5.30 μIU/mL', 36]]), row(212, [['Bio. Ref. Interval — CALCIUM: 8.8 - 10.6 mg/dL', 36]])]);
    expect(results.map((r) => [r.test_name, r.reference_range_text ?? '', r.interpretation ?? ''])).toEqual([
      ['THYROID STIMULATING HORMONE (TSH)', '0.54 - 5.30', 'abnormal'],
      ['BLOOD UREA NITROGEN (BUN)', '', ''],
      ['CALCIUM', '8.8 - 10.6', 'abnormal'],
    ]);
  });
  it('a "Reference Range" table of name and range pairs, two pairs a row', () => {
    const results = parse([...table, row(200, [['Reference Range', 36]]), row(212, [['Test', 36], ['Range', 186], ['Test', 301], ['Range', 451]]), row(224, [['TSH', 36], ['0.54 - 5.30 μIU/mL', 186], ['BUN', 301], ['7.9 - 20 mg/dL', 451]])]);
    expect(results.map((r) => r.reference_range_text ?? '')).toEqual(['0.54 - 5.30', '7.9 - 20', '']);
    expect(results).toHaveLength(3);
  });
  it('negative: an interval named for no result goes nowhere, and a result keeps its own range', () => {
    const own = [row(100, [['Glucose', 40], ['95', 200], ['mg/dL', 260], ['70-99', 330]])];
    const results = parse([...own, row(200, [['Bio. Ref. Interval — Glucose: 60 - 110 mg/dL', 36]]), row(212, [['Bio. Ref. Interval — Ferritin: 30 - 400 ng/mL', 36]])]);
    expect(results.map((r) => [r.test_name, r.reference_range_text])).toEqual([['Glucose', '70-99']]);
  });
});

describe('Lithuanian labels and names', () => {
  it('"Pacientas" (given names first), "Gimimo data", "Mėginio paėmimo data", "Atsakymo data", "Mėginio Nr."', () => {
    const m = extractMetadata(lines('UAB „Nemuno klinikinė laboratorija“', 'Pacientas:   Jurgita Jankauskienė   Mėginio Nr.:   2412613118', 'Gimimo data:   1944-09-15   Mėginio paėmimo data:   2024-12-18 08:50', 'Asmens kodas:   44409158701   Atsakymo data:   2024-12-20 12:55'), { currentYear: 2025 });
    expect(m).toMatchObject({ patient_first_name: 'Jurgita', patient_last_name: 'Jankauskienė', dob: '1944-09-15', date_collected: '2024-12-18', date_reported: '2024-12-20', specimen_number: '2412613118' });
  });
  it('test names: Trombocitai, Gliukozė, Šlapalas, CRB, DTL / MTL cholesterolis, TTH, Laisvasis T4', () => {
    const code = (n: string, unit?: string) => matchLoinc(n, unit ? { unit } : {})[0]?.loinc_code;
    expect([code('Trombocitai'), code('Šlapalas', 'mmol/l'), code('CRB', 'mg/l'), code('DTL cholesterolis', 'mmol/l'), code('MTL cholesterolis', 'mmol/l'), code('TTH')]).toEqual(['777-3', '22664-7', '1988-5', '14646-4', '39469-2', '3016-3']);
    expect(code('LDL/ HDL RATIO')).toBe('11054-4');
  });
});

describe('a labelled range under its result is not an interval printed apart', () => {
  it('"Reference range: Male: 13.5-17.5" under a row stays that row\'s range line', () => {
    const row = (y: number, cells: [string, number][]) => ({ text: cells.map(([t]) => t).join('   '), y, cells: cells.map(([t, x]) => ({ text: t, x, width: t.length * 5 })) });
    const results = parseLabReport([{ page: 1, source: 'text_layer', lines: [row(100, [['Hemoglobin', 40], ['15.1', 200], ['g/dL', 260]]), row(112, [['Reference range: Male: 13.5-17.5', 40]])] }], { currentYear: 2025 }).results;
    expect(results.map((r) => r.test_name)).toEqual(['Hemoglobin']);
    expect(rangeStatements([row(112, [['Reference range: Male: 13.5-17.5', 40]])], false).statements).toEqual([]);
  });
});

describe('intervals printed apart, from OCR (remote-ranges.ts)', () => {
  const row = (y: number, cells: [string, number][]) => ({ text: cells.map(([t]) => t).join('   '), y, cells: cells.map(([t, x]) => ({ text: t, x, width: t.length * 5 })) });
  it('the dash and the colon lost ("Bio. Ref. Interval VLDL CHOLESTEROL 5 - 40 mg/dL"), a point read as a comma, a garbled unit', () => {
    const { statements } = rangeStatements([row(10, [['Bio. Ref. Interval VLDL CHOLESTEROL 5 - 40 mg/dL', 40]]), row(20, [['Bio. Ref, Interval', 40], ['TSH: 0.54 - 5.30 plu/mt', 180]])], false);
    expect(statements.map((s) => [s.name, s.range.text])).toEqual([['VLDL CHOLESTEROL', '5 - 40'], ['TSH', '0.54 - 5.30']]);
  });
  it('negative: two cards\' "Ref. range" lines on one line name no test', () => {
    expect(rangeStatements([row(10, [['Ref. range 70 - 99 mg/dL', 54], ['Ref. range 7 - 25 mg/dL', 326]])], false).statements).toEqual([]);
  });
});
