/**
 * Reference ranges in the forms reports print them: "70-99", "3.5 - 5.3", "3,5 - 5,3", "0.5–1.2",
 * "70 to 99", "<200", "<= 5.6", "> 39", "up to 5", "bis 5", "jusqu'à 5", "< 5.7 %", "[3,5 ; 5,3]", bounds in
 * words ("below 5.0", "less than 5", "inferior a 190", "moins de 5", "über 40", "plus de 40", "at least 60"),
 * "M: 13-17 F: 12-16" (sex-specific: text kept, bounds left out since we cannot tell which applies),
 * and text ranges ("Negative", "Clear").
 */
import { foldText } from './text.js';
import { NUMBER_SOURCE, qualitativeClass, type QualitativeClass, toNumber } from './values.js';

export interface ParsedRange {
  /** As printed (trimmed). */
  text: string;
  min?: number;
  max?: number;
  /** "<200" excludes 200; "0-200" and "<=200" include it. */
  minInclusive: boolean;
  maxInclusive: boolean;
  qualitative?: QualitativeClass;
}

const N = NUMBER_SOURCE;
const DASH = String.raw`\s*(?:-|–|—|to|bis|a|à|au)\s*`;
const SPAN = new RegExp(String.raw`^[\[(]?\s*(${N})${DASH}(${N})\s*[\])]?`, 'i');
/** "20-<30", "20 - < 30": a span whose upper bound is excluded, as category tiers print them. */
const SPAN_OPEN_UPPER = new RegExp(String.raw`^(${N})\s*[-–—]\s*<\s*(${N})`);
const SPAN_SEMICOLON = new RegExp(String.raw`^[\[(]\s*(${N})\s*[;]\s*(${N})\s*[\])]`);
const UPPER = new RegExp(String.raw`^(?:(<=|=<|≤|<)|(?:up to|upto|bis|max\.?|maximum|jusqu'?a|inf\.? a|inferieur a|inferieure a|inferior a|menor que|menor a|menos de|moins de|less than|lower than|fewer than|below|under|unter|kleiner als|hasta|ate|<\s*=))\s*(${N})`, 'i');
const LOWER = new RegExp(String.raw`^(?:(>=|=>|≥|>)|(?:min\.?|minimum|sup\.? a|superieur a|superieure a|superior a|mayor que|mayor a|maior que|mas de|mais de|plus de|greater than|higher than|more than|at least|au moins|mindestens|above|over|uber|grosser als|mehr als|>\s*=))\s*(${N})`, 'i');
const SEX_LABEL = /\b(m|f|w|h|male|female|men|women|manner|frauen|hommes|femmes|mann|frau)\s*[:=]/i;

/**
 * "(130 - 180)", "(<5.0)", "[> 1.0]": brackets around a whole range are print decoration, not part of
 * it. The French "[3,5 ; 5,3]" keeps its brackets (they are its notation).
 */
function stripEnclosing(text: string): string {
  const m = /^[([]\s*([^()[\]]*?)\s*[)\]]$/.exec(text);
  if (m) return !m[1]!.includes(';') && m[1] !== '' ? m[1]! : text;
  // One bracket without its partner ("135-145)" after "(Ref:"): a leftover of the sentence around it.
  const open = (text.match(/[([]/g) ?? []).length;
  const close = (text.match(/[)\]]/g) ?? []).length;
  return open === close ? text : text.replace(/^[([]\s*|\s*[)\]]$/g, '');
}

/** Printed in a range column to say no range applies ("Not Estab."): a text range without bounds. */
const GOOD_LABEL = /^(?:desirable|optimal|ideal|normal|recommended|target|goal|souhaitable|optimale?|normale?|cible|wunschenswert|erwunscht|zielwert|ziel|desejavel|deseable|otimo|optimo)\s*[:=]?\s*([<>≤≥=].*|\d.*|\p{L}.*\d.*)$/u;

const NO_RANGE = /^(not estab(lished|\.)?|none established|not applicable)$/i;

