import { loincEntry } from '../../domain/lab-report/loinc-table.js';
import { matchLoinc } from '../../domain/lab-report/loinc-match.js';
import { parseRange } from '../../domain/lab-report/ranges.js';
import { canonicalUnit, isUnitToken } from '../../domain/lab-report/units.js';

/**
 * Clean-up of OCR words on lab reports. Specks and paper grain come out as quote marks and braces
 * stuck to words ("„4.7", "{0 - 21)", "“(45"), and unit spellings lose their slash or their "l" to a
 * look-alike ("mgidL", "mmoliL", "mmo1/L"). Only changes with one obvious reading are made: a
 * repaired unit must be a unit the parser knows, and a number's digits are never touched.
 */

/** Marks that are never part of a lab report word's edge, but are what specks look like. */
const STRAY = /^[„“”‘’‚‛`´'"°^~«»·•…,.:;]+|[„“”‘’‚‛`´'"°^~«»·•…]+$/g;

/** One word, stripped of stray marks at its edges; "" when nothing of it is left worth keeping. */
export function cleanWord(raw: string): string {
  let w = raw.trim();
  // A leading point is kept when a number follows it directly (".5"): the plausibility check judges that.
  const leadingPoint = /^[.,]\d/.test(w);
  w = leadingPoint ? w.replace(/[„“”‘’‚‛`´'"°^~«»·•…]+$/g, '') : w.replace(STRAY, '');
  // Braces are bracket misreadings next to a number: "{150 - 400)" → "(150 - 400)".
  w = w.replace(/^\{(?=[\d<>.,-])/, '(').replace(/(?<=[\d.,%])\}$/, ')');
  // A speck between a number and the star or mark flagging it ("11,3°*"): the speck goes, the flag stays.
  w = w.replace(/(?<=\d)[„“”‘’‚‛`´'"°^~]+(?=[*!]+$)/, '');
  // A number closed by a stray comma or point ("5.01,", "98."): the mark is not part of it.
  w = w.replace(/^([<>]?\d+(?:[.,]\d+)?)[.,:;]$/, '$1');
  w = singleSeparators(w);
  if (w === '') return '';
  // Nothing but marks: noise, unless it is a mark reports use on their own.
  if (!/[\p{L}\p{N}]/u.test(w) && !/^(?:[-–<>%*+=/()]+|\*{1,3})$/.test(w)) return '';
  return w;
}

/**
 * "5,.20", "3.,5": a comma and a point side by side between digits, one of them a speck: no number is
 * printed so. The one kept is the separator the word's other numbers use ("3,80-5,.20" → "3,80-5,20"), else
 * the first.
 */
function singleSeparators(word: string): string {
  if (!/\d(?:,\.|\.,)\d/.test(word)) return word;
  const others = word.replace(/\d(?:,\.|\.,)\d/g, '');
  const comma = /\d,\d/.test(others);
  const point = /\d\.\d/.test(others);
  return word.replace(/(\d)([,.])([,.])(?=\d)/g, (_m, d: string, first: string) => `${d}${comma !== point ? (comma ? ',' : '.') : first}`);
}

// Look-alikes OCR swaps inside unit spellings: what was read → what may have been printed.
const LOOK_ALIKES: [string, string[]][] = [
  ['i', ['/', 'l']],
  ['I', ['/', 'l']],
  ['l', ['/']],
  ['1', ['l', '/']],
  ['|', ['/', 'l']],
  ['!', ['l', '/']],
  ['V', ['l/']],
  ['v', ['l/']],
  ['t', ['/']],
  ['0', ['o']],
  // "GA", "mmolA": a slash and an ell run together into an A.
  ['A', ['/l']],
];

/**
 * A word that is not a known unit but becomes one by undoing a single look-alike swap ("mgidL" →
 * "mg/dL", "mmo1" → "mmol", "IHPF" → "/HPF"), else the word as it was. Words starting with a digit
 * are values, not units ("4l" stays). A real word one swap away from a unit spelling is not known.
 */
export function repairUnit(word: string): string {
  // "x1049/L", "x10"9/L", "x10/9/L", "x1079/L", "x10%9/L": a superscript caret read as a 4, a 7, a quote, a
  // percent sign or a slash in a power of ten (no count unit has a 10^4x or 10^7x, and no mark stands between
  // 10 and its exponent). The litre's slash may come as a look-alike of its own ("x10°91L", "x10°9/1L").
  const power = /^([x×*]?10)[47"'“”’/°%](3|6|9|12)(?:\/[1lI|]?(?=[lL]$)|[1lI|](?=[lL]$)|\/)([a-zµμ]+)$/i.exec(word);
  if (power && isUnitToken(`${power[1]}^${power[2]}/${power[3]}`)) return `${power[1]}^${power[2]}/${power[3]}`;
  if (word.length < 2 || word.length > 14 || isUnitToken(word)) return word;
  const raised = raisedRepaired(word);
  if (raised) return raised;
  // "15UL": a value run into a unit that lost its slash; the digits stay as read.
  const glued = /^(\d+(?:[.,]\d+)?)(\p{L}{2,}[.,:;]?)$/u.exec(word);
  if (glued && !isUnitToken(glued[2]!)) {
    const unit = withSlash(glued[2]!.replace(/[.,:;]$/, ''));
    if (unit) return `${glued[1]} ${unit}`;
  }
  if (/^\d/.test(word) || !/\p{L}/u.test(word)) return word;
  // "mmol/L.", "g/l:": a speck closing a unit ("s." and "h." are abbreviations, not seconds and hours).
  const bare = word.replace(/[.,:;]+$/, '');
  if (bare !== word) return bare.length >= 2 && isUnitToken(bare) ? bare : (withSlash(bare) ?? word);
  const slashed = withSlash(word);
  if (slashed) return slashed;
  return lookAlikeSwaps(word).find(isUnitToken) ?? word;
}

/** The word with one look-alike swap undone, each way LOOK_ALIKES allows, left to right. */
function lookAlikeSwaps(word: string): string[] {
  const out: string[] = [];
  for (let i = 0; i < word.length; i++) {
    for (const [from, tos] of LOOK_ALIKES) if (word.startsWith(from, i)) for (const to of tos) out.push(word.slice(0, i) + to + word.slice(i + from.length));
  }
  return out;
}

/** Marks OCR reads a raised 2 or 3 as, at the end of a unit ("/mm?", "/mm*", "1.73m?"). */
const RAISED_MARK = /^(.*\p{L})[?*°'"’”]$/u;

/**
 * "/mm?", "cells/mm*", "milhöes/mm?", "fmm?", "mL/min/1.73m?": a unit whose raised 2 or 3 (mm³, m²) OCR read
 * as a mark, perhaps with one more look-alike in it (an accent on a letter, a slash read as "f"): the mark
 * is read as the one superscript that makes a known unit. Where both do, a metre after a number ("1.73m") is
 * a body surface area, squared; otherwise the word is left as read. A mark after a word that is a unit
 * without it ("mg/dL*") is not touched: there it is a flag or a footnote.
 */
function raisedRepaired(word: string): string | undefined {
  const m = RAISED_MARK.exec(word);
  // A question mark is no flag nor footnote: after a unit it is the superscript, even where the unit is one without it.
  if (!m || (isUnitToken(m[1]!) && !word.endsWith('?'))) return undefined;
  // A leading "f" may be a slash too ("fmm?").
  const bases = [m[1]!, foldAccents(m[1]!), ...(m[1]!.startsWith('f') ? [`/${m[1]!.slice(1)}`] : []), ...lookAlikeSwaps(m[1]!)];
  for (const base of bases) {
    const readings = ['²', '³'].map((s) => base + s).filter(isUnitToken);
    if (readings.length === 1) return readings[0];
    if (readings.length === 2 && /\d[.,]\d+m$/.test(base)) return `${base}²`;
  }
  return undefined;
}

/** "milhöes" → "milhoes": letters with a mark OCR may have put on them, bare. */
const foldAccents = (text: string): string => text.normalize('NFD').replace(/\p{M}/gu, '').normalize('NFC');

/**
 * "gL", "UL", "mmolL": a unit whose slash OCR lost, when putting one back between two letters makes a
 * known unit. "mL" and "ml" are millilitres, not a lost "m/L".
 */
function withSlash(word: string): string | undefined {
  if (word.includes('/') || word.length < 2 || /^m[lL]$/.test(word)) return undefined;
  for (let i = 1; i < word.length; i++) {
    if (!/\p{L}/u.test(word[i - 1]!) || !/\p{L}/u.test(word[i]!)) continue;
    const candidate = `${word.slice(0, i)}/${word.slice(i)}`;
    if (isUnitToken(candidate)) return candidate;
  }
  return undefined;
}

/**
 * "mmol /L", "U/ L", "mmo1 / L": a unit split around its slash, joined again (and repaired) when the
 * pieces make a known unit; other words are left alone ("Leukozyten /nl" stays two words).
 */
export function joinUnitPieces(words: string[]): string[] {
  const out = [...words];
  for (let i = 0; i < out.length; i++) {
    for (let span = Math.min(3, out.length - i); span >= 2; span--) {
      const pieces = out.slice(i, i + span);
      const slashAtJoin = pieces.slice(0, -1).some((p, k) => p.endsWith('/') || pieces[k + 1]!.startsWith('/'));
      if (!slashAtJoin) continue;
      const joined = repairUnit(pieces.join(''));
      if (isUnitToken(joined)) {
        out.splice(i, span, joined);
        break;
      }
    }
  }
  return out;
}

/**
 * "x 10%/L", "x 10P/uL", "x 109/uL", "x 10%uL": a power of ten whose superscript exponent OCR read as
 * one other glyph (a mark, a letter, a wrong digit), the slash perhaps lost. The glyph cannot say
 * whether 10³ or 10⁶ was printed, but the row's test can: a count unit's exponent is fixed by the
 * analyte and the volume (leukocytes and platelets 10³/µL or 10⁹/L, red cells 10⁶/µL or 10¹²/L). The
 * first cell of the line is taken as the test's name; when the LOINC table knows it (as a count), with
 * exactly one power of ten for that volume among its usual units, the cell's power of ten is rewritten
 * with that exponent. A power of ten already right for the analyte is left as printed; a name the table
 * does not know, or a cell of other words, is left as read.
 */
const GARBLED_POWER = /^(.*?)(?:^|\s)[x×X*]\s?10\s?([^\s\d]|\d)\s?\/?\s?([uµμ]?)([lL])$/;

const SUPERSCRIPT: Record<string, string> = { '³': '3', '⁶': '6', '⁹': '9' };

/**
 * "10%uL", "10°/µL": a cell that is only a power of ten without its "x", whose exponent OCR read as a mark
 * (not a letter nor a digit: "10 mL" and "103/uL" are not this).
 */
const BARE_POWER = /^()10([^\s\p{L}\d])\/?([uµμ]?)([lL])$/u;

/**
 * "10791" for 10^9/l, "10124" for 10^12/l, "1079/]": a count unit whose caret OCR read as a 7 or a 4 (or lost) and
 * whose slash and ell came out as a 1, a 4 or a bracket, leaving digits only. Read so only in the unit's place
 * (after the row's value) and only with the exponent the table knows for the test (bareDigitsPower).
 */
const digitsPower = (exponent: string) => new RegExp(`^10[47^"'°]?${exponent}\\/?[\\]1lI|4]$`);
const VALUE_CELL = /^[<>]?\d+(?:[.,]\d+)?(?:\s?\S{1,2})?$/;

export function repairCountExponents(cells: string[]): string[] {
  if (cells.length < 2) return cells;
  const name = cells[0]!.replace(/^[^\p{L}]+/u, '').trim();
  if (!/\p{L}{2}/u.test(name) || /\d/.test(name)) return cells;
  let exponents: Map<string, string> | undefined;
  return cells.map((cell, i) => {
    if (i === 0) return cell;
    if (i >= 2 && /^10\d{2,3}\/?[\]1lI|4]?$/.test(cell.trim()) && VALUE_CELL.test(cells[i - 1]!.trim())) {
      exponents ??= countExponents(name);
      const exponent = exponents.get('l');
      if (exponent && digitsPower(exponent).test(cell.trim())) return `10^${exponent}/l`;
    }
    const bare = BARE_POWER.exec(cell.trim());
    const m = GARBLED_POWER.exec(cell.trim()) ?? bare;
    if (!m) return cell;
    exponents ??= countExponents(name);
    const volume = m[3] ? 'ul' : 'l';
    const exponent = exponents.get(volume);
    // An exponent read right ("×10³/µL", "x103/uL") is left as printed.
    if (!exponent || (SUPERSCRIPT[m[2]!] ?? m[2]) === exponent) return cell;
    const unit = `${bare ? '' : 'x'}10^${exponent}/${m[3] ? 'uL' : 'L'}`;
    return m[1]!.trim() === '' ? unit : `${m[1]!.trim()} ${unit}`;
  });
}

/** The one power of ten per volume ("ul", "l") among the usual units of the test the table knows by this name. */
function countExponents(name: string): Map<string, string> {
  const out = new Map<string, string>();
  const top = matchLoinc(name, { unit: '10^9/L' })[0];
  if (!top || top.confidence_score < 0.75) return out;
  const seen = new Map<string, Set<string>>();
  for (const u of loincEntry(top.loinc_code)?.units ?? []) {
    const p = /^10\^(\d{1,2})\/(ul|l)$/i.exec(canonicalUnit(u));
    if (!p) continue;
    const volume = p[2]!.toLowerCase();
    seen.set(volume, new Set([...(seen.get(volume) ?? []), p[1]!]));
  }
  for (const [volume, exps] of seen) if (exps.size === 1) out.set(volume, [...exps][0]!);
  return out;
}

/** Thin glyphs an up arrow printed after a value comes out as: "129 1", "6,009 ı". */
const ARROW_GLYPH = /^([<>]?\d+(?:[.,]\d+)?)\s+[1lI|ıi!tT↑]$/;

/**
 * "129 1", "6,009 ı": a value whose up arrow OCR read as a thin glyph of its own (a digit 1, an l, a
 * bar). Such a cell holds two numbers, and the row is refused. When the line's range (a later cell that
 * reads as a range with an upper bound) says the value is above it, the glyph is the arrow: the cell is
 * given back as "129 ↑". Below or inside the range, or with no range on the line, it is left as read
 * (a down arrow's look-alikes are not known well enough to be told from a stray mark).
 */
export function repairArrowGlyphs(cells: string[]): string[] {
  return cells.map((cell, i) => {
    const m = ARROW_GLYPH.exec(cell.trim());
    if (!m || i === 0) return cell;
    const value = m[1]!;
    for (const later of cells.slice(i + 1)) {
      const comma = /\d,\d{1,2}(?!\d)/.test(`${later} ${value}`) && !/\d\.\d{1,2}(?!\d)/.test(later);
      const range = parseRange(later, comma);
      if (!range) continue;
      const n = Number(comma ? value.replace(',', '.') : value.replace(/,/g, ''));
      return range.max !== undefined && !/^[<>]/.test(value) && n > range.max ? `${value} ↑` : cell;
    }
    return cell;
  });
}

/** The repairs of a whole line's cells (after each word's own): count exponents, arrows read as glyphs. */
export function repairLineCells(cells: string[]): string[] {
  return repairArrowGlyphs(repairCountExponents(cells));
}
