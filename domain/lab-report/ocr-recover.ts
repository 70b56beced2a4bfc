/**
 * Values OCR misread in a way that leaves the printed value recoverable, put back before the
 * plausibility filter (plausibility.ts) would drop them. Only misreadings whose marks leave one reading
 * are recovered; everything else stays as plausibility.ts judges it.
 */
import { arrowReadAsDigit } from './plausibility.js';
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

/**
 * The results of OCR pages with recoverable misreadings put back; other results as they are. An arrow
 * is recovered only beside a range printed with its decimals: where the range lost its separators too
 * ("45-110" for 4,5 - 11,0), how many decimals the value has is itself a guess, and a value printed with
 * one more ("11,41") would come out wrong — plausibility.ts drops such a value instead.
 */
export function withRecoveredReadings(results: ParsedResult[], ocrPages: Set<number>): ParsedResult[] {
  return results.map((r) => (ocrPages.has(r.page ?? 0) && arrowReadAsDigit(r) && !WHOLE_RANGE.test(r.reference_range_text?.trim() ?? '') ? arrowRecovered(r) : r));
}