/** Parse a reference range; undefined when the text is not one. */
export function parseRange(raw: string, decimalComma: boolean): ParsedRange | undefined {
  const text = stripEnclosing(raw.trim().replace(/\s+/g, ' '));
  if (text === '') return undefined;
  if (NO_RANGE.test(text)) return { text, minInclusive: true, maxInclusive: true };
  // "> OR = 60", "<or=5": the spelled-out inclusive bound.
  const folded = foldText(text).replace(/[≤]/g, '<=').replace(/[≥]/g, '>=').replace(/([<>])\s*or\s*=\s*/g, '$1=');
  const base: ParsedRange = { text, minInclusive: true, maxInclusive: true };

  // Several ranges (by sex or age): keep the text; a guess at which applies could be wrong.
  if (SEX_LABEL.test(folded) && (folded.match(new RegExp(N, 'g'))?.length ?? 0) > 2) return base;

  const span = SPAN.exec(folded) ?? SPAN_SEMICOLON.exec(folded);
  if (span && restIsUnitOnly(folded.slice(span[0].length))) {
    const lo = toNumber(span[1]!, decimalComma);
    const hi = toNumber(span[2]!, decimalComma);
    if (lo !== undefined && hi !== undefined && lo <= hi) return { ...base, min: lo, max: hi };
  }
  const openUpper = SPAN_OPEN_UPPER.exec(folded);
  if (openUpper && restIsUnitOnly(folded.slice(openUpper[0].length))) {
    const lo = toNumber(openUpper[1]!, decimalComma);
    const hi = toNumber(openUpper[2]!, decimalComma);
    if (lo !== undefined && hi !== undefined && lo < hi) return { ...base, min: lo, max: hi, maxInclusive: false };
  }
  const sexOne = /^(?:[a-z]+)\s*[:=]\s*(.+)$/.exec(folded);
  if (sexOne && SEX_LABEL.test(folded)) {
    const inner = parseRange(sexOne[1]!, decimalComma);
    if (inner) return { ...inner, text };
  }
  // "Desirable : < 200", "Optimal: <100": one bound under the label of the healthy category.
  const good = GOOD_LABEL.exec(folded);
  if (good) {
    const inner = parseRange(good[1]!, decimalComma);
    if (inner && (inner.min !== undefined || inner.max !== undefined)) return { ...inner, text };
  }
  const upper = UPPER.exec(folded);
  if (upper && restIsUnitOnly(folded.slice(upper[0].length))) {
    const max = toNumber(upper[2]!, decimalComma);
    if (max !== undefined) return { ...base, max, maxInclusive: upper[1] !== '<' };
  }
  const lower = LOWER.exec(folded);
  if (lower && restIsUnitOnly(folded.slice(lower[0].length))) {
    const min = toNumber(lower[2]!, decimalComma);
    if (min !== undefined) return { ...base, min, minInclusive: lower[1] !== '>' };
  }
  if (/^([<>]=?|=<|=>)?\s*1\s?:\s?\d{1,5}$/.test(folded)) return base; // titre ranges: "<1:40"
  const q = qualitativeClass(text);
  if (q) return { ...base, qualitative: q };
  return undefined;
}

