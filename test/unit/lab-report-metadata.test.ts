import { describe, expect, it } from 'vitest';
import { inferDateOrder } from '../../domain/lab-report/dates.js';
import { extractMetadata, splitOrderedName, splitPersonName, type MetadataLine } from '../../domain/lab-report/metadata.js';

/** Lines as parse.ts hands them over: column gaps kept as runs of three spaces. */
const lines = (...texts: string[]): MetadataLine[] => texts.map((text) => ({ text, page: 1 }));
const pages = (...texts: string[][]): MetadataLine[] => texts.flatMap((t, i) => t.map((text) => ({ text, page: i + 1 })));
const name = (m: { patient_first_name: string; patient_last_name: string }) => [m.patient_first_name, m.patient_last_name];

describe('splitPersonName: titles, order and particles', () => {
  it.each([
    ['THOMAS, William Mr', 'William', 'THOMAS'],
    ['BROWN, Sophie Ms', 'Sophie', 'BROWN'],
    ['DOE, JANE', 'JANE', 'DOE'],
    ['Mme MARTIN Élodie', 'Élodie', 'MARTIN'],
    ['M. GIRARD Louis', 'Louis', 'GIRARD'],
    ['M. GIRARD', '', 'GIRARD'],
    ['Miss Sophie BROWN', 'Sophie', 'BROWN'],
    ['Herr Max Mustermann', 'Max', 'Mustermann'],
    ['Frau Dr. med. Erika Musterfrau', 'Erika', 'Musterfrau'],
    ['Mrs Jane Roe', 'Jane', 'Roe'],
    ['SMITH, JOHN JR', 'JOHN', 'SMITH'],
    ['Smith, John, Jr.', 'John', 'Smith'],
    ["O'BRIEN, Mary-Kate", 'Mary-Kate', "O'BRIEN"],
    ['Jean-Luc PICARD', 'Jean-Luc', 'PICARD'],
    ['Anna van der Berg', 'Anna', 'van der Berg'],
    ['DE LA TOUR Marie', 'Marie', 'DE LA TOUR'],
    ['Marie DE LA TOUR', 'Marie', 'DE LA TOUR'],
    ['SMITH John Paul', 'John Paul', 'SMITH'],
    ['Weber geb. Schmidt, Sophie', 'Sophie', 'Weber'],
    ['Mme DUPONT née MARTIN Marie', 'Marie', 'DUPONT'],
    ['Renée Dupont', 'Renée', 'Dupont'],
  ])('%s → %s / %s', (raw, first, last) => expect(splitPersonName(raw)).toEqual({ first, last }));

  it('returns blanks, never a title or a space, when only a title is printed', () => {
    expect(splitPersonName('Mr.')).toEqual({ first: '', last: '' });
    expect(splitPersonName('Roe, Mrs')).toEqual({ first: '', last: 'Roe' });
  });
});

