/**
 * Lines that hold more than one result.
 *
 * - Two tests side by side: "NEUT%  58.2  %  40-75   NEUT#  3.41  x10^9/L  2.0-7.5", a table printed two
 *   tests to a line (its header repeats its columns). Each half is a name followed by a value and its range
 *   (a unit too, or not): the line is read as two rows. Halves without a range on the line are left to the
 *   reading by regions (blocks.ts), which finds a range printed under each half.
 * - One test printed in two units: "Creatinine  80 µmol/L (62-106)  0.90 mg/dL (0.70-1.20)", a report that
 *   gives each result in SI and in conventional units. After the name come two groups each holding a value
 *   and a unit, the units differing: both are results of that name, in the order printed. (A second group in
 *   the same unit is a previous result or a cumulative column, not a second reading.)
 *
 * The line is cut only between its chunks (cells, or runs of text between wide gaps), and each part must
 * read cleanly on its own: a value, a unit or a range, no leftover numbers.
 */
import { chunksOf, type Chunk } from './layout.js';
import { type RowCandidate } from './rows.js';
import { foldText } from './text.js';
import { tokenize } from './tokens.js';
import { type TextLine } from './types.js';

/** A part of a line made of some of its chunks (positions kept when the line had them). */
function lineOf(line: TextLine, chunks: Chunk[]): TextLine {
  const text = chunks.map((c) => c.text).join('   ');
  if (!chunks.every((c) => c.positioned)) return { text, y: line.y };
  return { text, y: line.y, cells: chunks.map((c) => ({ text: c.text, x: c.x, ...(c.width !== undefined ? { width: c.width } : {}) })) };
}

const NUMERIC = new Set(['num', 'pct', 'cmp', 'ratio']);

/** A row read cleanly from a part: a numeric value, and a unit or a range, nothing left over. */
function complete(row: RowCandidate | undefined): row is RowCandidate {
  return row !== undefined && row.value.type === 'numeric' && row.extraNumbers === 0 && (row.unit !== undefined || row.range !== undefined);
}

/** A word of two letters or more that is not a value, unit, range or flag (so may be part of a name). */
const nameWord = (t: { kind: string; text: string } | undefined): boolean => t?.kind === 'word' && /\p{L}.*\p{L}/u.test(t.text);

/** A chunk that begins a second test: its first word (after a dash or a bullet) may be a name's. */
function startsWithName(chunk: Chunk): boolean {
  return nameWord(tokenize(chunk.text, 0).find((t) => t.kind !== 'sep'));
}

/** A chunk that begins with a value (a number or a bound). */
function startsWithValue(chunk: Chunk): boolean {
  const first = tokenize(chunk.text, 0)[0];
  return first !== undefined && NUMERIC.has(first.kind);
}

const sameUnit = (a: string | undefined, b: string | undefined): boolean =>
  a !== undefined && b !== undefined && foldText(a).toLowerCase().replace(/\s+/g, '') === foldText(b).toLowerCase().replace(/\s+/g, '');

/** Whether the unit is printed among the chunks, as a unit token of theirs. */
const printsUnit = (chunks: Chunk[], unit: string): boolean =>
  chunks.some((c) => tokenize(c.text, 0).some((t) => t.kind === 'unit' && sameUnit(t.text, unit)));

/**
 * The rows of a line that holds several results (see above), in printed order; undefined when the line is
 * not one (then it is read as one row, or none). `parse` reads a part of the line as one row.
 */
export function splitResults(line: TextLine, parse: (part: TextLine) => RowCandidate | undefined): RowCandidate[] | undefined {
  const chunks = chunksOf(line);
  if (chunks.length < 3) return undefined;
  const numbers = chunks.filter((c) => /\d/.test(c.text)).length;
  if (numbers < 2) return undefined;
  for (let k = 2; k < chunks.length; k++) {
    const right = chunks.slice(k);
    if (startsWithName(right[0]!)) {
      const a = parse(lineOf(line, chunks.slice(0, k)));
      if (!complete(a) || !a.range) continue;
      // The right half may itself hold two tests (three to a line).
      const b = splitResults(lineOf(line, right), parse) ?? [parse(lineOf(line, right))];
      if (b.every((r) => complete(r) && r.range !== undefined && r.name !== a.name)) return [a, ...(b as RowCandidate[])];
    } else if (startsWithValue(right[0]!) && startsWithValue(chunks[1]!) && !chunks.slice(1, k).some((c) => tokenize(c.text, 0).some(nameWord))) {
      // The name is the line's first chunk, the first group follows it: the second group is read under it.
      const a = parse(lineOf(line, chunks.slice(0, k)));
      if (!complete(a) || a.unit === undefined) continue;
      const b = parse(lineOf(line, [chunks[0]!, ...right]));
      // The second group begins with its value ("<5.2  176 mg/dL" is a range, then the value).
      const digits = (t: string) => t.replace(/\D/g, '');
      const firstValue = digits(tokenize(right[0]!.text, 0)[0]!.text);
      if (!complete(b) || b.unit === undefined || sameUnit(a.unit, b.unit) || b.name !== a.name || firstValue !== digits(b.value.value)) continue;
      // Each group prints its own unit (not one taken from the name, "Cat dander (e1)", or from a column heading).
      if (!printsUnit(chunks.slice(1, k), a.unit) || !printsUnit(right, b.unit)) continue;
      return [a, b];
    }
  }
  return undefined;
}

/**
 * "HGB  134  g/L  120-155   HCT  46.8+  36.0-46.0": of two tests side by side, the left one read cleanly (a value
 * and its range) while the right one did not (its value garbled by OCR). For a line that reads as no row at all,
 * the left test is still a result; the right one is left out rather than guessed.
 */
export function leadingResult(line: TextLine, parse: (part: TextLine) => RowCandidate | undefined): RowCandidate | undefined {
  const chunks = chunksOf(line);
  for (let k = 2; k < chunks.length - 1; k++) {
    if (!startsWithName(chunks[k]!) || !chunks.slice(k + 1).some((c) => /\d/.test(c.text))) continue;
    const a = parse(lineOf(line, chunks.slice(0, k)));
    if (complete(a) && a.range) return a;
  }
  return undefined;
}
