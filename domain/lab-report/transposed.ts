/**
 * Transposed tables: a cumulative report turned on its side, each test a column and each collection a
 * row. The header row names the tests ("Date | Na | K | Creat", or "Na (mmol/L)"), lines under it may
 * give each column's unit and range ("Units | mmol/L | …", "Range | 135-145 | …", labelled or not), and
 * every following row starts with its date. Each column is read as one test whose result is its value
 * in the newest date's row (the older rows are previous results), as a cumulative table with dates as
 * columns is read (layout.ts, dateColumns).
 *
 * The header is recognised by what its cells are: two or more, most of them test names the LOINC table
 * knows, no number or date among them. The table stands only when at least one date row follows; the
 * lines taken are then read by the caller through a column layout of their own (name, result, unit,
 * range), so the row reader's evidence test and LOINC matching apply as to any row.
 */
import { DATE_PATTERN, parseDate } from './dates.js';
import { type Chunk, chunksOf, type ColumnLayout, headerRoleOf, newestDateIndex } from './layout.js';
import { repairOcrName } from './ocr-names.js';
import { parseRange } from './ranges.js';
import { foldText, squash } from './text.js';
import { LIKELY_TEST_NAME, type NameConfidence, type TextLine } from './types.js';
import { isUnitToken } from './units.js';

interface Column {
  name: string;
  x: number;
  unit?: string;
  range?: string;
}

/** A date cell, a time possibly after it: "09/11/2024", "09/11/2024 07:59", "9 Nov 2024". */
const DATE_ROW_CELL = new RegExp(String.raw`^(?:${DATE_PATTERN.source})(?:\s+\d{1,2}[:.]\d{2})?$`);
const isDateCell = (text: string) => DATE_ROW_CELL.test(text.trim());

/** "Na (mmol/L)" / "Na mmol/L": a test name with its unit. */
function splitNameUnit(text: string): { name: string; unit?: string } {
  const bracket = /^(.*?\S)\s*[([]\s*([^()[\]]{1,15})\s*[)\]]$/.exec(text);
  if (bracket && isUnitToken(bracket[2]!)) return { name: bracket[1]!, unit: bracket[2]! };
  const words = text.split(/\s+/);
  if (words.length >= 2 && isUnitToken(words.at(-1)!)) return { name: words.slice(0, -1).join(' '), unit: words.at(-1)! };
  return { name: text };
}

/** A header of test names over columns: the label cell (if any) and the test columns; undefined if the line is not one. */
function headerOf(line: TextLine, confidence: NameConfidence): { labelX: number; columns: Column[] } | undefined {
  const chunks = chunksOf(line);
  if (chunks.length < 2 || !chunks.every((c) => c.positioned)) return undefined;
  // The first cell labels the row column ("Date", "Collected") or is itself a test.
  const first = chunks[0]!;
  const labelled = !/\d/.test(first.text) && confidence(splitNameUnit(first.text).name) < LIKELY_TEST_NAME && first.text.split(/\s+/).length <= 3;
  const tests = labelled ? chunks.slice(1) : chunks;
  // One test column only under a label that names the row column ("Date | Lymph"), the continuation of a wider table.
  const minimum = labelled && headerRoleOf(first.text) === 'other' ? 1 : 2;
  if (tests.length < minimum || tests.some((c) => /^[<>]?\s*\d/.test(c.text) || isDateCell(c.text))) return undefined;
  const columns = tests.map((c) => ({ x: c.x, ...splitNameUnit(squash(c.text)) }));
  const isKnown = columns.map((c) => confidence(c.name) >= LIKELY_TEST_NAME);
  let known = isKnown.filter(Boolean).length;
  // A heading OCR misread by one look-alike ("Plc" for Plt) counts as the test it is one swap from
  // (ocr-names.ts: only into one name the LOINC table knows); the row reader repairs it likewise. Tried
  // only beside a test the table knows as printed, and when the header falls short without it (the
  // look-alike search is the costly part of reading a line).
  if (known >= 1 && (known < minimum || known * 2 < columns.length)) {
    known = columns.filter((c, i) => isKnown[i] || confidence(repairOcrName(c.name)) >= LIKELY_TEST_NAME).length;
  }
  // Column headings ("Result", "Units", "Flag") make a line an ordinary header, not test names; one
  // among three or more known tests is a test name OCR misread into a heading word ("ab" for Hb).
  const headings = tests.filter((c) => headerRoleOf(c.text) !== undefined).length;
  if (headings > (known >= 3 ? 1 : 0)) return undefined;
  if (known < minimum || known * 2 < columns.length) return undefined;
  return { labelX: labelled ? first.x : Math.min(first.x, ...tests.map((c) => c.x)) - 1, columns };
}

