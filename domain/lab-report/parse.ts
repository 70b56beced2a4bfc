/**
 * parseLabReport: pages of positioned text lines (from the PDF text layer or OCR) → patient/report
 * metadata and result rows with interpretation and LOINC candidates.
 *
 * The reading is structural, not tuned to any one lab's layout: column headers (in any order, EN/DE/FR)
 * when present, else token patterns; panel headings are short value-less lines followed by results;
 * a panel and a column header carry over to the next page until replaced; lines repeated at the top or
 * bottom of several pages are page furniture. A row is kept only with evidence that it is a result
 * (a unit, a range, a flag, a column header, or a name the LOINC table knows): a wrong value is worse
 * than a missing one.
 */
import { isNameWord } from './blocks.js';
import { inferDateOrder } from './dates.js';
import { chunksOf, type ColumnLayout, columnOf, detectHeader, headerRoleOf, isRangeOrUnitHeading } from './layout.js';
import { matchLoinc } from './loinc-match.js';
import { leadingResult, splitResults } from './multi.js';
import { extractMetadata, hasMetadataLabel, type MetadataLine, nameHasMetadataLabel, patientSex } from './metadata.js';
import { parseFlag } from './flags.js';
import { readHl7Segments } from './hl7.js';
import { interpret, withRange } from './interpret.js';
import { analyteOfInterval } from './intervals.js';
import { headingUnit, isPanelHeading, panelTitle } from './panels.js';
import { type AgeBandRange, parseAgeBand, parseRange, type ParsedRange, rangeForAge, rangeForSex, sexOfRange } from './ranges.js';
import { garbledOcrName, mostlyNonLatin, nearestLabel, repairOcrName, unreadableOcrName, wrongScriptName } from './ocr-names.js';
import { withRecoveredReadings } from './ocr-recover.js';
import { withoutMisreadings } from './plausibility.js';
import { chooseByRegion } from './regions.js';
import { rangeStatements, withRemoteRanges } from './remote-ranges.js';
import { parseRow, type RowCandidate, type RowOptions } from './rows.js';
import { detectLanguage, foldText, squash } from './text.js';
import { TRANSPOSED_LAYOUT, TransposedTable } from './transposed.js';
import { isUnitToken } from './units.js';
import { parseValue } from './values.js';
import { type ExtractedPage, type Interpretation, LIKELY_TEST_NAME, type LoincMatch, type ParsedReport, type ParsedResult, type TextLine, UNREADABLE } from './types.js';

export interface ParseOptions {
  /** Year used to place two-digit birth years (defaults to the current year). */
  currentYear?: number;
}

interface PageLine {
  page: number;
  line: TextLine;
  /** Position among the page's lines, to spot headers and footers. */
  index: number;
  count: number;
}

/** A line's text with column gaps kept wide, whether it came with cells or not. */
function lineText(line: TextLine): string {
  return chunksOf(line)
    .map((c) => c.text)
    .join('   ');
}

/**
 * Decimal commas: always in German/French text; in English only when commas outnumber points as decimals.
 * A point before exactly three digits ("7.830", "150.000") may group thousands as well as mark decimals, as
 * a comma before three does: neither is counted. (OCR reads a decimal comma as a point now and then, and a
 * laudo's counts grouped with points would then outweigh its commas.)
 */
function usesDecimalComma(text: string, language: string): boolean {
  if (language !== 'en') return true;
  const commas = text.match(/(?<![\d,])\d{1,3},\d{1,2}(?![\d,])/g)?.length ?? 0;
  const points = text.match(/(?<![\d.])(?![1-9]\d{0,2}\.\d{3}(?![\d.]))\d+\.\d+(?![\d.])/g)?.length ?? 0;
  return commas > points;
}

/**
 * Lines printed at the same place on several pages (letterhead, patient banner, "Page 1 of 3" footers):
 * compared with digits masked, among the first and last few lines of each page, and never printed between them.
 */
function pageFurniture(lines: PageLine[], pageCount: number): Set<PageLine> {
  const furniture = new Set<PageLine>();
  if (pageCount < 2) return furniture;
  const edge = (l: PageLine): boolean => l.index < 6 || l.index >= l.count - 4;
  const key = (l: PageLine): string => foldText(squash(l.line.text)).replace(/\d+/g, '#');
  // "53 mg/dL", "40", "Range: 70 - 99 mg/dL": with digits masked, the last result of one page looks like
  // the last of the next; furniture has words, not units.
  const furnitureLike = (l: PageLine): boolean => (key(l).match(/\p{L}/gu)?.length ?? 0) >= 3 && !l.line.text.split(/\s+/).some((w) => isUnitToken(w));
  const pagesByKey = new Map<string, Set<number>>();
  for (const l of lines.filter((x) => edge(x) && furnitureLike(x))) {
    const k = key(l);
    pagesByKey.set(k, (pagesByKey.get(k) ?? new Set()).add(l.page));
  }
  // A line also printed in a page's body is content that happens to fall near an edge ("Valores de referência:"
  // under each exam of a laudo, the last exam's at the foot of two pages), not furniture: that stays at the edges.
  const inBody = new Set(lines.filter((x) => !edge(x)).map(key));
  for (const l of lines) if (edge(l) && furnitureLike(l) && (pagesByKey.get(key(l))?.size ?? 0) >= 2 && !inBody.has(key(l))) furniture.add(l);
  return furniture;
}