describe('extractMetadata: labelled names', () => {
  it('reads Spanish and Italian labels: name in the label\'s order, birth date, collection date, sample number', () => {
    const es = extractMetadata(lines('Laboratorio Clínico Almeda', 'Paciente: FERNÁNDEZ LÓPEZ, Alejandro   Nº de muestra: 890306495', 'Fecha de nacimiento: 23/03/1978   Fecha de extracción: 08/05/2025', 'Médico solicitante: Dra. Elena Castro'), { dateOrder: 'dmy' });
    expect(es).toMatchObject({ patient_first_name: 'Alejandro', patient_last_name: 'FERNÁNDEZ LÓPEZ', dob: '1978-03-23', date_collected: '2025-05-08', specimen_number: '890306495', lab_name: 'Laboratorio Clínico Almeda' });
    const it_ = extractMetadata(lines('Centro Diagnostico Lombardo', 'Cognome e Nome: ESPOSITO PAOLA   N. accettazione: 66581921', 'Data di nascita: 20/04/1964   Data prelievo: 29/10/2024'), { dateOrder: 'dmy' });
    expect(it_).toMatchObject({ patient_first_name: 'PAOLA', patient_last_name: 'ESPOSITO', dob: '1964-04-20', date_collected: '2024-10-29', specimen_number: '66581921' });
  });

  it('reads "Prepared for Jane Roe" and a lab name joined to the document title', () => {
    const m = extractMetadata(lines('Harborview Clinical Labs — Cumulative Results', 'Prepared for Susan Brown', 'Date of birth: November 20, 1990'));
    expect(m).toMatchObject({ patient_first_name: 'Susan', patient_last_name: 'Brown', lab_name: 'Harborview Clinical Labs' });
  });

  it('reads "Name : SURNAME, Given Title" with the title dropped', () => {
    const m = extractMetadata(lines('Name   : THOMAS, William Mr', 'DOB   : 19/03/1942 (82y)   Sex: M'), { dateOrder: 'dmy' });
    expect(m).toMatchObject({ patient_first_name: 'William', patient_last_name: 'THOMAS', dob: '1942-03-19' });
  });

  it('splits a value under a combined "Surname, Given" label in the label\'s order', () => {
    expect(name(extractMetadata(lines('Name, Vorname:   Weber, Matthias', 'Geburtsdatum:   09.01.1978')))).toEqual(['Matthias', 'Weber']);
    expect(name(extractMetadata(lines('Nom, Prénom : Dupont, Jean')))).toEqual(['Jean', 'Dupont']);
    expect(name(extractMetadata(lines('Nom et prénom : DUPONT Jean')))).toEqual(['Jean', 'DUPONT']);
    expect(name(extractMetadata(lines('Last, First: Doe, John A')))).toEqual(['John', 'Doe']);
    expect(name(extractMetadata(lines('Nachname/Vorname: Weber Matthias')))).toEqual(['Matthias', 'Weber']);
    expect(name(extractMetadata(lines('Vorname, Name: Matthias, Weber')))).toEqual(['Matthias', 'Weber']);
    expect(name(extractMetadata(lines('Prénom Nom : Jean Dupont')))).toEqual(['Jean', 'Dupont']);
    // Separate labels are still separate labels.
    expect(name(extractMetadata(lines('First Name: John   Last Name: Doe')))).toEqual(['John', 'Doe']);
    expect(name(extractMetadata(lines('Nom   Prénom   Date de naissance', 'DUPONT   Jean   10/01/1997')))).toEqual(['Jean', 'DUPONT']);
  });

  it('gives no name when a combined label\'s value could split anywhere', () => {
    expect(splitOrderedName('Okafor Chidi Emeka', 'lastFirst')).toEqual({ first: '', last: '' });
    // Unless the given-name list places the cut (person-names.ts): Anna and Maria are given names, Weber is not.
    expect(splitOrderedName('Weber Anna Maria', 'lastFirst')).toEqual({ first: 'Anna Maria', last: 'Weber' });
    expect(splitOrderedName('WEBER Anna Maria', 'lastFirst')).toEqual({ first: 'Anna Maria', last: 'WEBER' });
    expect(splitOrderedName('Weber, Anna Maria', 'lastFirst')).toEqual({ first: 'Anna Maria', last: 'Weber' });
  });

  it('never returns whitespace for an empty name label', () => {
    expect(name(extractMetadata(lines('Patient:    ', 'Name:  ,  ')))).toEqual(['', '']);
  });
});

