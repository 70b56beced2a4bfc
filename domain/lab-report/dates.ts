/**
 * Dates as printed on reports → YYYY-mm-dd. Numeric dates are ambiguous between day-first and
 * month-first; a part above 12 settles it, else the document's own habit (another date in it with a
 * part above 12, dots as separators, German/French text, UK vs US spelling and address forms). When nothing settles it
 * the date is left out ("") rather than guessed.
 */
import { foldText } from './text.js';

export type DateOrder = 'dmy' | 'mdy';

const MONTHS: Record<string, number> = {
  jan: 1, january: 1, januar: 1, janvier: 1, janv: 1, jän: 1, janner: 1,
  feb: 2, february: 2, februar: 2, fevrier: 2, fev: 2, fevr: 2,
  mar: 3, march: 3, marz: 3, maerz: 3, mars: 3, mrz: 3,
  apr: 4, april: 4, avril: 4, avr: 4,
  may: 5, mai: 5,
  jun: 6, june: 6, juni: 6, juin: 6,
  jul: 7, july: 7, juli: 7, juillet: 7, juil: 7,
  aug: 8, august: 8, aout: 8,
  sep: 9, sept: 9, september: 9, septembre: 9,
  oct: 10, october: 10, okt: 10, oktober: 10, octobre: 10,
  nov: 11, november: 11, novembre: 11,
  dec: 12, december: 12, dez: 12, dezember: 12, decembre: 12,
};

/** A month's name or its abbreviation alone ("OCT", "Dez.", "mars"), as the dates below read them. */
export function isMonthName(word: string): boolean {
  return MONTHS[foldText(word).replace(/\.$/, '')] !== undefined;
}

const MONTH_WORD = String.raw`([a-z]{3,9})\.?`;
// OCR may put a space before a four-digit year ("06/01/ 1942").
const NUMERIC = /(?<!\d)(\d{1,4})([./-])(\d{1,2})\2(?: (?=\d{4}(?!\d)))?(\d{2,4})(?!\d)/;
// "27 Dec 2024", "27-Dec-2024", "27/Dec/2024", "1er mars 2024".
const DAY_MONTH_YEAR = new RegExp(String.raw`(?<!\d)(\d{1,2})(?:er|st|nd|rd|th)?\.?[\s/-]+${MONTH_WORD}[\s,/-]+(\d{4}|\d{2})(?!\d)`);
// "Oct 27, 1964", and "OCT 27,1964" as a terminal prints it (no space after the comma).
const MONTH_DAY_YEAR = new RegExp(String.raw`${MONTH_WORD}\s+(\d{1,2})(?:st|nd|rd|th)?(?:,\s*|\s+)(\d{4})(?!\d)`);

export const DATE_PATTERN = /(?<!\d)(\d{1,4}[./-]\d{1,2}[./-]\d{2,4})(?!\d)|(\d{1,2}\.?\s?[a-zA-Zéèûä]{3,9}\.?\s?\d{4})/;

/** Thai documents count years in the Buddhist era (2567 = 2024): 543 years ahead, so never confused with ours. */
const BUDDHIST_ERA = { from: 2400, to: 2700, offset: 543 };

function iso(year: number, m: number, d: number): string {
  const y = year >= BUDDHIST_ERA.from && year <= BUDDHIST_ERA.to ? year - BUDDHIST_ERA.offset : year;
  if (m < 1 || m > 12 || d < 1 || y < 1900 || y > 2100) return '';
  const days = new Date(Date.UTC(y, m, 0)).getUTCDate();
  if (d > days) return '';
  return `${y}-${String(m).padStart(2, '0')}-${String(d).padStart(2, '0')}`;
}

/** Two-digit years: for birth dates, the most recent year not after `currentYear`; else 20yy. */
function fullYear(y: string, isBirthDate: boolean, currentYear: number): number {
  if (y.length === 4) return Number(y);
  const yy = Number(y);
  if (!isBirthDate) return 2000 + yy;
  return 2000 + yy > currentYear ? 1900 + yy : 2000 + yy;
}

export interface DateOptions {
  order?: DateOrder;
  isBirthDate?: boolean;
  currentYear?: number;
}

