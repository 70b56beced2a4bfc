/**
 * Result values as printed: numbers (decimal commas, thousands separators), "<5"-style bounded values,
 * titres and ratios, and qualitative words in English, German and French.
 */
import { type ResultType } from './types.js';
import { foldText } from './text.js';

export const NUMBER_SOURCE = String.raw`[-−]?(?:\d{1,3}(?:[,.]\d{3})+(?:[.,]\d+)?|\d+(?:[.,]\d+)?|[.,]\d+)`;
const NUMBER_ONLY = new RegExp(`^${NUMBER_SOURCE}$`);

/**
 * Canonical decimal string for a printed number: decimal comma → point, thousands separators removed.
 * A lone comma followed by exactly three digits is a thousands separator only in English text
 * ("1,250" platelets); in German and French it is a decimal comma ("1,250" = 1.25), and there a lone
 * point followed by exactly three digits groups thousands ("7.910" leukocytes per mm³ = 7910).
 */
export function normaliseNumber(raw: string, decimalComma: boolean): string | undefined {
  let s = raw.trim().replace(/−/g, '-').replace(/\s/g, '');
  if (!NUMBER_ONLY.test(s)) return undefined;
  const lastComma = s.lastIndexOf(',');
  const lastDot = s.lastIndexOf('.');
  if (lastComma >= 0 && lastDot >= 0) {
    const decimal = lastComma > lastDot ? ',' : '.';
    const thousands = decimal === ',' ? '.' : ',';
    s = s.split(thousands).join('').replace(decimal, '.');
  } else if (lastComma >= 0) {
    const thousandsOnly = /^-?\d{1,3}(,\d{3})+$/.test(s);
    s = thousandsOnly && !decimalComma ? s.replace(/,/g, '') : s.replace(/,/g, '.');
    if ((s.match(/\./g)?.length ?? 0) > 1) return undefined;
  } else if (decimalComma && /^-?[1-9]\d{0,2}(\.\d{3})+$/.test(s)) {
    // Where commas are decimal, a point before exactly three digits groups thousands ("7.910 /mm³").
    s = s.replace(/\./g, '');
  } else if ((s.match(/\./g)?.length ?? 0) > 1) {
    // "1.234.567": dots as thousands separators.
    if (!/^-?\d{1,3}(\.\d{3})+$/.test(s)) return undefined;
    s = s.replace(/\./g, '');
  }
  if (s.startsWith('.')) s = `0${s}`;
  if (s.startsWith('-.')) s = `-0${s.slice(1)}`;
  return s;
}

export function toNumber(raw: string, decimalComma: boolean): number | undefined {
  const n = normaliseNumber(raw, decimalComma);
  return n === undefined ? undefined : Number(n);
}

/** Qualitative results and what they say (positive / negative / neither). */
export type QualitativeClass = 'negative' | 'positive' | 'other';

const NEGATIVE_WORDS = [
  'negative', 'neg', 'non reactive', 'nonreactive', 'non-reactive', 'not detected', 'none detected', 'undetected',
  'none seen', 'none', 'absent', 'not present', 'nil', 'normal',
  'negativ', 'nicht nachweisbar', 'nicht nachgewiesen', 'n.n', 'n. n', 'nicht nachw', 'kein', 'keine', 'unauffallig', 'nicht reaktiv', 'o.b.',
  'negatif', 'negative(s)', 'absence', 'absents', 'non detecte', 'non detectee', 'non reactif', 'non decele',
];
const POSITIVE_WORDS = [
  'positive', 'pos', 'reactive', 'detected', 'present', 'abnormal',
  'positiv', 'nachweisbar', 'nachgewiesen', 'reaktiv', 'auffallig',
  'positif', 'positive(s)', 'presence', 'presents', 'detecte', 'detectee', 'reactif',
];
const OTHER_WORDS = [
  'trace', 'traces', 'spuren', 'few', 'rare', 'occasional', 'moderate', 'many', 'numerous', 'some', 'small', 'large',
  'vereinzelt', 'wenig', 'maßig', 'massig', 'reichlich', 'viele', 'quelques', 'rares', 'nombreux', 'nombreuses',
  'clear', 'cloudy', 'hazy', 'turbid', 'slightly cloudy', 'sl cloudy', 'klar', 'trub', 'leicht trub', 'limpide', 'trouble',
  'yellow', 'pale yellow', 'light yellow', 'dark yellow', 'straw', 'amber', 'colorless', 'red', 'brown', 'orange',
  'gelb', 'hellgelb', 'dunkelgelb', 'bernsteinfarben', 'farblos', 'jaune', 'jaune pale', 'jaune clair', 'ambre', 'incolore',
  'equivocal', 'indeterminate', 'borderline', 'grenzwertig', 'fraglich', 'douteux', 'equivoque',
  'see note', 'see comment', 'see comments', 'see below', 'see report', 'siehe kommentar', 's. kommentar', 's. komm', 'siehe unten', 's. u', 'siehe befundtext', 's. befundtext', 'voir commentaire', 'voir ci-dessous', 'cf commentaire', 'cf. commentaire', 'pending', 'to follow', 'folgt', 'a suivre',
];