describe('extractMetadata: names printed without a label', () => {
  it('reads a "SURNAME, GIVEN" cell under a "Patient Details" heading', () => {
    const m = extractMetadata(
      lines('Patient Details   Specimen Details   Physician Details', 'TAYLOR, LUIS   Specimen ID: 894-109-4578-0   Ordering: Sarah K. Patel, MD', 'DOB: 12/19/2001   Control ID: 71845877144'),
      { dateOrder: 'mdy' },
    );
    expect(m).toMatchObject({ patient_first_name: 'LUIS', patient_last_name: 'TAYLOR', dob: '2001-12-19', specimen_number: '894-109-4578-0' });
  });

  it('reads a name cell beside or above a DOB field', () => {
    expect(name(extractMetadata(lines('Jane Roe   DOB: 1980-01-15   Sex: F')))).toEqual(['Jane', 'Roe']);
    expect(name(extractMetadata(lines('ROE, JANE', 'DOB: 1980-01-15')))).toEqual(['JANE', 'ROE']);
  });

  it('reads a "SURNAME, GIVEN" banner repeated in a page footer', () => {
    const m = extractMetadata(lines('Lakeshore Reference Laboratory', 'HARRIS, JANE   Specimen: TX906141B', 'Glucose   89   mg/dL', 'HARRIS, JANE   TX906141B   Page 1 of 1'));
    expect(name(m)).toEqual(['JANE', 'HARRIS']);
  });

  it('reads a name led by a patient title (French, German, English)', () => {
    const fr = extractMetadata(lines('Dossier n° 250917-4769', 'Mme MARTIN Élodie', 'Née le 19/04/2000'), { dateOrder: 'dmy' });
    expect(fr).toMatchObject({ patient_first_name: 'Élodie', patient_last_name: 'MARTIN', dob: '2000-04-19', specimen_number: '250917-4769' });
    expect(name(extractMetadata(pages(['Glucose   95'], ['M. GIRARD Louis - Dossier n° 241213-5626'])))).toEqual(['Louis', 'GIRARD']);
    expect(name(extractMetadata(lines('Herr Max Mustermann', 'Geburtsdatum: 01.02.1970')))).toEqual(['Max', 'Mustermann']);
  });

  it('takes no name from doctors, credentials, test headings or sentences', () => {
    const none = ['', ''];
    expect(name(extractMetadata(lines('Prescripteur : Dr Pierre Lemoine', 'Monsieur le Docteur Jean Dupont')))).toEqual(none);
    expect(name(extractMetadata(lines('Herrn Dr. med. Hans Lang')))).toEqual(none);
    expect(name(extractMetadata(lines('Client Information', 'WHITFIELD, JOHN R., MD')))).toEqual(none);
    expect(name(extractMetadata(lines('URINALYSIS, COMPLETE', 'Color   Yellow', 'URINALYSIS, COMPLETE')))).toEqual(none);
    expect(name(extractMetadata(lines('Critical result called to Mrs Jones at 10:55')))).toEqual(none);
  });

  it('prefers a labelled name over a banner', () => {
    expect(name(extractMetadata(lines('Mme MARTIN Élodie', 'Patient: Jane Roe')))).toEqual(['Jane', 'Roe']);
  });
});

describe('extractMetadata: dates of birth', () => {
  it('reads German "geb. am:" and "geb.:"', () => {
    expect(extractMetadata(lines('Patient: Weber, Sophie   Auftragsnummer: 1789567966', 'geb. am: 07.04.1992   Probenentnahme: 25.06.2025 07:23'), { dateOrder: 'dmy' })).toMatchObject({
      patient_first_name: 'Sophie',
      patient_last_name: 'Weber',
      dob: '1992-04-07',
      date_collected: '2025-06-25',
      specimen_number: '1789567966',
    });
    expect(extractMetadata(lines('Name: Weber, Sophie   geb.: 07.04.1992'), { dateOrder: 'dmy' }).dob).toBe('1992-04-07');
  });

  it('does not take a birth name ("geb. Schmidt") for a date label', () => {
    expect(extractMetadata(lines('Name: Weber geb. Schmidt, Sophie'))).toMatchObject({ patient_first_name: 'Sophie', patient_last_name: 'Weber', dob: '' });
  });

  it('drops a birth date later than the report’s own dates', () => {
    expect(extractMetadata(lines('Patient: Jane Roe   DOB: 2025-03-01', 'Collected: 2024-03-01')).dob).toBe('');
  });
});

describe('inferDateOrder: the document decides day-first vs month-first', () => {
  it('does not read reference ranges and decimals as dates', () => {
    // "14-5.80" and "13.5-17.2" would look like a day above 12; only real dates count.
    expect(inferDateOrder('DOB: 08/10/1995\nRBC 4.14-5.80\nHemoglobin 13.5-17.2\nCollected: 09/03/2024 0953', 'en')).toBe('mdy');
    expect(inferDateOrder('Creatinine 0.76-1.27\nDOB 01/02/1980', 'en')).toBeUndefined();
  });

  it('reads US address and time-zone forms', () => {
    expect(inferDateOrder('2210 Meridian Parkway, Durham, NC 27713\nDOB: 08/10/1995', 'en')).toBe('mdy');
    expect(inferDateOrder('Reported: 09/11/2025 / 17:12 EDT\nDOB: 04/07/1953', 'en')).toBe('mdy');
  });

  it('reads UK postcodes', () => {
    expect(inferDateOrder('1 High Street, Leeds LS1 4AP\nDOB: 08/10/1995', 'en')).toBe('dmy');
  });

  it('reads the DOB month-first in a US report whose dates are all ambiguous', () => {
    const text = ['Meridian Clinical Laboratories', '2210 Meridian Parkway, Durham, NC 27713', 'RODRIGUEZ, JAMES   Specimen ID: 551-055-1295-0', 'DOB: 08/10/1995', 'Date collected: 09/03/2024 0953 Local'];
    const m = extractMetadata(lines(...text), { dateOrder: inferDateOrder(text.join('\n'), 'en') });
    expect(m).toMatchObject({ patient_first_name: 'JAMES', patient_last_name: 'RODRIGUEZ', dob: '1995-08-10', date_collected: '2024-09-03' });
  });
});

