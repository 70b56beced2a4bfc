/**
 * One text line → a candidate result row (name, value, unit, range, flag), or nothing.
 *
 * With a column header in force and positioned cells, each cell goes to its column. Otherwise the
 * line is read by token pattern: the name runs up to the first value, and the fields after it may come
 * in any order (a range is recognisable by its dash or bound word, a unit by its spelling, a flag by
 * its letters). When the header says the range column comes before the result column, the later of two
 * bare numbers-or-bounds is the value.
 */
import { isAmbiguousFlag, parseFlag, type ParsedFlag } from './flags.js';
import { type Chunk, chunksOf, type ColumnLayout, columnOf, type ColumnRole, isTierWord } from './layout.js';
import { withCaretForPercent, withCountBaseRepaired, withGluedFlagsSplit } from './ocr-tokens.js';
import { parseRange, type ParsedRange } from './ranges.js';
import { squash } from './text.js';
import { applyRangeLabels, joinSpacedUnits, type Token, tokenize } from './tokens.js';
import { LIKELY_TEST_NAME, type NameConfidence, type TextLine } from './types.js';
import { isUnitToken, unitKind } from './units.js';
import { parseValue, type ParsedValue } from './values.js';

export interface RowCandidate {
  name: string;
  value: ParsedValue;
  unit?: string;
  range?: ParsedRange;
  flag?: ParsedFlag;
  /** Read through a column header (stronger evidence that this is a result row). */
  viaColumns: boolean;
  /** Bare numbers left over (a "previous result" column, or a range whose dash was lost). */
  extraNumbers: number;
}

export interface RowOptions {
  decimalComma: boolean;
  layout?: ColumnLayout;
  /** Says whether a name ending in a number is a real test name ("CA 125"), from the LOINC table. */
  isKnownName: (name: string) => boolean;
  /** How surely a phrase names a test (the LOINC matcher's confidence), when the caller has it. */
  nameConfidence?: NameConfidence;
  /** The line was read by OCR, which garbles a word now and then ("37  ws  (5-50)" for "37 U/L (5-50)"). */
  ocr?: boolean;
  /** Collects the lines whose columns were read but whose value is in doubt: no other reading may take them. */
  doubted?: Set<TextLine>;
}

const VALUE_KINDS = new Set(['num', 'pct', 'cmp', 'ratio', 'qual']);

/**
 * Clean a printed test name: bullets, trailing colons, dot leaders and the dash that joins a name to
 * its value in running text ("Sodium — 140") go. A hyphen is kept when it hugs a word ("HCV Ab-").
 */
function cleanName(raw: string): string {
  const name = raw.replace(/^[\s*•·▪◦‣\-–—>]+/, '').replace(/(?:\.{2,}|…)[.…]*/g, ' ');
  return squash(name.replace(/(?:\s+-|[\s:.,;=_–—])+$/, ''));
}

/** Tokens of a run of chunks, with inline range labels applied across chunk gaps ("Ref:" | "3.5-5.0"). */
function tokensOf(chunks: { text: string }[], firstIndex: number, decimalComma: boolean): Token[] {
  const tokens = chunks.flatMap((c, i) => tokenize(c.text, firstIndex + i));
  return applyRangeLabels(tokens, (text) => parseRange(text, decimalComma) !== undefined);
}

/** A unit written into the name, "Glucose (mg/dL)", is the unit; take it out of the name. */
function unitFromName(name: string): { name: string; unit?: string } {
  const m = /\s*[([]\s*([^()[\]]{1,15})\s*[)\]]\s*$/.exec(name);
  if (m && isUnitToken(m[1]!) && m[1]!.trim() !== '%') return { name: name.slice(0, m.index).trim(), unit: m[1]!.trim() };
  // "Neutrophils %" / "Lymphocytes (%)": the sign names the quantity; keep it in the name, use it as unit.
  if (/(^|\s)\(?%\)?$/.test(name)) return { name, unit: '%' };
  return { name };
}

interface Fields {
  value?: ParsedValue;
  valueIndex: number;
  unit?: string;
  range?: ParsedRange;
  flag?: ParsedFlag;
  extraNumbers: number;
  leftoverWords: number;
  /** Two or more bare numbers before the unit or range: which one is the result is not known. */
  crowded: boolean;
}

function pickValueIndex(tokens: Token[], rangeBeforeResult: boolean): number {
  const numeric = tokens.map((t, i) => ({ t, i })).filter(({ t }) => t.kind === 'num' || t.kind === 'pct' || t.kind === 'ratio');
  if (numeric.length > 0) return numeric[0]!.i;
  const bounded = tokens.map((t, i) => ({ t, i })).filter(({ t }) => t.kind === 'cmp');
  if (bounded.length > 0) return rangeBeforeResult && bounded.length > 1 ? bounded[bounded.length - 1]!.i : bounded[0]!.i;
  const qual = tokens.findIndex((t) => t.kind === 'qual');
  if (qual >= 0) return qual;
  // Urine sediment counts are printed as spans ("0-2 /hpf"); a span is the value only when it is the
  // first of two, or carries a per-field unit.
  const spans = tokens.map((t, i) => ({ t, i })).filter(({ t }) => t.kind === 'range' && !t.labelled && /\d/.test(t.text));
  const perField = tokens.some((t) => t.kind === 'unit' && unitKind(t.text) === 'per-field');
  if (spans.length >= 2 || (spans.length === 1 && perField)) return spans[rangeBeforeResult && spans.length > 1 ? 1 : 0]!.i;
  return -1;
}