const QUALITATIVE = new Map<string, QualitativeClass>([
  ...NEGATIVE_WORDS.map((w) => [w, 'negative'] as const),
  ...POSITIVE_WORDS.map((w) => [w, 'positive'] as const),
  ...OTHER_WORDS.map((w) => [w, 'other'] as const),
]);

/** Longest qualitative phrase first, so "not detected" wins over "detected". */
export const QUALITATIVE_PHRASES = [...QUALITATIVE.keys()].sort((a, b) => b.length - a.length);

/** Class of a qualitative value or range text, or undefined if it is not one we know. */
export function qualitativeClass(text: string): QualitativeClass | undefined {
  const t = foldText(text).replace(/[.:;]+$/, '').replace(/\s+/g, ' ').trim();
  if (QUALITATIVE.has(t)) return QUALITATIVE.get(t);
  if (/^\+{1,4}$|^[1-4]\s?\+$/.test(t)) return 'positive';
  if (/^(negative|negativ|negatif|neg)\b/.test(t)) return 'negative';
  if (/^(positive|positiv|positif|pos)\b/.test(t)) return 'positive';
  return undefined;
}

export interface ParsedValue {
  /** As reported, numbers canonicalised (decimal point, no thousands separators). */
  value: string;
  type: ResultType;
  /** Numeric bounds the value stands for: exact for numbers, open-ended for "<5". */
  low?: number;
  high?: number;
  /** Whether an open bound excludes its limit ("<5" excludes 5, "<=5" includes it). */
  lowInclusive?: boolean;
  highInclusive?: boolean;
  qualitative?: QualitativeClass;
  /** Printed without the leading zero (".5"): labs do not print so, so from OCR it is a speck read as a point. */
  nakedPoint?: boolean;
}

const COMPARATOR = /^([<>]\s*or\s*=|[<>≤≥]=?|=<|=>)\s*/i;

/** Parse a value token: "95", "5,3", "<0.5", "> 60", "45%", "1:80", "Negative", "2+", "0-2" (sediment). */
export function parseValue(raw: string, decimalComma: boolean): ParsedValue | undefined {
  const text = raw.trim().replace(/^[*!]+\s*|\s*[*!]+$/g, '');
  if (text === '') return undefined;
  const cmp = COMPARATOR.exec(text);
  if (cmp) return boundedValue(cmp[1]!, text.slice(cmp[0].length), decimalComma);
  const pct = /^(.+?)\s?%$/.exec(text);
  if (pct) {
    const n = normaliseNumber(pct[1]!, decimalComma);
    if (n !== undefined) return { value: n, type: 'percentage', low: Number(n), high: Number(n) };
  }
  const n = normaliseNumber(text, decimalComma);
  if (n !== undefined) {
    const parsed: ParsedValue = { value: n, type: 'numeric', low: Number(n), high: Number(n) };
    if (/^[.,]\d/.test(text)) parsed.nakedPoint = true;
    return parsed;
  }
  const titer = /^1\s?[:/]\s?(\d+)$/.exec(text);
  if (titer) return { value: `1:${titer[1]}`, type: 'ratio' };
  const span = /^(\d+(?:[.,]\d+)?)\s?[-–]\s?(\d+(?:[.,]\d+)?)$/.exec(text);
  if (span) {
    const lo = toNumber(span[1]!, decimalComma);
    const hi = toNumber(span[2]!, decimalComma);
    if (lo !== undefined && hi !== undefined && lo <= hi) return { value: `${lo}-${hi}`, type: 'range', low: lo, high: hi, lowInclusive: true, highInclusive: true };
  }
  const q = qualitativeClass(text);
  if (q) return { value: text, type: q === 'other' ? 'comment' : 'boolean', qualitative: q };
  return undefined;
}

function boundedValue(op: string, rest: string, decimalComma: boolean): ParsedValue | undefined {
  const n = normaliseNumber(rest.replace(/\s?%$/, ''), decimalComma);
  if (n === undefined) return undefined;
  const sym = op.replace(/\s*or\s*=/i, '=').replace('≤', '<=').replace('≥', '>=').replace('=<', '<=').replace('=>', '>=');
  const value = `${sym}${n}`;
  if (sym.startsWith('<')) return { value, type: 'range', high: Number(n), highInclusive: sym === '<=' };
  return { value, type: 'range', low: Number(n), lowInclusive: sym === '>=' };
}