/** First date found in `text` as YYYY-mm-dd, or "" if none can be read without guessing. */
export function parseDate(text: string, opts: DateOptions = {}): string {
  const t = foldText(text);
  const currentYear = opts.currentYear ?? new Date().getUTCFullYear();
  const birth = opts.isBirthDate ?? false;

  const num = NUMERIC.exec(t);
  if (num) {
    const [, a, sep, b, c] = num as unknown as [string, string, string, string, string];
    if (a.length === 4) return iso(Number(a), Number(b), Number(c)); // ISO year-first
    const y = fullYear(c, birth, currentYear);
    const p = Number(a);
    const q = Number(b);
    if (p > 12 && q <= 12) return iso(y, q, p);
    if (q > 12 && p <= 12) return iso(y, p, q);
    if (p === q) return iso(y, p, q);
    // Dotted dates are day-first wherever they are printed ("07.11.1998"): month-first is written with slashes.
    const order = sep === '.' ? 'dmy' : opts.order;
    if (order === 'dmy') return iso(y, q, p);
    if (order === 'mdy') return iso(y, p, q);
    return '';
  }
  const dmy = DAY_MONTH_YEAR.exec(t);
  if (dmy && MONTHS[dmy[2]!]) return iso(fullYear(dmy[3]!, birth, currentYear), MONTHS[dmy[2]!]!, Number(dmy[1]));
  const mdy = MONTH_DAY_YEAR.exec(t);
  if (mdy && MONTHS[mdy[1]!]) return iso(Number(mdy[3]), MONTHS[mdy[1]!]!, Number(mdy[2]));
  return '';
}

/**
 * Numeric dates in running text: one separator used twice, day/month parts that could be a day or a
 * month, and a 2- or 4-digit year not followed by decimals. Ranges and decimals ("0.76-1.27",
 * "13.5-17.2") mix separators or run on into digits, so they are not taken for dates.
 */
const DATE_IN_TEXT = /(?<![\d.,])(\d{1,2})([/.-])(\d{1,2})\2(\d{4}|\d{2})(?![\d]|[.,]\d)/g;

/** Words that mark a US document (US spelling, US lab names and identifiers). Tested on folded text. */
const US_WORDS = /\b(hemoglobin|hematocrit|hematology|color|zip|quest diagnostics|labcorp|clia|npi)\b/g;
/** Printed forms that mark a US document: ", NC 27713" (state + ZIP), "15:16 ET" (a US time zone after a time). */
// A month's name before the day ("Dec 04 2024", "December 4, 2024") is the US order written out.
const US_FORMS =
  /,\s*[A-Z]{2}\s+\d{5}(?:-\d{4})?\b|\d{1,2}:\d{2}(?::\d{2})?\s*(?:[AP]M\s*)?[ECMP][SD]?T\b|\b(?:Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Sept|Oct|Nov|Dec)[a-z]*\.? \d{1,2},? \d{4}\b/g;
/** Words that mark a UK document (British spelling, NHS). Tested on folded text. */
const UK_WORDS = /\b(haemoglobin|haematocrit|haematology|colour|nhs|postcode|labour|oestradiol)\b/g;
/** Printed forms that mark a UK document: a postcode ("SW1A 1AA", "M1 2AB"). */
// The day before a month's name ("4 December 2024", "04-Dec-2024") is the UK order written out.
const UK_FORMS = /\b[A-Z]{1,2}\d[A-Z\d]?\s\d[A-Z]{2}\b|\b\d{1,2}[ -](?:Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Sept|Oct|Nov|Dec)[a-z]*\.?[ -]\d{4}\b/g;

/** How many signs of `words` (in folded text) and `forms` (in printed text) the document has. */
function countSigns(text: string, folded: string, words: RegExp, forms: RegExp): number {
  return (folded.match(words) ?? []).length + (text.match(forms) ?? []).length;
}

/**
 * The document's numeric date order, from its own dates (a part above 12 decides), then its
 * language, then US vs UK signs. undefined when it cannot be told.
 */
export function inferDateOrder(allText: string, language: 'en' | 'de' | 'fr'): DateOrder | undefined {
  let dmy = 0;
  let mdy = 0;
  for (const m of allText.matchAll(DATE_IN_TEXT)) {
    const p = Number(m[1]);
    const q = Number(m[3]);
    if (p < 1 || q < 1 || p > 31 || q > 31) continue;
    if (p > 12 && q <= 12) dmy++;
    if (q > 12 && p <= 12) mdy++;
  }
  if (dmy > 0 && mdy === 0) return 'dmy';
  if (mdy > 0 && dmy === 0) return 'mdy';
  if (language !== 'en') return 'dmy';
  // A report written mostly in Cyrillic or Greek letters (Russia, Ukraine, Bulgaria, Serbia, Greece, Cyprus): day first.
  const otherScript = allText.match(/[\p{Script=Cyrillic}\p{Script=Greek}]/gu)?.length ?? 0;
  if (otherScript > (allText.match(/[A-Za-z]/g)?.length ?? 0)) return 'dmy';
  const folded = foldText(allText);
  const uk = countSigns(allText, folded, UK_WORDS, UK_FORMS);
  const us = countSigns(allText, folded, US_WORDS, US_FORMS);
  if (uk > us) return 'dmy';
  if (us > uk) return 'mdy';
  return undefined;
}
