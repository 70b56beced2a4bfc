/**
 * OCR's commonest harmful mistake on lab reports is a lost decimal separator: "4,3" read as "43",
 * "0.96" as "096". (A speck read as a point, ".57", is caught by the row reader: see nakedPoint.) Such a value is wrong by a power of ten and looks just as sure as a right one. A
 * result is dropped (a missing value is better than a wrong one) when its value, as printed, carries
 * the marks of a lost separator and contradicts what the rest of its row says.
 */
import { parseFlag } from './flags.js';
import { signContradicted } from './ocr-tokens.js';
import { hasLimits, impossibleInEveryUnit, impossibleValue, listedUnit } from './physiology.js';
import { isUnitToken } from './units.js';
import { parseRange } from './ranges.js';
import { type ParsedResult } from './types.js';

/** A whole number with a leading zero ("096", "05") is never printed so: a separator was lost. */
const LEADING_ZERO = /^0\d+$/;
/** A value more than this many times its range's upper limit, from OCR, is suspect. */
const FACTOR = 5;

const decimalsIn = (text: string | undefined): boolean => /\d[.,]\d/.test(text ?? '');

/** Whether a value near [min/3, 3·max] is among the candidates. */
const anyNear = (candidates: number[], min: number, max: number | undefined): boolean =>
  candidates.some((v) => v >= min / 3 && (max === undefined || v <= max * 3));

/** "1528" with a separator put back somewhere inside: 152.8, 15.28, 1.528. */
function withSeparator(digits: string): number[] {
  return Array.from({ length: digits.length - 1 }, (_, i) => Number(digits) / 10 ** (i + 1));
}

/**
 * Whether an OCR-read integer most likely lost its decimal separator: five times or more above its
 * range, while a separator put back would bring it near the range, and the row agrees it is not truly
 * that high — its flag says low, its range is printed with decimals (values of such tests are too, so
 * a whole number is suspect), or the report flags abnormal values and this one carries no flag.
 */
export function lostSeparator(result: ParsedResult, reportHasFlags: boolean): boolean {
  const max = result.max_reference_range;
  if (result.type !== 'numeric' || !/^\d{2,}$/.test(result.value) || max === undefined || max <= 0) return false;
  if (Number(result.value) <= FACTOR * max || !anyNear(withSeparator(result.value), result.min_reference_range ?? 0, max)) return false;
  const flag = result.flag?.toUpperCase();
  return (flag !== undefined && flag.startsWith('L')) || decimalsIn(result.reference_range_text) || (reportHasFlags && flag === undefined);
}

/**
 * Whether an OCR value most likely lost a digit ("8" for 83 beside 70-100, "4" for 147 beside 136-145): a whole
 * number below a fifth of its range's lower bound, in a report that flags abnormal values, and carries no flag that
 * says it is low or critical (none, or a mark without a side such as "*", or a high flag). A lab flags a result
 * that far below its range as low whatever the test; without that, the row says it is not truly that low, and
 * OCR dropping a digit of the printed number is what puts it there.
 */
export function lostDigit(result: ParsedResult, reportHasFlags: boolean): boolean {
  const min = result.min_reference_range;
  if (!reportHasFlags || result.type !== 'numeric' || min === undefined || min <= 0) return false;
  const flag = result.flag === undefined ? undefined : parseFlag(result.flag);
  if (flag?.direction === 'low' || flag?.severity === 'critical') return false;
  // A value printed with decimals that far below its range is the range's misreading ("11.9" beside "75-115", its
  // separators lost: rows.ts, rangeLostSeparators), not the value's: only whole numbers are judged.
  if (!/^\d+$/.test(result.value)) return false;
  return Number(result.value) * FACTOR < min;
}