describe('extractMetadata: specimen number and report date', () => {
  it('reads bare "Specimen:", "Sample :", "Dossier :", "Lab Ref:" labels when an identifier follows', () => {
    expect(extractMetadata(lines('HARRIS, JANE   Specimen: TX906141B   Client #: 75230694', 'DOB: 04/07/1953   Requisition: 2647066')).specimen_number).toBe('TX906141B');
    expect(extractMetadata(lines('Sample   : 24C081286   Blood   Collected: 27/10/2024')).specimen_number).toBe('24C081286');
    expect(extractMetadata(lines('Dossier : 98451758   Monsieur DUBOIS Jean')).specimen_number).toBe('98451758');
    expect(extractMetadata(lines('Lab Ref:   43-0439181   Collected:   06/02/2024')).specimen_number).toBe('43-0439181');
  });

  it('keeps digit groups, skips a specimen type and a row of numbers across cumulative columns', () => {
    expect(extractMetadata(lines('Labornummer:   95 47285 72')).specimen_number).toBe('95 47285 72');
    expect(extractMetadata(lines('Specimen: Serum', 'Accession #: A12345')).specimen_number).toBe('A12345');
    expect(extractMetadata(lines('Lab No   2601394   4971427   0439181')).specimen_number).toBeUndefined();
  });

  it('reads "Resulted", "Report Released On", "Befundausgang" and "Résultats validés le" as the report date', () => {
    expect(extractMetadata(lines('Collected: 08/20/2024 7:17 AM   Resulted: 08/22/2024 3:28 PM'), { dateOrder: 'mdy' }).date_reported).toBe('2024-08-22');
    expect(extractMetadata(lines('Date of Birth   : 18/06/1976   Report Released On   : 27/Dec/2024 3:13 PM'), { dateOrder: 'dmy' }).date_reported).toBe('2024-12-27');
    expect(extractMetadata(lines('Befundausgang:   07.10.2024')).date_reported).toBe('2024-10-07');
    expect(extractMetadata(lines('Résultats validés le 26/04/2024'), { dateOrder: 'dmy' }).date_reported).toBe('2024-04-26');
  });
});

