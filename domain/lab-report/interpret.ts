/**
 * Interpretation of one result. A printed flag decides (HH/LL/critical → critical; H/L/A/… →
 * abnormal; N → normal). Without a flag, a numeric value is compared with a numeric range, and a
 * qualitative value with a qualitative range ("Positive" against "Negative"). When neither exists, or
 * the comparison cannot be decided ("<5" against 2–10), nothing is said: no guess.
 */
import { type ParsedFlag, parseFlag } from './flags.js';
import { type ParsedRange } from './ranges.js';
import { type Interpretation, type ParsedResult } from './types.js';
import { type ParsedValue, parseValue } from './values.js';

export interface Judgement {
  interpretation?: Interpretation;
  is_above_max_range?: boolean;
  is_below_min_range?: boolean;
}

interface Bounds {
  above?: boolean;
  below?: boolean;
}

/** Where the value's interval [low, high] lies against the range's [min, max]; undefined parts are unknown. */
function compare(value: ParsedValue, range: ParsedRange): Bounds {
  const out: Bounds = {};
  const lo = value.low ?? 0; // "<0.5": lab quantities are not negative, so the open end stops at 0
  const hi = value.high ?? Infinity;
  const loOpen = value.low !== undefined && value.lowInclusive === false;
  const hiOpen = value.high !== undefined && value.highInclusive === false;
  if (range.max !== undefined) {
    const max = range.max;
    const surelyAbove = range.maxInclusive ? lo > max || (lo === max && loOpen) : lo >= max;
    const surelyWithin = range.maxInclusive ? hi <= max : hi < max || (hi === max && hiOpen);
    if (surelyAbove) out.above = true;
    else if (surelyWithin) out.above = false;
  }
  if (range.min !== undefined) {
    const min = range.min;
    const surelyBelow = range.minInclusive ? hi < min || (hi === min && hiOpen) : hi <= min;
    const surelyWithin = range.minInclusive ? lo >= min : lo > min || (lo === min && loOpen);
    if (surelyBelow) out.below = true;
    else if (surelyWithin) out.below = false;
  }
  return out;
}

function fromFlag(flag: ParsedFlag, bounds: Bounds): Judgement {
  const j: Judgement = { interpretation: flag.severity };
  const above = bounds.above ?? (flag.direction === 'high' ? true : flag.direction === 'low' ? false : undefined);
  const below = bounds.below ?? (flag.direction === 'low' ? true : flag.direction === 'high' ? false : undefined);
  if (above !== undefined) j.is_above_max_range = above;
  if (below !== undefined) j.is_below_min_range = below;
  return j;
}

function fromQualitative(value: ParsedValue, range: ParsedRange): Judgement {
  if (!value.qualitative || !range.qualitative || value.qualitative === 'other' || range.qualitative === 'other') {
    if (value.qualitative === 'other' && range.qualitative === 'other' && value.value.toLowerCase() === range.text.toLowerCase()) {
      return { interpretation: 'normal' };
    }
    return {};
  }
  return { interpretation: value.qualitative === range.qualitative ? 'normal' : 'abnormal' };
}

export function interpret(value: ParsedValue, range: ParsedRange | undefined, flag: ParsedFlag | undefined): Judgement {
  const numericRange = range && (range.min !== undefined || range.max !== undefined);
  const numericValue = value.low !== undefined || value.high !== undefined;
  const bounds = numericRange && numericValue ? compare(value, range) : {};
  if (flag) return fromFlag(flag, bounds);
  if (numericRange && numericValue) {
    const j: Judgement = {};
    if (bounds.above !== undefined) j.is_above_max_range = bounds.above;
    if (bounds.below !== undefined) j.is_below_min_range = bounds.below;
    if (bounds.above || bounds.below) j.interpretation = 'abnormal';
    else if ((range.max === undefined || bounds.above === false) && (range.min === undefined || bounds.below === false)) j.interpretation = 'normal';
    return j;
  }
  // "Not detected" / "n.n." against an upper limit ("< 14"): below the detection limit, so below the limit.
  if (numericRange && value.qualitative === 'negative' && range.max !== undefined && (range.min === undefined || range.min === 0)) {
    return { interpretation: 'normal', is_above_max_range: false };
  }
  if (range && value.qualitative) return fromQualitative(value, range);
  return {};
}

/**
 * A finished result given `range` after it was read (an interval printed apart from it, one sex's range out of
 * both): its bounds, its text when `text` is given, and its interpretation judged again with its own flag.
 */
export function withRange(result: ParsedResult, range: ParsedRange, text?: string): ParsedResult {
  const out: ParsedResult = text === undefined ? { ...result } : { ...result, reference_range_text: text };
  if (range.min !== undefined) out.min_reference_range = range.min;
  if (range.max !== undefined) out.max_reference_range = range.max;
  const value = parseValue(result.value, false);
  return value ? { ...out, ...interpret(value, range, result.flag ? parseFlag(result.flag) : undefined) } : out;
}
