/**
 * Splits a chunk of a result line into typed tokens: numbers, "<5"-style bounds, ranges ("70 - 99",
 * "up to 5", "M: 13-17"), titres, dates, qualitative phrases ("Not detected", "None seen"), units,
 * flags and plain words. Multi-word tokens are recognised first so their parts are not misread.
 */
import { isUnitToken } from './units.js';
import { parseFlag } from './flags.js';
import { foldSameLength } from './text.js';
import { NUMBER_SOURCE, QUALITATIVE_PHRASES } from './values.js';

export type TokenKind = 'num' | 'pct' | 'cmp' | 'range' | 'ratio' | 'date' | 'qual' | 'unit' | 'flag' | 'label' | 'sep' | 'word';

export interface Token {
  kind: TokenKind;
  text: string;
  /** Index of the chunk the token came from (chunk boundaries are column gaps). */
  chunk: number;
  /** A range introduced by a label ("normal range 135-145", "Ref: <100"): never the value. */
  labelled?: boolean;
}

const N = NUMBER_SOURCE;
// A number must end at a space, the end, a percent sign, a flag letter or a star: "25-OH" and "B12" are words.
// A comma ends it only when no digit follows ("0,77-" is a decimal comma's number and a sign, not "0").
const END = String.raw`(?=\s|$|%|[*!;)\]]|,(?!\d)|(?:HH|LL|H|L)(?:\s|$))`;
// Words that introduce an inline reference range: "normal range", "Ref:", "Referenzbereich", "VN:".
const RANGE_LABEL = new RegExp(
  String.raw`[\[(]?\s*(?:` +
  [
    String.raw`(?:normal|reference|ref\.?|expected)\s+(?:range|interval|values?)\s*:?`,
    String.raw`(?:range|normal|normals|reference|ref\.?|norm|referenz|vn|n|v\.r\.)\s*:`,
    String.raw`(?:referenzbereich|referenzwerte?|normbereich|normalbereich|normwerte?)\s*:?`,
    String.raw`(?:valeurs?\s+(?:de\s+reference|normales|usuelles)|intervalle\s+de\s+reference)\s*:?`,
    // "(normal 135-145)", "(ref 3.5-5.0)": a bracket opened on the word marks it as a label.
    String.raw`(?<=[\[(]\s*)(?:normal|ref\.?|reference|norm)`,
  ].join('|') + String.raw`)(?=\s|$|(?<=:)[\d<>≤≥])`,
  'iy',
);
// (and the bounds in words a range column prints, as ranges.ts reads them: "Above 1.0", "Below 5", "At least 60")
const BOUND_WORDS = String.raw`(?:up to|upto|bis|jusqu'?à|max\.?|min\.?|unter|über|less than|greater than|more than|lower than|higher than|at least|at most|above|below|inférieur à|supérieur à)`;

/** The sex labels of a range printed per sex ("M: 13.0-17.0 F: 12.0-15.0"). */
const SEX_LABEL = String.raw`(?:m|f|w|male|female|men|women|männer|frauen|hommes|femmes)`;