describe('extractMetadata: lab name', () => {
  it('takes "Performed by:" and "Performing lab:" over the letterhead', () => {
    expect(extractMetadata(lines('Harborview Primary Care', 'Patient: David Harris', 'Ordered by: John R. Whitfield, MD   Performed by: Brightwater Medical Laboratory')).lab_name).toBe(
      'Brightwater Medical Laboratory',
    );
    expect(extractMetadata(lines('Performing lab: Quest Diagnostics, 123 Main St, Springfield')).lab_name).toBe('Quest Diagnostics');
    expect(extractMetadata(lines('Patient: Jane Roe', 'Testing performed by: LabCorp Burlington, 1447 York Court, Burlington, NC 27215')).lab_name).toBe('LabCorp Burlington');
  });

  it('does not take a person for the lab', () => {
    expect(extractMetadata(lines('Big Clinic Laboratory', 'Performed by: T. Nakamura, MLS(ASCP)')).lab_name).toBe('Big Clinic Laboratory');
  });

  it('takes the letterhead in the footer’s mixed-case printing, joining a style-split letterhead', () => {
    expect(extractMetadata(lines('NORTHGATE   BLOOD SCIENCES', 'Northgate University Hospitals NHS Trust', 'Name : BROWN, Sophie Ms', 'Northgate Blood Sciences   Tel: 020 7731 6091   Page 1 of 1')).lab_name).toBe(
      'Northgate Blood Sciences',
    );
  });

  it('skips descriptor lines and report titles in the letterhead', () => {
    expect(extractMetadata(lines('LABORATOIRE DE BIOLOGIE MÉDICALE', 'Biolab Atlantique', '5 quai de la Fosse, 44000 Nantes')).lab_name).toBe('Biolab Atlantique');
    expect(extractMetadata(lines('MERCY VALLEY HOSPITAL', 'Department of Pathology and Laboratory Medicine', 'CUMULATIVE LABORATORY REPORT')).lab_name).toBe('MERCY VALLEY HOSPITAL');
    expect(extractMetadata(lines('Laborpraxis Süd   Endbefund', 'Fachärzte für Laboratoriumsmedizin', 'Patient: Weber, Sophie')).lab_name).toBe('Laborpraxis Süd');
    expect(extractMetadata(lines('Lakeshore Reference Laboratory   Patient Report', 'Patient: Jane Roe')).lab_name).toBe('Lakeshore Reference Laboratory');
    expect(extractMetadata(lines('Sonic Healthcare', 'Patient: Jane Roe')).lab_name).toBe('Sonic Healthcare');
    expect(extractMetadata(lines('Universitätsklinikum Freiburg   Zentrallabor', 'Patient: Jane Roe')).lab_name).toBe('Universitätsklinikum Freiburg');
  });

  it('never takes a document title for the lab, and reads the lab printed beside it', () => {
    expect(extractMetadata(lines('Laborbefund   Medizinisches Labor Rhein-Main', 'Mainzer Landstraße 212, 60326 Frankfurt am Main', 'Name, Vorname:   Weber, Matthias')).lab_name).toBe(
      'Medizinisches Labor Rhein-Main',
    );
    expect(extractMetadata(lines('Befundbericht', 'Patient: Jane Roe')).lab_name).toBe('');
    expect(extractMetadata(lines('Laborbericht   Labor Dr. Müller', 'Patient: Jane Roe')).lab_name).toBe('Labor Dr. Müller');
    expect(extractMetadata(lines('Compte rendu d’analyses   Laboratoire Cerba', 'Patient: Jane Roe')).lab_name).toBe('Laboratoire Cerba');
    expect(extractMetadata(lines('Lab Report', 'Patient: Jane Roe')).lab_name).toBe('');
  });

  it('reads a lab name with a typographic apostrophe (d’, l’)', () => {
    expect(extractMetadata(lines('Laboratoire d’Analyses Médicales du Vieux-Port', '18 quai du Port, 13002 Marseille')).lab_name).toBe('Laboratoire d’Analyses Médicales du Vieux-Port');
    expect(extractMetadata(lines("Laboratoire de l'Hôpital Nord", 'Patient: Jane Roe')).lab_name).toBe("Laboratoire de l'Hôpital Nord");
  });

  it('falls back to a footer naming the lab', () => {
    expect(extractMetadata(lines('Patient: Jane Roe', 'Glucose   95   mg/dL   70-99', 'Summit Pathology Associates · CLIA 83D4690332   Page 1 of 1')).lab_name).toBe('Summit Pathology Associates');
  });

  it('leaves the lab empty rather than taking a sentence or a result row', () => {
    expect(extractMetadata(lines('Patient: Jane Roe', 'This document contains confidential health information.')).lab_name).toBe('');
    expect(extractMetadata(lines('Biotin   250   ng/mL', 'Glucose   95   mg/dL   70-99')).lab_name).toBe('');
    expect(extractMetadata(lines('Harborview Primary Care', 'Patient: David Harris')).lab_name).toBe('');
  });
});

