/**
 * Patient and report metadata from labelled fields: "Name: DOE, JOHN", "Patient: John Doe",
 * "Nachname: … Vorname: …", "Nom : … Prénom : …", DOB / Geburtsdatum / Date de naissance, lab name,
 * collection and report dates, specimen/accession number. Several "label: value" pairs may share a
 * line; a row of labels may also sit above a row of values.
 */
import { type DateOrder, parseDate } from './dates.js';
import { foldSameLength, foldText, squash } from './text.js';
import { type ReportMetadata } from './types.js';

type Field = 'fullName' | 'lastName' | 'firstName' | 'dob' | 'collected' | 'reported' | 'specimen' | 'lab' | 'other';

interface LabelRule {
  field: Field;
  re: RegExp;
  /** Generic labels ("Name", "Patient") count only when followed by ':' or a column gap. */
  needsSeparator?: boolean;
}

// Tested against folded text (lower case, no accents). Longer, more specific labels first.
const LABELS: LabelRule[] = [
  { field: 'dob', re: /\b(date of birth|birth ?date|d\.?o\.?b\.?|geburtsdatum|geb\.?-?datum|geboren am|date de naissance|nee? le|ne\(e\) le|ddn)\b/ },
  { field: 'lastName', re: /\b(last name|surname|family name|nachname|familienname|nom de famille|nom de naissance|nom d'usage)\b/ },
  { field: 'firstName', re: /\b(first name|given names?|forename|vorname|prenoms?)\b/ },
  { field: 'fullName', re: /\b(patient(?:'s)? name|name of patient|patient\(?in\)?|nom du patient|nom et prenom|nom, prenom|nom prenom|name, vorname|nachname, vorname)\b/ },
  { field: 'collected', re: /\b(collection date(?: ?\/ ?time)?|date collected|collected(?: on| date)?|date of collection|specimen collected|date drawn|drawn|sample date|sampling date|entnahme(?:datum|zeit)?|abnahme(?:datum)?|probenentnahme|entnommen am|date de prelevement|date du prelevement|preleve le|prelevement(?: le| du)?)\b/ },
  { field: 'reported', re: /\b(report(?:ed)? date|date reported|reported(?: on)?|date of report|final report date|result date|report printed|befunddatum|berichtsdatum|befundet am|befund vom|date du compte rendu|date d'edition|edite le|valide le|date de validation)\b/ },
  { field: 'specimen', re: /\b(specimen (?:id|number|no\.?|#)|accession(?: number| no\.?| #|#)?|acc\.? ?#|sample (?:id|number|no\.?)|lab (?:no\.?|number|id|#)|requisition(?: number| no\.?| #)?|order (?:number|no\.?|#)|auftragsnummer|auftrags-?nr\.?|proben-?nr\.?|probennummer|labornummer|labor-?nr\.?|tagesnummer|n[°o] (?:de )?dossier|numero de dossier|dossier n[°o]|n[°o] d'echantillon|numero d'echantillon|n[°o] de demande|numero de demande|id echantillon)/ },
  { field: 'lab', re: /\b(performing lab(?:oratory)?|laboratory name|lab name|laboratory|performed at|testing site|laboratoire|labor)\b/, needsSeparator: true },
  { field: 'other', re: /\b(received|eingang(?:sdatum)?|date de reception|sex|gender|geschlecht|sexe|age|alter|ordering (?:physician|provider)|physician|doctor|provider|arzt|einsender|medecin|prescripteur|account|phone|tel\.?|telephone|telefon|fax|address|adresse|anschrift|mrn|patient id|insurance|page|seite|status|time|zeit|heure)\b/, needsSeparator: true },
  { field: 'lastName', re: /\b(nom)\b/, needsSeparator: true },
  { field: 'fullName', re: /\b(name|patient)\b/, needsSeparator: true },
];

interface LabelHit {
  field: Field;
  start: number;
  end: number;
}

/** All labels on a line, left to right, without overlaps. `folded` keeps `text`'s length (accents folded per char). */
function findLabels(folded: string): LabelHit[] {
  const hits: LabelHit[] = [];
  for (const rule of LABELS) {
    const re = new RegExp(rule.re.source, 'g');
    for (const m of folded.matchAll(re)) {
      const start = m.index;
      const end = start + m[0].length;
      if (hits.some((h) => start < h.end && end > h.start)) continue;
      const after = folded.slice(end, end + 3);
      const hasSeparator = /^\s*[:=]|^\s{2,}|^\t|^\s*$/.test(after);
      if (rule.needsSeparator && !hasSeparator) continue;
      hits.push({ field: rule.field, start, end });
    }
  }
  return hits.sort((a, b) => a.start - b.start);
}

function valueAfter(text: string, hit: LabelHit, next: LabelHit | undefined): string {
  const raw = text.slice(hit.end, next ? next.start : text.length);
  return squash(raw.replace(/^\s*[:=.#-]?\s*/, '').split(/\s{3,}|\t/)[0] ?? '');
}

/** True when the line carries a metadata label ("DOB:", "Patient:", "Geburtsdatum", "Page"…). */
export function hasMetadataLabel(text: string): boolean {
  return findLabels(foldSameLength(text)).length > 0;
}

export interface MetadataLine {
  text: string;
  page: number;
}

interface Found {
  fullName?: string;
  lastName?: string;
  firstName?: string;
  dob?: string;
  collected?: string;
  reported?: string;
  specimen?: string;
  lab?: string;
}

function record(found: Found, field: Field, value: string): void {
  if (field === 'other' || value === '') return;
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
    const labels = findLabels(folded);
    if (labels.length === 0) return;
    if (readLabelRow(labels, line.text, lines[i + 1]?.text, found)) return;
    labels.forEach((l, k) => record(found, l.field, valueAfter(line.text, l, labels[k + 1])));
  });
  return found;
}

const TITLES = /^(mr|mrs|ms|miss|dr|prof|herr|frau|m|mme|mlle|monsieur|madame)\.?\s+/i;

/** "DOE, JOHN A" → John/Doe; "John Doe" → John/Doe; "MUSTERMANN Max" → Max/MUSTERMANN. */
export function splitPersonName(raw: string): { first: string; last: string } {
  const name = squash(raw.replace(TITLES, '').replace(/\s*\(.*?\)\s*/g, ' ').replace(/[;|].*$/, ''));
  if (name === '') return { first: '', last: '' };
  const dropInitials = (s: string): string => squash(s.split(' ').filter((w, i) => i === 0 || !/^[A-Za-z]\.?$/.test(w)).join(' '));
  if (name.includes(',')) {
    const [last, first] = name.split(',', 2).map(squash);
    return { first: dropInitials(first ?? ''), last: last ?? '' };
  }
  const words = name.split(' ').filter((w) => !/^[A-Za-z]\.?$/.test(w) || name.split(' ').length <= 2);
  if (words.length === 1) return { first: '', last: words[0]! };
  const isUpper = (w: string): boolean => /\p{Lu}{2,}/u.test(w) && w === w.toUpperCase();
  // German/French style: family name in capitals before the given name(s).
  if (isUpper(words[0]!) && !words.slice(1).every(isUpper)) return { first: words.slice(1).join(' '), last: words[0]! };
  if (!isUpper(words[0]!) && isUpper(words[words.length - 1]!) && !words.slice(0, -1).every(isUpper)) {
    return { first: words.slice(0, -1).join(' '), last: words[words.length - 1]! };
  }
  return { first: words.slice(0, -1).join(' '), last: words[words.length - 1]! };
}

/** A person name has letters and no digits; anything else is a mis-read label ("Name: see page 2"). */
function plausibleName(s: string | undefined): s is string {
  return s !== undefined && /\p{L}{2,}/u.test(s) && !/\d/.test(s) && s.length <= 60;
}

const LAB_WORDS = /\b(laborator(?:y|ies|ium)|labs?|diagnostics?|pathology|clinical|medical cent(?:er|re)|labor|laboratoire|biologie medicale|lbm|mvz|quest|labcorp|synlab|bioscientia|cerba|eurofins|unilabs|sonic)\b/;

/** The lab's name: a labelled field, else an early line on page 1 that names a laboratory. */
function labName(found: Found, lines: MetadataLine[]): string {
  if (found.lab && /\p{L}{3,}/u.test(found.lab)) return found.lab;
  const early = lines.filter((l) => l.page === lines[0]?.page).slice(0, 8);
  for (const l of early) {
    const first = squash(l.text.split(/\s{2,}|\t/)[0] ?? '');
    const folded = foldText(first);
    if (LAB_WORDS.test(folded) && !/[:]/.test(first) && first.length <= 80 && !/\d{3,}/.test(first)) return first;
  }
  return '';
}

export interface MetadataOptions {
  dateOrder?: DateOrder;
  currentYear?: number;
}

export function extractMetadata(lines: MetadataLine[], opts: MetadataOptions = {}): ReportMetadata {
  const found = collectFields(lines);
  let first = plausibleName(found.firstName) ? found.firstName : '';
  let last = plausibleName(found.lastName) ? found.lastName : '';
  const fullName = found.fullName?.replace(/[,;]?\s*\d.*$/, '');
  if ((first === '' || last === '') && plausibleName(fullName)) {
    const split = splitPersonName(fullName);
    first = first || split.first;
    last = last || split.last;
  }
  const dateOpts = { order: opts.dateOrder, currentYear: opts.currentYear };
  const meta: ReportMetadata = {
    patient_first_name: first,
    patient_last_name: last,
    dob: found.dob ? parseDate(found.dob, { ...dateOpts, isBirthDate: true }) : '',
    lab_name: labName(found, lines),
  };
  const collected = found.collected ? parseDate(found.collected, dateOpts) : '';
  const reported = found.reported ? parseDate(found.reported, dateOpts) : '';
  if (collected) meta.date_collected = collected;
  if (reported) meta.date_reported = reported;
  const specimen = found.specimen?.split(/\s/)[0]?.replace(/[,;]$/, '');
  if (specimen && /\d/.test(specimen) && specimen.length >= 3) meta.specimen_number = specimen;
  return meta;
}