const PATTERNS: [TokenKind, RegExp][] = [
  // "10*3/uL", "10*9/L": UCUM's power of ten, as interfaces and LIS exports send counts; a unit, not "10" and a word.
  ['unit', /10\*\d{1,2}\/(?:[uµμmnp]?l)(?=\s|$)/iy],
  // "(<5.0)", "[> 1.0]", "(up to 5)": a bound in brackets is a range printed alone, never a value.
  ['range', new RegExp(String.raw`[\[(]\s*(?:(?:[<>≤≥]=?|=<|=>)|${BOUND_WORDS})\s*${N}\s*[\])](?=\s|$|[,;])`, 'iy')],
  // "Not Estab." / "Not established": the range column says there is no range; its text is the range.
  ['range', /(?:not\s+estab(?:lished|\.)?|none\s+established|not\s+applicable)(?=\s|$)/iy],
  // Ranges before dates: "3.5-10" is a range, "2024-03-15" fails the range's end check and is a date.
  // (after a first "M:", OCR may lose the next label's colon: "M: 13.0-17.0 F 12.0-15.0")
  ['range', new RegExp(String.raw`${SEX_LABEL}\s*[:=]\s*${N}\s*[-–—]\s*${N}\s*[,;/]?\s*(?:${SEX_LABEL}\s*[:=]?\s*${N}\s*[-–—]\s*${N}\s*[,;/]?\s*){0,2}(?=\s|$)`, 'iy')],
  ['range', new RegExp(String.raw`[\[(]?\s*${N}\s*(?:[-–—]|\s(?:to|bis|à|a)\s)\s*${N}\s*[\])]?${END}`, 'iy')],
  ['range', new RegExp(String.raw`[\[(]\s*${N}\s*;\s*${N}\s*[\])]`, 'y')],
  ['range', new RegExp(String.raw`${BOUND_WORDS}\s*${N}${END}`, 'iy')],
  ['date', /\d{1,4}[./-]\d{1,2}[./-]\d{2,4}(?:\s+\d{1,2}:\d{2}(?::\d{2})?(?:\s?[ap]m)?)?(?=\s|$)/iy],
  ['range', /(?:[<>≤≥]=?)\s*1\s?:\s?\d{1,5}(?=\s|$)/y],
  ['cmp', new RegExp(String.raw`(?:[<>]\s*or\s*=|[<>≤≥]=?|=<|=>)\s*${N}(?:\s?%)?${END}`, 'iy')],
  ['ratio', /1\s?:\s?\d{1,5}(?=\s|$)/y],
  ['date', /\d{1,2}:\d{2}(?::\d{2})?(?:\s?[ap]m)?(?=\s|$)/iy],
  // "Above optimal", "Below reference range": a status of two or three words after the value is one flag.
  ['flag', /(?:above|below)\s+(?:optimal|normal|reference)(?:\s+range)?(?=\s|$)/iy],
  ['pct', new RegExp(String.raw`${N}%(?=\s|$|[*!])`, 'y')],
  ['num', new RegExp(String.raw`${N}${END}`, 'y')],
];

/** Qualitative phrases as regexes over folded text, longest first ("not detected" before "detected"). */
const QUAL_RES = QUALITATIVE_PHRASES.map((p) => new RegExp(`${p.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?=[\\s,.;:)\\]]|$)`, 'y'));
const PLUS_SCALE = /(?:[1-4]\s?\+|\+{1,4})(?=\s|$)/y;

function matchAt(re: RegExp, text: string, pos: number): string | undefined {
  re.lastIndex = pos;
  const m = re.exec(text);
  return m ? m[0] : undefined;
}

/** Classify a single word that is none of the structured kinds. */
function classifyWord(word: string): TokenKind {
  if (isUnitToken(word)) return 'unit';
  if (parseFlag(word)) return 'flag';
  // Dashes, bullets and commas between fields ("Sodium — 140", "45 mg/dL, ...") say nothing.
  if (/^[\p{P}\p{S}]+$/u.test(word)) return 'sep';
  return 'word';
}

/**
 * The printed word at pos. A comma or semicolon closing a unit or a flag ("mg/dL,") is punctuation of
 * the sentence, so it is split off; on other words it stays ("Glucose, fasting" is one name). So is a
 * full stop closing a unit ("89 mg/dL. (ref 70-99)"): no unit is spelled with one at its end.
 */
function wordAt(text: string, pos: number): string {
  const re = /\S+/y;
  re.lastIndex = pos;
  const w = re.exec(text)![0];
  const bare = w.replace(/[,;]+$/, '');
  if (bare !== w && bare !== '' && classifyWord(bare) !== 'word') return bare;
  const unit = w.replace(/\.$/, '');
  return unit !== w && /[/%]/.test(unit) && classifyWord(unit) === 'unit' ? unit : w;
}

/** "mg/dL)" closing a bracketed range, "(mmol/L": a bracket with no partner is not part of the unit. */
function unbracketUnit(text: string): string {
  const open = (text.match(/[([]/g) ?? []).length;
  const close = (text.match(/[)\]]/g) ?? []).length;
  if (open === close) return text;
  return text.replace(/^[([]+|[)\]]+$/g, '');
}

