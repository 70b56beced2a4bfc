/**
 * Reference intervals printed apart from the results they belong to. Some reports (Indian diagnostic centres,
 * small hospital systems) print the results table with no range column and the intervals elsewhere on the page,
 * each named again: as lines of their own ("Bio. Ref. Interval — TSH: 0.54 - 5.30 µIU/mL", "Reference range
 * for Glucose: 70 - 99 mg/dL") or as a small table of name and range pairs under a "Reference Range" heading
 * ("TSH   0.54 - 5.30 µIU/mL   HbA1c   4.0 - 5.6 %"). Those lines are no results; each interval goes to the
 * result without a range of its own that the name it is printed with names: the same words, the abbreviation
 * in the result's brackets ("TSH" for "THYROID STIMULATING HORMONE (TSH)"), or the same LOINC code when both
 * names are known tests.
 */
import { withRange } from './interpret.js';
import { matchLoinc } from './loinc-match.js';
import { type ParsedRange, parseRange } from './ranges.js';
import { foldText, squash, trailingBracket } from './text.js';
import type { LoincMatch, ParsedResult, TextLine } from './types.js';
import { isUnitToken } from './units.js';

export interface RangeStatement {
  /** The name the interval is printed with. */
  name: string;
  range: ParsedRange;
}

/** "Bio. Ref. Interval", "Biological reference interval", "Reference range", "Ref. Range", "Normal range" (folded). */
// (OCR may read a point as a comma: "Bio. Ref, Interval".)
const LABEL = String.raw`(?:bio(?:logical)?[.,]?\s*ref(?:erence)?[.,]?\s*(?:interval|range)|reference\s+(?:range|interval)s?|ref[.,]?\s*(?:range|interval)|normal\s+range)`;
const LABEL_ANYWHERE = new RegExp(LABEL, 'i');
/**
 * A line that is a label, a name and an interval: "Bio. Ref. Interval — TSH: 0.54 - 5.30 µIU/mL", "Reference
 * range for Glucose: 70-99". From OCR the dash and the colon may be lost ("Bio. Ref. Interval VLDL CHOLESTEROL
 * 5 - 40 mg/dL"): the name then ends where an interval begins.
 */
const STATEMENT = new RegExp(String.raw`^${LABEL}\s*(?:[—–:-]+|\bfor\b|\bof\b)?\s*(\S.*)$`, 'i');
/** A heading over a table of name and range pairs. */
const TABLE_HEADING = new RegExp(String.raw`^${LABEL}s?\s*:?$`, 'i');
const HEADER_WORDS = /^(test|tests|parameter|investigation|analyte|range|ranges|reference|interval)$/i;
/** "Reference range: Male: 13.5-17.5", "Ref. range — Adults: 70-99": a population or condition, not a test's name. */
const NOT_A_NAME = /^(adults?|males?|females?|men|women|m|f|children|child|infants?|newborns?|pregnan\w*|fasting|non-?fasting|random|normal|optimal|desirable|borderline|high|low)$/i;

/** The interval a printed text gives, its unit after it set aside ("60 - 200 ng/dL"). */
function rangeOf(text: string, decimalComma: boolean, looseUnit = false): ParsedRange | undefined {
  const words = squash(text).split(' ');
  // The last word is a unit, or (from OCR) a word that was one ("plu/mt").
  if (words.length > 1 && (isUnitToken(words.at(-1)!) || (looseUnit && !/\d/.test(words.at(-1)!)))) words.pop();
  const range = parseRange(words.join(' '), decimalComma);
  return range && (range.min !== undefined || range.max !== undefined) ? range : undefined;
}

/** "TSH: 0.54 - 5.30 µIU/mL", "VLDL CHOLESTEROL 5 - 40 mg/dL": the name and the interval, split where an interval begins. */
function nameAndRange(rest: string, decimalComma: boolean): RangeStatement | undefined {
  for (const m of rest.matchAll(/(?<=[\s:])(?=[<>≤≥]|\d)/g)) {
    const name = rest.slice(0, m.index).replace(/[\s:;.—–-]+$/, '').trim();
    // A name starts with a letter and holds no second label ("Ref. range 70 - 99 mg/dL   Ref. range 7 - 25 mg/dL":
    // two cards' ranges on one line, no name at all).
    if (!/^\p{L}/u.test(name) || name.length > 60 || NOT_A_NAME.test(name) || LABEL_ANYWHERE.test(name)) continue;
    const range = rangeOf(rest.slice(m.index), decimalComma, true);
    if (range) return { name, range };
  }
  return undefined;
}

const hasLetters = (text: string) => /\p{L}/u.test(text);

/**
 * The intervals printed apart on these lines, and the lines that hold them (to be read as no results). Lines
 * of a statement anywhere; a table's rows after its heading, as long as every row is made of name and range
 * pairs (its header row "Test | Range" included).
 */
export function rangeStatements(lines: TextLine[], decimalComma: boolean): { statements: RangeStatement[]; lines: Set<TextLine> } {
  const statements: RangeStatement[] = [];
  const used = new Set<TextLine>();
  let inTable = false;
  for (const line of lines) {
    const text = squash(line.text);
    const m = STATEMENT.exec(text);
    const statement = m ? nameAndRange(m[1]!, decimalComma) : undefined;
    if (statement) {
      statements.push(statement);
      used.add(line);
      inTable = false;
      continue;
    }
    if (TABLE_HEADING.test(foldText(text))) {
      inTable = true;
      used.add(line);
      continue;
    }
    if (!inTable) continue;
    const cells = (line.cells?.map((c) => squash(c.text)) ?? [text]).filter(Boolean);
    if (cells.length >= 2 && cells.length % 2 === 0 && cells.every((c) => HEADER_WORDS.test(c))) {
      used.add(line);
      continue;
    }
    const pairs: RangeStatement[] = [];
    for (let i = 0; i + 1 < cells.length; i += 2) {
      const range = hasLetters(cells[i]!) ? rangeOf(cells[i + 1]!, decimalComma) : undefined;
      if (!range || rangeOf(cells[i]!, decimalComma)) break;
      pairs.push({ name: cells[i]!, range });
    }
    if (pairs.length === 0 || pairs.length * 2 !== cells.length) {
      inTable = false;
      continue;
    }
    statements.push(...pairs);
    used.add(line);
  }
  return { statements, lines: used };
}

const key = (name: string) => squash(foldText(name).replace(/[^\p{L}\p{N}]+/gu, ' '));
/** A LOINC match sure enough to say two names are one test. */
const SURE = 0.8;

function names(statement: RangeStatement, theirs: LoincMatch | undefined, result: ParsedResult): boolean {
  const s = key(statement.name);
  if (s === '') return false;
  if (s === key(result.test_name)) return true;
  const inner = trailingBracket(result.test_name);
  if (inner && s === key(inner)) return true;
  const own = result.loinc_matches?.[0];
  return !!own && !!theirs && own.confidence_score >= SURE && theirs.confidence_score >= SURE && own.loinc_code === theirs.loinc_code;
}

/** Each result without a range gets the interval printed apart for it (each interval used once, first match first). */
export function withRemoteRanges(results: ParsedResult[], statements: RangeStatement[]): ParsedResult[] {
  if (statements.length === 0) return results;
  const left = statements.map((statement) => ({ statement, theirs: matchLoinc(statement.name)[0] }));
  return results.map((r) => {
    if (r.reference_range_text) return r;
    const at = left.findIndex(({ statement, theirs }) => names(statement, theirs, r));
    if (at < 0) return r;
    const { range } = left.splice(at, 1)[0]!.statement;
    return withRange(r, range, range.text);
  });
}
