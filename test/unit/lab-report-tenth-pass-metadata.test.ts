import { describe, expect, it } from 'vitest';
import { inferDateOrder } from '../../domain/lab-report/dates.js';
import { extractMetadata, splitOrderedName, type MetadataLine } from '../../domain/lab-report/metadata.js';

// Issue 14, tenth pass: metadata of Russian/Ukrainian and Greek reports, separate "Surname" / "First names"
// labels, a name in a certificate's sentence, a letterhead with a title beside it.
/** Lines as parse.ts hands them over: column gaps kept as runs of three spaces. */
const lines = (...texts: string[]): MetadataLine[] => texts.map((text) => ({ text, page: 1 }));
const name = (m: { patient_first_name: string; patient_last_name: string }) => [m.patient_first_name, m.patient_last_name];

describe('Cyrillic and Greek labels', () => {
  it('"Ф.И.О." gives the family name first and leaves the patronymic out; "Дата рождения" is the birth date, day first', () => {
    const m = extractMetadata(lines('Лаборатория «Диагност-Плюс», Санкт-Петербург', 'Ф.И.О.:   Иванова Мария Петровна   ИНЗ:   4413801910', 'Дата рождения:   04.03.1980   Дата взятия образца:   05.02.2024 09:55', 'Пол:   Женский   Дата выдачи:   06.02.2024'));
    expect(name(m)).toEqual(['Мария', 'Иванова']);
    expect(m).toMatchObject({ dob: '1980-03-04', date_collected: '2024-02-05', date_reported: '2024-02-06', specimen_number: '4413801910', lab_name: 'Лаборатория «Диагност-Плюс», Санкт-Петербург' });
  });
  it('the Greek "ΟΝΟΜΑΤΕΠΩΝΥΜΟ" (family name first) and "ΗΜ. ΓΕΝΝΗΣΗΣ"; a Greek letterhead is the lab', () => {
    const m = extractMetadata(lines('Διαγνωστικό Εργαστήριο «Ιπποκράτης» Α.Ε., Αθήνα', 'ΟΝΟΜΑΤΕΠΩΝΥΜΟ:   Γεωργίου Δημήτριος   ΑΡ. ΠΡΩΤΟΚΟΛΛΟΥ:   24339501', 'ΗΜ. ΓΕΝΝΗΣΗΣ:   12/11/1996   ΗΜ/ΝΙΑ ΛΗΨΗΣ:   11/05/2024'), { dateOrder: 'dmy' });
    expect(name(m)).toEqual(['Δημήτριος', 'Γεωργίου']);
    expect(m).toMatchObject({ dob: '1996-11-12', lab_name: 'Διαγνωστικό Εργαστήριο «Ιπποκράτης» Α.Ε., Αθήνα', specimen_number: '24339501' });
  });
  it('a lab named in Cyrillic by a compound ending in "лаб" ("ООО «МедЛаб Экспресс»")', () => {
    expect(extractMetadata(lines('ООО «МедЛаб Экспресс», Москва', 'Ф.И.О.:   Попов Сергей')).lab_name).toBe('ООО «МедЛаб Экспресс», Москва');
  });
  it('negative: a title line in Cyrillic is no lab ("РЕЗУЛЬТАТЫ ЛАБОРАТОРНЫХ ИССЛЕДОВАНИЙ")', () => {
    expect(extractMetadata(lines('РЕЗУЛЬТАТЫ ЛАБОРАТОРНЫХ ИССЛЕДОВАНИЙ', 'Ф.И.О.:   Попов Сергей')).lab_name).toBe('');
  });
  it('negative: three words with no patronymic under "Ф.И.О." are not guessed', () => {
    expect(splitOrderedName('Попов Сергей Андрей', 'lastFirst')).toEqual({ first: '', last: '' });
    expect(splitOrderedName('Попов Сергей Николаевич', 'lastFirst')).toEqual({ first: 'Сергей', last: 'Попов' });
  });
  it('a report written in Cyrillic or Greek reads its numeric dates day first; negative: an English one does not', () => {
    expect(inferDateOrder('Дата рождения: 12/11/1996 Дата взятия: 11/05/2024 Гемоглобин', 'en')).toBe('dmy');
    expect(inferDateOrder('ΗΜ. ΓΕΝΝΗΣΗΣ: 12/11/1996 ΗΜ/ΝΙΑ ΛΗΨΗΣ: 11/05/2024', 'en')).toBe('dmy');
    expect(inferDateOrder('DOB: 12/11/1996 Collected: 11/05/2024 Hemoglobin', 'en')).not.toBe('dmy');
  });
});

describe('names: separate labels, a sentence, a letterhead with a title', () => {
  it('"Surname" and "First names" on separate lines', () => {
    expect(name(extractMetadata(lines('Surname   PRETORIUS   Lab No.   CT74053714', 'First names   Thabo   Collected   2024/07/06 08:49')))).toEqual(['Thabo', 'PRETORIUS']);
  });
  it('a name in a sentence just before its birth date ("a blood sample from George Bennett, date of birth …")', () => {
    const m = extractMetadata(lines('Wellbeing Pharmacy Testing Service', 'This is to certify that a blood sample from George Bennett, date of birth 11 September 1968,', 'collected on 23 March 2024, was tested.'));
    expect(name(m)).toEqual(['George', 'Bennett']);
    expect(m.lab_name).toBe('Wellbeing Pharmacy Testing Service');
  });
  it('negative: a capitalised phrase before "born" that starts the sentence with a title is no name', () => {
    expect(name(extractMetadata(lines('Dr Smith, born in Leeds, reviewed the results.')))).toEqual(['', '']);
  });
  it('a letterhead spaced into cells with a title in capitals beside it', () => {
    expect(extractMetadata(lines('St.   Vincent   Regional Medical Center Laboratory   FINAL   REPORT', 'Patient:   GREENE, TIFFANY')).lab_name).toBe('St. Vincent Regional Medical Center Laboratory');
  });
});

describe('a lab labelled with its station number', () => {
  it('"Reporting Lab: VA PUGET SOUND HEALTH CARE SYSTEM [663]" names the lab without the number in brackets', () => {
    const m = extractMetadata(lines('LAB RESULTS - INTERIM REPORT', 'Reporting Lab: VA PUGET SOUND HEALTH CARE SYSTEM [663]'));
    expect(m.lab_name).toBe('VA PUGET SOUND HEALTH CARE SYSTEM');
  });
  it('negative: words in brackets stay ("Northgate Laboratory (Pathology)")', () => {
    expect(extractMetadata(lines('Performing Lab: Northgate Laboratory (Pathology)')).lab_name).toBe('Northgate Laboratory (Pathology)');
  });
});