/**
 * "154H  156H  141 mmol/L (135-145)": several bare numbers before the unit or range are the columns of
 * a cumulative report (or a value and specks read as digits), and nothing on the line says which is the
 * current result. Not in doubt: a previous result with its date ("105 High 98 01/02/2023 mg/dL"), one
 * after an empty flag cell's dash ("4.5  -  4.2 mmol/L"), and one printed after the unit or range
 * ("139 mmol/L 134-144 158"): the value comes first. Nor is a lone digit after a value printed with
 * decimals ("7.1  1", "39,2  9%"): a speck in an empty column, or a unit misread.
 */
const speckAfter = (value: Token, t: Token): boolean => /\d[.,]\d/.test(value.text) && /^\d%?$/.test(t.text);

/** `cell`: the tokens are a result column's cell, whose end is where the unit's column begins. */
function crowded(tokens: Token[], cell = false): boolean {
  const found = tokens.findIndex((t) => t.kind === 'unit' || t.kind === 'range' || t.labelled);
  const end = found < 0 && cell ? tokens.length : found;
  if (end < 0) return false;
  const numeric = (t: Token | undefined) => t?.kind === 'num' || t?.kind === 'pct';
  const first = tokens.findIndex(numeric);
  if (first < 0 || first >= end) return false;
  return tokens.slice(first + 1, end).some((t, k) => {
    const i = first + 1 + k;
    const dashBefore = tokens.slice(first + 1, i).some((p) => p.kind === 'sep' && /^[-–—]$/.test(p.text));
    return numeric(t) && tokens[i + 1]?.kind !== 'date' && !dashBefore && !speckAfter(tokens[first]!, t);
  });
}

/**
 * "98-107." or "3,5-5,1," from OCR: a range with a speck read as a stop after it is still the range.
 */
