/**
 * Values OCR misread in a way that leaves the printed value recoverable, put back before the
 * plausibility filter (plausibility.ts) would drop them. Only misreadings whose marks leave one reading
 * are recovered; everything else stays as plausibility.ts judges it.
 */
import { parseFlag, type ParsedFlag } from './flags.js';
import { signFlag } from './ocr-tokens.js';
import { impossibleReferenceBound, impossibleValue } from './physiology.js';
import { arrowReadAsDigit, lostSeparator } from './plausibility.js';
import { type ParsedResult } from './types.js';

/** "120-155" beside "16,51": whole-number bounds of two digits or more (plausibility.ts reads them a tenth as large). */
const WHOLE_RANGE = /^[[(]?\s*\d{2,}\s*[-–—]\s*\d{2,}\s*[\])]?$/;

/**
 * "16,51" for "16,5 ↑": an up arrow printed after the value and read as its last digit
 * (plausibility.ts, arrowReadAsDigit: one decimal more than the range, ending in 1, above the range
 * even without it). The value is the digits before it, flagged by the arrow, above its range.
 */
function arrowRecovered(result: ParsedResult): ParsedResult {
  return { ...result, value: result.value.slice(0, -1), flag: '↑', interpretation: 'abnormal', is_above_max_range: true, is_below_min_range: false };
}

const decimalCount = (text: string): number => /[.,](\d+)/.exec(text)?.[1]!.length ?? 0;
/** The most decimals among the numbers of a range text ("3.80-5.10" → 2, "30 - 100" → 0). */
const rangeDecimals = (text: string): number => Math.max(0, ...[...text.matchAll(/\d+(?:[.,]\d+)?/g)].map((m) => decimalCount(m[0])));

/** "445" → [44.5, 4.45] with their texts: the value with a separator put back at each place inside, at most `decimals` from the end. */
function separatorReadings(digits: string, decimals: number): { value: number; text: string }[] {
  const out: { value: number; text: string }[] = [];
  for (let k = 1; k <= Math.min(decimals, digits.length - 1); k++) {
    const text = `${digits.slice(0, -k)}.${digits.slice(-k)}`;
    out.push({ value: Number(text), text });
  }
  return out;
}

/**
 * Whether a reading agrees with what the row says of it: on the side of the range its flag says (and
 * no more than three times beyond the bound), outside the range for a flag with no side, inside the
 * range without a flag.
 */
function agreesWithRow(value: number, min: number | undefined, max: number | undefined, direction: 'high' | 'low' | 'none' | undefined): boolean {
  if (direction === 'high') return max !== undefined && value > max && value <= 3 * max;
  if (direction === 'low') return min !== undefined && value < min && value >= min / 3;
  const inside = (min === undefined || value >= min) && (max === undefined || value <= max);
  return direction === 'none' ? !inside && (max === undefined || value <= 3 * max) && (min === undefined || value >= min / 3) : inside;
}

/** The result read as `text` against the range lo–hi: its interpretation from its flag, else from the range. */
function withReading(result: ParsedResult, text: string, flag: ParsedFlag | undefined, lo: number | undefined, hi: number | undefined): ParsedResult {
  const v = Number(text);
  const above = hi === undefined ? undefined : v > hi;
  const below = lo === undefined ? undefined : v < lo;
  return {
    ...result,
    value: text,
    min_reference_range: lo,
    max_reference_range: hi,
    interpretation: flag ? flag.severity : above || below ? 'abnormal' : 'normal',
    ...(above === undefined ? {} : { is_above_max_range: above }),
    ...(below === undefined ? {} : { is_below_min_range: below }),
  };
}

/**
 * "048 H" beside "0,36 - 0,46": a leading zero is never printed before a whole number, so the separator
 * lost belongs right after it — the one place. The reading is kept when the range prints as many decimals
 * and it lies where the row says (inside the range without a flag, on the flag's side with one); otherwise
 * plausibility.ts drops the value as before.
 */
function leadingZeroRecovered(result: ParsedResult): ParsedResult | undefined {
  const { min_reference_range: lo, max_reference_range: hi } = result;
  const text = `0.${result.value.slice(1)}`;
  const flag = result.flag ? (parseFlag(result.flag) ?? signFlag(result.flag)) : undefined;
  if (flag?.severity === 'normal' || (lo === undefined && hi === undefined)) return undefined;
  const direction = flag === undefined ? undefined : (flag.direction ?? 'none');
  if (rangeDecimals(result.reference_range_text ?? '') !== result.value.length - 1 || !agreesWithRow(Number(text), lo, hi, direction)) return undefined;
  return withReading(result, text, flag, lo, hi);
}

