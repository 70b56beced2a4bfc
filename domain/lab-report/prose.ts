/**
 * Results written in sentences, as a doctor's letter gives them: "Your total cholesterol was 4.6 mmol/L
 * (ideal below 5.0).", "creatinine was 94 umol/L (normal 60 to 110)", wrapped over lines anywhere.
 *
 * The region's lines are joined into running text and cut into sentences. In each, a result is a
 * number with a unit right after it, or with a reference range in brackets after it; its name is the
 * first test name the LOINC table knows in the words since the sentence's start or its previous result
 * (a name is one to four words between punctuation, never starting or ending with a word such as
 * "your" or "was"). A cut-off ("below 70 mg/dL", "126 mg/dL or higher") is no result. Prose without results gives nothing: a date, a phone number, "2 tablets" or "three
 * months" has no unit, and a number with a unit but no known test name before it is no result.
 */
import { parseRange, type ParsedRange } from './ranges.js';
import { type RowCandidate } from './rows.js';
import { foldText, squash } from './text.js';
import { isUnitToken } from './units.js';
import { NUMBER_SOURCE, parseValue } from './values.js';
import { type NameConfidence } from './types.js';

/** A phrase names a test in running text only at this confidence (the matcher's exact and alias matches). */
const PROSE_NAME_CONFIDENCE = 0.85;

/** Words that start or end no test name in a sentence. */
const GLUE = new Set(
  'your my his her their our the a an this that these those and or but of for in on at to with from by was were is are be been being has have had level levels result results value reading test tests came back showed shows which who it its also now still only just very quite slightly ist war waren sind ihr ihre der die das ein eine und votre vos le la les un une et est etait sont'.split(' '),
);

/** Label words in a bracketed range: "(ideal below 5.0)", "(normal is below 42)", "(normal range 3.9 to 5.5)". */
const RANGE_LEAD =
  /^(?:(?:the|a|an)\s+)?(?:(?:ideal|normal|target|desirable|optimal|healthy|recommended|reference|usual|expected|normwert|norm|referenzbereich|normale|valeurs? normales?|reference)\s*)+(?:(?:range|interval|limits?|levels?|values?|bereich|is|was|would be|should be|being|are|of)\s*)*[:=]?\s*/i;

/** Cut running text into sentences: at ".", "!" or "?" followed by a space and a capital, quote or bracket. */
function sentences(text: string): string[] {
  return text
    .split(/(?<=[.!?])\s+(?=["'“(]?\p{Lu})/u)
    .map((s) => s.trim())
    .filter((s) => s !== '');
}

const NUMBER_AT = new RegExp(String.raw`(?<![\p{L}\d.,/:-])((?:[<>]=?|≤|≥)\s*)?(${NUMBER_SOURCE.replace('[-−]?', '')})(?![\d/:])`, 'gu');

/** The unit right after a number: "mmol/L", "%", "x10^9/L", without a closing comma or full stop. */
function unitAfter(rest: string): { unit: string; length: number } | undefined {
  const m = /^(\s?%|\s+\S+)/.exec(rest);
  if (!m) return undefined;
  const word = m[1]!.trim().replace(/[,;.:)]+$/, '');
  return word !== '' && isUnitToken(word) ? { unit: word, length: m[1]!.trim() === word ? m[0].length : m[0].indexOf(word) + word.length } : undefined;
}

/** A bracketed range right after the value (and its unit): "(ideal below 5.0)", "(normal 60 to 110)". */
function rangeAfter(rest: string, decimalComma: boolean): { range: ParsedRange; length: number } | undefined {
  const m = /^\s*[([]([^()[\]]{1,60})[)\]]/.exec(rest) ?? /^\s*[,;]?\s*((?:reference|normal|target) (?:range|interval)[^.;()]{1,40})/i.exec(rest);
  if (!m) return undefined;
  const inner = squash(m[1]!).replace(RANGE_LEAD, '');
  const range = parseRange(inner, decimalComma);
  return range && (range.min !== undefined || range.max !== undefined) ? { range, length: m[0].length } : undefined;
}

/**
 * A cut-off, not a result: a number after a bound word ("below 70 mg/dL", "greater than 7.0 %") or
 * before "or higher" / "and above" ("126 mg/dL or higher").
 */
const BOUND_BEFORE = /\b(?:above|below|over|under|than|least|most|between|exceeding|exceeds|beyond|unter|uber|über|ab|inferior a|superior a|inferieur a|superieur a|moins de|plus de)\s*$/i;
const BOUND_AFTER = /^\s*(?:or|and|oder|ou)\s+(?:higher|more|above|greater|over|less|lower|below|under|fewer|hoher|mehr|plus|moins)\b/i;

/** The first phrase of `segment` the LOINC table knows as a test, longest first at each word. */
function firstKnownName(segment: string, confidence: NameConfidence): string | undefined {
  for (const run of segment.split(/[,;:()"“”'‘’!?]|\s[-–—]\s|\.\s/)) {
    const words = run.split(/\s+/).filter((w) => w !== '');
    for (let i = 0; i < words.length; i++) {
      if (GLUE.has(foldText(words[i]!)) || !/\p{L}/u.test(words[i]!)) continue;
      for (let n = Math.min(4, words.length - i); n >= 1; n--) {
        const phrase = words.slice(i, i + n);
        if (GLUE.has(foldText(phrase.at(-1)!))) continue;
        const name = phrase.join(' ');
        if (confidence(name) >= PROSE_NAME_CONFIDENCE) return name;
      }
    }
  }
  return undefined;
}

/** A line of running text: six words or more, two thirds of them words of letters (not numbers, units or codes). */
function isProseLine(text: string): boolean {
  const words = text.split(/\s+/).filter((w) => w !== '');
  const plain = words.filter((w) => /^["'“(]?\p{L}[\p{L}'’-]*[,.;:!?)"”]*$/u.test(w) && !isUnitToken(w.replace(/[,.;:)]+$/, '')));
  return words.length >= 6 && plain.length * 3 >= words.length * 2;
}

/** Whether lines are mostly running text (by the share of their characters): a letter, not a table with notes under rows. */
export function isProse(lines: string[]): boolean {
  const total = lines.reduce((n, l) => n + l.length, 0);
  const prose = lines.filter(isProseLine).reduce((n, l) => n + l.length, 0);
  return total > 0 && prose * 2 >= total;
}

/** The results written in the sentences of `lines` (the lines' texts in reading order). */
export function readProse(lines: string[], decimalComma: boolean, confidence: NameConfidence): RowCandidate[] {
  const out: RowCandidate[] = [];
  for (const sentence of sentences(squash(lines.join(' ')))) {
    let from = 0;
    for (const m of sentence.matchAll(NUMBER_AT)) {
      if (m.index < from) continue;
      const end = m.index + m[0].length;
      const unit = unitAfter(sentence.slice(end));
      const range = rangeAfter(sentence.slice(end + (unit?.length ?? 0)), decimalComma);
      if (!unit && !range) continue;
      if (BOUND_BEFORE.test(foldText(sentence.slice(from, m.index))) || BOUND_AFTER.test(foldText(sentence.slice(end + (unit?.length ?? 0))))) continue;
      const name = firstKnownName(sentence.slice(from, m.index), confidence);
      const value = parseValue(`${m[1] ?? ''}${m[2]!}`, decimalComma);
      if (!name || !value) continue;
      out.push({ name, value, unit: unit?.unit, range: range?.range, viaColumns: false, extraNumbers: 0 });
      // The next result's name comes after this one's value, unit and range.
      from = end + (unit?.length ?? 0) + (range?.length ?? 0);
    }
  }
  return out;
}
