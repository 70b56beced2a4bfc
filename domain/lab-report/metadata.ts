/**
 * Patient and report metadata from labelled fields: "Name: DOE, JOHN", "Patient: John Doe",
 * "Nachname: … Vorname: …", "Nom : … Prénom : …", DOB / Geburtsdatum / Date de naissance, lab name,
 * collection and report dates, specimen/accession number. Several "label: value" pairs may share a
 * line; a row of labels may also sit above a row of values.
 */
import { type DateOrder, isMonthName, parseDate } from './dates.js';
import { foldSameLength, foldText, squash } from './text.js';
import { type ReportMetadata } from './types.js';
import { splitByGivenNames } from './person-names.js';

type Field = 'fullName' | 'lastFirst' | 'firstLast' | 'lastName' | 'firstName' | 'dob' | 'personalNumber' | 'birthNumber' | 'dmyNumber' | 'hetu' | 'collected' | 'reported' | 'specimen' | 'lab' | 'other';

interface LabelRule {
  field: Field;
  re: RegExp;
  /** Generic labels ("Name", "Patient") count only when followed by ':' or a column gap. */
  needsSeparator?: boolean;
  /** Labels that are also words of names ("Lakeshore Reference Laboratory") count only at a cell's start. */
  startsCell?: boolean;
}

// Parts of a combined name label ("Name, Vorname", "Nom, Prénom", "Last, First", "Vorname Name"),
// joined by a comma, slash or single space (a column gap would make two labels of a label row).
// Bare "Last"/"First" count only as "Last, First" ("First Name" is a single label, not first + name).
const LAST_PART = String.raw`(?:last name|surname|family name|nachname|familienname|name|nom de famille|nom|cognome|apellidos?)`;
const FIRST_PART = String.raw`(?:first names?|given names?|forenames?|vornamen?|prenoms?|nome|nombre)`;
const JOIN = String.raw`(?:\s?[,/]\s?| (?:et|und|and|&|e|y) | )`;
const LAST_FIRST = String.raw`(?:${LAST_PART}${JOIN}${FIRST_PART}|last\s?[,/]\s?first(?: names?)?)`;
const FIRST_LAST = String.raw`(?:${FIRST_PART}${JOIN}${LAST_PART}|first\s?[,/]\s?last(?: names?)?)`;