/**
 * "76" beside "3.8-10.8", "210 L" beside "30 - 100", "43" for potassium beside "35-51": a whole number
 * OCR read without its decimal separator, put back when exactly one place for it makes the row agree.
 * The whole reading must be contradicted first: by plausibility.ts's lostSeparator (five times its
 * range, a range printed with decimals), by its own flag (a low flag on a value above the range), or,
 * where the range lost its separators too, by physiology.ts (both the value and a bound of its range
 * impossible for the analyte in its unit, or an upper bound past any reference interval of the analyte,
 * "39-105" for leukocytes: the range is then read with the same separator). A separator
 * is put back at most as many places from the end as the range prints decimals (one where the range
 * prints none), and the reading must lie where the row says: inside the range without a flag, on the
 * flag's side with one. No reading, or two, and the result is left as read (plausibility.ts then drops it).
 */
export function separatorRecovered(result: ParsedResult, reportHasFlags: boolean): ParsedResult | undefined {
  if (result.type === 'numeric' && /^0\d{1,3}$/.test(result.value)) return leadingZeroRecovered(result);
  if (result.type !== 'numeric' || !/^[1-9]\d{1,3}$/.test(result.value)) return undefined;
  const { min_reference_range: min, max_reference_range: max } = result;
  const rangeText = result.reference_range_text ?? '';
  if (max === undefined && min === undefined) return undefined;
  const value = Number(result.value);
  const flag = result.flag ? (parseFlag(result.flag) ?? signFlag(result.flag)) : undefined;
  const direction = flag === undefined ? undefined : (flag.direction ?? (flag.severity === 'normal' ? undefined : 'none'));
  if (flag?.severity === 'normal') return undefined;
  const code = result.loinc_matches?.[0]?.loinc_code;
  const decimals = rangeDecimals(rangeText);
  const contradicted = (direction === 'low' && max !== undefined && value > max) || (decimals > 0 && lostSeparator(result, reportHasFlags));
  // The range lost its separators too: read it with the value's (one place: a range printed whole says nothing of more).
  const rangeImpossible = (max !== undefined && impossibleReferenceBound(code, max, result.units)) || (impossibleValue(code, value, result.units) && [min, max].some((b) => b !== undefined && b > 0 && impossibleValue(code, b, result.units)));
  const bothLost = !contradicted && decimals === 0 && rangeImpossible;
  if (!contradicted && !bothLost) return undefined;
  const scale = bothLost ? 10 : 1;
  const lo = min === undefined ? undefined : min / scale;
  const hi = max === undefined ? undefined : max / scale;
  // A range known to have lost its separators, and the value over three times past it read so: the value is in the
  // range's column and units, so it lost its separator as well; near the range (a third of its low bound to three
  // times its high) is agreement enough without a flag.
  const near = bothLost && direction === undefined && hi !== undefined && value > 3 * hi;
  const agrees = (v: number): boolean => (near ? v <= 3 * hi! && (lo === undefined || v >= lo / 3) : agreesWithRow(v, lo, hi, direction));
  const readings = separatorReadings(result.value, Math.max(1, decimals)).filter((r) => agrees(r.value) && !impossibleValue(code, r.value, result.units));
  return readings.length === 1 ? withReading(result, readings[0]!.text, flag, lo, hi) : undefined;
}

/**
 * The results of OCR pages with recoverable misreadings put back; other results as they are. An arrow
 * is recovered only beside a range printed with its decimals: where the range lost its separators too
 * ("45-110" for 4,5 - 11,0), how many decimals the value has is itself a guess, and a value printed with
 * one more ("11,41") would come out wrong — plausibility.ts drops such a value instead.
 */
export function withRecoveredReadings(results: ParsedResult[], ocrPages: Set<number>): ParsedResult[] {
  const reportHasFlags = results.some((r) => r.flag !== undefined);
  return results.map((r) => {
    if (!ocrPages.has(r.page ?? 0)) return r;
    if (arrowReadAsDigit(r) && !WHOLE_RANGE.test(r.reference_range_text?.trim() ?? '')) return arrowRecovered(r);
    return separatorRecovered(r, reportHasFlags) ?? r;
  });
}