/** The column a cell falls in: halfway boundaries between column starts; -1 for the row label's column. */
function columnIndex(columns: Column[], labelX: number, x: number): number {
  if (x < (labelX + columns[0]!.x) / 2) return -1;
  for (let i = 0; i < columns.length; i++) {
    const next = columns[i + 1];
    if (!next || x < (columns[i]!.x + next.x) / 2) return i;
  }
  return columns.length - 1;
}

/**
 * One row read into the columns: its label cell's text and each column's cell. Two cells in one column
 * make that column's cell unknown on this row (a speck beside the value, or columns that do not fit);
 * a cell past the last column's reach (a column width beyond it) is under no heading and not read.
 */
function rowCells(chunks: Chunk[], columns: Column[], labelX: number): { label: string; cells: Map<number, string>; unknown: Set<number> } {
  let label = '';
  const cells = new Map<number, string>();
  const unknown = new Set<number>();
  const starts = [labelX, ...columns.map((c) => c.x)];
  const width = Math.max(...starts.slice(1).map((x, i) => x - starts[i]!));
  for (const c of chunks) {
    if (c.x >= columns.at(-1)!.x + width) continue;
    const i = columnIndex(columns, labelX, c.x);
    if (i < 0) label = squash(`${label} ${c.text}`);
    else if (cells.has(i)) unknown.add(i);
    else cells.set(i, c.text);
  }
  for (const i of unknown) cells.delete(i);
  return { label, cells, unknown };
}

type DescribeKind = 'unit' | 'range';

/**
 * "Units | mmol/L | g/L", "Range | 135-145 | <35": what a row under the header describes, with each
 * column's cell when it is one (a labelled row whose cell is not a unit or a range gives that column
 * nothing). Without a label, every cell must be a unit, or every cell a range.
 */
function describes(label: string, cells: Map<number, string>, decimalComma: boolean): { kind: DescribeKind; cells: Map<number, string> } | undefined {
  if (cells.size === 0) return undefined;
  cells = new Map([...cells].map(([i, v]) => [i, withDigitsForLetters(v, decimalComma)]));
  const isUnit = (v: string) => isUnitToken(v);
  const isRange = (v: string) => isRangeCell(v, decimalComma);
  const only = (keep: (v: string) => boolean) => new Map([...cells].filter(([, v]) => keep(v)));
  const role = label === '' ? undefined : headerRoleOf(label);
  if (role === 'unit') return { kind: 'unit', cells: only(isUnit) };
  if (role === 'range') return { kind: 'range', cells: only(isRange) };
  if (label !== '') return undefined;
  const values = [...cells.values()];
  if (values.every(isUnit)) return { kind: 'unit', cells };
  if (values.every(isRange)) return { kind: 'range', cells };
  return undefined;
}

/** A cell that reads as a range, not a plain number (which parseRange also takes, as a bound alone). */
const isRangeCell = (v: string, decimalComma: boolean): boolean => parseRange(v, decimalComma) !== undefined && !/^\d+(?:[.,]\d+)?$/.test(v.trim());

/** Letters OCR reads for digits of their shape, in a cell that is otherwise a number: what was read → the digit. */
const DIGIT_LOOK_ALIKES: Record<string, string> = { B: '8', O: '0', o: '0', S: '5', l: '1', I: '1' };

/**
 * "BO-100" for 80-100, "3.S-5.1": a cell that is no range as read, made only of digits, such letters and a range's
 * marks, that becomes a range with the letters OCR reads for digits of their shape put back. Other cells, and
 * cells that are no range either way, are returned as read.
 */
function withDigitsForLetters(cell: string, decimalComma: boolean): string {
  const t = cell.trim();
  if (!/\d/.test(t) || parseRange(t, decimalComma) !== undefined || !/^[\dBOoSlI.,\-–\s<>]+$/.test(t)) return cell;
  const repaired = t.replace(/[BOoSlI]/g, (ch) => DIGIT_LOOK_ALIKES[ch]!);
  return isRangeCell(repaired, decimalComma) ? repaired : cell;
}

export interface TransposedRow {
  /** A line made to be read through `layout`: the test's name, its newest value, unit and range. */
  line: TextLine;
  /** The printed row the value was read from. */
  source: TextLine;
}

/** The column layout the rows of a transposed table are given in (see TransposedRow). */
export const TRANSPOSED_LAYOUT: ColumnLayout = {
  columns: [
    { role: 'name', x: 0 },
    { role: 'result', x: 100 },
    { role: 'unit', x: 200 },
    { role: 'range', x: 300 },
  ],
  positioned: true,
};

