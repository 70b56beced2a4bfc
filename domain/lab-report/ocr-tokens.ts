/**
 * Words of an OCR row that hold a value and its flag glued together in a shape the tokenizer reads as one
 * word ("46.8+", "26.1-", "28(L)"), split into the number and its flag before the row's fields are assigned
 * (rows.ts, assignFields). "7.2H" and "150*" need no help (tokens.ts splits them already).
 */
import { parseFlag, type ParsedFlag } from './flags.js';
import { type Token } from './tokens.js';

/**
 * "46.8+", "482-", "28(L)", "5.1(H)": a number of two digits or more (or with decimals) followed, with no
 * space, by a plus or minus sign, or by H or L in brackets. Reports that mark abnormal results with "+"
 * (above) and "-" (below) print them beside the value, and OCR often loses the gap. A single digit with
 * a sign ("2+", "1+") is a dipstick grade, never split; so is a sign before the number.
 */
const GLUED = /^(\d{2,}|\d+[.,]\d+)(?:([+-])|\(([HL])\))$/;

/** The flag a sign split from its value stands for ("+" above the range, "-" below), as withGluedFlagsSplit gives it. */
export function signFlag(text: string): ParsedFlag | undefined {
  return text === '+' || text === '-' ? { flag: text, severity: 'abnormal', direction: text === '+' ? 'high' : 'low' } : undefined;
}

/** The tokens with glued value-and-flag words split, and the flag each split value carries (by its index). */
export function withGluedFlagsSplit(tokens: Token[]): { tokens: Token[]; flags: Map<number, ParsedFlag> } {
  const out: Token[] = [];
  const flags = new Map<number, ParsedFlag>();
  for (const t of tokens) {
    const m = t.kind === 'word' ? GLUED.exec(t.text) : null;
    if (!m) {
      out.push(t);
      continue;
    }
    const flag = m[2] ? signFlag(m[2]) : parseFlag(m[3]!);
    if (flag) flags.set(out.length, flag);
    out.push({ ...t, kind: 'num', text: m[1]! });
  }
  return { tokens: out, flags };
}

/**
 * "10%9/L" for 10^9/L: OCR reads a caret (or a raised exponent) as a percent sign, and the tokenizer then
 * sees the number 10 and a word "%9/L". The two are one count unit when the exponent is a power of ten
 * counts are given in (3, 6, 9 or 12) and the rest a volume, so the row gets its unit and no stray number.
 */
const CARET_AS_PERCENT = /^%(3|6|9|12)\/([uµμmnp]?l)$/i;

export function withCaretForPercent(tokens: Token[]): Token[] {
  const out: Token[] = [];
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i]!;
    const next = tokens[i + 1];
    const m = t.kind === 'num' && t.text === '10' && next?.kind === 'word' ? CARET_AS_PERCENT.exec(next.text) : null;
    if (m) {
      out.push({ ...t, kind: 'unit', text: `10^${m[1]}/${m[2]}` });
      i++;
    } else out.push(t);
  }
  return out;
}

/**
 * "18*9/L", "1O^9/L" for 10^9/L: a count unit's base is always ten, and OCR reads its zero as a look-alike (a
 * slashed or dotted zero as 8, a round one as the letter O or o, "@"). The tokenizer then sees the number 18 and
 * a word "*9/L", or one word: with the exponent a power counts are given in (3, 6, 9 or 12) and a volume after
 * it, the pieces are the unit 10^n/volume, so the row gets its unit and no stray number.
 */
const ZERO_ALIKE_BASE = /^1[08Oo@]([*^])(3|6|9|12)\/([uµμmnp]?l)$/i;
const EXPONENT_ALONE = /^([*^])(3|6|9|12)\/([uµμmnp]?l)$/i;

export function withCountBaseRepaired(tokens: Token[]): Token[] {
  const out: Token[] = [];
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i]!;
    const next = tokens[i + 1];
    const split = t.kind === 'num' && /^1[08]$/.test(t.text) && next?.kind === 'word' ? EXPONENT_ALONE.exec(next.text) : null;
    const whole = t.kind === 'word' ? ZERO_ALIKE_BASE.exec(t.text) : null;
    if (split) {
      out.push({ ...t, kind: 'unit', text: `10${split[1]}${split[2]}/${split[3]}` });
      i++;
    } else if (whole) out.push({ ...t, kind: 'unit', text: `10${whole[1]}${whole[2]}/${whole[3]}` });
    else out.push(t);
  }
  return out;
}

/**
 * Whether a result flagged with a sign ("46.8+", "26.1-", as withGluedFlagsSplit reads them) lies over three
 * times past its range on the sign's side ("39.1+" beside 0.36-0.46): no reading of such a row, the value
 * is garbled. A value on the other side is left as read: OCR reads specks beside a row as a lone "+" too.
 * Whole values are judged after a lost separator is put back (ocr-recover.ts): this is asked of the final
 * reading.
 */
export function signContradicted(value: number, flag: string | undefined, min: number | undefined, max: number | undefined): boolean {
  const sign = flag === undefined ? undefined : signFlag(flag.trim());
  if (!sign || !Number.isFinite(value)) return false;
  if (sign.direction === 'high') return max !== undefined && max > 0 && value > 3 * max;
  return min !== undefined && value < min / 3;
}