/** Join unit spellings that reports print with spaces: "x 10^3/µL", "10 ^9/L", "mL/min/1.73 m2". */
export function joinSpacedUnits(text: string): string {
  const collapse = (m: string): string => m.replace(/\s+/g, '');
  return text
    .replace(/(?<![\w.,])[x×*]\s*10\s*(?:\^|\*|e|E)?\s*\d{1,2}\s*\/\s*[a-zµμ]+/gi, collapse)
    .replace(/(?<![\d.,])10\s*(?:\^|\*)\s*\d{1,2}\s*\/\s*[a-zµμ]+/gi, collapse)
    .replace(/\/\s*1[.,]73\s*(?:m2|m²|m\^2|qm|sq\.?\s?m)/gi, collapse)
    // "x10^-3 IU/L", "×10⁻³ IU/L": a negative power of ten scaling the unit after it (Danish "10^-3 IU/L" for mIU/L).
    // The power is marked (a leading "x", a caret, a superscript minus): "10-35 U/L" is a range and its unit.
    .replace(/(?<![\w.,])(?:[x×*]\s*10\s*\^?\s*[-−⁻]|10\s*\^\s*[-−⁻]|10⁻)\s*[\d¹²³⁴⁵⁶⁷⁸⁹]{1,2}\s+[a-zµμ]+\/[a-zµμ]+/gi, collapse);
}

/**
 * "umol/LAbove optimal", "mg/dLHigh": a unit ending in litres run into the capitalised word after it (a badge
 * or flag drawn close beside it, joined by the text layer). The word starts where a capital follows "/L" or
 * "/dL" and lower-case letters follow the capital; "/LPF" (all capitals) stays one unit.
 */
export function splitGluedUnit(text: string): string {
  return text.replace(/(\/[dcmuµμn]?L)(?=\p{Lu}\p{Ll}{2,})/gu, '$1 ');
}

/** Tokens of one chunk. */
export function tokenize(chunkText: string, chunk: number): Token[] {
  const text = splitGluedUnit(joinSpacedUnits(chunkText));
  const folded = foldSameLength(text);
  const tokens: Token[] = [];
  let pos = 0;
  while (pos < text.length) {
    if (/\s/.test(text[pos]!)) {
      pos++;
      continue;
    }
    const atWordStart = pos === 0 || /\s/.test(text[pos - 1]!) || tokens.at(-1)?.kind === 'label';
    let found: { kind: TokenKind; len: number } | undefined;
    if (atWordStart) {
      const label = matchAt(RANGE_LABEL, folded, pos);
      if (label) found = { kind: 'label', len: label.length };
      for (const [kind, re] of found ? [] : PATTERNS) {
        const m = matchAt(re, text, pos);
        if (m) {
          found = { kind, len: m.length };
          break;
        }
      }
      if (!found) {
        const plus = matchAt(PLUS_SCALE, text, pos);
        if (plus) found = { kind: 'qual', len: plus.length };
      }
      if (!found) {
        for (const re of QUAL_RES) {
          const m = matchAt(re, folded, pos);
          if (m) {
            // An abbreviation's closing point belongs to it ("n.n.", "s. Kommentar." is not one).
            const point = /^\p{L}\.\p{L}$/u.test(m.slice(-3)) && text[pos + m.length] === '.' ? 1 : 0;
            found = { kind: 'qual', len: m.length + point };
            break;
          }
        }
      }
    }
    if (!found) {
      const w = wordAt(text, pos);
      found = { kind: classifyWord(w), len: w.length };
    }
    const tokenText = text.slice(pos, pos + found.len).trim();
    tokens.push({ kind: found.kind, text: found.kind === 'unit' ? unbracketUnit(tokenText) : tokenText, chunk });
    pos += found.len;
  }
  return splitTrailingMarks(tokens);
}

/** "150*" / "6.2H" were read as a number then a mark: make sure the mark is its own flag token. */
function splitTrailingMarks(tokens: Token[]): Token[] {
  return tokens.map((t) => (t.kind === 'word' && /^[*!]+$/.test(t.text) ? { ...t, kind: 'flag' as const } : t));
}

/**
 * A range label makes the token after it the reference range, even one that could pass for a value
 * ("normal range >40", "Ref: 135-145"); the label itself is dropped. A label with no range after it is
 * an ordinary word.
 */
export function applyRangeLabels(tokens: Token[], isRange: (text: string) => boolean): Token[] {
  const out: Token[] = [];
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i]!;
    if (t.kind !== 'label') {
      out.push(t);
      continue;
    }
    const next = tokens[i + 1];
    if (next && (next.kind === 'range' || next.kind === 'cmp' || next.kind === 'qual') && isRange(next.text)) {
      out.push({ ...next, kind: 'range', labelled: true });
      i++;
    } else out.push({ ...t, kind: 'word' });
  }
  return out;
}
