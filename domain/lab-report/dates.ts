/**
 * Dates as printed on reports → YYYY-mm-dd. Numeric dates are ambiguous between day-first and
 * month-first; a part above 12 settles it, else the document's own habit (another date in it with a
 * part above 12, dots as separators, German/French text, UK vs US spelling). When nothing settles it
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

const MONTH_WORD = String.raw`([a-z]{3,9})\.?`;
const NUMERIC = /(?<!\d)(\d{1,4})([./-])(\d{1,2})\2(\d{2,4})(?!\d)/;
const DAY_MONTH_YEAR = new RegExp(String.raw`(?<!\d)(\d{1,2})(?:er|st|nd|rd|th)?\.?[\s-]+${MONTH_WORD}[\s,-]+(\d{4}|\d{2})(?!\d)`);
const MONTH_DAY_YEAR = new RegExp(String.raw`${MONTH_WORD}\s+(\d{1,2})(?:st|nd|rd|th)?,?\s+(\d{4})(?!\d)`);

export const DATE_PATTERN = /(?<!\d)(\d{1,4}[./-]\d{1,2}[./-]\d{2,4})(?!\d)|(\d{1,2}\.?\s?[a-zA-Zéèûä]{3,9}\.?\s?\d{4})/;

function iso(y: number, m: number, d: number): string {
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
    const order = opts.order ?? (sep === '.' ? 'dmy' : undefined);
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
 * The document's numeric date order, from its own dates (a part above 12 decides), then its separators
 * and language. undefined when it cannot be told.
 */
export function inferDateOrder(allText: string, language: 'en' | 'de' | 'fr'): DateOrder | undefined {
  let dmy = 0;
  let mdy = 0;
  for (const m of allText.matchAll(/(?<!\d)(\d{1,2})[/.-](\d{1,2})[/.-](\d{2,4})(?!\d)/g)) {
    const p = Number(m[1]);
    const q = Number(m[2]);
    if (p > 12 && q <= 12) dmy++;
    if (q > 12 && p <= 12) mdy++;
  }
  if (dmy > 0 && mdy === 0) return 'dmy';
  if (mdy > 0 && dmy === 0) return 'mdy';
  if (language !== 'en') return 'dmy';
  const folded = foldText(allText);
  const uk = (folded.match(/\b(haemoglobin|haematocrit|colour|nhs|postcode|labour)\b/g) ?? []).length;
  const us = (folded.match(/\b(hemoglobin|hematocrit|color|zip|quest diagnostics|labcorp|clia)\b/g) ?? []).length;
  if (uk > us) return 'dmy';
  if (us > uk) return 'mdy';
  return undefined;
}