const decimalCount = (text: string): number => /[.,](\d+)/.exec(text)?.[1]!.length ?? 0;
/** The most decimals among the numbers of a range text ("<5.5" → 1, "3.89 à 6,11" → 2). */
const rangeDecimals = (text: string): number => Math.max(0, ...[...text.matchAll(/\d+(?:[.,]\d+)?/g)].map((m) => decimalCount(m[0])));

/**
 * Whether an OCR value is a flag letter read as its last digit ("6.0H" as "6.08", "0.7L" as "0.71"):
 * it has one decimal more than any bound of its range, lies outside the range on the side its last
 * digit's look-alike flag says (8 for H, 1 or 4 for L), and carries no flag in a report that flags
 * abnormal values.
 */
export function flagReadAsDigit(result: ParsedResult, reportHasFlags: boolean): boolean {
  if (!reportHasFlags || result.flag !== undefined || result.type !== 'numeric' || !/^\d+[.,]\d{2,}$/.test(result.value)) return false;
  const range = result.reference_range_text;
  if (!range || decimalCount(result.value) !== rangeDecimals(range) + 1) return false;
  const value = Number(result.value.replace(',', '.'));
  const last = result.value.at(-1)!;
  const high = result.max_reference_range !== undefined && value > result.max_reference_range && last === '8';
  const low = result.min_reference_range !== undefined && value < result.min_reference_range && (last === '1' || last === '4');
  return high || low;
}

/** "120-155" beside "16,51": whole-number bounds of two digits or more. */
const WHOLE_RANGE = /^[[(]?\s*\d{2,}\s*[-–—]\s*\d{2,}\s*[\])]?$/;

/**
 * Whether an OCR value is an up arrow printed after it and read as its last digit ("16,5 ↑" as
 * "16,51", "6,6 ↑" as "6,61"): the value has one decimal more than its range's bounds, ends in 1, and
 * even without that digit lies above the range. Reports that flag with arrows lose them to OCR
 * altogether as often as not, so no flag elsewhere in the report is asked for; the value itself must
 * say it twice (the extra decimal and the side). A range whose separators OCR lost too ("120-155" for
 * "12,0 - 15,5": whole numbers of two digits or more, over three times the value) is read a tenth as
 * large, with one decimal.
 */
export function arrowReadAsDigit(result: ParsedResult): boolean {
  if (result.flag !== undefined || result.type !== 'numeric' || !/^\d+[.,]\d+1$/.test(result.value)) return false;
  const range = result.reference_range_text;
  let max = result.max_reference_range;
  if (!range || max === undefined) return false;
  let decimals = rangeDecimals(range);
  const value = Number(result.value.replace(',', '.'));
  const min = result.min_reference_range;
  if (decimals === 0 && WHOLE_RANGE.test(range.trim()) && min !== undefined && value * 3 < min) {
    max /= 10;
    decimals = 1;
  }
  if (decimalCount(result.value) !== decimals + 1) return false;
  return Number(result.value.slice(0, -1).replace(',', '.')) > max;
}

/** The LOINC confidence from which a name is taken for a known test (types.ts, LIKELY_TEST_NAME). */
const KNOWN_NAME = 0.75;

/**
 * Whether an OCR "result" is a range line whose label OCR misread ("Desejével: inferior a 190 mg/dL",
 * "Desejável" being a label the reader knows): its name ends in the words a one-sided range puts before
 * its bound, so that those words and the value read as a range ("inferior a 190", "below 40", "less
 * than 5"), and the name is no test the LOINC table knows.
 */
export function rangeReadAsResult(result: ParsedResult): boolean {
  if (result.type !== 'numeric' || (result.loinc_matches?.[0]?.confidence_score ?? 0) >= KNOWN_NAME) return false;
  const words = result.test_name.trim().split(/\s+/);
  for (let k = 1; k <= Math.min(3, words.length); k++) {
    const range = parseRange(`${words.slice(-k).join(' ')} ${result.value}`, false);
    if (range && (range.min === undefined) !== (range.max === undefined)) return true;
  }
  return false;
}