describe('extractMetadata: name and birth-date labels of more languages and portals', () => {
  it('reads Dutch, Portuguese/Italian and consumer name labels, dropping courtesy titles', () => {
    expect(name(extractMetadata(lines('Naam:   Dhr. de Vries, Bram   Monsternummer:   44A')))).toEqual(['Bram', 'de Vries']);
    expect(name(extractMetadata(lines('Nome:   Sig.ra Giulia Conti')))).toEqual(['Giulia', 'Conti']);
    expect(name(extractMetadata(lines('Member: Taylor Brooks', 'Acme Longevity Labs', 'Date of birth: March 3, 1990')))).toEqual(['Taylor', 'Brooks']);
  });

  it('reads a name printed before "· DOB:" in one run, as patient portals print it', () => {
    const m = extractMetadata(lines('Test Results', 'Anna Kowal · DOB: 02/23/1990', 'Lipid Panel'));
    expect(name(m)).toEqual(['Anna', 'Kowal']);
    expect(m.dob).toBe('1990-02-23');
  });

  it('reads Portuguese and Spanish birth-date labels', () => {
    expect(extractMetadata(lines('Paciente: Rita Alves   Data de Nascimento: 05/06/1970'), { dateOrder: 'dmy' }).dob).toBe('1970-06-05');
    expect(extractMetadata(lines('Paciente: Rita Alves   Fecha nac.: 05/06/1970'), { dateOrder: 'dmy' }).dob).toBe('1970-06-05');
  });

  it('writes a Turkish name in capitals with a dotted İ in Turkish case, and leaves other capitals as printed', () => {
    expect(name(extractMetadata(lines('Hasta Adı Soyadı   : Ali ŞAHİN')))).toEqual(['Ali', 'Şahin']);
    expect(name(extractMetadata(lines('Hasta Adı Soyadı   : Ayşe YILMAZ')))).toEqual(['Ayşe', 'YILMAZ']);
  });

  it('takes a date with the month named first as the US order, and the day first as the UK order', () => {
    expect(inferDateOrder('DOB:   03/01/1956\nJan 05 2024 08:32', 'en')).toBe('mdy');
    expect(inferDateOrder('DOB:   03/01/1956\nCollected 05 Jan 2024', 'en')).toBe('dmy');
  });
});

describe('extractMetadata: lab names the letterhead spaces out, prefixes or only mentions', () => {
  it('joins a letterhead the print spaced into cells, cutting a title after a dash', () => {
    expect(extractMetadata(lines('ST. JUDE   REGIONAL   MEDICAL CENTER   LABORATORY', 'PATIENT: DOE, JANE')).lab_name).toBe('ST. JUDE REGIONAL MEDICAL CENTER LABORATORY');
    expect(extractMetadata(lines('Northfield   Pathology Services — Trend Report', 'Patient: DOE, Jane')).lab_name).toBe('Northfield Pathology Services');
  });

  it('drops an analyser model before the unit that runs it, and keeps a department joined by a dash', () => {
    expect(extractMetadata(lines('COBAS B221 Emergency Department Lab, Lakeside Hospital', 'Patient ID   123')).lab_name).toBe('Emergency Department Lab, Lakeside Hospital');
    expect(extractMetadata(lines('Clinical Chemistry – Core Lab, Riverbend Hospital   NHS No. 123 456 7890', 'Surname   DOE')).lab_name).toBe('Clinical Chemistry – Core Lab, Riverbend Hospital');
  });

  it('knows hospitals and clinics by their names in other languages', () => {
    expect(extractMetadata(lines('Klinisk kemi, Länssjukhuset Ryhov   Laboratoriesvar', 'Namn:   Berg, Eva')).lab_name).toBe('Klinisk kemi, Länssjukhuset Ryhov');
    expect(extractMetadata(lines('HILLCREST FAMILY CLINIC', 'ANALYZER X200', 'Name: DOE, JANE')).lab_name).toBe('HILLCREST FAMILY CLINIC');
  });

  it('takes the laboratory a letter or a visit note names in its text over the practice letterhead', () => {
    const letter = lines('Elm Tree Surgery', '4 Mill Lane', 'Dear Mr Green,', 'Your blood tests were analysed by Northgate Pathology Laboratory, which is accredited.');
    expect(extractMetadata(letter).lab_name).toBe('Northgate Pathology Laboratory');
    expect(extractMetadata(lines('Oak Street Family Medicine', 'Patient: Jane Roe', 'LABS (Labcorp, collected 01/02/2024):')).lab_name).toBe('Labcorp');
    // no name after the phrase: nothing is taken from it
    expect(extractMetadata(lines('Vitalis Health Labs', 'Testing performed by a CLIA-certified partner laboratory (CLIA 22D2334251).')).lab_name).toBe('Vitalis Health Labs');
  });
});