// Tested against folded text (lower case, no accents). Longer, more specific labels first.
const LABELS: LabelRule[] = [
  // A combined label says in which order the two names follow: "Name, Vorname: Weber, Matthias".
  { field: 'lastFirst', re: new RegExp(String.raw`\b(?:patient(?:'s)? )?${LAST_FIRST}\b`) },
  { field: 'firstLast', re: new RegExp(String.raw`\b(?:patient(?:'s)? )?${FIRST_LAST}\b`) },
  // "Tgl. Lahir / Umur: 08-04-1990 / 35 th", "DOB / Age: 03/02/1961 (63)": one label for both, the date first.
  { field: 'dob', re: /\b(date of birth|birth ?date|d\.?o\.?b\.?|geburtsdatum|geb\.?-?datum|geboren am|date de naissance|nee? le|ne\(e\) le|ddn|fecha de nacimiento|f\. nacimiento|data di nascita|nat[oa] il|data urodzenia|fodelsedatum|fodselsdato|geboortedatum|dogum tarihi|datum narozeni|data nasterii|szuletesi (?:datum|ido)|szul\. ?datum|syntymaaika|syntymapaiva|tgl\.? lahir|tanggal lahir|tarikh lahir|data de nascimento|data nasc\.?|dt\.? ?nasc\.?|fecha nac\.?|f\. ?nac\.?)(?: ?\/ ?(?:age|umur|usia|alter|edad|eta|idade|wiek|ika|kor))?\b/ },
  // A Swedish personal identity number begins with the birth date ("19650412-1234"; see dobOfPersonalNumber).
  { field: 'personalNumber', re: /\b(personnummer|personnr\.?|person-?nr\.?)(?![a-z])/, needsSeparator: true },
  // Danish CPR, Norwegian fødselsnummer and Finnish henkilötunnus begin with the birth date day first
  // ("150382-1234", "150382A123B"; see dobOfDmyNumber).
  { field: 'dmyNumber', re: /\b(cpr-?(?:nr|nummer)\.?|cpr|fodselsnummer|fodselsnr\.?)(?![a-z])/, needsSeparator: true },
  { field: 'hetu', re: /\b(henkilotunnus|hetu|henkilotun\.?)(?![a-z])/, needsSeparator: true },
  // A Czech or Slovak birth number ("rodné číslo") begins with the birth date too ("655412/1234"; see dobOfBirthNumber).
  { field: 'birthNumber', re: /\b(rodne cislo|rodne c\.)(?![a-z])/, needsSeparator: true },
  // Turkish: "Hasta Adı Soyadı" (the patient's given names, then the family name).
  // "Imię i nazwisko" (Polish), "Ime i prezime" (Croatian, Serbian, Bosnian): given names first; "Prezime i ime" the other way.
  { field: 'firstLast', re: /\b(imie i nazwisko|ime i prezime)\b/ },
  { field: 'lastFirst', re: /\b(nazwisko i imie|prezime i ime)\b/ },
  { field: 'firstLast', re: /\b(?:hasta )?ad[iı] soyad[iı](?![a-z])/ },
  { field: 'lastName', re: /\b(last name|surname|family name|nachname|familienname|nom de famille|nom de naissance|nom d'usage)\b/ },
  { field: 'firstName', re: /\b(first names?|given names?|forenames?|vorname|prenoms?)\b/ },
  { field: 'fullName', re: /\b(patient(?:'s)? name|name of patient|patient\(?in\)?|nom du patient|nombre del paciente|prepared for|results for|report for|nama pasien|nama penderita)\b/ },
  { field: 'collected', re: /\b(provetatt|provetakingsdato|provtagningstid|provtagningsdatum|provtagen|data (?:i godz\. )?pobrania|data pobrania materialu|collection date(?: ?\/ ?time)?|date collected|collected(?: on| date)?|date of collection|specimen collected|date drawn|drawn|sample date|sampling date|entnahme(?:datum|zeit)?|abnahme(?:datum)?|probenentnahme|entnommen am|date de prelevement|date du prelevement|preleve le|prelevement(?: le| du)?|fecha de (?:extraccion|toma(?: de muestra)?|recogida)|data (?:del )?prelievo|numune alma tarihi|datum (?:a cas )?odberu|data recoltarii|provetagning(?:stid|sdato)?|provetaking|naytteenotto(?:aika)?|mintavetel(?: ideje)?|tgl\.? (?:sampling|pengambilan)|tanggal pengambilan)\b/ },
  { field: 'reported', re: /\b(besvart|svarsdatum|svar utfardat|data wydania(?: wyniku)?|report(?:ed)? date|date reported|reported(?: on)?|date of report|final report date|result date|report printed|resulted(?: on)?|report released(?: on)?|released on|befunddatum|berichtsdatum|befundet am|befund vom|befundausgang|ausgangsdatum|date du compte rendu|date d'edition|edite le|(?:resultats )?valides? le|date de validation|fecha de (?:informe|emision|validacion)|data (?:del )?referto|data di refertazione|onay tarihi|rapor tarihi|datum vydani|datum uvolneni|data validarii|data eliberarii|svardato|svar(?:et)? afgivet|vastaus valmis|vastausaika|leletezes|lelet datuma|tgl\.? hasil|tanggal hasil)\b/ },
  { field: 'specimen', re: /\b(specimen (?:id|number|no\.?|#)|accession(?: number| no\.?| #|#)?|acc\.? ?#|sample (?:id|number|no\.?)|lab (?:no\.?|number|id|#)|requisition(?: number| no\.?| #)?|order (?:number|no\.?|#)|auftragsnummer|auftrags-?nr\.?|proben-?nr\.?|probennummer|labornummer|labor-?nr\.?|tagesnummer|n[°o] (?:de )?dossier|numero de dossier|dossier n[°o]|n[°o] d'echantillon|numero d'echantillon|n[°o] de demande|numero de demande|id echantillon|n[°o] de muestra|numero de muestra|n\. accettazione|numero (?:di )?accettazione|n\. campione|provnummer|provnr|labbnummer|nr zlecenia|numer zlecenia|kod zlecenia|barkod no|numune no|cislo zadanky|cislo vzorku|rekvisitionsnr\.?|rekvisitionsnummer|naytenumero|mintaszam|no\.? lab)/ },
  // Russian / Ukrainian and Greek labels (tested folded: lower case, no accents; Cyrillic and Greek have no \b).
  // "Ф.И.О." (фамилия, имя, отчество), "Пациент" and the Greek "Ονοματεπώνυμο" print the family name first;
  // a patronymic after the given name is left out (see splitOrderedName).
  { field: 'lastFirst', re: /(?<![\p{L}\d])(ф\.? ?и\.? ?о\.?|фамилия,? имя,? отчество|п\.?і\.?б\.?|прізвище,? ім'я)(?![\p{L}])/u },
  { field: 'lastFirst', re: /(?<![\p{L}\d])(ονοματεπωνυμο|επωνυμο[ ,/]+ονομα|пациент|пацієнт)(?![\p{L}])/u, needsSeparator: true },
  { field: 'lastName', re: /(?<![\p{L}\d])(фамилия|прізвище|επωνυμο)(?![\p{L}])/u, needsSeparator: true },
  { field: 'firstName', re: /(?<![\p{L}\d])(имя|ім'я|ονομα)(?![\p{L}])/u, needsSeparator: true },
  { field: 'dob', re: /(?<![\p{L}\d])(дата рождения|д\. ?р\.|дата народження|ημ(?:ερομηνια|\/νια|\.)? ?γεννησησ|ημ\. ?γεν\.)(?![\p{L}])/u },
  { field: 'collected', re: /(?<![\p{L}\d])(дата взятия(?: образца| биоматериала| пробы)?|дата забора(?: биоматериала)?|дата взяття|ημ(?:ερομηνια|\/νια|\.)? ?ληψησ)(?![\p{L}])/u },
  { field: 'reported', re: /(?<![\p{L}\d])(дата выдачи(?: результата)?|дата выполнения|дата видачі|ημ(?:ερομηνια|\/νια|\.)? ?εκδοσησ)(?![\p{L}])/u },
  { field: 'specimen', re: /(?<![\p{L}\d])(инз|№ ?заказа|номер заказа|номер образца|αρ\.? ?πρωτοκολλου|αριθμοσ πρωτοκολλου)(?![\p{L}])/u, needsSeparator: true },
  { field: 'other', re: /(?<![\p{L}\d])(пол|стать|возраст|вік|врач|лечащий врач|отделение|телефон|φυλο|ηλικια|ιατροσ|παραπεμπων ιατροσ|τηλ\.?)(?![\p{L}])/u, needsSeparator: true },
  // Croatian, Serbian, Bosnian and Slovenian labels ("Datum rođenja", "Datum uzorkovanja", "Broj uzorka"), and
  // Vietnamese ones, printed with or without their accents ("Họ tên" / "Ho ten": the family name first, as
  // Vietnamese names are written; "Năm sinh", the year of birth alone, is no birth date).
  { field: 'dob', re: /\b(datum rodenja|datum rojstva|ngay sinh|ngay thang nam sinh)\b/ },
  { field: 'collected', re: /\b(datum (?:i vrijeme )?(?:uzorkovanja|vadenja(?: krvi)?|prijema uzorka)|datum odvzema|(?:thoi gian|ngay) lay mau)\b/ },
  { field: 'reported', re: /\b(datum (?:izdavanja|izdaje)(?: nalaza)?|(?:thoi gian|ngay) tra ket qua)\b/ },
  { field: 'specimen', re: /\b(broj uzorka|broj nalaza|st\. vzorca|so phieu)\b/, needsSeparator: true },
  { field: 'lastFirst', re: /\b(ho ?(?:va )?ten(?: benh nhan)?|ten benh nhan)\b/, needsSeparator: true },
  { field: 'other', re: /\b(spol|oib|mbo|uputio|nam sinh|gioi tinh|dia chi|bac si chi dinh|chan doan|khoa\/phong|ma bn)\b/, needsSeparator: true },
  // Lithuanian: "Gimimo data", "Mėginio paėmimo data", "Atsakymo data", "Mėginio Nr."; "Pacientas" gives the given
  // names first ("Jurgita Jankauskienė").
  { field: 'dob', re: /\b(gimimo data)\b/ },
  { field: 'collected', re: /\b((?:meginio )?paemimo data)\b/ },
  { field: 'reported', re: /\b(atsakymo data|isdavimo data)\b/ },
  { field: 'specimen', re: /\b(meginio nr\.?|meginio numeris|uzsakymo nr\.?)(?![a-z])/, needsSeparator: true },
  { field: 'firstLast', re: /\b(pacientas|vardas,? pavarde)\b/, needsSeparator: true },
  { field: 'other', re: /\b(asmens kodas|lytis|siuntes gydytojas|gydytojas)\b/, needsSeparator: true },
  // "geb." alone may also mean "née" (a maiden name), so it needs a ':' or a column gap after it.
  { field: 'dob', re: /\bgeb\.?(?: am)?(?![a-z])/, needsSeparator: true },
  // Bare "Specimen" / "Sample" / "Dossier" / "Lab Ref" label an identifier only when one follows (see record).
  { field: 'specimen', re: /\b(specimen|sample|dossier|lab ref(?:erence)?)(?![a-z])/, needsSeparator: true },
  { field: 'lab', re: /\b(performing (?:lab(?:oratory)?|site|location|facility)|(?:resulting|reporting) lab(?:oratory)?|performed (?:at|by)|testing (?:site|lab(?:oratory)?)|laboratory name|lab name|(?:durchfuhrendes|untersuchendes) labor|laboratoire executant)\b/, needsSeparator: true },
  { field: 'lab', re: /\b(laboratory|laboratoire|labor)\b/, needsSeparator: true, startsCell: true },
  { field: 'other', re: /\b(received|eingang(?:sdatum)?|date de reception|sex|gender|geschlecht|sexe|age|alter|ordering (?:physician|provider)|physician|doctor|provider|arzt|einsender|medecin|prescripteur|account|phone|tel\.?|telephone|telefon|fax|address|adresse|anschrift|mrn|patient id|insurance|page|seite|status|time|zeit|heure|medico solicitante|medico richiedente|sexo|sesso|edad|eta|remittent|kon|zleceniodawca|lekarz kierujacy|plec|pesel|wiek|rekvirent|kon|tilaaja|sukupuoli|ika|nem|taj szam|bekuldo|beutalo orvos|jenis kelamin|umur|dokter(?: pengirim)?|ruang)\b/, needsSeparator: true },
  // Polish reports print the family name first after "Pacjent" ("Pacjent: Kowalska Anna").
  { field: 'lastFirst', re: /\b(pacjent|pacjentka|nazwisko i imie)\b/, needsSeparator: true },
  // Romanian reports print the family name first after "Nume" ("Nume: POPESCU ANDREI", "Nume și prenume").
  { field: 'lastFirst', re: /\b(nume si prenume|nume pacient|nume)\b/, needsSeparator: true },
  // Hungarian reports print the family name first after "Név" ("Név: Kovács Péter").
  { field: 'lastFirst', re: /\b(nev|beteg neve|paciens neve)\b/, needsSeparator: true },
  { field: 'lastName', re: /\b(nom)\b/, needsSeparator: true },
  // Consumer reports name the person "Member" / "Member name"; Dutch "Naam", Portuguese and Italian "Nome", Finnish
  // "Nimi", Czech "Jméno", Slovak "Meno".
  { field: 'fullName', re: /\b(name|patient|paciente|paziente|namn|pacient|pacientka|navn|potilas|nama|pasien|naam|nome|nimi|jmeno|meno|member(?: name)?)\b/, needsSeparator: true },
];

interface LabelHit {
  field: Field;
  start: number;
  end: number;
}

/** All labels on a line, left to right, without overlaps. `folded` keeps `text`'s length (accents folded per char). */
function findLabels(folded: string, opts: { fuzzy?: boolean } = {}): LabelHit[] {
  const hits: (LabelHit & { slashOnly: boolean; needsSeparator: boolean })[] = [];
  for (const rule of LABELS) {
    const re = new RegExp(rule.re.source, `${rule.re.flags}g`);
    for (const m of folded.matchAll(re)) {
      const start = m.index;
      const end = start + m[0].length;
      if (hits.some((h) => start < h.end && end > h.start)) continue;
      const after = folded.slice(end, end + 3);
      // A semicolon after a label is a colon OCR misread ("patient; Derek Sanders").
      const hasSeparator = /^\s*[:=;]|^\s{2,}|^\t|^\s*$/.test(after);
      // A slash may join the label to the same label in another language ("Geb. / Né(e) le / Nato/a il").
      const slashOnly = !hasSeparator && /^ ?\//.test(after);
      if (rule.needsSeparator && !hasSeparator && !slashOnly) continue;
      if (rule.startsCell && !/(^|\s{2,}|\t)$/.test(folded.slice(0, start))) continue;
      hits.push({ field: rule.field, start, end, slashOnly, needsSeparator: rule.needsSeparator === true });
    }
  }
  if (opts.fuzzy) hits.push(...garbledLabels(folded, hits).map((h) => ({ ...h, slashOnly: false, needsSeparator: false })));
  hits.sort((a, b) => a.start - b.start);
  return joinSlashedLabels(folded, hits);
}

/** Fields whose labels may stand for one another in a multilingual label ("Name, Vorname / Nom / Nome"). */
const fieldGroup = (f: Field): string => (['fullName', 'lastFirst', 'firstLast', 'lastName', 'firstName'].includes(f) ? 'name' : f);

/** One "/"-joined part of a label: words without digits, colons or a column gap ("Né(e) le", "Co inome, Nome"). */
const SLASH_PART = /^ ?\/ ?((?:[\p{L}().,'-]| (?=[\p{L}(]))+)(?= ?\/|\s{2,}|\t|\s*[:=]|\s*$)/u;

/**
 * A multilingual label prints the same label in several languages joined by "/" ("Geb. / Né(e) le /
 * Nato/a il   09.06.1963"); its value follows the last part. The parts become one label of the first
 * part's field: parts that are labels of the same field (a name label for a name label), and parts that
 * are no label at all (another language, or an OCR-garbled word: "Co inome, Nome", "Nato/a /l"). A part
 * that is a label of another field ends the chain ("Specimen / Collected" stays two labels), and a label
 * that needs a separator and only has a slash after it, not joined to anything, is dropped as before.
 */
function joinSlashedLabels(folded: string, hits: (LabelHit & { slashOnly: boolean; needsSeparator: boolean })[]): LabelHit[] {
  const out: LabelHit[] = [];
  for (let i = 0; i < hits.length; i++) {
    const h = hits[i]!;
    let end = h.end;
    let joined = false;
    for (let parts = 0; parts < 6; parts++) {
      const m = SLASH_PART.exec(folded.slice(end));
      if (!m || m[1]!.length > 32) break;
      const partEnd = end + m[0].length;
      const inside = hits.slice(i + 1).filter((o) => o.start < partEnd);
      if (inside.some((o) => fieldGroup(o.field) !== fieldGroup(h.field) || o.end > partEnd)) break;
      i += inside.length;
      end = partEnd;
      joined = true;
    }
    if (!joined && h.slashOnly && h.needsSeparator) continue;
    out.push({ field: h.field, start: h.start, end });
  }
  return out;
}

/**
 * Labels OCR misread by one letter ("Szület6si dátum:", "Data nagterii:", "Henkilôétunnus", "Patent:"): a
 * cell's leading words of eight letters or more before a colon or a column gap (six or more before a
 * colon), not a label as read, that become one of a label rule's whole labels after one substitution,
 * deletion or insertion of a letter.
 */
function garbledLabels(folded: string, hits: LabelHit[]): LabelHit[] {
  const found: LabelHit[] = [];
  const cell = /(?:^|\s{2,}|\t)([a-z][a-z0-9. ]{4,30}[a-z0-9.])(?=\s*:|\s{2,}|\t)/g;
  for (const m of folded.matchAll(cell)) {
    const word = m[1]!;
    const start = m.index + m[0].length - word.length;
    const end = start + word.length;
    // Eight letters or more; six or seven before a colon ("Patent:" for "Patient:").
    const letters = (word.match(/[a-z]/g) ?? []).length;
    if (letters < (/^\s*:/.test(folded.slice(end)) ? 6 : 8) || hits.some((h) => start < h.end && end > h.start)) continue;
    // A name before a plain number is a result row ("Cholesterol total   3.9"), not a label.
    if (/^\s*[<>]?\d+(?:[.,]\d+)?(?:\s|$)/.test(folded.slice(end).replace(/^\s*:/, ''))) continue;
    const field = garbledLabelField(word);
    if (field) found.push({ field, start, end });
  }
  return found;
}

const garbledSeen = new Map<string, Field | undefined>();

/** The field of the label one edit away from `word`, if any (remembered: reports repeat their words). */
function garbledLabelField(word: string): Field | undefined {
  if (garbledSeen.has(word)) return garbledSeen.get(word);
  const variants = oneEditAway(word);
  const field = WHOLE_LABELS.find((r) => variants.some((v) => r.re.test(v)))?.field;
  if (garbledSeen.size >= 5000) garbledSeen.clear();
  garbledSeen.set(word, field);
  return field;
}

const LETTERS = 'abcdefghijklmnopqrstuvwxyz';

/** The word with one letter substituted, deleted or inserted (lower-case a–z). */
function oneEditAway(word: string): string[] {
  const out: string[] = [];
  for (let i = 0; i <= word.length; i++) {
    if (i < word.length) out.push(word.slice(0, i) + word.slice(i + 1));
    for (const ch of LETTERS) {
      if (i < word.length && word[i] !== ch) out.push(word.slice(0, i) + ch + word.slice(i + 1));
      out.push(word.slice(0, i) + ch + word.slice(i));
    }
  }
  return out;
}

/** The label rules (not 'other'), anchored to match a whole candidate (a closing point allowed). */
const WHOLE_LABELS = LABELS.filter((r) => r.field !== 'other').map((r) => ({ field: r.field, re: new RegExp(`^(?:${r.re.source})[.]?$`, r.re.flags) }));

function valueAfter(text: string, hit: LabelHit, next: LabelHit | undefined): string {
  const raw = text.slice(hit.end, next ? next.start : text.length);
  // "D.O.B.: 18-Apr-2000": the label's closing point and its colon both go.
  const chunks = raw.replace(/^\.?\s*[:;=.#-]?[\s.]*/, '').split(/\s{3,}|\t/);
  // "DOB:   OCT   27,1964": a month's name alone in its cell is a date's first part, its day and year in the next.
  if (isMonthName(chunks[0]?.trim() ?? '') && /^\d{1,2}\b/.test(chunks[1]?.trim() ?? '')) return squash(`${chunks[0]} ${chunks[1]}`);
  return squash(chunks[0] ?? '');
}

/** True when the line carries a metadata label ("DOB:", "Patient:", "Geburtsdatum", "Page"…). */
export function hasMetadataLabel(text: string): boolean {
  return findLabels(foldSameLength(text)).length > 0;
}

/**
 * True when a row's name carries a metadata label. A word such as "Time" or "Status" that closes a name of
 * several words, with no colon after it, is the name's own noun ("Prothrombin Time", "Thrombin Time",
 * "Bleeding Time"), not a label of the report's header, whose labels start their cell.
 */
export function nameHasMetadataLabel(name: string): boolean {
  const folded = foldSameLength(name).trimEnd();
  return findLabels(folded).some((h) => !(h.field === 'other' && h.end === folded.length && /\p{L}{3}/u.test(folded.slice(0, h.start))));
}

export interface MetadataLine {
  text: string;
  page: number;
}

interface Found {
  fullName?: string;
  lastFirst?: string;
  firstLast?: string;
  lastName?: string;
  firstName?: string;
  dob?: string;
  personalNumber?: string;
  birthNumber?: string;
  dmyNumber?: string;
  hetu?: string;
  collected?: string;
  reported?: string;
  specimen?: string;
  lab?: string;
}

/**
 * A specimen/accession identifier: the value's first word with a digit ("TX906141B", "43-0439181"), or
 * digit groups printed with single spaces ("95 47285 72"). "Specimen: Serum" holds none.
 */
function specimenId(value: string): string | undefined {
  if (/^\d+(?: \d+)+$/.test(value)) return value;
  const id = value.split(/\s/)[0]?.replace(/[,;]$/, '') ?? '';
  return /\d/.test(id) && id.length >= 3 ? id : undefined;
}

function record(found: Found, field: Field, value: string): void {
  // "Date of Birth / Date de naissance: 1961-05-07": a label's value that is only punctuation is the
  // joint to a second label (a bilingual pair), not a value.
  if (field === 'other' || !/[\p{L}\d]/u.test(value)) return;
  if (field === 'specimen') {
    const id = specimenId(value);
    if (id !== undefined && found.specimen === undefined) found.specimen = id;
    return;
  }
  if (found[field] === undefined) found[field] = value;
}

/** Labels alone on a line ("Patient Name   DOB   Collected") with their values on the next line. */
function readLabelRow(labels: LabelHit[], text: string, next: string | undefined, found: Found): boolean {
  if (!next || labels.length < 2) return false;
  const leftover = labels.reduce((rest, l) => rest.replace(text.slice(l.start, l.end), ''), text);
  if (/[a-z0-9]/i.test(leftover.replace(/[:#.]/g, ''))) return false;
  const values = next.split(/\s{2,}|\t/).map(squash).filter((v) => v !== '');
  if (values.length !== labels.length) return false;
  labels.forEach((l, i) => record(found, l.field, values[i]!));
  return true;
}

function collectFields(lines: MetadataLine[]): Found {
  const found: Found = {};
  lines.forEach((line, i) => {
    const folded = foldSameLength(line.text);
    const labels = findLabels(folded, { fuzzy: true });
    if (labels.length === 0) return;
    if (readLabelRow(labels, line.text, lines[i + 1]?.text, found)) return;
    labels.forEach((l, k) => {
      // A label followed by several identifier cells is a row of a cumulative table ("Lab No  2601394
      // 4971427  0439181", one per dated column): which is this report's cannot be told.
      const after = line.text.slice(l.end, labels[k + 1]?.start).replace(/^\s*[:;=.#-]?\s*/, '');
      if (l.field === 'specimen' && cellsOf(after).filter((c) => /^[\w./-]*\d[\w./-]*$/.test(c)).length > 1) return;
      record(found, l.field, valueAfter(line.text, l, labels[k + 1]));
    });
  });
  return found;
}

/** Courtesy titles and honorifics: printed around a patient's name, never part of it. */
// "Tn." / "Ny." / "Nn." / "Sdr." (Indonesian, Malay: Tuan, Nyonya, Nona, Saudara); "Hr." / "Fru" (Danish, Norwegian).
// "Dhr." / "Mevr." / "Mw." (Dutch), "Sr." / "Sra." / "Srta." (Spanish, Portuguese), "Sig." / "Sig.ra" (Italian).
const TITLE_WORD = /^(mr|mrs|ms|mx|miss|dr|prof|herr|frau|mme|mlle|monsieur|madame|tn|ny|nn|sdr|sdri|hr|fru|dhr|mevr|mw|sra|srta|sig|sig\.ra|sigra)\.?$/i;
/** Generational suffixes ("SMITH, JOHN JR"): not a given name. */
const SUFFIX_WORD = /^(jr|sr|ii|iii|iv)\.?$/i;
/** A Russian or Ukrainian patronymic ("Петрович", "Сергеевна", "Ильинична", "Іванівна"). */
const PATRONYMIC = /^\p{Lu}\p{Ll}+(?:ович|евич|ьевич|ич|овна|евна|ьевна|ична|инична|івна|ївна)$/u;
/**
 * Particles that belong to the family name ("Anna van der Berg", "Marie de la Tour", "NOURA AL ZAHRANI", "Omar bin
 * Rashid"), in either case.
 */
const PARTICLE = /^(van|von|der|den|de|del|della|di|da|du|des|le|la|ten|ter|zu|dos|das|al|el|bin|bint|ibn|abu)$/i;
const isInitial = (w: string): boolean => /^\p{L}\.?$/u.test(w);
const isUpperWord = (w: string): boolean => /\p{Lu}{2,}/u.test(w) && w === w.toUpperCase();

/**
 * Words of a name without titles and suffixes, wherever they stand ("THOMAS, William Mr", "Dr. med.").
 * A leading "M" is the French "Monsieur" ("M. GIRARD Louis"), elsewhere it would be an initial.
 */
function nameWords(part: string): string[] {
  // A word without a letter ("-", "·", a speck OCR read beside the name) is no part of it.
  const words = squash(part).split(' ').filter((w) => /\p{L}/u.test(w));
  return words.filter((w, i) => {
    if (TITLE_WORD.test(w) || SUFFIX_WORD.test(w)) return false;
    if (i === 0 && (/^m\.$/i.test(w) || (/^m$/i.test(w) && words.length > 2))) return false;
    if (/^med\.?$/i.test(w) && /^dr\.?$/i.test(words[i - 1] ?? '')) return false;
    return true;
  });
}

/** Given names without middle initials ("John A." → "John"), unless the initial is all there is. */
function givenNames(words: string[]): string {
  const kept = words.filter((w, i) => i === 0 || !isInitial(w));
  return kept.join(' ');
}

/**
 * A birth name after the name ("Weber geb. Schmidt", "DUPONT née MARTIN") is not the family name in use.
 * A title before the name with a comma after it ("Mrs, Layla Mansour", "Mevr, de Jong, Lotte": OCR reads
 * the title's point as a comma) is no family name either: the title and its comma go.
 */
function withoutBirthName(name: string): string {
  const noTitle = name.replace(/^\s*([\p{L}.]+),\s*/u, (all, w: string) => (TITLE_WORD.test(w) ? '' : all));
  return noTitle.replace(/\s+(?:geb\.|geborene|n[ée]e|born)\s+[^\s,]+/giu, '');
}

/**
 * "DOE, JOHN A" → JOHN/DOE; "THOMAS, William Mr" → William/THOMAS; "John Doe" → John/Doe;
 * "MUSTERMANN Max" → Max/MUSTERMANN; "Anna van der Berg" → Anna/van der Berg. Titles are dropped.
 */
export function splitPersonName(raw: string): { first: string; last: string } {
  const name = squash(withoutBirthName(raw).replace(/\s*\(.*?\)\s*/g, ' ').replace(/[;|].*$/, ''));
  if (name.includes(',')) {
    const [lastPart, firstPart] = name.split(',', 2);
    const last = nameWords(lastPart ?? '').join(' ');
    if (last === '') return { first: '', last: '' };
    return { first: givenNames(nameWords(firstPart ?? '')), last };
  }
  const all = nameWords(name);
  const words = all.length > 2 ? all.filter((w, i) => i === 0 || i === all.length - 1 || !isInitial(w)) : all;
  if (words.length === 0) return { first: '', last: '' };
  if (words.length === 1) return { first: '', last: words[0]! };
  // Family name in capitals, before ("DE LA TOUR Marie") or after ("Marie DE LA TOUR") the given names.
  const upper = words.map(isUpperWord);
  if (upper.some((u) => !u)) {
    const lead = upper.indexOf(false);
    if (isUpperWord(words[0]!)) return { first: words.slice(lead).join(' '), last: words.slice(0, lead).join(' ') };
    const tail = upper.lastIndexOf(false) + 1;
    if (tail < words.length && isUpperWord(words[words.length - 1]!)) return { first: words.slice(0, tail).join(' '), last: words.slice(tail).join(' ') };
  }
  // No cue on the page: the given-name list decides which end is the family name, when it can (person-names.ts).
  const byList = splitByGivenNames(words);
  if (byList) return byList;
  let cut = words.length - 1;
  while (cut > 1 && PARTICLE.test(words[cut - 1]!)) cut--;
  return { first: words.slice(0, cut).join(' '), last: words.slice(cut).join(' ') };
}

/**
 * A name under a combined label that gives the order ("Name, Vorname: Weber, Matthias" → Matthias/Weber;
 * "Prénom Nom : Jean Dupont" → Jean/Dupont). A comma splits the two in the label's order; without one,
 * a name in capitals marks the family name, else two words follow the label's order. Three or more
 * words with no such cue could split anywhere, so they give no name rather than a wrong one.
 */
export function splitOrderedName(raw: string, order: 'lastFirst' | 'firstLast'): { first: string; last: string } {
  const name = squash(withoutBirthName(raw).replace(/\s*\(.*?\)\s*/g, ' ').replace(/[;|].*$/, ''));
  if (name.includes(',')) {
    const [a, b] = name.split(',', 2).map((part) => nameWords(part ?? ''));
    const [lastWords, firstWords] = order === 'lastFirst' ? [a!, b!] : [b!, a!];
    return { first: givenNames(firstWords), last: lastWords.join(' ') };
  }
  // "Иванова Мария Петровна": a Russian or Ukrainian patronymic closes the name; it is neither given nor family name.
  const words = nameWords(name).filter((w, i, all) => !(i === all.length - 1 && all.length === 3 && PATRONYMIC.test(w)));
  const upper = words.map(isUpperWord);
  if (words.length < 2 || (upper.some((u) => u) && upper.some((u) => !u))) return splitPersonName(words.join(' '));
  if (words.length > 2) {
    // Three or more words: the given-name list may still place the cut, if it reads them in the label's order.
    const byList = splitByGivenNames(words);
    const agrees = byList && (order === 'lastFirst' ? words.join(' ').startsWith(byList.last) : words.join(' ').startsWith(byList.first));
    return agrees ? byList : { first: '', last: '' };
  }
  const [a, b] = words as [string, string];
  return order === 'lastFirst' ? { first: b, last: a } : { first: a, last: b };
}

/** A person name has letters and no digits; anything else is a mis-read label ("Name: see page 2"). */
function plausibleName(s: string | undefined): s is string {
  return s !== undefined && /\p{L}{2,}/u.test(s) && !/\d/.test(s) && s.length <= 60;
}

/**
 * Cells of a line: the column gaps `lineText` keeps as runs of spaces, and fields a portal prints in one
 * run with a middle dot or bar between them ("Karen Brown · DOB: 11/01/1951").
 */
function cellsOf(text: string): string[] {
  return text
    .split(/\s{3,}|\t|\s[·•|]\s/)
    .map(squash)
    .filter((c) => c !== '');
}

/** Credentials and report/lab vocabulary: a cell holding one of these is not a patient's name. */
const NOT_NAME_WORD =
  /^(md|do|np|pa|pa-c|rn|phd|mls|mt|ascp|dds|mbbs|frcpath|docteur|doktor|report|results?|patient|details|information|specimen|sample|client|physician|ordering|account|comments?|page|final|lab|labs|laboratory|laboratories|labor|laboratoire|panel|tests?|urinalysis|chemistry|hematology|haematology|complete|serum|plasma|blood|urine|hospital|clinic|medical|center|centre|diagnostics|pathology|health|care|department|services?)$/i;
/** Patient titles that may lead an unlabelled name ("Mme MARTIN Élodie", "Herr Max Mustermann"). */
const PATIENT_TITLE = /^(mr|mrs|ms|mx|miss|mme|mlle|m\.|madame|monsieur|herr|frau)\.?\s+(?!(?:dr|prof|docteur|doktor)\b)/i;

/**
 * The name a cell holds when it has a person name's shape: 2–5 capitalised words (lower-case
 * particles allowed) or "SURNAME, Given", no digits, no credentials or report words. Else undefined.
 */
function nameShape(cell: string): string | undefined {
  const text = squash(cell.replace(/\s+-\s+.*$/, ''));
  if (text.length > 50 || /[\d:@/]/.test(text) || (text.match(/,/g)?.length ?? 0) > 1) return undefined;
  const words = text.replace(',', ' ').split(' ').filter((w) => w !== '');
  if (words.length < 2 || words.length > 5) return undefined;
  const wordOk = (w: string): boolean => (/^\p{Lu}[\p{L}'’.-]*$/u.test(w) || PARTICLE.test(w)) && !NOT_NAME_WORD.test(w.replace(/[.,]/g, ''));
  if (!words.every(wordOk)) return undefined;
  const named = nameWords(text.replace(',', ' '));
  if (named.filter((w) => !isInitial(w)).length < 2) return undefined;
  return text;
}

/** "Mme MARTIN Élodie" / "M. GIRARD Louis - Dossier n° 24…": a cell led by a patient title. */
function titledName(cell: string): string | undefined {
  if (!PATIENT_TITLE.test(cell)) return undefined;
  return nameShape(cell);
}

/** True when `cell` starts with a label of `field` ("DOB: 12/19/2001" for 'dob'). */
function startsWithLabel(cell: string | undefined, field: Field): boolean {
  if (cell === undefined) return false;
  const first = findLabels(foldSameLength(cell))[0];
  return first !== undefined && first.start === 0 && first.field === field;
}

/**
 * An unlabelled name in the patient block, as the first cell of its line: under a "Patient …"
 * heading, beside or above a DOB field, or a "SURNAME, Given" banner repeated on the page/report.
 */
function leadCellName(lines: MetadataLine[], i: number, cellLists: string[][]): string | undefined {
  const cells = cellLists[i]!;
  const cell = cells[0];
  if (cell === undefined || findLabels(foldSameLength(cell)).length > 0) return undefined;
  const name = nameShape(cell);
  if (name === undefined) return undefined;
  const underPatientHeading = /^patient(?:e|in)?\b/.test(foldText(cellLists[i - 1]?.[0] ?? '')) && lines[i - 1]?.page === lines[i]!.page;
  const besideDob = startsWithLabel(cells[1], 'dob') || (startsWithLabel(cellLists[i + 1]?.[0], 'dob') && lines[i + 1]?.page === lines[i]!.page);
  const commaBanner = /^[^,]+,/.test(name) && isUpperWord(name.split(',')[0]!.replace(/[\s'’-]/g, ''));
  const repeated = commaBanner && cellLists.some((other, k) => k !== i && other[0] === cell);
  return underPatientHeading || besideDob || repeated ? name : undefined;
}

/** A patient name printed without a label: a titled name anywhere, else a name-shaped lead cell. */
function bannerName(lines: MetadataLine[]): string | undefined {
  const cellLists = lines.map((l) => cellsOf(l.text));
  for (const cells of cellLists) {
    for (const cell of cells) {
      const name = titledName(cell);
      if (name) return name;
    }
  }
  for (let i = 0; i < lines.length; i++) {
    const name = leadCellName(lines, i, cellLists);
    if (name) return name;
  }
  return undefined;
}

/** Words naming a laboratory or the institution it belongs to (tested on folded text). */
const LAB_WORDS =
  /\b(pharmac\w*|lab\w*|\w*labs?|laborator\w*|bio(?:log|lab|med|scien|group|path)\w*|diagnost\w*|patholog\w*|toxicolog\w*|hospital\w*|hopital\w*|krankenhaus|hastane\w*|nemocnic\w*|\w*klinik\w*|klinisk\w*|clinic\w*|\w*sjukhus\w*|\w*sykehus\w*|\w*ziekenhuis|ospedal\w*|szpital\w*|korhaz\w*|\w*spital\w*|\w*sairaala\w*|rumah sakit|benh vien|\w*bolnic\w*|bolnisnic\w*|kbc|clinical|medical|medizin\w*|health\w*|sciences?|institut\w*|\w*praxis|centre|center|zentrum|mvz|lbm|quest|eurofins|cerba\w*|sonic|limbach|amedes|inovie|unilabs|synlab)\b/;
/** The same in Cyrillic and Greek (no \b there): laboratory, clinic, hospital, medical, diagnostic centre; a name ending in "лаб". */
const OTHER_SCRIPT_LAB_WORDS = /(?<!\p{L})(лаборатор|клиник|клінік|больниц|лікарн|медицинск|медичн|диагност|діагност|εργαστηρ|διαγνωστ|νοσοκομει|κλινικ|ιατρικ|μικροβιολογ|βιοπαθολογ)|лаб(?!\p{L})/u;
/** A laboratory's or institution's word, in Latin, Cyrillic or Greek script (`folded`: foldText's). */
const hasLabWord = (folded: string): boolean => LAB_WORDS.test(folded) || OTHER_SCRIPT_LAB_WORDS.test(folded);
/** Descriptor words: a line made only of these ("LABORATOIRE DE BIOLOGIE MÉDICALE") names no lab. */
const GENERIC_WORD =
  /^(laboratoire|laboratoires|laboratory|laboratories|lab|labs|labor|laboratoriumsmedizin|de|des|du|d|la|le|l|et|biologie|medicale|medicales|analyses|department|departement|dept|division|services?|section|unit|of|and|the|for|fur|und|pathology|medicine|medizin|clinical|biochemistry|chemistry|haematology|hematology|microbiology|immunology|blood|sciences?|facharzte|facharzt|arzte|klinische|chemie|patient|portal|test|tests)$/;
/**
 * Words of a document title or page furniture: a line holding one is not a letterhead name. A title
 * names the document, never the lab, also as a German compound ("Laborbefund", "Befundbericht",
 * "Laborbericht", "Endbefund").
 */
const TITLE_WORDS =
  /\b(report|reports|results?|resultats?|\w*befund\w*|\w*bericht|compte rendu|portal|cumulative|confidential|page|seite|urinalysis|requisition|summary|svar|laboratoriesvar|provsvar|sprawozdanie|wyniki?|vysledky|raporu?|viewer)\b/;

/** Titles in Cyrillic and Greek: results, analyses, examinations, form. */
const OTHER_SCRIPT_TITLE_WORDS = /(?<!\p{L})(результат|анализ|исследован|бланк|аналіз|αποτελεσματ|εξετασ)/u;

/**
 * Whether `text` reads as an organisation's name: short, capitalised words (connectors allowed),
 * no digits runs, no colon, not just descriptor words, not a report title.
 */
function orgNameShape(text: string, sentenceCase = false): boolean {
  if (text.length < 3 || text.length > 70 || /:|\d{3,}|@/.test(text)) return false;
  const words = text.split(' ');
  // Up to nine words: a hospital and its laboratory in one name ("İzmir Bozyaka Eğitim ve Araştırma Hastanesi Merkez Laboratuvarı").
  if (words.length > 9) return false;
  const folded = foldText(text);
  if (TITLE_WORDS.test(folded) || OTHER_SCRIPT_TITLE_WORDS.test(folded)) return false;
  const foldedWords = folded.split(/[\s'’&-]+/).filter((w) => w !== '');
  if (foldedWords.every((w) => GENERIC_WORD.test(w.replace(/[.,]/g, '')))) return false;
  // (a dash between a department and its hospital: "Blood Sciences – Immunoassay, North Downs University Hospital")
  const connector = /^(de|des|du|d['’].*|l['’].*|la|le|of|and|the|for|für|und|et|am|an|im|z|o\.o\.|ve|a|i|y|e|di|del|della|da|do|van|von|der|[–—])$/u;
  // Sentence case ("Ústav laboratorní medicíny, Fakultní nemocnice Ostrava", as Czech, Polish and other
  // institutions write their names): each comma-separated part begins with a capital.
  if (sentenceCase) return text.split(/,\s*/).every((part) => /^[\p{Lu}]/u.test(part));
  // (an organisation's name in guillemets or quotes: "ООО «МедЛаб Экспресс»", "Εργαστήριο «Ιπποκράτης»")
  return words.every((w) => /^[«"„“]?[\p{Lu}\d&'’(-]/u.test(w) || connector.test(w));
}

/** A doctor's or professor's title leading a cell: a person, not an organisation. */
const PERSON_TITLE = /^(dr|prof|docteur|doktor|dra)\.?\s/i;

/**
 * An analyser's model printed before the unit that runs it ("ABL90 FLEX PLUS Critical Care Unit, …"): words in
 * capitals, one of them a model code (letters and digits in one word), before a mixed-case name.
 */
function withoutDeviceModel(text: string): string {
  const m = /^(?:[\p{Lu}\d-]+\s+)+(?=\p{Lu}\p{Ll})/u.exec(text);
  return m && m[0].split(/\s+/).some((w) => /\p{Lu}/u.test(w) && /\d/.test(w)) ? text.slice(m[0].length) : text;
}

/** Looks like a person with credentials ("T. Nakamura, MLS(ASCP)", "Emily Chen, DO"): not a lab. */
function looksLikePerson(text: string): boolean {
  return /,\s*(md|do|np|pa|rn|phd|mls|mt|dds)\b|\b(ascp)\b|^\p{Lu}\.\s/iu.test(text);
}

/** A labelled lab value, cut before an address or a "·"-separated tail ("Quest, 123 Main St"). */
function cleanLabValue(value: string): string {
  // A station or site number in brackets after the name ("VA PUGET SOUND HEALTH CARE SYSTEM [663]") is not part of it.
  return squash(value.split(/\s+[·|•]\s+|,\s*(?=\d)/)[0] ?? '').replace(/\s*[[(]\s*[A-Z]{0,3}\d[\dA-Z-]*\s*[\])]$/, '');
}

/**
 * Where `name` is printed again elsewhere (a footer "Northgate Blood Sciences" for a letterhead
 * "NORTHGATE BLOOD SCIENCES"), that printing — mixed case where the letterhead is capitals.
 */
function printedElsewhere(name: string, lines: MetadataLine[], skip: MetadataLine): string | undefined {
  const target = foldText(name);
  let found: string | undefined;
  for (const l of lines) {
    if (l === skip) continue;
    const folded = foldSameLength(squash(l.text));
    const at = folded.search(new RegExp(String.raw`(?<![\p{L}\d])${escapeRe(target)}(?![\p{L}\d])`, 'u'));
    if (at < 0) continue;
    const printed = squash(l.text).slice(at, at + target.length);
    if (found === undefined || (found === found.toUpperCase() && printed !== printed.toUpperCase())) found = printed;
  }
  return found;
}

function escapeRe(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/**
 * The letterhead: the first name-shaped lines on page 1, above the first labelled field. A line
 * counts when it names a lab/institution, or (cells joined, as a style split "NORTHGATE | BLOOD
 * SCIENCES") when the same name is printed again elsewhere; the mixed-case printing is preferred.
 */
function letterhead(lines: MetadataLine[]): string {
  const page1 = lines.filter((l) => l.page === lines[0]?.page).slice(0, 6);
  let labelled = 0;
  for (const line of page1) {
    // The labelled fields begin (a consumer report may print one, "Member: …", above its letterhead).
    if (findLabels(foldSameLength(line.text))[0]?.start === 0) {
      if (++labelled >= 2) break;
      continue;
    }
    const cells = cellsOf(line.text);
    const options = [...new Set([cells.join(' '), cells[0] ?? ''])].filter((o) => orgNameShape(o));
    for (const option of options) {
      const again = option.includes(' ') ? printedElsewhere(option, lines, line) : undefined;
      if (again) return again;
    }
    // A name the print spaced out into cells ("ST. BRENDAN'S REGIONAL   MEDICAL   CENTER   LABORATORY",
    // "Coastal   Pathology Network — Cumulative Report"): the first cell or two of them are lone words, and
    // the cells joined (then cut at a dash before a title) make the name. (One lone word after a name is a
    // department beside it: "Universitätsklinikum Freiburg   Zentrallabor".)
    const lone = cells.map((c) => /^[\p{L}.'’&]+$/u.test(c));
    // Capitals after a mixed-case name may be a title beside it ("St.   Vincent   Regional Medical Center
    // Laboratory   FINAL   REPORT"): then the cells up to the last mixed-case one are tried too.
    if (cells.length > 1 && (lone[0] || lone.filter(Boolean).length >= 2) && !cells.some((c) => looksLikePerson(c) || PERSON_TITLE.test(c))) {
      const lastMixed = cells.findLastIndex((c) => /\p{Ll}/u.test(c));
      for (const k of new Set([cells.length, lastMixed + 1].filter((n) => n >= 2))) {
        for (const joined of cells.slice(0, k).join(' ').split(/\s+[—–|·-]\s+/)) {
          const name = withoutDeviceModel(joined);
          if (orgNameShape(name) && hasLabWord(foldText(name))) return name;
        }
      }
    }
    // Left to right, so a document title at the left ("Laborbefund   Medizinisches Labor Rhein-Main")
    // does not hide the lab's name beside it.
    // A cell may join the lab's name and the document's title: "Harborview Clinical Labs — Cumulative Results".
    // Or a hyphen with spaces around it: "Summit Valley Medical Laboratories - Interface Engine Message Viewer".
    const parts = cells.flatMap((c) => [c, ...c.split(/\s+[—–|·-]\s+/)]).map(withoutDeviceModel);
    for (const cell of parts) {
      if (orgNameShape(cell) && hasLabWord(foldText(cell)) && !looksLikePerson(cell)) return cell;
    }
    // A name in sentence case counts when its words name an institution: a letterhead, not a sentence.
    for (const cell of parts) {
      if (orgNameShape(cell, true) && hasLabWord(foldText(cell)) && cell.split(' ').length >= 3 && !/[.!?]$/.test(cell) && !looksLikePerson(cell)) return cell;
    }
  }
  return '';
}

/** A footer naming the lab ("Summit Pathology Associates · CLIA 83D…"): the last lines of each page. */
function footerLab(lines: MetadataLine[]): string {
  const pages = [...new Set(lines.map((l) => l.page))];
  for (const page of pages) {
    const last = lines.filter((l) => l.page === page).slice(-3);
    for (const l of last) {
      const head = cleanLabValue(cellsOf(l.text)[0] ?? '');
      if (orgNameShape(head) && hasLabWord(foldText(head)) && !looksLikePerson(head)) return head;
    }
  }
  return '';
}

/** Words only a laboratory's name holds (a clinic or a practice is not one): tested on folded text. */
const STRONG_LAB_WORDS = /\b(lab|labs|laborator\w*|\w*laboratorium|patholog\w*|diagnostics?|blood sciences|biolog\w*|quest|labcorp)\b/;
/** Capitalised words, with the connectors of an organisation's name between them. */
const ORG_RUN = String.raw`\p{Lu}[\p{L}'’.&-]*(?:\s+(?:\p{Lu}[\p{L}'’.&-]*|of|and|the|for|de|du|des|la|le|di|del))*`;
/**
 * A laboratory named in running text, as letters and visit notes name the lab that did the tests below a
 * practice's letterhead: "The tests were carried out by Riverside Pathology Laboratory, which …",
 * "LABS (Quest Diagnostics, collected 03/12/2024):".
 */
const LAB_MENTION = [
  new RegExp(String.raw`\b(?:carried out|performed|analy[sz]ed|processed|tested|measured)\s+(?:by|at)\s+(?:the\s+)?(${ORG_RUN})`, 'u'),
  new RegExp(String.raw`\blabs?\s*\((${ORG_RUN})\s*[,)]`, 'iu'),
];

function mentionedLab(lines: MetadataLine[]): string {
  for (const l of lines) {
    const text = squash(l.text);
    for (const re of LAB_MENTION) {
      const name = re.exec(text)?.[1]?.replace(/[.,]$/, '');
      if (name && orgNameShape(name) && STRONG_LAB_WORDS.test(foldText(name)) && !looksLikePerson(name)) return name;
    }
  }
  return '';
}

/** The lab's name: a labelled field ("Performed by: X"), else one named in the text, else the letterhead, else a footer. */
function labName(found: Found, lines: MetadataLine[]): string {
  const labelled = found.lab ? cleanLabValue(found.lab) : '';
  if (/\p{L}{3,}/u.test(labelled) && !looksLikePerson(labelled)) return labelled;
  return mentionedLab(lines) || letterhead(lines) || footerLab(lines);
}

/** A birth date after the report's own dates is a mis-read (a day/month swap or another date). */
function plausibleDob(dob: string, others: string[]): string {
  return others.some((d) => d !== '' && dob > d) ? '' : dob;
}

/**
 * The birth date a Czech or Slovak birth number ("rodné číslo") begins with: YYMMDD, the month plus 50
 * for women (plus 20 or 70 when a day's numbers ran out, since 2004), then "/" and three digits (born
 * before 1954) or four (the century is the one that makes the date not lie in the future). '' when the
 * number is not one.
 */
export function dobOfBirthNumber(value: string | undefined, currentYear = new Date().getUTCFullYear()): string {
  const m = /^(\d{2})(\d{2})(\d{2})\s?\/?\s?(\d{3,4})\b/.exec(value?.trim() ?? '');
  if (!m) return '';
  const yy = Number(m[1]);
  let mo = Number(m[2]);
  const d = Number(m[3]);
  mo = mo > 70 ? mo - 70 : mo > 50 ? mo - 50 : mo > 20 ? mo - 20 : mo;
  const y = m[4]!.length === 3 ? 1900 + yy : 2000 + yy > currentYear ? 1900 + yy : 2000 + yy;
  const date = new Date(Date.UTC(y, mo - 1, d));
  if (date.getUTCFullYear() !== y || date.getUTCMonth() !== mo - 1 || date.getUTCDate() !== d) return '';
  return `${y}-${String(mo).padStart(2, '0')}-${String(d).padStart(2, '0')}`;
}

/**
 * The birth date a Swedish personal identity number begins with: "19650412-1234" (YYYYMMDD), or
 * "650412-1234" (YYMMDD; the century that puts the birth in the past, "+" for a hundred years more).
 * '' when the number is not one or its date is not a real date.
 */
export function dobOfPersonalNumber(value: string | undefined, currentYear = new Date().getUTCFullYear()): string {
  const m = /^(\d{8}|\d{6})([-+]?)\d{4}\b/.exec(value?.trim() ?? '');
  if (!m) return '';
  const digits = m[1]!;
  const yearLength = digits.length - 4;
  let y = Number(digits.slice(0, yearLength));
  const mo = Number(digits.slice(yearLength, yearLength + 2));
  const d = Number(digits.slice(yearLength + 2));
  if (digits.length === 6) {
    y += y <= currentYear % 100 ? currentYear - (currentYear % 100) : currentYear - (currentYear % 100) - 100;
    if (m[2] === '+') y -= 100;
  }
  const date = new Date(Date.UTC(y, mo - 1, d));
  if (date.getUTCFullYear() !== y || date.getUTCMonth() !== mo - 1 || date.getUTCDate() !== d) return '';
  return `${y}-${String(mo).padStart(2, '0')}-${String(d).padStart(2, '0')}`;
}

/**
 * The birth date a Danish CPR number, a Norwegian fødselsnummer or a Finnish henkilötunnus begins with,
 * day first (DDMMYY). The century: Finnish, from the sign after the date ("+" 1800s, "-" or U-Y 1900s, A-F
 * 2000s); Danish (DDMMYY-NNNN), from the seventh digit with the year; Norwegian (eleven digits), from the
 * individual number. '' when the value is none of these or its date is not a real date.
 */
export function dobOfDmyNumber(value: string | undefined, finnish = false): string {
  const v = value?.trim() ?? '';
  let y: number | undefined;
  // "050583-123A" is a henkilötunnus only under its label: "150305-4123" could be either, and a CPR number is read otherwise.
  const fi = finnish ? /^(\d{2})(\d{2})(\d{2})([-+A-FU-Y])\d{3}[0-9A-Y]\b/.exec(v) : null;
  const dk = finnish ? null : /^(\d{2})(\d{2})(\d{2})-?(\d)\d{3}\b/.exec(v);
  const no = finnish ? null : /^(\d{2})(\d{2})(\d{2}) ?(\d{3})\d{2}\b/.exec(v);
  const m = fi ?? dk ?? no;
  if (!m) return '';
  const yy = Number(m[3]);
  if (fi) y = (fi[4] === '+' ? 1800 : /[A-F]/.test(fi[4]!) ? 2000 : 1900) + yy;
  else if (dk && dk[0].length <= 11) {
    const c = Number(dk[4]);
    y = c <= 3 ? 1900 + yy : c === 4 || c === 9 ? (yy <= 36 ? 2000 : 1900) + yy : (yy <= 57 ? 2000 : 1800) + yy;
  } else if (no) {
    const ind = Number(no[4]);
    y = ind < 500 ? 1900 + yy : ind < 750 && yy >= 54 ? 1800 + yy : yy <= 39 ? 2000 + yy : ind >= 900 ? 1900 + yy : undefined;
  }
  const d = Number(m[1]);
  const mo = Number(m[2]);
  if (y === undefined) return '';
  const date = new Date(Date.UTC(y, mo - 1, d));
  if (date.getUTCFullYear() !== y || date.getUTCMonth() !== mo - 1 || date.getUTCDate() !== d) return '';
  return `${y}-${String(mo).padStart(2, '0')}-${String(d).padStart(2, '0')}`;
}

export interface MetadataOptions {
  dateOrder?: DateOrder;
  currentYear?: number;
}

/**
 * A name written in a sentence just before its birth date, as certificates and letters write it ("a blood
 * sample from George Bennett, date of birth 11 September 1968", "Re: Ann Lee, born 3 May 1950"): two to four
 * capitalised words after a lower-case word (or at the line's start), then ", date of birth" / "born" / "DOB".
 */
const NAME_BEFORE_BIRTH = /(?:^|(?<=[\p{Ll}:;,]\s))((?:\p{Lu}[\p{Ll}'’-]+\s){1,3}\p{Lu}[\p{L}'’-]+),?\s+(?:[Dd]ate of birth|[Bb]orn(?: on)?|D\.?O\.?B\.?|d\.o\.b\.)(?![\p{L}])/u;
function nameBeforeBirthDate(lines: MetadataLine[]): string | undefined {
  for (const l of lines) {
    const m = NAME_BEFORE_BIRTH.exec(squash(l.text));
    if (m && !TITLE_WORD.test(m[1]!.split(' ')[0]!)) return m[1];
  }
  return undefined;
}

/** First and last name from labelled fields, else from a sentence naming the patient, else from an unlabelled banner; blanks, never spaces. */
function patientName(found: Found, lines: MetadataLine[]): { first: string; last: string } {
  let first = plausibleName(found.firstName) ? squash(found.firstName) : '';
  let last = plausibleName(found.lastName) ? squash(found.lastName) : '';
  for (const order of ['lastFirst', 'firstLast'] as const) {
    const value = found[order]?.replace(/[,;]?\s*\d.*$/, '');
    if ((first === '' || last === '') && plausibleName(value)) {
      const split = splitOrderedName(value, order);
      first = first || split.first;
      last = last || split.last;
    }
  }
  const fullName = found.fullName?.replace(/[,;]?\s*\d.*$/, '');
  if ((first === '' || last === '') && plausibleName(fullName)) {
    const split = splitPersonName(fullName);
    first = first || split.first;
    last = last || split.last;
  }
  if (first === '' && last === '') {
    const named = nameBeforeBirthDate(lines);
    if (named) ({ first, last } = splitPersonName(named));
  }
  if (first === '' && last === '') {
    const banner = bannerName(lines);
    if (banner) ({ first, last } = splitPersonName(banner));
  }
  return { first: plausibleName(first) ? fromTurkishCapitals(first) : '', last: plausibleName(last) ? fromTurkishCapitals(last) : '' };
}

/**
 * A name word in capitals with a dotted capital İ is Turkish ("DEMİR", "ÇELİK"): it is written in Turkish
 * case ("Demir", "Çelik"), since lower-casing it any other way leaves a stray dot ("demi̇r") that matches
 * the name nowhere else. Other words are kept as printed.
 */
function fromTurkishCapitals(name: string): string {
  return name
    .split(' ')
    .map((w) => (w.includes('İ') && w === w.toLocaleUpperCase('tr') ? w[0] + w.slice(1).toLocaleLowerCase('tr') : w))
    .join(' ');
}

export function extractMetadata(lines: MetadataLine[], opts: MetadataOptions = {}): ReportMetadata {
  const found = collectFields(lines);
  const { first, last } = patientName(found, lines);
  const dateOpts = { order: opts.dateOrder, currentYear: opts.currentYear };
  const collected = found.collected ? parseDate(found.collected, dateOpts) : '';
  const reported = found.reported ? parseDate(found.reported, dateOpts) : '';
  const dob = found.dob
    ? parseDate(found.dob, { ...dateOpts, isBirthDate: true })
    : dobOfPersonalNumber(found.personalNumber, opts.currentYear) || dobOfBirthNumber(found.birthNumber, opts.currentYear) || dobOfDmyNumber(found.dmyNumber) || dobOfDmyNumber(found.hetu, true);
  const meta: ReportMetadata = {
    patient_first_name: first,
    patient_last_name: last,
    dob: plausibleDob(dob, [collected, reported]),
    lab_name: labName(found, lines),
  };
  if (collected) meta.date_collected = collected;
  if (reported) meta.date_reported = reported;
  if (found.specimen) meta.specimen_number = found.specimen;
  return meta;
}

/** A label of the patient's sex ("Sex", "Gender", "Age/Sex", "Geschlecht", "Sexe", "Пол", "Φύλο", …), tested folded. */
const SEX_FIELD = /(?<![\p{L}])(?:age ?\/ ?(?:sex|gender)|(?:sex|gender) ?\/ ?age|sex|gender|geschlecht|sexe|sexo|sesso|plec|kon|kjonn|cinsiyet|jenis kelamin|пол|стать|φυλο)(?![\p{L}])\s*[:=]?\s*([^\s].{0,24})/gu;
const MALE_WORD = /^(m|male|man|masculin[oe]?|mannlich|maennlich|homme|hombre|erkek|laki-laki|муж(?:ской|скои|\.)?|м|αρρεν|ανδρασ)$/;
const FEMALE_WORD = /^(f|w|female|woman|feminin[oe]?|weiblich|femme|mujer|kadin|perempuan|жен(?:ский|скии|\.)?|ж|θηλυ|γυναικα)$/;

/**
 * The patient's sex as the report states it under a sex label ("Sex: Female", "Age/Sex: 54 Y / M", "Пол:
 * Мужской", "ΦΥΛΟ: Άρρεν"); undefined when no label says it or two say different things.
 */
export function patientSex(lines: MetadataLine[]): 'M' | 'F' | undefined {
  const said = new Set<'M' | 'F'>();
  for (const l of lines) {
    const folded = foldSameLength(l.text).replace(/ς/g, 'σ');
    for (const m of folded.matchAll(SEX_FIELD)) {
      // "54 Y / M": the age before the sex is skipped; the first word that names a sex counts.
      const word = m[1]!.split(/[\s/,;()]+/).find((w) => MALE_WORD.test(w) || FEMALE_WORD.test(w));
      if (word) said.add(MALE_WORD.test(word) ? 'M' : 'F');
    }
  }
  return said.size === 1 ? [...said][0] : undefined;
}