/**
 * "Serum Sodium  4  136 - 145" (OCR kept one digit of 147, and read no unit): a value with no unit that no
 * human sample of the analyte reaches in any unit (physiology.ts), and that its own row contradicts too
 * (outside its printed range). The range guards against a name matched to the wrong test: a value its
 * range agrees with is left as read.
 */
export function impossibleWithoutUnit(result: ParsedResult): boolean {
  if (result.units !== undefined && result.units.trim() !== '') return false;
  const value = Number(result.value);
  const { min_reference_range: min, max_reference_range: max } = result;
  const outside = (min !== undefined && value < min) || (max !== undefined && value > max);
  return outside && impossibleInEveryUnit(result.loinc_matches?.[0]?.loinc_code, value);
}

/**
 * "NA SE  1.14 mg/dL" (an exam's heading OCR misread into a name the LOINC table takes for sodium): a value no
 * human sample of the matched analyte reaches in any unit the physiology table lists for it, read with a unit
 * the table does not list for it either. Value and unit are another test's; the name matched the wrong one
 * (with a listed unit, impossibleValue judges; with none, impossibleWithoutUnit).
 */
export function foreignValueAndUnit(result: ParsedResult): boolean {
  const unit = result.units?.trim();
  const code = result.loinc_matches?.[0]?.loinc_code;
  if (!unit || !isUnitToken(unit) || !hasLimits(code) || listedUnit(code, unit)) return false;
  return impossibleInEveryUnit(code, Number(result.value));
}

/**
 * "Gliukozė 27,7 ↑" (read "27,7 +") beside 3,9 - 6,1: a value over three times its upper bound with a "+" may be a
 * real extreme (a diabetic's glucose, an inflamed CRP) rather than a lost separator. For an analyte whose human
 * span the physiology table knows (the value has passed impossibleValue above), it stands unless it lies ten
 * times past the bound, where a lost separator would put it.
 */
function possibleExtreme(r: ParsedResult): boolean {
  const value = Number(r.value);
  return hasLimits(r.loinc_matches?.[0]?.loinc_code) && r.max_reference_range !== undefined && value < 10 * r.max_reference_range;
}

/**
 * Results of OCR pages without the values that carry the marks of a misreading: a lost separator
 * (see lostSeparator) or digit (lostDigit), or a value no human sample reaches for its analyte and unit (physiology.ts: a
 * separator lost in the value and its range alike; with no unit read, see impossibleWithoutUnit; with a unit the
 * analyte is not reported in, foreignValueAndUnit), or a
 * "+" or "-" flag the value contradicts (ocr-tokens.ts, signContradicted), or a flag letter or an up arrow read as a digit
 * (flagReadAsDigit, arrowReadAsDigit), or a range line whose label OCR misread (rangeReadAsResult).
 * A leading zero is such a mark on any page.
 */
export function withoutMisreadings(results: ParsedResult[], ocrPages: Set<number>): ParsedResult[] {
  const reportHasFlags = results.some((r) => r.flag !== undefined);
  return results.filter((r) => {
    if (r.type === 'numeric' && LEADING_ZERO.test(r.value)) return false;
    if (!ocrPages.has(r.page ?? 0)) return true;
    if (r.type === 'numeric' && impossibleValue(r.loinc_matches?.[0]?.loinc_code, Number(r.value), r.units)) return false;
    if (r.type === 'numeric' && (impossibleWithoutUnit(r) || foreignValueAndUnit(r))) return false;
    if (r.type === 'numeric' && signContradicted(Number(r.value), r.flag, r.min_reference_range, r.max_reference_range) && !possibleExtreme(r)) return false;
    return !lostSeparator(r, reportHasFlags) && !lostDigit(r, reportHasFlags) && !flagReadAsDigit(r, reportHasFlags) && !arrowReadAsDigit(r) && !rangeReadAsResult(r);
  });
}