function rangeWithSpeck(t: Token, decimalComma: boolean): Token {
  if (t.kind !== 'word' || !/\d[.,:;'`]$/.test(t.text)) return t;
  const text = t.text.slice(0, -1);
  const [only] = tokenize(text, t.chunk);
  return only?.kind === 'range' && only.text === text && parseRange(text, decimalComma) ? only : t;
}

/**
 * "0,20  kat  0,10 - 0,60  ee", "4,9  mmol  39-56  ES": drawn marks beside a row (a bar, a box edge) that OCR
 * read as one to three letters after the range, at the end of the line. They are no field: dropped, at most two.
 */
const DEBRIS = /^[(=~-]?\p{L}{1,3}[.)]?$/u;
function withoutTrailingDebris(tokens: Token[]): Token[] {
  const range = tokens.findLastIndex((t) => t.kind === 'range');
  if (range < 0) return tokens;
  let end = tokens.length;
  while (end > range + 1 && tokens.length - end < 2 && tokens[end - 1]!.kind === 'word' && DEBRIS.test(tokens[end - 1]!.text)) end--;
  return tokens.slice(0, end);
}

/**
 * "106  mmol  98-107": from OCR, a unit of amount that lost its "/l" ("mmol", "µkat"). It is no leftover word,
 * but not the unit either: which volume it was per is not read, and a missing unit is better than a guessed one.
 */
const lostVolume = (text: string): boolean => /^[mµunp]?(?:mol|kat)$/i.test(text) && (isUnitToken(`${text}/l`) || isUnitToken(`µ${text}/l`));

/**
 * "121  nom.  Optimal": a status word printed after the value that says it lies in the range ("Optimal",
 * "Desirable", "Ideal"), as consumer reports print one per result. From OCR, where a garbled unit beside
 * it already counts as one stray word, it is no second one; it gives no flag (the range is what says so).
 */
const IN_RANGE_STATUS = /^(optimal|desirable|ideal|healthy)$/i;
/**
 * "Final", "Prelim", "Corrected": the result's status in an EHR printout's status column (and "F" / "P" / "C" as
 * HL7 sends it, after the value's fields). It says how far the result is verified, nothing about the value.
 */
const RESULT_STATUS = /^(final|prelim|preliminary|corrected|amended|verified|validated|completed?|resulted)$/i;

/** Assign value, unit, range and flag among the tokens that follow a name. */
function assignFields(allTokens: Token[], opts: RowOptions, rangeBeforeResult: boolean): Fields {
  if (!opts.ocr) return fieldsOf(allTokens, opts, rangeBeforeResult);
  const glued = withGluedFlagsSplit(withCountBaseRepaired(withCaretForPercent(allTokens)));
  const tokens = glued.tokens.map((t) => rangeWithSpeck(t, opts.decimalComma));
  const clean = withoutTrailingDebris(tokens);
  // Debris is dropped only from a row whose other fields then read cleanly: beside a stray word, it is not known to be debris.
  let f = fieldsOf(clean, opts, rangeBeforeResult);
  if (clean.length !== tokens.length && f.leftoverWords > 0) f = fieldsOf(tokens, opts, rangeBeforeResult);
  // "46.8+", "28(L)": the flag glued to the value (ocr-tokens.ts).
  const gluedFlag = glued.flags.get(f.valueIndex);
  return gluedFlag && !f.flag ? { ...f, flag: gluedFlag } : f;
}

function fieldsOf(tokens: Token[], opts: RowOptions, rangeBeforeResult: boolean): Fields {
  const f: Fields = { valueIndex: pickValueIndex(tokens, rangeBeforeResult), extraNumbers: 0, leftoverWords: 0, crowded: crowded(tokens) };
  if (f.valueIndex >= 0) f.value = parseValue(tokens[f.valueIndex]!.text, opts.decimalComma);
  tokens.forEach((t, i) => {
    if (i === f.valueIndex) return;
    switch (t.kind) {
      case 'range':
      case 'cmp': {
        // "Deficiency <20", "Desirable <200": a category word right before the bound names the tier the range is.
        const prev = tokens[i - 1];
        if (!f.range && (prev?.kind === 'word' || prev?.kind === 'qual') && i - 1 > f.valueIndex && isTierWord(prev.text)) {
          const text = `${prev.text} ${t.text}`;
          f.range = parseRange(text, opts.decimalComma) ?? { text, minInclusive: true, maxInclusive: true };
          f.leftoverWords--;
          break;
        }
        const r = f.range ? undefined : parseRange(t.text, opts.decimalComma);
        if (r) f.range = r;
        else if (t.kind === 'cmp') f.extraNumbers++;
        break;
      }
      case 'qual': {
        // A second qualitative word after a qualitative value is its text range ("Negative  Negative");
        // after a number, "+"/"++" is a flag (German reports mark high values so).
        // "Normal <150": the word names the tier of the bound after it (see the range case), not the value's status.
        if (i > f.valueIndex && BOUND_KINDS.has(tokens[i + 1]?.kind ?? '') && isTierWord(t.text)) break;
        const r = !f.range && f.value?.qualitative ? parseRange(t.text, opts.decimalComma) : undefined;
        const flag = !f.value?.qualitative && i > f.valueIndex ? parseFlag(t.text) : undefined;
        if (r) f.range = r;
        else if (flag && !f.flag) f.flag = flag;
        break;
      }
      case 'num':
      case 'pct':
      case 'ratio':
        f.extraNumbers++;
        break;
      case 'unit':
        f.unit ??= t.text;
        break;
      case 'flag': {
        // "139 mmol/L 134-144 158 High": a flag right after another number is that number's (a previous result's).
        const prev = tokens[i - 1];
        if (i - 1 !== f.valueIndex && (prev?.kind === 'num' || prev?.kind === 'pct')) break;
        // From OCR, a lone lower-case "a", "b" or "c" is a speck read as a letter: labs print such flags in capitals.
        if (opts.ocr && /^[abc]$/.test(t.text)) break;
        const flag = parseFlag(t.text);
        const afterValue = i > f.valueIndex;
        if (flag && !f.flag && (afterValue || !isAmbiguousFlag(t.text))) f.flag = flag;
        else if (!flag) f.leftoverWords++;
        break;
      }
      case 'date':
      case 'sep':
        break;
      default:
        if (opts.ocr && i > f.valueIndex && (lostVolume(t.text) || IN_RANGE_STATUS.test(t.text))) break;
        if (i > f.valueIndex && RESULT_STATUS.test(t.text)) break;
        // A performing-site code closing the line ("EN", "01") is not a field.
        if (!(i === tokens.length - 1 && i > f.valueIndex && /^[A-Z0-9]{2,4}$/.test(t.text))) f.leftoverWords++;
    }
  });
  if (!f.unit && f.range) f.unit = unitInside(f.range.text);
  return f;
}

/**
 * "< 5.7 %", "70-99 mg/dL", "> OR = 60 mL/min/1.73m2", "1.9-3.7 g/dL (calc)", "<5.7 % of total Hgb":
 * the unit printed after the bounds of a range. A closing note in brackets ("(calc)") is not the unit;
 * "of ..." after a unit qualifies it and belongs to it.
 */
function unitInside(text: string): string | undefined {
  let t = joinSpacedUnits(text).trim();
  const note = /\s*\(([^()]*)\)$/.exec(t);
  if (note && note.index > 0 && !isUnitToken(note[1]!)) t = t.slice(0, note.index);
  const m = /^\D*?\d[\d.,]*(?:\s*(?:[-–—]|to|bis|à)\s*[-−]?\d[\d.,]*)?\s*(\S.*)$/i.exec(t);
  if (!m) return undefined;
  const rest = m[1]!.trim();
  if (isUnitToken(rest)) return rest;
  const words = rest.split(/\s+/);
  if (!isUnitToken(words[0]!)) return undefined;
  return words[1] === 'of' && words.length <= 4 && words.slice(2).every((w) => /^\p{L}+$/u.test(w)) ? rest : words[0];
}

/**
 * A name with a bound or a span inside ("Low <1.00 Average 1.00 - 3.00") is a legend or a note that
 * slipped into the name column, not a test, unless the LOINC table knows it.
 */
function nameHasBounds(name: string, opts: RowOptions): boolean {
  return tokenize(name, 0).some((t) => BOUND_KINDS.has(t.kind) && /\d/.test(t.text)) && !opts.isKnownName(name);
}

/**
 * A postal address read as "name value" ("60 Waterloo Road, Macquarie Park NSW 2113", "Plot 14, Sector
 * 18, Noida 201301"): a street word, and a house number first or a comma between address parts.
 */
const STREET_WORD = /\b(road|rd|street|avenue|ave|blvd|boulevard|drive|lane|parkway|pkwy|highway|hwy|plaza|suite|floor|plot|sector|straße|strasse|str|weg|platz|allee|gasse|rue|quai|chemin|impasse|avenida|calle|via)\b\.?/i;
function looksLikeAddress(name: string): boolean {
  return STREET_WORD.test(name) && (/^\d/.test(name) || name.includes(','));
}

/**
 * "5.5 %  48-56": a value printed with decimals beside a range of whole numbers that holds ten times the
 * value. The range's separators were lost (OCR reads "4.8-5.6" so; "0.3-1.2" as "03-12"): it says
 * nothing reliable, and read as printed it would call a normal value abnormal. A value really that far
 * below its range is flagged by the lab, so a flagged row keeps its range.
 */
export function rangeLostSeparators(value: ParsedValue, range: ParsedRange, flagged: boolean): boolean {
  if (flagged || value.type !== 'numeric' || !value.value.includes('.') || range.min === undefined || range.max === undefined) return false;
  if (!/^[[(]?\s*\d{2,}\s*[-–—]\s*\d{2,}\s*[\])]?$/.test(range.text)) return false;
  const v = Number(value.value);
  return v < range.min && v * 10 >= range.min && v * 10 <= range.max;
}

/**
 * From OCR, such a range (rangeLostSeparators) read with the separators put back: "400-750" beside "42.9" is
 * 40.0-75.0 (each bound loses one decimal place, as the value shows). The range and the value then agree as
 * printed, and a line of two tests side by side (multi.ts) still has its left test's range.
 */
function rangeTenthAsLarge(range: ParsedRange, decimalComma: boolean): ParsedRange {
  const [min, max] = [range.min! / 10, range.max! / 10];
  const show = (n: number) => (decimalComma ? n.toFixed(1).replace('.', ',') : n.toFixed(1));
  return { ...range, min, max, text: `${show(min)}-${show(max)}` };
}

/**
 * "NPU02192", "L0235", "2345-7": a laboratory's or a terminology's code for the test, printed in a column of
 * its own before the name (Danish NPU codes, LIS order codes, a LOINC column). Capitals then at least three
 * digits, or a LOINC-shaped number; never a test name the LOINC table knows ("CA125" stays a name).
 */
const TEST_CODE = /^(?:\p{Lu}{2,5}[-_]?\d{3,}|\d{3,6}-\d)$/u;
export const isTestCode = (text: string, opts: Pick<RowOptions, 'isKnownName'>): boolean => TEST_CODE.test(text.trim()) && !opts.isKnownName(text.trim());

/** "NPU02192 P-Glukose" → "P-Glukose": the code before a name is not part of it (the name must keep two letters). */
function withoutLeadingCode(name: string, opts: RowOptions): string {
  const m = /^(\S+)\s+(.*\p{L}.*\p{L}.*)$/u.exec(name);
  return m && isTestCode(m[1]!, opts) ? m[2]! : name;
}

/**
 * "NATA Accreditation No. 8109", "Provider Nr 2042", "Licence # 5521": a number after an identifier's label
 * (No., Nr., Number, #, ID) is that identifier, not a result; no test is named so. A "#" hugging a short
 * capitalised name ("NEUT#", "LYMPH#") is a blood count's mark of an absolute count, not such a label.
 */
const IDENTIFIER_LABEL = /(?:^|\s)(?:No|Nr|Number|Num|ID|n°|nº)\.?$|#$/;
const COUNT_MARK = /(?:^|[\s-])\p{Lu}{2,6}#$/u;
const isIdentifierLabel = (name: string): boolean => IDENTIFIER_LABEL.test(name) && !COUNT_MARK.test(name);
/**
 * "Target for patients at high risk: below 70 mg/dL", "Desirable: less than 200": a sentence whose words
 * end in a comparison states a bound (a target, a cut-off), not a result of a test named by the words.
 */
const BOUND_PHRASE_END = /\b(?:below|above|under|over|less than|greater than|more than|up to|at least|at most)\s*:?$/i;

/**
 * "8.609  5.000 - 10.000 /µL", "273.000  150.000 - 400.000": a range whose every bound ends in ".000" is
 * written with a point between thousands (no lab prints a range to three decimals of zeros), and a value
 * beside it grouped the same way ("8.609") is read so too. Indonesian, Brazilian and other labs print
 * counts so even where decimals take a point ("13.5 g/dL" on the same report).
 */
const THOUSANDS_BOUND = /^[1-9]\d{0,2}(?:\.\d{3})*\.000$/;
const DOT_GROUPED = /^[1-9]\d{0,2}(?:\.\d{3})+$/;
function readThousands(f: Fields): void {
  const r = f.range;
  if (!r || !f.value || r.min === undefined || r.max === undefined) return;
  const bounds = r.text.match(/\d[\d.,]*/g) ?? [];
  if (bounds.length !== 2 || !bounds.every((b) => THOUSANDS_BOUND.test(b))) return;
  const [lo, hi] = bounds.map((b) => Number(b.replace(/\./g, ''))) as [number, number];
  f.range = { ...r, min: lo, max: hi };
  const printed = f.value.value;
  if (f.value.type === 'numeric' && DOT_GROUPED.test(printed)) {
    const n = printed.replace(/\./g, '');
    f.value = { ...f.value, value: n, low: Number(n), high: Number(n) };
  }
}

function candidate(name: string, f: Fields, viaColumns: boolean, opts: RowOptions): RowCandidate | undefined {
  if (!f.value) return undefined;
  if (f.range && rangeLostSeparators(f.value, f.range, f.flag !== undefined)) f.range = opts.ocr ? rangeTenthAsLarge(f.range, opts.decimalComma) : undefined;
  if (!opts.decimalComma) readThousands(f);
  const split = unitFromName(withoutLeadingCode(cleanName(name), opts));
  if (isIdentifierLabel(cleanName(name)) || BOUND_PHRASE_END.test(cleanName(name))) return undefined;
  // One letter is a name only in a name column, when the LOINC table knows it ("K" for potassium), or
  // with an ion's charge ("K+", as analysers print it), which no stray letter or flag carries.
  const ion = /^\p{Lu}(?:\+{1,2}|-)$/u.test(split.name);
  const named = /\p{L}.*\p{L}/u.test(split.name) || ((viaColumns || ion) && /^\p{Lu}[+-]{0,2}$/u.test(split.name) && opts.isKnownName(split.name));
  if (!named || nameHasBounds(split.name, opts) || looksLikeAddress(split.name)) return undefined;
  // "35%": the percent sign printed on the value is its unit.
  const unit = f.unit ?? split.unit ?? (f.value.type === 'percentage' ? '%' : undefined);
  return { name: split.name, value: f.value, unit, range: f.range, flag: f.flag, viaColumns, extraNumbers: f.extraNumbers };
}

const rangeFirst = (layout: ColumnLayout | undefined): boolean => {
  if (!layout) return false;
  const roles = layout.columns.map((c) => c.role);
  const r = roles.indexOf('range');
  const v = roles.indexOf('result');
  return r >= 0 && v >= 0 && r < v;
};

/**
 * Which column each chunk belongs to: by x when cells are positioned, else by order when the row has
 * exactly as many chunks as the header has columns (character offsets of unaligned text mean nothing).
 */
function assignColumns(chunks: Chunk[], layout: ColumnLayout): Map<ColumnRole, string[]> | undefined {
  const cells = new Map<ColumnRole, string[]>();
  const add = (role: ColumnRole, text: string): void => void cells.set(role, [...(cells.get(role) ?? []), text]);
  if (layout.positioned && chunks.every((c) => c.positioned)) chunks.forEach((c) => add(columnOf(layout, c), c.text));
  else if (chunks.length === layout.columns.length) chunks.forEach((c, i) => add(layout.columns[i]!.role, c.text));
  else return undefined;
  // A short number right-aligned under a wide result heading can start past the midpoint to the unit's
  // heading: with the result column empty, a unit column that begins with a number begins with the result.
  const unit = cells.get('unit');
  if (!cells.has('result') && unit && unit.length >= 2 && /^[<>]?\s*\d/.test(unit[0]!)) {
    cells.set('result', [unit[0]!]);
    cells.set('unit', unit.slice(1));
  }
  return cells;
}

/** A unit cell holds a unit or words, never a number or a range (that would mean the columns slipped). */
function unitCellOk(text: string): boolean {
  return text === '' || tokenize(text, 0).every((t) => t.kind === 'unit' || t.kind === 'word' || t.kind === 'sep');
}

const SIGN_CELL = /^[-+−–]{1,3}$/;

/**
 * A lone "+" or "-" between the result and the unit ("12,8  -  g/dl") is a German high/low mark that fell
 * into the unit column; it is not part of the unit.
 */
function withoutSignCells(unitCells: string[]): string {
  return unitCells.filter((c) => !SIGN_CELL.test(c.trim()) && !isFlagCell(c)).join(' ');
}

/**
 * A cell holding only an unambiguous flag ("H", "Low", "↑") that landed in the unit column: printed
 * between the result and the unit ("15.4  H  gm/dL"), nearer the unit header than the result's. It is
 * the row's flag, not part of its unit.
 */
function isFlagCell(text: string): boolean {
  const t = text.trim();
  return parseFlag(t) !== undefined && !isAmbiguousFlag(t) && !isUnitToken(t);
}

/**
 * From OCR, a unit cell that begins with a unit and goes on with numbers or a bound ("pg/mL W Above optimal
 * <200") holds the cells after it, merged by OCR where they stand close: the unit is its first word, and
 * the rest belongs to columns that do not give the value.
 */
function unitCellsOf(unitCells: string[], ocr: boolean): string[] {
  if (!ocr || unitCells.length !== 1 || unitCellOk(unitCells[0]!)) return unitCells;
  const first = unitCells[0]!.trim().split(/\s+/)[0]!;
  return isUnitToken(first) ? [first] : unitCells;
}

/** Digits OCR takes for each other. */
const LOOK_ALIKE = new Set(['38', '83', '56', '65', '17', '71', '08', '80', '68', '86', '58', '85']);

/**
 * "0.34" beside a previous result of "0.84" under a range of 0.47-0.79: from OCR, a result that differs
 * from the row's previous result in one digit only, the two digits being look-alikes, while the two lie on
 * opposite sides of the range. One of them is very likely misread, and which one is not known: the row is
 * left out rather than read with a value that may be wrong.
 */
export function lookAlikeOfPrevious(value: ParsedValue | undefined, previousText: string, range: ParsedRange | undefined, decimalComma: boolean): boolean {
  if (value?.type !== 'numeric' || range?.min === undefined || range.max === undefined) return false;
  const current = value.value;
  const previous = parseValue(previousText.trim(), decimalComma);
  if (previous?.type !== 'numeric' || previous.value.length !== current.length) return false;
  const diffs = [...current].flatMap((c, i) => (c === previous.value[i] ? [] : [c + previous.value[i]!]));
  if (diffs.length !== 1 || !LOOK_ALIKE.has(diffs[0]!)) return false;
  const side = (v: number) => (v < range.min! ? -1 : v > range.max! ? 1 : 0);
  return side(Number(current)) * side(Number(previous.value)) === -1;
}

/**
 * "0.74 1.35" in a range column: two plain numbers, the first below the second, are the bounds of a span
 * whose dash was lost (the column says a range stands there). With `dashed`, "3.5 - 5.1" is read so too.
 */
function spanOfTwoNumbers(text: string, decimalComma: boolean, dashed = false): ParsedRange | undefined {
  const m = (dashed ? /^\s*(\d+(?:[.,]\d+)?)\s*(?:[-–—]\s*)?(\d+(?:[.,]\d+)?)\s*$/ : /^\s*(\d+(?:[.,]\d+)?)\s+(\d+(?:[.,]\d+)?)\s*$/).exec(text);
  if (!m) return undefined;
  const range = parseRange(`${m[1]} - ${m[2]}`, decimalComma);
  return range?.min !== undefined && range.max !== undefined && range.min < range.max ? range : undefined;
}

/**
 * "70 | 99" under "Ref. Low | Ref. High": the two limit cells make one range. One cell may be empty: a
 * lower limit alone ("40 | ") bounds the range from below, an upper one alone from above. A cell that is
 * not a plain number (or both empty) gives no range.
 */
export function rangeOfLimits(lowText: string, highText: string, decimalComma: boolean): ParsedRange | undefined {
  const num = (t: string): number | undefined => {
    const v = t.trim() === '' ? undefined : parseValue(t.trim(), decimalComma);
    return v?.type === 'numeric' && /^[-−]?\d/.test(t.trim()) ? Number(v.value) : undefined;
  };
  const lo = num(lowText);
  const hi = num(highText);
  // Both limits in one cell ("3.5 - 5.1" or "3.5 5.1" under the low limit, the other empty): cells joined where they stand close.
  if ((lowText.trim() === '') !== (highText.trim() === '') && (lo ?? hi) === undefined) return spanOfTwoNumbers(`${lowText} ${highText}`, decimalComma, true);
  if ((lowText.trim() !== '' && lo === undefined) || (highText.trim() !== '' && hi === undefined)) return undefined;
  if (lo === undefined && hi === undefined) return undefined;
  if (lo !== undefined && hi !== undefined && lo > hi) return undefined;
  const text = lo !== undefined && hi !== undefined ? `${lowText.trim()} - ${highText.trim()}` : lo !== undefined ? `>= ${lowText.trim()}` : `<= ${highText.trim()}`;
  return { text, min: lo, max: hi, minInclusive: true, maxInclusive: true };
}

/**
 * Read a row through the header's columns; undefined if the cells do not fit the columns, null when they
 * fit but say the value is not to be trusted (no other reading of the line may then take it).
 */
function byColumns(chunks: Chunk[], opts: RowOptions): RowCandidate | null | undefined {
  const cells = assignColumns(chunks, opts.layout!);
  if (!cells) return undefined;
  const text = (role: ColumnRole): string => (cells.get(role) ?? []).join(' ');
  const name = text('name');
  const resultTokens = tokensOf([{ text: text('result') }], 0, opts.decimalComma);
  const f = assignFields(resultTokens, opts, false);
  // A result cell that cannot be read (garbled by OCR) beside a previous result: no other reading of the line may
  // take the previous value for the result.
  if (!f.value && text('result') !== '' && /\d/.test(text('previous'))) return null;
  const unitText = withoutSignCells(unitCellsOf(cells.get('unit') ?? [], opts.ocr === true));
  // From OCR, one garbled word beside a value that has a unit or a range is left out rather than the row.
  const garbled = opts.ocr === true && f.leftoverWords === 1 && (f.unit !== undefined || f.range !== undefined);
  if (!f.value || (f.leftoverWords > 0 && !garbled) || name === '' || !unitCellOk(unitText) || crowded(resultTokens, true)) return undefined;
  // From OCR, "2%" under a result column whose unit column says "mg/dL": the sign is a misread digit, so the value is too.
  if (opts.ocr && f.value.type === 'percentage' && isUnitToken(unitText) && !unitText.includes('%')) return null;
  if (unitText !== '') f.unit = unitText;
  f.unit ??= opts.layout!.columns.find((c) => c.role === 'result')?.unit;
  const sign = (cells.get('unit') ?? []).find((c) => SIGN_CELL.test(c.trim()) || isFlagCell(c));
  if (sign && !f.flag) f.flag = parseFlag(sign);
  const rangeText = text('range');
  if (rangeText !== '' && !f.unit && isUnitToken(rangeText)) {
    f.unit = rangeText; // a unit printed in the range column of a row without a range ("63.2   %")
  } else if (rangeText !== '') {
    const r = parseRange(rangeText, opts.decimalComma) ?? spanOfTwoNumbers(rangeText, opts.decimalComma);
    f.range = r ?? { text: rangeText, minInclusive: true, maxInclusive: true };
    if (!f.unit && r) f.unit = unitInside(r.text);
  }
  if (rangeText === '') f.range = rangeOfLimits(text('low'), text('high'), opts.decimalComma) ?? f.range;
  // Each flag column's cell on its own ("H" under Flag, "F" under a second status-like column).
  for (const cell of cells.get('flag') ?? []) {
    const flag = parseFlag(cell);
    if (flag) {
      f.flag = flag;
      break;
    }
  }
  if (opts.ocr && lookAlikeOfPrevious(f.value, text('previous'), f.range, opts.decimalComma)) return null;
  return candidate(name, f, true, opts);
}

/**
 * Zero-padded footnote numbers printed after a name ("Glucose 01 105 High"): site references, not
 * values. Dropped when a value follows them.
 */
function dropFootnotes(tokens: Token[]): Token[] {
  return tokens.filter((t, i) => {
    const prev = tokens[i - 1];
    const next = tokens[i + 1];
    return !(t.kind === 'num' && /^0\d$/.test(t.text) && prev?.kind === 'word' && next && VALUE_KINDS.has(next.kind));
  });
}

/** Split a run of tokens into name + fields: the earliest split whose fields read cleanly wins. */
function byTokens(allTokens: Token[], opts: RowOptions): RowCandidate | undefined {
  const tokens = dropFootnotes(allTokens);
  const rangeBefore = rangeFirst(opts.layout);
  let fallback: RowCandidate | undefined;
  for (let i = 1; i < tokens.length; i++) {
    if (!VALUE_KINDS.has(tokens[i]!.kind) && !(tokens[i]!.kind === 'range' && !tokens[i]!.labelled && tokens[i - 1]!.kind !== 'range')) continue;
    // A labelled range printed before the value ("Sodium (normal 135-145): 140") is a field, not name.
    const early = tokens.slice(0, i).filter((t) => t.labelled);
    let nameTokens = tokens.slice(0, i).filter((t) => !t.labelled);
    while (early.length > 0 && nameTokens.at(-1)?.kind === 'sep') nameTokens = nameTokens.slice(0, -1);
    if (nameTokens.some((t) => t.kind === 'date')) return fallback;
    // A flag printed before the value ("Glucose H 105") belongs to the fields, not the name.
    const flagFirst = nameTokens.length > 1 && nameTokens.at(-1)!.kind === 'flag' && !isAmbiguousFlag(nameTokens.at(-1)!.text);
    if (flagFirst) nameTokens = nameTokens.slice(0, -1);
    const name = nameTokens.map((t) => t.text).join(' ');
    const inner = nameTokens.slice(1).some((t) => VALUE_KINDS.has(t.kind) && t.kind !== 'qual');
    if (inner && !opts.isKnownName(name)) continue;
    const f = assignFields([...early, ...tokens.slice(flagFirst ? i - 1 : i)], opts, rangeBefore);
    if (f.crowded) continue;
    const row = candidate(name, f, false, opts);
    if (!row) continue;
    if (f.leftoverWords === 0 && f.extraNumbers === 0) return row;
    // From OCR, one garbled word beside a value that has a range ("23  un;  <35": U/L misread) is left out rather
    // than the row, as a row read through columns allows (byColumns).
    const garbled = opts.ocr === true && f.leftoverWords === 1 && f.extraNumbers === 0 && f.range !== undefined;
    fallback ??= f.leftoverWords === 0 || garbled ? row : undefined;
  }
  return fallback;
}

/**
 * A chunk that already holds a value with its unit after a name ("Sodium — 140 mmol/L") is not a bare
 * name, whatever the later chunks hold (a range, a flag, a bound that could pass for a value).
 */
function holdsValueAndUnit(tokens: Token[]): boolean {
  return tokens.some(
    (t, i) =>
      i > 0 &&
      (t.kind === 'num' || t.kind === 'pct' || t.kind === 'cmp') &&
      tokens.slice(0, i).some((n) => /\p{L}{2}/u.test(n.text)) &&
      tokens[i + 1]?.kind === 'unit' &&
      tokens.slice(i + 1).every((n) => n.kind === 'unit' || n.kind === 'flag' || n.kind === 'sep'),
  );
}

const BOUND_KINDS = new Set(['cmp', 'range']);

/**
 * A legend of categories with cut-offs, "Low <1.00  Average 1.00 - 3.00  High >3.00" or "Desirable <200
 * Borderline 200-239": two or more word-labelled bounds and no plain number. It explains results; it is
 * not one. (A one-letter flag is not a category label: "HDL >90 H >39" stays a row.)
 */
export function isLegendLine(tokens: Token[]): boolean {
  if (tokens.some((t) => t.kind === 'num' || t.kind === 'pct' || t.labelled)) return false;
  let labelled = 0;
  tokens.forEach((t, i) => {
    const prev = tokens[i - 1];
    if (BOUND_KINDS.has(t.kind) && prev && (prev.kind === 'word' || prev.kind === 'flag' || prev.kind === 'qual') && /\p{L}{3}/u.test(prev.text)) labelled++;
  });
  return labelled >= 2;
}

/**
 * "3 ALT (SGPT)", "; Urea": from OCR, one digit or mark standing alone before a name cell's words is the column
 * separator of an export ("CODE ; TEST ; RESULT") or a speck, read as a character: no part of the name.
 */
function withoutLeadingSpeck(chunk: Chunk): Chunk {
  const m = /^[\d;:,.|]\s+(?=\p{L}{2})/u.exec(chunk.text);
  return m ? { ...chunk, text: chunk.text.slice(m[0].length) } : chunk;
}

/** A laboratory's short code for a test in capitals ("GLUF", "CO2", "K"), in a cell of its own. */
const CODE_CELL = /^\p{Lu}[\p{Lu}\d]{0,5}$/u;

/**
 * "GLUF | Glucose, Fasting | 89 | mg/dL | 70 | 99 | F": a code in capitals in the first cell, the name in
 * mixed case (or the code again) in the second (words only), the value opening the third. The name is the second cell; the
 * fields are read from the cells after it, one stray word among them tolerated (a status letter, "F" for
 * final). Without this, the code reads as the name and the real name as two stray words, and the line as
 * no row at all, in the row reading and the proximity reading alike (which reads each line as a row).
 */
function byCodeAndName(chunks: Chunk[], opts: RowOptions): RowCandidate | undefined {
  if (chunks.length < 3 || !CODE_CELL.test(chunks[0]!.text)) return undefined;
  if (opts.ocr) chunks = [chunks[0]!, withoutLeadingSpeck(chunks[1]!), ...chunks.slice(2)];
  // "TSH | TSH": the code is the name; from OCR, "ALT | ALT (SGPT)": the code is the name's first word.
  const codeFirst = opts.ocr === true && chunks[1]!.text.startsWith(`${chunks[0]!.text} `);
  if (!/\p{Ll}/u.test(chunks[1]!.text) && chunks[1]!.text !== chunks[0]!.text && !codeFirst) return undefined;
  // "HDL | Cholesterol": a first cell that makes a likely test name with the second is the name's first word.
  const joined = `${chunks[0]!.text} ${chunks[1]!.text}`;
  const likely = (t: string): boolean => (opts.nameConfidence ? opts.nameConfidence(t) >= LIKELY_TEST_NAME : opts.isKnownName(t));
  if (likely(joined)) return undefined;
  // "TSH | nn | 5,55": a first cell naming a test beside a second that names none (a word misread by OCR) is the name.
  const same = chunks[1]!.text === chunks[0]!.text || codeFirst;
  if (!same && (!/\p{L}{3}/u.test(chunks[1]!.text) || (likely(chunks[0]!.text) && !likely(chunks[1]!.text)))) return undefined;
  const nameTokens = tokenize(chunks[1]!.text, 1);
  const opening = tokenize(chunks[2]!.text, 2)[0];
  if (nameTokens.some((t) => VALUE_KINDS.has(t.kind) || t.kind === 'range') || !opening || !VALUE_KINDS.has(opening.kind)) return undefined;
  const f = assignFields(tokensOf(chunks.slice(2), 2, opts.decimalComma), opts, rangeFirst(opts.layout));
  return f.valueIndex === 0 && f.leftoverWords <= 1 && !f.crowded ? candidate(chunks[1]!.text, f, false, opts) : undefined;
}

/** Read a line as a result row, or undefined when it is not one. */
export function parseRow(line: TextLine, opts: RowOptions): RowCandidate | undefined {
  const chunks = chunksOf(line);
  if (chunks.length === 0) return undefined;
  const all = tokensOf(chunks, 0, opts.decimalComma);
  if (isLegendLine(all)) return undefined;
  // A line printed wholly inside the range column ("High   >=240" under a result's risk categories, its
  // words and numbers jumbled by OCR) continues that range; it names no test.
  const layout = opts.layout;
  if (layout?.positioned && layout.columns.some((c) => c.role === 'name') && chunks.every((c) => c.positioned && columnOf(layout, c) === 'range')) return undefined;
  if (opts.layout && chunks.length >= 2) {
    const row = byColumns(chunks, opts);
    if (row === null) {
      opts.doubted?.add(line);
      return undefined;
    }
    if (row) return row;
  }
  const coded = byCodeAndName(chunks, opts);
  if (coded) return coded;
  // The first chunk is the name when later chunks hold the value; else split inside the text.
  const first = tokenize(chunks[0]!.text, 0);
  // A test's code alone in the first chunk ("NPU02192 | P-Glukose | 5,6") is not its name: the token reading joins and then drops it.
  const firstIsName = (!holdsValueAndUnit(first) || opts.isKnownName(chunks[0]!.text)) && !isTestCode(chunks[0]!.text, opts);
  if (chunks.length >= 2 && /\p{L}/u.test(chunks[0]!.text) && firstIsName) {
    const rest = tokensOf(chunks.slice(1), 1, opts.decimalComma);
    const f = assignFields(rest, opts, rangeFirst(opts.layout));
    const row = f.leftoverWords <= 1 && !f.crowded ? candidate(chunks[0]!.text, f, false, opts) : undefined;
    const endsWithValue = VALUE_KINDS.has(first.at(-1)?.kind ?? 'word');
    if (row && (!endsWithValue || opts.isKnownName(chunks[0]!.text))) return row;
  }
  return byTokens(all, opts);
}