/**
 * A transposed table being read line by line: `start` with its header line, `take` each next line
 * while it belongs to the table, then `rows` gives one row per test column (none when no date row came).
 */
export class TransposedTable {
  readonly lines: TextLine[] = [];
  private readonly dated: { date: string; cells: Map<number, string>; unknown: Set<number>; line: TextLine }[] = [];

  private constructor(
    private readonly columns: Column[],
    private readonly labelX: number,
    private readonly decimalComma: boolean,
    header: TextLine,
  ) {
    this.lines.push(header);
  }

  static start(line: TextLine, confidence: NameConfidence, decimalComma: boolean): TransposedTable | undefined {
    const header = headerOf(line, confidence);
    return header ? new TransposedTable(header.columns, header.labelX, decimalComma, line) : undefined;
  }

  /** Takes the line when it belongs to the table (a unit or range row before the dates, a date row). */
  take(line: TextLine): boolean {
    const chunks = chunksOf(line);
    if (chunks.length === 0 || !chunks.every((c) => c.positioned)) return false;
    const row = rowCells(chunks, this.columns, this.labelX);
    // A date row with no cell in these columns still counts: it is a collection without these tests.
    if (isDateCell(row.label)) {
      this.dated.push({ date: DATE_PATTERN.exec(row.label)![0], cells: row.cells, unknown: row.unknown, line });
      this.lines.push(line);
      return true;
    }
    if (row.unknown.size > 0) return false;
    const described = this.dated.length === 0 ? describes(row.label, row.cells, this.decimalComma) : undefined;
    if (!described) return false;
    for (const [i, text] of described.cells) this.columns[i]![described.kind] ??= text;
    this.lines.push(line);
    return true;
  }

  get hasDates(): boolean {
    return this.dated.some((d) => d.cells.size > 0 || d.unknown.size > 0);
  }

  /** One row per test with a value in the newest date's row; none when the dates do not say which that is. */
  rows(): TransposedRow[] {
    if (!this.hasDates) return [];
    const newest = newestOf(this.dated.map((d) => d.date));
    if (newest === undefined) return [];
    const { cells, line } = this.dated[newest]!;
    const out: TransposedRow[] = [];
    this.columns.forEach((c, i) => {
      const read = cells.get(i);
      if (read === undefined || foldText(read).trim() === '') return;
      const older = this.dated.filter((_, k) => k !== newest).flatMap((d) => d.cells.get(i) ?? []);
      const value = flagFromLastDigit(read, older, c.range === undefined ? undefined : parseRange(c.range, this.decimalComma));
      const parts = [c.name, value, c.unit ?? '', c.range ?? ''];
      const made = parts.map((text, k) => ({ text, x: TRANSPOSED_LAYOUT.columns[k]!.x })).filter((p) => p.text !== '');
      out.push({ line: { text: made.map((p) => p.text).join('   '), y: line.y, cells: made }, source: line });
    });
    return out;
  }
}

/** Whether a date-shaped text is a date in either day order ("20/22/2024", OCR's "20/12/2024", is none). */
const readableDate = (text: string): boolean => parseDate(text, { order: 'dmy' }) !== '' || parseDate(text, { order: 'mdy' }) !== '';

/**
 * The newest of a table's date rows (layout.ts, newestDateIndex). One row whose date OCR misread into no
 * date at all ("20/22/2024") does not hide the others: the readable dates, two or more, in order, give
 * the direction the table runs (a cumulative table runs chronologically); the unreadable row is the
 * newest when it lies past the newest readable one in that direction, else the newest is a readable one.
 * Two or more unreadable rows, or fewer than two readable ones, leave it unknown.
 */
export function newestOf(dates: string[]): number | undefined {
  const unreadable = dates.map((d, i) => (readableDate(d) ? -1 : i)).filter((i) => i >= 0);
  if (unreadable.length === 0) return newestDateIndex(dates);
  if (unreadable.length > 1) return undefined;
  const readable = dates.map((_, i) => i).filter((i) => i !== unreadable[0]);
  if (readable.length < 2) return undefined;
  const at = newestDateIndex(readable.map((i) => dates[i]!));
  if (at === undefined) return undefined;
  const u = unreadable[0]!;
  const newest = readable[at]!;
  // Ascending (newest readable last) and the unreadable row after it, or descending and before it.
  if (at === readable.length - 1 && u > newest) return u;
  if (at === 0 && u < newest) return u;
  return newest;
}