/** After the numbers only a unit (or nothing) may follow: "70-99 mg/dL", "< 5.7 %". */
function restIsUnitOnly(rest: string): boolean {
  const r = rest.trim();
  return r === '' || /^[a-z%µμ/*^0-9.×x\s[\]{}()'-]{1,24}$/i.test(r) && !/\d\s*[-–]\s*\d/.test(r);
}

/** True when a token can only be a reference range (a span or a worded bound), not a value. */
export function looksLikeRangeOnly(raw: string): boolean {
  const t = foldText(raw.trim());
  return SPAN.test(t) || /^(up to|upto|bis|max|jusqu|inf|less than|lower than|below|under|unter|min|sup|greater than|higher than|more than|above|over|uber|moins de|plus de|menor que|mayor que|maior que)\b/.test(t);
}

/** Age units of a band label, in days. */
const AGE_UNIT: [RegExp, number][] = [
  [/^(d|days?|j|jours?|tage?)$/, 1],
  [/^(w|wk|wks|weeks?|sem|semaines?|wochen?)$/, 7],
  [/^(m|mo|mos|months?|mois|monate?)$/, 365.25 / 12],
  [/^(y|yr|yrs|years?|a|ans?|jahre?)$/, 365.25],
];
/**
 * "1-3 y 0.10 - 0.36", "<1 yr: 122-469", "15+ years 50-117", "13-15 y (M) 116-468": a range for an age
 * band. The band is [from, to] in days, its bounds as printed in the label's unit (whole units: "1-3 y"
 * covers ages 1 to 3 completed years, the band after it may start at 3).
 */
const AGE_BAND = /^(?:(\d+(?:[.,]\d+)?)\s*[-–]\s*(\d+(?:[.,]\d+)?)|([<>]|≤|≥|<=|>=)\s*(\d+(?:[.,]\d+)?)|(\d+(?:[.,]\d+)?)\s*\+)\s*([a-z]{1,7})\.?(?:\s*\((?:m|f|w|male|female)\))?\s*[:=]?\s+(.+)$/;
export interface AgeBandRange {
  from: number;
  to: number;
  /** Size of the label's unit in days. */
  unit: number;
  range: ParsedRange;
}
export function parseAgeBand(raw: string, decimalComma: boolean): AgeBandRange | undefined {
  const m = AGE_BAND.exec(foldText(raw.trim().replace(/\s+/g, ' ')));
  if (!m) return undefined;
  const unit = AGE_UNIT.find(([re]) => re.test(m[6]!))?.[1];
  const range = parseRange(m[7]!, decimalComma);
  if (unit === undefined || !range || (range.min === undefined && range.max === undefined)) return undefined;
  const n = (s: string) => Number(s.replace(',', '.'));
  if (m[1] !== undefined) return n(m[1]) <= n(m[2]!) ? { from: n(m[1]), to: n(m[2]!), unit, range } : undefined;
  if (m[5] !== undefined) return { from: n(m[5]), to: Infinity, unit, range };
  const bound = n(m[4]!);
  // "<1 y" is the first year (whole units under 1), "<=2 y" up to 2 completed; ">18 y" from 18 on.
  if (m[3] === '<') return bound >= 1 ? { from: 0, to: bound - 1, unit, range } : undefined;
  return m[3]!.startsWith('<') || m[3] === '≤' ? { from: 0, to: bound, unit, range } : { from: bound, to: Infinity, unit, range };
}

/**
 * The range that applies at an age (in days) among age-band ranges: the band whose whole units hold
 * the age (completed years, months…); where two bands share a bound ("1-3 y", "3-5 y") the one that
 * starts there. Undefined when no band, or more than one, applies.
 */
export function rangeForAge(bands: AgeBandRange[], ageDays: number): ParsedRange | undefined {
  if (!(ageDays >= 0)) return undefined;
  const holding = bands.filter((b) => {
    const age = Math.floor(ageDays / b.unit);
    return age >= b.from && (age <= b.to || b.to === Infinity) && !(b.from === b.to && age !== b.from);
  });
  const starting = holding.length > 1 ? holding.filter((b) => Math.floor(ageDays / b.unit) < b.to) : holding;
  return starting.length === 1 ? starting[0]!.range : undefined;
}

/** Sex labels of a range printed for both sexes: male (M, Male, Men, H/Hommes, Männer) and female (F, W, Female, Women, Femmes, Frauen). */
const MALE_LABEL = /^(m|male|males|men|h|hommes?|manner|mann|masc(?:ulin[oe]?)?|муж(?:чины|ской|скои)?|μ|ανδρεσ|ανδρασ)$/;
const FEMALE_LABEL = /^(f|w|female|females|women|femmes?|frauen|frau|fem(?:inin[oe]?)?|жен(?:щины|ский|скии)?|γ|γυναικεσ|γυναικα)$/;
const SEX_PART = new RegExp(String.raw`(?:^|[\s;,/|(])([\p{L}]{1,9})\s*[:=.]?\s*(${N}\s*(?:-|–|—|to)\s*${N}|(?:<=|>=|<|>|≤|≥)\s*${N})`, 'gu');

/**
 * The patient's sex's range out of one printed for both on one line ("M: 13.0-17.0 F: 12.0-15.0", "Male 0.7-1.3 /
 * Female 0.6-1.1", "H: 40-52 F: 36-47"): its bounds, the text as printed. Undefined unless the text holds one
 * range for each sex and nothing else, or when the sex is not known.
 */
export function rangeForSex(raw: string, sex: 'M' | 'F' | undefined, decimalComma: boolean): ParsedRange | undefined {
  if (sex === undefined) return undefined;
  const text = raw.trim().replace(/\s+/g, ' ');
  const folded = foldText(text).replace(/ς/g, 'σ');
  const parts = [...folded.matchAll(SEX_PART)];
  const male = parts.filter((m) => MALE_LABEL.test(m[1]!));
  const female = parts.filter((m) => FEMALE_LABEL.test(m[1]!));
  if (male.length !== 1 || female.length !== 1 || parts.length !== 2) return undefined;
  // Nothing but the two labelled ranges (and a unit after each) on the line.
  const rest = parts.reduce((t, m) => t.replace(m[0].trim(), ' '), folded).replace(/[\s;,/|()]+/g, ' ').trim();
  if (rest !== '' && !restIsUnitOnly(` ${rest}`)) return undefined;
  const range = parseRange((sex === 'M' ? male : female)[0]![2]!, decimalComma);
  return range && (range.min !== undefined || range.max !== undefined) ? { ...range, text } : undefined;
}

/** The sex a range printed for one sex is for ("Female: 0.59 - 1.04" → F); undefined for any other text. */
export function sexOfRange(raw: string, decimalComma: boolean): 'M' | 'F' | undefined {
  const m = /^([\p{L}]{1,9})\s*[:=]\s*(.+)$/u.exec(foldText(raw.trim()).replace(/ς/g, 'σ'));
  if (!m || !parseRange(m[2]!, decimalComma)) return undefined;
  return MALE_LABEL.test(m[1]!) ? 'M' : FEMALE_LABEL.test(m[1]!) ? 'F' : undefined;
}