const NOT_A_TEST = /^(range|units?|page|seite|dob|date|datum|time|zeit|age|alter|sex|gender|phone|tel|fax|npi|clia|account|acct|id|mrn|zip|patient|name|nom|prenom|vorname|nachname|specimen|accession|collected|received|reported|printed|ordered|physician|doctor|provider|arzt|medecin|client|suite|room|bed|report|befund|auftrag|dossier|version|printed|telephone|telefon|ref|lab|labor|laboratory|laboratoire|address|adresse|street|strasse|rue)\b/;

/** "Fasting: Yes", "Nüchtern: nein": the patient's state, not a test ("Fasting Blood Sugar" is one). */
const FASTING_STATE = /^(fasting|nuchtern|a jeun)( status| state| hours?| time)?$/;

/** "78 mg/dL", "0.78": a measured value (the line above a value in a card, two cards side by side), not a name. */
const MEASURE_ONLY = /^[<>]?\s*\d+(?:[.,]\d+)?\s*(?:\S+)?$/;

/** "Class 3  3.50-17.4  High": a grade of a legend (class, grade, stage), named by the word alone, is no test. */
const GRADE_WORD = /^(class|grade|stage|klasse|classe|clase|grado)$/;

function looksLikeTestName(name: string): boolean {
  const folded = foldText(name);
  if (NOT_A_TEST.test(folded) || FASTING_STATE.test(folded) || GRADE_WORD.test(folded.trim()) || name.length > 60) return false;
  if (MEASURE_ONLY.test(name.trim()) && !name.split(/\s+/).some(isNameWord)) return false;
  return name.split(/\s+/).length <= 8 && !/https?:|www\.|@/.test(folded);
}

/** Evidence that a row is a result and not, say, an address line with a number in it. */
function isResult(row: RowCandidate, top: LoincMatch | undefined): boolean {
  // "Collected: 21-JUN-2024 08:20 Specimen: Serum": a labelled metadata line, however it ends.
  if (!looksLikeTestName(row.name) || nameHasMetadataLabel(row.name)) return false;
  const confidence = top?.confidence_score ?? 0;
  const qualitative = row.value.type === 'boolean' || row.value.type === 'comment';
  if (qualitative) {
    // Through a column header the row is a result whatever its name; else the name must be a known test.
    return row.viaColumns || confidence >= 0.8 || (row.range?.qualitative !== undefined && confidence >= 0.6);
  }
  return row.viaColumns || row.unit !== undefined || row.range !== undefined || row.flag !== undefined || confidence >= LIKELY_TEST_NAME;
}

/** "Glucose ^A", "Sodium ^1": a caret footnote mark after a name belongs to the report's notes, not the name. */
const withoutFootnoteMark = (name: string): string => name.replace(/\s*\^[A-Za-z0-9]{1,2}$/, '');

function toResult(row: RowCandidate, page: number, panel: string | undefined, matches: LoincMatch[]): ParsedResult {
  const result: ParsedResult = { test_name: withoutFootnoteMark(row.name), value: row.value.value, type: row.value.type, page };
  if (row.unit) result.units = row.unit;
  if (row.range) {
    result.reference_range_text = row.range.text;
    if (row.range.min !== undefined) result.min_reference_range = row.range.min;
    if (row.range.max !== undefined) result.max_reference_range = row.range.max;
  }
  if (panel) result.source_panel_name = panel;
  if (row.flag) result.flag = row.flag.flag;
  Object.assign(result, interpret(row.value, row.range, row.flag));
  result.loinc_matches = matches;
  return result;
}

/** The line with each word the extractor marked unreadable mapped by `word` (dropped when it gives ""). */
function mapUnreadable(line: TextLine, word: (raw: string) => string): TextLine {
  const fix = (text: string) => (text.includes(UNREADABLE) ? text.replace(new RegExp(`${UNREADABLE}(\\S*)`, 'g'), (_m, raw: string) => word(raw)).trim() : text);
  return { ...line, text: fix(line.text), cells: line.cells?.map((c) => ({ ...c, text: fix(c.text) })).filter((c) => c.text !== '') };
}
const withoutMarks = (line: TextLine): TextLine => mapUnreadable(line, (raw) => raw);

/**
 * A line holding a word OCR could not read reliably (a number read differently each time): the row is
 * read twice, with the word as first read and without it. When both readings give the same test and
 * value, the word was not the value (a range bound, a previous result): the row stands, without a
 * range that contains the word. Otherwise the value itself is in doubt and the row is not read.
 */
function readAroundUnreadable(line: TextLine, opts: RowOptions): RowCandidate | undefined {
  const doubtful = [...line.text.matchAll(new RegExp(`${UNREADABLE}(\\S+)`, 'g'))].map((m) => m[1]!);
  const asRead = parseRow(withoutMarks(line), opts);
  const without = parseRow(mapUnreadable(line, () => ''), opts);
  if (!asRead || !without || asRead.name !== without.name || asRead.value.value !== without.value.value) return undefined;
  if (asRead.range && doubtful.some((d) => asRead.range!.text.includes(d))) return { ...asRead, range: undefined };
  return asRead;
}

/**
 * "Resultado: 84 mg/dL", "Result: 5.2": a row named only by the word for "result" is the result of the
 * exam whose heading stands just above it (one block per exam, as Brazilian and Spanish laudos print).
 */
const GENERIC_RESULT = /^(result|resultado|resultat|ergebnis|risultato|uitslag|valor|value)$/;
/** "Desejável: inferior a 190 mg/dL", "Valores de referência": a reference line under a result, not a test. */
// "Protective level: >= 10 mIU/mL", "Cut-off: 1.0": the limit a certificate or a screen prints under its result.
const RANGE_LABEL = /^(desejavel|deseable|desirable|optimal|otimo|optimo|ideal|valores? de referencia|intervalo de referencia|reference (range|interval)|referenzbereich|valeurs? de reference|protective (?:antibody )?level|cut-?off(?: value)?)\b/;

