import { describe, expect, it } from 'vitest';
import { matchLoinc } from '../../domain/lab-report/loinc-match.js';
import { extractMetadata, type MetadataLine } from '../../domain/lab-report/metadata.js';
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