/** A flag letter and the digits OCR reads it as: H as 8, L as 1 or 4. */
const FLAG_DIGITS: [string, RegExp][] = [
  ['H', /^8$/],
  ['L', /^[14]$/],
];
const decimalsOf = (text: string): number | undefined => {
  const m = /^[<>]?\s*\d+(?:[.,](\d+))?\s*(?:[HL*]{0,2}|\(?[HL]\)?)$/i.exec(text.trim());
  return m ? (m[1]?.length ?? 0) : undefined;
};

/**
 * "10,28" on the newest row of a column whose older values read "9.6H", "9.8H": a flag letter printed
 * after the value and read by OCR as one more digit (H as 8, L as 1 or 4). A column of a cumulative
 * table prints its values with one number of decimals; a newest value with one decimal more than every
 * older value in its column (one or more of them, all alike, with decimals), ending in a flag's
 * look-alike and carrying no flag, is the value with that flag ("10,2H"), unless the column's range says
 * the value lies on the other side. Other values are returned as read.
 */
export function flagFromLastDigit(value: string, older: string[], range: { min?: number; max?: number } | undefined): string {
  const v = value.trim();
  const letter = flagFromLetter(v, older, range);
  if (letter) return letter;
  const m = /^(\d+[.,]\d+)(\d)$/.exec(v);
  if (!m) return older.length === 0 ? value : wholeFlagFromLastDigit(v, older, range) ?? value;
  if (older.length === 0) return value;
  const d = decimalsOf(older[0]!);
  if (d === undefined || d < 1 || older.some((o) => decimalsOf(o) !== d) || decimalsOf(v) !== d + 1) return value;
  const flag = FLAG_DIGITS.find(([, digit]) => digit.test(m[2]!))?.[0];
  if (!flag) return value;
  const n = Number(m[1]!.replace(',', '.'));
  if (flag === 'H' && range?.max !== undefined && !(n > range.max)) return value;
  if (flag === 'L' && range?.min !== undefined && !(n < range.min)) return value;
  return `${m[1]}${flag}`;
}

/**
 * "110R" under "99H", "115H": a bold H printed after the value and read by OCR as R (its right stem and bar
 * taken for a bowl and leg). No flag is printed as R; the value with an H is meant when the column's range
 * says the value lies above it or, with no range read, an older value of the column is printed with H.
 */
function flagFromLetter(v: string, older: string[], range: { min?: number; max?: number } | undefined): string | undefined {
  const m = /^(\d+(?:[.,]\d+)?)\s?R$/.exec(v);
  if (!m) return undefined;
  const n = Number(m[1]!.replace(',', '.'));
  if (range?.max !== undefined) return n > range.max ? `${m[1]}H` : undefined;
  return range?.min === undefined && older.some((o) => /^\d+(?:[.,]\d+)?\s?H$/.test(o.trim())) ? `${m[1]}H` : undefined;
}

/** "458H", "547": a whole number with its flag letter if any; undefined for other cells. */
const WHOLE_CELL = /^(\d+)\s*([HL]?)$/;

/**
 * flagFromLastDigit for columns of whole numbers: "4968" on the newest row under "458H" is "496H".
 * Whole numbers have no decimals to count, so the digits do: the newest value has one digit more than an
 * older value of its column, every older value has as many digits as it without that last digit or (a
 * flag misread likewise, with no letter) as many as it, and the side the look-alike flag says is
 * confirmed by the column's range (the value without the digit lies past it) or, with no range read,
 * by an older value printed with that same flag letter. Undefined when the value stands as read.
 */
function wholeFlagFromLastDigit(v: string, older: string[], range: { min?: number; max?: number } | undefined): string | undefined {
  const m = /^(\d+)(\d)$/.exec(v);
  const flag = m && FLAG_DIGITS.find(([, digit]) => digit.test(m[2]!))?.[0];
  if (!m || !flag) return undefined;
  const cells = older.map((o) => WHOLE_CELL.exec(o.trim()));
  if (cells.some((c) => c === null)) return undefined;
  const core = m[1]!;
  const fits = (c: RegExpExecArray) => c[1]!.length === core.length || (c[1]!.length === v.length && c[2] === '' && FLAG_DIGITS.some(([, d]) => d.test(c[1]!.at(-1)!)));
  if (!cells.some((c) => c![1]!.length === core.length) || !cells.every((c) => fits(c!))) return undefined;
  const n = Number(core);
  const bound = flag === 'H' ? range?.max : range?.min;
  if (bound !== undefined) return (flag === 'H' ? n > bound : n < bound) ? `${core}${flag}` : undefined;
  return cells.some((c) => c![2] === flag) ? `${core}${flag}` : undefined;
}