/**
 * "Follicular phase 2.4 - 12.6", "Postmenopause: <54.7", "High (lower risk) >=60", "G3a Mildly to moderately
 * decreased 45-59": a range named by one to six words (a bracketed aside among them; a word may be a
 * category's code, letters then digits).
 */
const NAMED_RANGE = /^((?:\(?\p{L}[\p{L}\d'’.-]*\)?\s+){0,5}\(?\p{L}[\p{L}\d'’.-]*\)?)\s*[:=]?\s+((?:[<>]=?|=<|=>|[≤≥])?\s*\d.*)$/u;
/** Ranges by sex keep their own reading (ranges.ts: one sex's range keeps its bounds). */
const SEX_WORD = /^(m|f|w|h|male|female|males|females|men|women|manner|frauen|hommes|femmes|homens|mulheres|hombres|mujeres)$/;
/** "<0.05 - 0.13": a lower limit of detection, then the range. */
const BOUND_THEN_SPAN = /^[<>≤≥]\s*\d[\d.,]*\s*[-–—]\s*\d[\d.,]*(?:\s+\S+)?$/;

/**
 * "Valores de referencia: 70 - 100", "Optimal range: 40 – 80", "Reference range 3.5-5.1": a line that is
 * only a range label and a range (the label as RANGE_LABEL reads it, optionally followed by "range").
 */
const LABELLED_RANGE_LABEL = /^(desejavel|deseable|desirable|optimal|otimo|optimo|ideal|valores? de referencia|intervalo de referencia|reference (range|interval)|referenzbereich|valeurs? de reference|normal range|ref\.? range|protective (?:antibody )?level|cut-?off(?: value)?|reference|normal values?|reference values?)( range)?\s*:?$/;
/** The labels LABELLED_RANGE_LABEL reads, spelled out: an OCR-misread label is matched to its nearest (ocr-names.ts). */
const RANGE_LABEL_PHRASES = ['desejavel', 'deseable', 'desirable', 'valores de referencia', 'valor de referencia', 'intervalo de referencia', 'reference range', 'reference interval', 'referenzbereich', 'valeurs de reference', 'valeur de reference', 'normal range', 'protective level', 'protective antibody level', 'cut-off value', 'reference', 'normal values', 'reference values'];
/** A bare "Reference:" also heads accession and order numbers: its range never holds a run of five digits. */
const BARE_REFERENCE_LABEL = /^(reference|normal values?|reference values?)\s*:?$/;
/**
 * "Units: mg/dL", "Flag: High" under a result: a key-value block per test, as patient portals and LIS exports print
 * them ("Test:" / "Result:" / "Units:" / "Reference:" / "Flag:"). The key, then what it gives the result above.
 */
const FIELD_LINE = /^([\p{L}][\p{L} ]{1,24}?)\s*:\s*(\S.*)$/u;
const UNIT_KEY = /^(units?|unit of measure|uom|einheit|unite|unites|unidad|unidades|unita|eenheid|enhet)$/;
const FLAG_KEY = /^(flags?|abnormal flag|result flag|interpretation|flag status)$/;
/**
 * "Test: HbA1c (glycated haemoglobin)" then, a line or two under it, "Result: 5.4 %": a certificate's or a
 * single-test report's labelled name, which names the "Result" row under it as an exam heading does.
 */
const TEST_NAME_LABEL = /^(?:test(?: name| performed)?|analyte|investigation|examination|parameter)\s*:\s*(\p{L}.{1,80})$/iu;
/**
 * How many lines without a digit (an explanation, a method, a status) may stand between a result and the
 * labelled lines under it that complete it (its range, unit or flag).
 */
const LABELLED_LINES_GAP = 2;

const INPUT_HEADING = /^(input|inputs|input values|entered values|operator input|patient input|eingaben?|eingabewerte|saisie|valeurs saisies)$/;

/**
 * From OCR, "Optimal range: 50 150 | (PSE | ete | pa": cells after the last one holding a digit that are
 * neither a unit nor hold a digit are marks drawn beside the line (a bar, an icon), read as letters.
 */
function withoutTrailingMarks(line: TextLine): TextLine {
  const cells = line.cells;
  if (!cells || cells.length < 2) return line;
  let end = cells.length;
  while (end > 1 && !/\d/.test(cells[end - 1]!.text) && !isUnitToken(cells[end - 1]!.text.trim())) end--;
  if (end === cells.length) return line;
  const kept = cells.slice(0, end);
  return { ...line, text: kept.map((c) => c.text).join(' '), cells: kept };
}

/**
 * "Optimal range: 40 80" from OCR: after a range label, two plain numbers, the first below the second, are
 * the bounds of a span whose dash OCR lost (a label says a range follows, and two numbers give no other one).
 */
function spanWithoutDash(words: string[], decimalComma: boolean): ParsedRange | undefined {
  if (words.length !== 2 || !words.every((w) => /^\d+(?:[.,]\d+)?$/.test(w))) return undefined;
  const range = parseRange(`${words[0]} - ${words[1]}`, decimalComma);
  return range?.min !== undefined && range.max !== undefined && range.min < range.max ? range : undefined;
}

/** A result read earlier gets the range a later line printed for it (`text` as printed), and what it says of the value. */
function giveRange(result: ParsedResult, row: RowCandidate, range: ParsedRange, text = range.text): void {
  Object.assign(result, { reference_range_text: text }, interpret(row.value, range, row.flag));
  if (range.min !== undefined) result.min_reference_range = range.min;
  if (range.max !== undefined) result.max_reference_range = range.max;
}

/** Reads the pages in order, carrying the column layout and the panel heading along. */
class ReportReader {
  private layout: ColumnLayout | undefined;
  private panel: string | undefined;
  private pendingPanel: string | undefined;
  private linesSincePending = 0;
  /** Inside an analyser's block of entered settings (see inInputBlock). */
  private inputBlock = false;
  private readonly confidences = new Map<string, number>();
  /** Lines read as the continuation of a result's range: no other reading takes them for results. */
  readonly rangeLines = new Set<TextLine>();
  /** Lines read through their columns whose value is in doubt (rows.ts, lookAlikeOfPrevious): no other reading takes them. */
  readonly doubtedLines = new Set<TextLine>();
  /**
   * The last result read, while labelled lines under it ("Reference range: …", "Units: …", "Flag: …") may still
   * complete it: up to LABELLED_LINES_GAP other lines without a digit (labelledRange, labelledField).
   */
  private completing: { row: RowCandidate; result: ParsedResult; gap: number } | undefined;
  /** The line before was a range label alone ("Valores de referência:"), its range to come on this line. */
  private rangeLabelAbove = false;
  /** The result the last line gave, while the lines after it may continue its range. */
  private lastRow: { row: RowCandidate; result: ParsedResult } | undefined;
  /** A transposed table being read (transposed.ts), and its page. */
  private table: { reading: TransposedTable; page: number } | undefined;
  readonly results: ParsedResult[] = [];
  /** The line each result was read from, index for index. */
  readonly sources: TextLine[] = [];

  constructor(
    private readonly decimalComma: boolean,
    /** Pages read by OCR, where some marks are specks rather than print. */
    private readonly ocrPages: Set<number>,
    /** The patient's age in days at collection, when the report gives the birth date and the date. */
    private readonly ageDays?: number,
    /** The patient's sex, when the report states it. */
    private readonly sex?: 'M' | 'F',
    /** OCR pages printed mostly in a script other than Latin (see wrongScriptName). */
    private readonly nonLatinPages = new Set<number>(),
  ) {}

  readonly nameConfidence = (name: string): number => {
    let confidence = this.confidences.get(name);
    if (confidence === undefined) {
      confidence = matchLoinc(name)[0]?.confidence_score ?? 0;
      this.confidences.set(name, confidence);
    }
    return confidence;
  };

  readonly isKnownName = (name: string): boolean => this.nameConfidence(name) >= 0.9;

  read(pl: PageLine): void {
    if (this.table) {
      if (pl.page === this.table.page && this.table.reading.take(pl.line)) return;
      this.endTable();
    }
    this.readLine(pl, true);
  }

  /** Ends the reading: a table still open is read. */
  finish(): void {
    if (this.table) this.endTable();
  }

  /**
   * A transposed table's end: one row per test column, read through the table's own layout. A header
   * of test names with no date row under it was no such table: its lines are read as any others.
   */
  private endTable(): void {
    const { reading, page } = this.table!;
    this.table = undefined;
    if (!reading.hasDates) {
      reading.lines.forEach((line, i) => this.readLine({ page, line, index: 0, count: 0 }, i > 0));
      return;
    }
    const opts = { decimalComma: this.decimalComma, layout: TRANSPOSED_LAYOUT, isKnownName: this.isKnownName, ocr: this.ocrPages.has(page) };
    for (const { line, source } of reading.rows()) {
      let row = parseRow(line, opts);
      // From OCR, a heading the LOINC table does not know is more likely misread than an unfamiliar test: it is
      // read only when its column's unit and interval name one analyte (intervals.ts), and then as that analyte;
      // never a heading that reads as a column heading word ("ab", "Flag"), which may head no test at all.
      if (row && opts.ocr && this.nameConfidence(repairOcrName(row.name)) < LIKELY_TEST_NAME) {
        const analyte = headerRoleOf(row.name) === undefined ? analyteOfInterval(row.unit, row.range?.min, row.range?.max) : undefined;
        if (!analyte) continue;
        row = { ...row, name: analyte.name };
      }
      if (row && this.accept(row, page)) this.sources.push(source);
    }
  }

  private readLine(pl: PageLine, mayStartTable: boolean): void {
    const table = mayStartTable ? TransposedTable.start(pl.line, this.nameConfidence, this.decimalComma) : undefined;
    if (table) {
      this.table = { reading: table, page: pl.page };
      return;
    }
    const header = detectHeader(pl.line);
    if (header) {
      this.layout = header;
      return;
    }
    if (this.continuesRange(pl.line)) return;
    if (this.labelledRange(pl.line, this.ocrPages.has(pl.page))) return;
    if (this.labelledField(pl.line)) return;
    if (this.inInputBlock(pl.line)) return;
    const opts = { decimalComma: this.decimalComma, layout: this.layout, isKnownName: this.isKnownName, nameConfidence: this.nameConfidence, ocr: this.ocrPages.has(pl.page), doubted: this.doubtedLines };
    // A line holding two results (two tests side by side, or one test in two units: multi.ts) gives both.
    const several = pl.line.text.includes(UNREADABLE) ? undefined : splitResults(pl.line, (part) => parseRow(part, opts));
    if (several) {
      const taken = several.filter((r) => this.accept(r, pl.page));
      taken.forEach(() => this.sources.push(pl.line));
      this.lastRow = undefined;
      this.completing = undefined;
      if (taken.length > 0) return;
    }
    const row = pl.line.text.includes(UNREADABLE) ? readAroundUnreadable(pl.line, opts) : (parseRow(pl.line, opts) ?? leadingResult(pl.line, (part) => parseRow(part, opts)));
    if (row && this.accept(row, pl.page)) {
      this.sources.push(pl.line);
      const result = this.results.at(-1)!;
      this.lastRow = { row, result };
      this.completing = { row, result, gap: 0 };
      return;
    }
    this.lastRow = undefined;
    if (this.completing && (/\d/.test(pl.line.text) || ++this.completing.gap > LABELLED_LINES_GAP)) this.completing = undefined;
    this.notAResult(withoutMarks(pl.line));
  }

  /**
   * "Glucosa  61 *  mg/dL" then "Valores de referencia: 70 - 100" on the line under it, or "Vitamin D
   * 72 ng/mL", a line of explanation, then "Optimal range: 40 – 80": a line that is only a range label and
   * a range gives its range to the result above it when that result has none, and is itself no result.
   * Up to LABELLED_LINES_GAP lines without a digit may stand between them.
   */
  private labelledRange(line: TextLine, ocr: boolean): boolean {
    const labelAbove = this.rangeLabelAbove;
    this.rangeLabelAbove = false;
    const waiting = this.completing;
    if (!waiting || waiting.result.reference_range_text) return false;
    const raw = squash(lineText(ocr ? withoutTrailingMarks(line) : line));
    const at = raw.search(/[\d<>≤≥]/);
    // From OCR a label may come misread in a letter or two ("Valores de refcréncin:"): its nearest label is read.
    const labelOf = (text: string) => {
      const folded = foldText(text).toLowerCase().trim();
      return ocr && !LABELLED_RANGE_LABEL.test(folded) ? nearestLabel(folded.replace(/^[^\p{L}]+|[\s:;.]+$/gu, ''), RANGE_LABEL_PHRASES) : folded;
    };
    // "Valores de referência:" alone on its line, the range on the next ("70 a 99 mg/dL"): the label waits for it.
    if (at < 0 && LABELLED_RANGE_LABEL.test(labelOf(raw)) && /[:;]\s*$/.test(raw)) {
      this.rangeLabelAbove = true;
      this.rangeLines.add(line);
      return true;
    }
    if (at < 0 || (at === 0 && !labelAbove)) return false;
    // Under a lone label the range may carry its own ("Desejável: inferior a 190 mg/dL"): what follows its colon.
    const own = labelAbove ? /^([^:\d]{2,30}):\s*(.+)$/.exec(raw) : null;
    const ownLabel = own ? LABELLED_RANGE_LABEL.test(labelOf(own[1]!)) : false;
    const label = labelOf(raw.slice(0, at));
    if (at > 0 && !ownLabel && !LABELLED_RANGE_LABEL.test(label)) return false;
    // "Reference range: 80 - 100 fL": a unit after the range is the result's unit, not part of the range.
    const words = (ownLabel ? own![2]! : raw.slice(at)).trim().split(' ');
    const unit = words.length > 1 && isUnitToken(words.at(-1)!) ? words.pop() : undefined;
    const range = parseRange(words.join(' '), this.decimalComma) ?? (ocr ? spanWithoutDash(words, this.decimalComma) : undefined);
    if (!range || (range.min === undefined && range.max === undefined)) return false;
    if (BARE_REFERENCE_LABEL.test(ownLabel ? labelOf(own![1]!) : label) && /\d{5,}/.test(range.text)) return false;
    const { result, row } = waiting;
    if (unit && !result.units) result.units = unit;
    giveRange(result, row, range);
    this.lastRow = undefined;
    this.rangeLines.add(line);
    return true;
  }

  /**
   * "Units: mg/dL" and "Flag: High" on lines of their own under a result ("Test: Glucose", "Result: 104"): the
   * result's unit, when it has none, and its flag, which judges it (with the range it has or gets later). Such a
   * line is no result. Up to LABELLED_LINES_GAP other lines without a digit may stand between them and the result.
   */
  private labelledField(line: TextLine): boolean {
    const block = this.completing;
    if (!block) return false;
    const m = FIELD_LINE.exec(squash(lineText(line)));
    if (!m) return false;
    const key = foldText(m[1]!).trim();
    const value = m[2]!.trim();
    const { row, result } = block;
    if (UNIT_KEY.test(key)) {
      if (!isUnitToken(value)) return false;
      if (!result.units) result.units = value;
    } else if (FLAG_KEY.test(key)) {
      const flag = parseFlag(value);
      if (!flag) return false;
      row.flag = flag;
      result.flag = flag.flag;
      const range = result.reference_range_text ? parseRange(result.reference_range_text, this.decimalComma) : undefined;
      Object.assign(result, interpret(row.value, range, flag));
    } else return false;
    this.rangeLines.add(line);
    return true;
  }

  /**
   * An analyser's "Input" block ("Temperature 37.0 °C", "FO2(I) 21.0 %", entered by the operator to
   * calculate results): its lines are settings, not results. The block runs from its heading to the
   * first line without a number (the next section's heading).
   */
  private inInputBlock(line: TextLine): boolean {
    const folded = foldText(squash(lineText(line))).replace(/:$/, '');
    if (INPUT_HEADING.test(folded)) {
      this.inputBlock = true;
      this.lastRow = undefined;
      return true;
    }
    if (this.inputBlock && /\d/.test(line.text)) return true;
    this.inputBlock = false;
    return false;
  }

  /**
   * "Postmenopause   <0.05 - 0.13" under "Progesterone  5.53  ng/mL  Follicular phase 0.06 - 0.89": a
   * line that is only a named variant of a range, right under a result whose range is itself a named
   * variant (or under another such line), continues that range: one result with several ranges, whose
   * bounds are left out since which applies is not known. Ranges by sex are not joined so: the first
   * keeps its bounds as ranges.ts reads one sex's range.
   */
  private continuesRange(line: TextLine): boolean {
    const last = this.lastRow;
    const variant = (text: string) => {
      const m = NAMED_RANGE.exec(squash(text));
      const label = m?.[1]?.trim() ?? '';
      const range = m && (parseRange(m[2]!, this.decimalComma) !== undefined || BOUND_THEN_SPAN.test(m[2]!));
      return range && !SEX_WORD.test(foldText(label)) && this.nameConfidence(label) < LIKELY_TEST_NAME ? m : undefined;
    };
    if (!last?.result.reference_range_text) return false;
    if (this.sexRangeLine(line, last)) return true;
    const first = last.result.reference_range_text.split('; ')[0]!;
    // "Very High  n?s" under tiers already joined: a line wholly in the range column whose bound OCR could not
    // read (no digit) is one more tier, unknown; it is no result (nor a name for a value near it), and adds nothing.
    const layout = this.layout;
    const chunks = chunksOf(line);
    const inRangeColumn = layout?.positioned === true && chunks.length > 0 && chunks.every((c) => c.positioned && columnOf(layout, c) === 'range');
    if (inRangeColumn && !/\d/.test(line.text) && first !== last.result.reference_range_text) {
      this.rangeLines.add(line);
      return true;
    }
    // From OCR, a speck read as a lone mark ("=", "-", "+") before the tier's words or after them is no part of it
    // (a dash after a number is a span's: "12.5 - 166").
    const printed = last.result.page !== undefined && this.ocrPages.has(last.result.page) ? lineText(line).replace(/(^|(?<=[^\d\s])\s+)[=+\-*~_.,]+(?=\s)/g, ' ') : lineText(line);
    const ageBands = parseAgeBand(first, this.decimalComma) !== undefined && parseAgeBand(printed, this.decimalComma) !== undefined;
    if (!ageBands && (!variant(first) || !variant(printed))) return false;
    const text = `${last.result.reference_range_text}; ${squash(printed)}`;
    const range = this.rangeByAge(text) ?? { text, minInclusive: true, maxInclusive: true };
    const { result } = last;
    delete result.min_reference_range;
    delete result.max_reference_range;
    delete result.interpretation;
    delete result.is_above_max_range;
    delete result.is_below_min_range;
    giveRange(result, last.row, range, text);
    this.rangeLines.add(line);
    return true;
  }

  /**
   * "Male: 0.74 - 1.35" on the row, "Female: 0.59 - 1.04" on the line under it: with the patient's sex stated,
   * the range of that sex is the row's (the other sex's line, above or below, is no result).
   */
  private sexRangeLine(line: TextLine, last: { row: RowCandidate; result: ParsedResult }): boolean {
    if (this.sex === undefined) return false;
    const printed = squash(lineText(line));
    const own = sexOfRange(printed, this.decimalComma);
    const before = sexOfRange(last.result.reference_range_text!, this.decimalComma);
    if (own === undefined || before === undefined || own === before) return false;
    if (own === this.sex) {
      const range = parseRange(printed.replace(/^[^:=]*[:=]\s*/, ''), this.decimalComma);
      if (!range || (range.min === undefined && range.max === undefined)) return false;
      const { result } = last;
      for (const k of ['min_reference_range', 'max_reference_range', 'interpretation', 'is_above_max_range', 'is_below_min_range'] as const) delete result[k];
      giveRange(result, last.row, { ...range, text: printed });
    }
    this.rangeLines.add(line);
    return true;
  }

  /**
   * "1-3 y 0.10 - 0.36; 3-5 y 0.20 - 0.43; …": ranges by age band, of which the one holding the patient's
   * age at collection applies (its bounds; the text keeps every band). Undefined when the text is not
   * age bands or the age, or which band holds it, is not known.
   */
  private rangeByAge(text: string): ParsedRange | undefined {
    if (this.ageDays === undefined) return undefined;
    const bands = text.split('; ').map((part) => parseAgeBand(part, this.decimalComma));
    if (bands.some((b) => b === undefined)) return undefined;
    const range = rangeForAge(bands as AgeBandRange[], this.ageDays);
    return range && { ...range, text };
  }

  /** The row as a result, when it is one (see isResult); the reader's state is not changed. */
  resultOf(row: RowCandidate, page: number, panel = this.pendingPanel ?? this.panel): ParsedResult | undefined {
    // ".57" from OCR: a speck before "57", or a misread; either way the value is not known.
    if (row.value.nakedPoint && this.ocrPages.has(page)) return undefined;
    const ocr = this.ocrPages.has(page);
    if (ocr) row = { ...row, name: repairOcrName(row.name) };
    // From OCR, a name garbled past repair ("W7l1 un", "woe" for WCC), beside a unit and an interval that name one
    // analyte, is that analyte.
    if (ocr && unreadableOcrName(row.name, this.nameConfidence(row.name))) {
      const analyte = analyteOfInterval(row.unit, row.range?.min, row.range?.max);
      if (analyte) row = { ...row, name: analyte.name };
    }
    const folded = foldText(row.name).toLowerCase().replace(/[:.]+$/, '').trim();
    if (RANGE_LABEL.test(folded)) return undefined;
    if (GENERIC_RESULT.test(folded)) {
      // Named by the exam heading just above; with none the row names nothing.
      if (!this.pendingPanel || panel !== this.pendingPanel) return undefined;
      row = { ...row, name: this.pendingPanel };
      panel = undefined;
    }
    // No unit on the row, one in its panel's heading ("LIPID PROFILE (mg/dL)"): the heading's unit is the row's.
    const fromHeading = !row.unit && panel && row.value.type !== 'boolean' && row.value.type !== 'comment' ? headingUnit(panel) : undefined;
    if (fromHeading) row = { ...row, unit: fromHeading };
    const qualitative = row.value.type === 'boolean' || row.value.type === 'comment';
    const matches = matchLoinc(row.name, { unit: row.unit, panel, qualitative, rangeText: row.range?.text });
    const confidence = matches[0]?.confidence_score ?? 0;
    if (!isResult(row, matches[0]) || (ocr && (garbledOcrName(row.name, confidence) || isRangeOrUnitHeading(row.name)))) return undefined;
    if (this.nonLatinPages.has(page) && wrongScriptName(row.name, confidence)) return undefined;
    return toResult(row, page, panel, matches);
  }

  private accept(row: RowCandidate, page: number): boolean {
    const byAge = row.range && row.range.min === undefined && row.range.max === undefined ? this.rangeByAge(row.range.text) : undefined;
    if (byAge) row = { ...row, range: byAge };
    const result = this.resultOf(row, page);
    if (!result) return false;
    if (this.pendingPanel && result.test_name === this.pendingPanel) this.pendingPanel = undefined; // the exam's own name
    else if (this.pendingPanel) {
      this.panel = this.pendingPanel;
      this.pendingPanel = undefined;
    }
    this.results.push(result);
    return true;
  }

  private notAResult(line: TextLine): void {
    const text = lineText(line);
    const named = TEST_NAME_LABEL.exec(squash(text))?.[1];
    if (named && !/\d{3,}/.test(named)) {
      this.pendingPanel = named;
      this.linesSincePending = 0;
    } else if (isPanelHeading(text) && !hasMetadataLabel(text)) {
      this.pendingPanel = panelTitle(text);
      this.linesSincePending = 0;
    } else if (this.pendingPanel && ++this.linesSincePending > 2) {
      this.pendingPanel = undefined; // a heading is one only if results follow it closely
    }
  }
}

/** Days from a birth date to a later date (both YYYY-MM-DD); undefined when either is missing. */
export function ageInDays(dob: string, at: string | undefined): number | undefined {
  const from = Date.parse(`${dob}T00:00:00Z`);
  const to = Date.parse(`${at ?? ''}T00:00:00Z`);
  return Number.isNaN(from) || Number.isNaN(to) || to < from ? undefined : (to - from) / 86_400_000;
}

/**
 * "Taylor, Susan DOB 12/11/1951 Collected 05/27/2025", "Linda Rodriguez - DOB: 04/03/1949": OCR joins fields its
 * gaps were too narrow to split into one cell. A birth-date, date or sex label inside a cell (after a space, or a
 * dash or bar between spaces) opens a cell of its own, as a printed column gap would, so the name before it stands alone.
 */
const INLINE_LABEL = /\s+(?:[-–|·]\s+)?(?=(?:DOB|D\.O\.B\.?|Date of birth|Birth date|Collected|Reported|Received|Sex|Gender)\b)/gi;
function withLabelGaps(text: string): string {
  return text.replace(INLINE_LABEL, '   ');
}

export function parseLabReport(pages: ExtractedPage[], options: ParseOptions = {}): ParsedReport {
  const ordered = readHl7Segments([...pages].sort((a, b) => a.page - b.page));
  const lines: PageLine[] = ordered.flatMap((p) => p.lines.map((line, index) => ({ page: p.page, line, index, count: p.lines.length })));
  const allText = lines.map((l) => lineText(l.line)).join('\n');
  const language = detectLanguage(allText);
  const furniture = pageFurniture(lines, ordered.length);

  const ocrPages = new Set(ordered.filter((p) => p.source === 'ocr').map((p) => p.page));
  const decimalComma = usesDecimalComma(allText, language);
  const metaLines: MetadataLine[] = lines
    .filter((l) => !detectHeader(l.line))
    .map((l) => {
      const text = lineText(withoutMarks(l.line));
      return { text: ocrPages.has(l.page) ? withLabelGaps(text) : text, page: l.page };
    });
  const metadata = extractMetadata(metaLines, { dateOrder: inferDateOrder(allText, language), currentYear: options.currentYear });
  const sex = patientSex(metaLines);
  const nonLatinPages = new Set([...ocrPages].filter((page) => mostlyNonLatin(lines.filter((l) => l.page === page).map((l) => l.line.text).join(' '))));
  const reader = new ReportReader(decimalComma, ocrPages, ageInDays(metadata.dob, metadata.date_collected || metadata.date_reported), sex, nonLatinPages);
  // Intervals printed apart from their results ("Bio. Ref. Interval — TSH: 0.54 - 5.30"): their lines are no results.
  const remote = rangeStatements(lines.map((l) => l.line), decimalComma);
  for (const l of lines) if (!furniture.has(l) && !remote.lines.has(l.line)) reader.read(l);
  reader.finish();
  const results = chooseByRegion(
    ordered.map((p) => ({ page: p.page, lines: lines.filter((l) => l.page === p.page && !furniture.has(l) && !reader.rangeLines.has(l.line) && !remote.lines.has(l.line)).map((l) => l.line) })),
    reader.results.map((result, i) => ({ result, line: reader.sources[i]! })),
    { decimalComma, isKnownName: reader.isKnownName, nameConfidence: reader.nameConfidence, doubted: reader.doubtedLines },
    (row, page) => reader.resultOf(row, page, undefined),
  );

  // The intervals printed apart join their results first, so the checks of an OCR reading against its range see them.
  const ranged = withRemoteRanges(results, remote.statements);
  const graded = withGradeLegend(withoutMisreadings(withRecoveredReadings(ranged, ocrPages), ocrPages), lines.map((l) => lineText(l.line)), ocrPages);
  return { metadata, results: withoutRestatedLimits(withSexRanges(graded, sex, decimalComma)) };
}

/** A bare limit as a value: "<5.0", ">= 8.6", "≤ 15.2". */
const BARE_LIMIT = /^(<=?|>=?|≤|≥)\s*(\d+(?:[.,]\d+)?)$/;
const nameWords = (name: string) => foldText(name).split(/[^\p{L}\p{N}]+/u).filter(Boolean);

/**
 * A decision limit restated in a note or legend ("Reference limits: testosterone ≥ 8.6 nmol/L per …") reads like
 * a row whose value is a bare limit. It is no result when another result of the report, named with the same
 * words and more ("Testosterone, total"), has that very bound as its range (the lower bound for "≥", the upper
 * for "≤"). A result printed with a range or flag of its own, or named exactly as the other is, letter case and
 * all (the same test again, as in a cumulative report; a note's running text writes "testosterone"), stays.
 */
function withoutRestatedLimits(results: ParsedResult[]): ParsedResult[] {
  return results.filter((r) => {
    const m = BARE_LIMIT.exec(r.value.trim());
    if (!m || r.reference_range_text || r.flag) return true;
    const bound = Number(m[2]!.replace(',', '.'));
    const lower = m[1]!.startsWith('>') || m[1] === '≥';
    const words = nameWords(r.test_name);
    if (words.length === 0) return true;
    return !results.some((o) => {
      if (o === r || o.test_name.trim() === r.test_name.trim()) return false;
      const own = nameWords(o.test_name);
      if (!words.every((w) => own.includes(w))) return false;
      return (lower ? o.min_reference_range : o.max_reference_range) === bound;
    });
  });
}

/**
 * A range printed for both sexes on one line ("M: 13.0-17.0 F: 12.0-15.0") takes the bounds of the patient's
 * sex when the report states it ("Sex: Female"), and the interpretation follows them; the text stays as
 * printed. Without a stated sex the bounds stay out, as ranges.ts leaves them.
 */
function withSexRanges(results: ParsedResult[], sex: 'M' | 'F' | undefined, decimalComma: boolean): ParsedResult[] {
  if (sex === undefined) return results;
  return results.map((r) => {
    if (!r.reference_range_text || r.min_reference_range !== undefined || r.max_reference_range !== undefined) return r;
    const range = rangeForSex(r.reference_range_text, sex, decimalComma);
    return range && parseValue(r.value, false) ? withRange(r, range) : r;
  });
}

/** "A: No abnormality", "B: Slight abnormality", "C: Re-examination advised": one letter's entry in a grade legend. */
const GRADE_ENTRY = /(?:^|\s)([A-Z])\s*[:=]\s*(.+?)(?=\s+[A-Z]\s*[:=]|$)/g;
const GRADE_NORMAL = /^(no abnormalit(y|ies)|no abnormal findings?|no findings?|normal|within (the )?normal (limits|range))\b/;
const GRADE_ABNORMAL = /\b(abnormal(ity|ities)?|re-?exam(ination)?|re-?test(ing)?|treatment|follow-?up|further (tests?|examination)|consult(ation)?|observation|monitor(ing)?)\b/;

/**
 * A report that prints a legend of grade letters ("A: No abnormality  B: Slight abnormality  C:
 * Re-examination advised  D: Treatment required") flags each row with one of its letters: a row graded by
 * the legend's "no abnormality" letter is normal, one graded by a letter the legend calls abnormal is
 * abnormal (not critical, whatever the letter means elsewhere). The legend needs a normal letter and at
 * least one other on one line; results flagged with other letters are left as read.
 */
function withGradeLegend(results: ParsedResult[], lines: string[], ocrPages: Set<number>): ParsedResult[] {
  for (const line of lines) {
    const grades = new Map<string, Interpretation>();
    for (const m of line.matchAll(GRADE_ENTRY)) {
      const meaning = foldText(m[2]!).toLowerCase().trim();
      if (GRADE_NORMAL.test(meaning)) grades.set(m[1]!, 'normal');
      else if (GRADE_ABNORMAL.test(meaning)) grades.set(m[1]!, 'abnormal');
    }
    if (grades.size < 2 || ![...grades.values()].includes('normal')) continue;
    return results.map((r) => {
      // From OCR a capital grade letter of the same shape may come lower-case ("c" for C).
      const letter = r.flag?.trim();
      const lower = letter !== undefined && /^[a-z]$/.test(letter) && r.page !== undefined && ocrPages.has(r.page) ? letter.toUpperCase() : undefined;
      const grade = letter !== undefined ? (grades.get(letter) ?? (lower ? grades.get(lower) : undefined)) : undefined;
      return grade ? { ...r, interpretation: grade } : r;
    });
  }
  return results;
}
