/**
 * Splits a chunk of a result line into typed tokens: numbers, "<5"-style bounds, ranges ("70 - 99",
 * "up to 5", "M: 13-17"), titres, dates, qualitative phrases ("Not detected", "None seen"), units,
 * flags and plain words. Multi-word tokens are recognised first so their parts are not misread.
 */
import { isUnitToken } from './units.js';
import { parseFlag } from './flags.js';
import { foldSameLength } from './text.js';
import { NUMBER_SOURCE, QUALITATIVE_PHRASES } from './values.js';

export type TokenKind = 'num' | 'pct' | 'cmp' | 'range' | 'ratio' | 'date' | 'qual' | 'unit' | 'flag' | 'word';

export interface Token {
  kind: TokenKind;
  text: string;
  /** Index of the chunk the token came from (chunk boundaries are column gaps). */
  chunk: number;
}

const N = NUMBER_SOURCE;
// A number must end at a space, the end, a percent sign, a flag letter or a star: "25-OH" and "B12" are words.
const END = String.raw`(?=\s|$|%|[*!,;)\]]|(?:HH|LL|H|L)(?:\s|$))`;
const PATTERNS: [TokenKind, RegExp][] = [
  // Ranges before dates: "3.5-10" is a range, "2024-03-15" fails the range's end check and is a date.
  ['range', new RegExp(String.raw`(?:(?:m|f|w|male|female|men|women|männer|frauen|hommes|femmes)\s*[:=]\s*${N}\s*[-–—]\s*${N}\s*[,;/]?\s*){1,3}(?=\s|$)`, 'iy')],
  ['range', new RegExp(String.raw`[\[(]?\s*${N}\s*(?:[-–—]|\s(?:to|bis|à|a)\s)\s*${N}\s*[\])]?${END}`, 'iy')],
  ['range', new RegExp(String.raw`[\[(]\s*${N}\s*;\s*${N}\s*[\])]`, 'y')],
  ['range', new RegExp(String.raw`(?:up to|upto|bis|jusqu'?à|max\.?|min\.?|unter|über|less than|greater than|inférieur à|supérieur à)\s*${N}${END}`, 'iy')],
  ['date', /\d{1,4}[./-]\d{1,2}[./-]\d{2,4}(?:\s+\d{1,2}:\d{2}(?::\d{2})?(?:\s?[ap]m)?)?(?=\s|$)/iy],
  ['range', /(?:[<>≤≥]=?)\s*1\s?:\s?\d{1,5}(?=\s|$)/y],
  ['cmp', new RegExp(String.raw`(?:[<>≤≥]=?|=<|=>)\s*${N}(?:\s?%)?${END}`, 'y')],
  ['ratio', /1\s?:\s?\d{1,5}(?=\s|$)/y],
  ['date', /\d{1,2}:\d{2}(?::\d{2})?(?:\s?[ap]m)?(?=\s|$)/iy],
  ['pct', new RegExp(String.raw`${N}%(?=\s|$|[*!])`, 'y')],
  ['num', new RegExp(String.raw`${N}${END}`, 'y')],
];

/** Qualitative phrases as regexes over folded text, longest first ("not detected" before "detected"). */
const QUAL_RES = QUALITATIVE_PHRASES.map((p) => new RegExp(`${p.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?=[\\s,.;:]|$)`, 'y'));
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
  return 'word';
}

/** Join unit spellings that reports print with spaces: "x 10^3/µL", "10 ^9/L", "mL/min/1.73 m2". */
export function joinSpacedUnits(text: string): string {
  const collapse = (m: string): string => m.replace(/\s+/g, '');
  return text
    .replace(/(?<![\w.,])[x×*]\s*10\s*(?:\^|\*|e|E)?\s*\d{1,2}\s*\/\s*[a-zµμ]+/gi, collapse)
    .replace(/(?<![\d.,])10\s*(?:\^|\*)\s*\d{1,2}\s*\/\s*[a-zµμ]+/gi, collapse)
    .replace(/\/\s*1[.,]73\s*(?:m2|m²|m\^2|qm|sq\.?\s?m)/gi, collapse);
}

/** Tokens of one chunk. */
export function tokenize(chunkText: string, chunk: number): Token[] {
  const text = joinSpacedUnits(chunkText);
  const folded = foldSameLength(text);
  const tokens: Token[] = [];
  let pos = 0;
  while (pos < text.length) {
    if (/\s/.test(text[pos]!)) {
      pos++;
      continue;
    }
    const atWordStart = pos === 0 || /\s/.test(text[pos - 1]!);
    let found: { kind: TokenKind; len: number } | undefined;
    if (atWordStart) {
      for (const [kind, re] of PATTERNS) {
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
            found = { kind: 'qual', len: m.length };
            break;
          }
        }
      }
    }
    if (!found) {
      const word = /\S+/y;
      word.lastIndex = pos;
      const w = word.exec(text)![0];
      found = { kind: classifyWord(w), len: w.length };
    }
    tokens.push({ kind: found.kind, text: text.slice(pos, pos + found.len).trim(), chunk });
    pos += found.len;
  }
  return splitTrailingMarks(tokens);
}

/** "150*" / "6.2H" were read as a number then a mark: make sure the mark is its own flag token. */
function splitTrailingMarks(tokens: Token[]): Token[] {
  return tokens.map((t) => (t.kind === 'word' && /^[*!]+$/.test(t.text) ? { ...t, kind: 'flag' as const } : t));
}
