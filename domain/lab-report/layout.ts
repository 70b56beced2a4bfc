/**
 * Table layout: a line's chunks (cells with x positions when the extractor gave them, else runs of
 * text separated by wide gaps), and column headers (Test/Analyte/Result/Value/Units/Reference/Flag and
 * their German and French words) that tell which column holds what, in whatever order.
 */
import { parseDate } from './dates.js';
import { foldText, squash } from './text.js';
import { type TextLine } from './types.js';
import { isUnitToken } from './units.js';

export interface Chunk {
  text: string;
  /** Left edge: page units when cells were given, else the character offset in the line. */
  x: number;
  /** True when x is a real position (cells), false for a character offset. */
  positioned: boolean;
  /** Width in page units, when the extractor gave it. */
  width?: number;
}

/** Table borders and leaders drawn with characters ("|", "¦", "....") are not content. */
function cleanCell(text: string): string {
  return squash(text.replace(/[|¦│]/g, ' ').replace(/\.{3,}|_{3,}/g, ' '));
}

const BARE_NUM = /^[([]?[-−]?\d[\d.,]*[)\]]?$/;
const OPENS = /^[([]/;
const CLOSES = /[)\]]$/;

/**
 * Whether chunk b (and c) continue a range begun in chunk a. Widely spaced fonts split "(130 - 180)"
 * into "(130" "-" "180)", or "130 -" "180", or "130" "- 180". A bare minus sign hugs its number
 * ("-2.0"), so a dash standing apart is a joint. Three bare pieces "4.5" "-" "4.2" could also be a value,
 * an empty flag cell and a previous result: they join only when brackets pair them or when a number
 * came earlier in the line (the value, so this is the range after it).
 */
function continuesRange(a: string, b: string, c: string | undefined, numberBefore: boolean): 'two' | 'three' | undefined {
  if (/^[-–—]$/.test(b) && c !== undefined && BARE_NUM.test(a) && BARE_NUM.test(c) && !CLOSES.test(a) && !OPENS.test(c)) {
    const paired = OPENS.test(a) && CLOSES.test(c);
    const unbracketed = !OPENS.test(a) && !CLOSES.test(c);
    if (paired || (unbracketed && numberBefore)) return 'three';
  }
  if (/\d\s*[-–—]$/.test(a) && /^[-−]?\d/.test(b) && BARE_NUM.test(b.split(/\s/)[0]!)) return 'two';
  if (/\d[-–—]?$/.test(a) && !/[-–—]$/.test(a) && /^(?:[-–—]\s+|[–—]\s*)\d/.test(b)) return 'two';
  return undefined;
}

/** Join chunks that are the pieces of one range (see continuesRange); the first piece's x is kept. */
function joinSplitRanges(chunks: Chunk[]): Chunk[] {
  const out: Chunk[] = [];
  for (let i = 0; i < chunks.length; i++) {
    const a = chunks[i]!;
    const numberBefore = out.some((c) => /(?:^|\s)[<>≤≥]?[-−]?\d/.test(c.text));
    const join = chunks[i + 1] ? continuesRange(a.text, chunks[i + 1]!.text, chunks[i + 2]?.text, numberBefore) : undefined;
    const take = join === 'three' ? 3 : join === 'two' ? 2 : 1;
    const last = chunks[i + take - 1]!;
    const width = take > 1 && a.width !== undefined && last.width !== undefined ? last.x + last.width - a.x : a.width;
    out.push({ ...a, text: chunks.slice(i, i + take).map((c) => c.text).join(' '), width });
    i += take - 1;
  }
  return out;
}

/** Chunks of a line: its cells, or runs separated by two or more spaces, a tab or a bar. */
export function chunksOf(line: TextLine): Chunk[] {
  return joinSplitRanges(rawChunks(line));
}

function rawChunks(line: TextLine): Chunk[] {
  if (line.cells && line.cells.length > 0) {
    return line.cells
      .map((c) => ({ text: cleanCell(c.text), x: c.x, positioned: true, width: c.width }))
      .filter((c) => c.text !== '')
      .sort((a, b) => a.x - b.x);
  }
  // Words joined by single spaces form a chunk; two or more spaces, a tab or a bar separate chunks.
  const chunks: Chunk[] = [];
  const re = /[^\s|¦│]+(?: [^\s|¦│]+)*/g;
  for (const m of line.text.matchAll(re)) {
    const text = cleanCell(m[0]);
    if (text !== '') chunks.push({ text, x: m.index, positioned: false });
  }
  return chunks;
}

/**
 * 'low' and 'high': the two limits of the reference range printed in columns of their own ("Ref. Low |
 * Ref. High", "Min | Max", "Untergrenze | Obergrenze"); a row's two cells make one range.
 */
export type ColumnRole = 'name' | 'result' | 'unit' | 'range' | 'low' | 'high' | 'flag' | 'previous' | 'other';

// Header words per role, folded. Multi-word phrases first so "reference range" beats "range".
const HEADER_WORDS: [ColumnRole, RegExp][] = [
  ['low', /^((ref\.?|reference|normal|norm|range) ?(low|lower|min\.?|minimum)|low(er)?( ref\.?| reference| normal)?( limit| bound| value)?|min\.?|minimum|untergrenze|untere grenze|unterer (grenzwert|referenzwert|normwert|wert)|limite inf\.?|limite inferieure|lim\.? inf\.?|valor minimo|minimo|von)$/],
  ['high', /^((ref\.?|reference|normal|norm|range) ?(high|upper|max\.?|maximum)|(high|upper)( ref\.?| reference| normal)?( limit| bound| value)?|max\.?|maximum|obergrenze|obere grenze|oberer (grenzwert|referenzwert|normwert|wert)|limite sup\.?|limite superieure|lim\.? sup\.?|valor maximo|maximo|bis)$/],
  // The laboratory's own interval named as such when a report also prints another ("Standard Range | Optimal Range").
  ['range', /^(standard|laboratory|lab|conventional|clinical) (reference )?(range|interval|values?|limits?)$/],
  ['range', /^(reference (range|interval|values?|limits?)( and units)?|(bio\.?|biological) ref\.? ?(range|interval|values?)|ref\.? limits?|normal limits?|reference intervals|ref\.? ?(range|interval|values?)|normal (range|values?)|expected (range|values?)|biological reference interval|reference|ref\.?|range|normals?|referenzbereich|zakres referencyjny|zakres|referenzwerte?|ref\.?-?bereich|normbereich|normalbereich|normwerte?|norm|valeurs? de reference|valeurs? normales|valeurs? usuelles|intervalle de reference|normes|references?|v\.?r\.?|zielbereich|cut-?offs?|therapeutic( range)?|viitearvot|viitevali|referencia (tartomany|ertek)|ref\.? tartomany|nilai (rujukan|normal)|referanse(omrade|verdi)|referenceinterval)$/],
  // Scandinavian headings, whole or abbreviated: "Ref.område", "Ref. intervall", "Referensvärden", "Referanseverdier".
  ['range', /^(ref\.? ?-?|referanse-?|referens-?|reference-?)(omrade|omr\.?|intervall?|verdier?|varden|vaerdier|grenser?)$/],
  ['previous', /^(previous( result| value| time| year)?( and date)?|last time|last year|prior( result)?( and date)?|last result|vorwert(e)?|vorbefund|fruher|resultats? anterieurs?|anteriorites?|precedents?|ancien resultat)$/],
  ['result', /^(results?|values?|your (result|value)|current( result)?( and flag)?|this time|this year|result and flag|in range|out of range|observed|patient (result|value)|ergebnis(se)?|wynik|wert|messwert|befund|resultats?|valeur|ihr wert|aktuell|tulos|eredmeny|hasil)$/],
  ['unit', /^(units?|jednostka|uom|einheit(en)?|unites?|dimension|yksikko|mertekegyseg|enhed|enhet|satuan)$/],
  ['flag', /^(flags?|abnormal flag|status|indicator|kennzeichen|bewertung|markierung|hinweis|indicateur|interpretation|interp\.?|alert|h\/l|abn\.?|ab|pathologisch|judge?ments?|elteres|ket\.?|keterangan)$/],
  ['name', /^(tests?|test name|analytes?|analysis|parameters?|components?|examination|investigations?|description|determination|procedure|untersuchung(en)?|badanie|analysen?|analyses|bezeichnung|examens?|libelle|dosages?|determinations?|name|test description|biomarker|nutrients?|allergens?|markers?|items?|test items?|examination items?|drugs?|tutkimus|vizsgalat|pemeriksaan|analyse|undersogelse)$/],
  ['other', /^(date|datum|collected|specimen|lab|site|method|methode|methodik|metode|code|npu-?kode|kode|koodi|loinc|cpt|comments?|remarks?|notes?|kommentar|bemerkung|commentaires?|class(es)?|control|category)$/],
  // The difference from the previous result ("Change", "Delta", "+0.6"): not the result.
  ['other', /^(change|delta|difference|diff\.?|trend|anderung|veranderung|differenz|variation|evolution|ecart|cambio|diferencia|variacion)$/],
  // Interval bands printed as columns of their own ("Deficient | Insufficient | Optimal"): the band a healthy
  // result falls in is the reference range; the bands outside it are not.
  ['range', /^(optimal( range)?|sufficient|sufficiency|desirable|target( range)?|functional( range)?|goal|ideal( range)?)$/],
  ['other', /^(deficient|deficiency|insufficient|insufficiency|borderline|elevated|toxic(ity)?|(above|below) optimal|(high|low|moderate) risk|suboptimal)$/],
];

function roleOfPhrase(t: string): ColumnRole | undefined {
  for (const [role, re] of HEADER_WORDS) if (re.test(t)) return role;
  return undefined;
}

/**
 * Role of a header cell. A cell naming one column twice over, "Expected / Reference" or "Normal &
 * Reference Values", takes that column's role when its known parts agree.
 */
export function headerRoleOf(text: string): ColumnRole | undefined {
  // "- Result", "= Unit": a speck before a heading (OCR reads one as a dash or a sign) is no part of it.
  const t = foldText(text).replace(/[:*]+$/, '').replace(/^[-–—=+~_.,:;'"|]+\s+(?=\p{L})/u, '').replace(/\s+/g, ' ').trim();
  const whole = roleOfPhrase(t);
  if (whole) return whole;
  // "Result (kUA/L)": a result heading with the column's unit in brackets.
  const aside = /^(.+?)\s*\(([^()]+)\)$/.exec(t);
  if (aside && isUnitToken(aside[2]!) && roleOfPhrase(aside[1]!) === 'result') return 'result';
  // "Previous (01/10/23)", "Result 04/04/24": a result or previous-result heading with its collection date.
  const dated = /^(.+?)\s*[([]?\s*([^\s()[\]]+)\s*[)\]]?$/.exec(t);
  if (dated && DATE_CELL.test(dated[2]!)) {
    const role = roleOfPhrase(dated[1]!.trim());
    if (role === 'result' || role === 'previous') return role;
  }
  if (!/[/&()]/.test(t)) return qualifiedHeading(t);
  const parts = t.split(/\s*[/&()]\s*/).filter((p) => p !== '');
  const roles = parts.map((p) => (/^(expected|normal)$/.test(p) ? 'range' : roleOfPhrase(p)));
  const first = roles[0];
  if (roles.length < 2 || first === undefined) return undefined;
  if (roles.every((r) => r === first)) return first;
  // "Result (Ref. Range) Flag": one cell under which the result is printed with its range and flag.
  if (first === 'result' && roles.slice(1).every((r) => r === 'range' || r === 'flag' || r === 'unit')) return 'result';
  // "Reference / Risk Categories", "Reference Range (age-specific)": a heading and a qualifier naming no column.
  if (parts.length === 2 && roles[1] === undefined && qualifiedHeading(parts[1]!) === undefined && parts[1]!.split(' ').length <= 2) return first;
  return undefined;
}

/**
 * Whether OCR text is the heading of a reference-range or unit column ("Reference Range", "Zakies referencyjny"
 * with one letter misread): a column's heading, never a test's name.
 */
export function isRangeOrUnitHeading(text: string): boolean {
  const role = headerRoleOf(text) ?? misreadHeading(text);
  return role === 'range' || role === 'unit';
}

/**
 * "Zakies referencyjny", "Referenee Range": beside two headings read as such, a heading of eight letters or more
 * that one misread letter keeps from being one (OCR swaps a letter now and then): the role of the heading one
 * letter away, when exactly one role is reached so and it is a data column's (result, unit, range, flag; a
 * misread "Catagory" heads no column the reader needs, and is no evidence of a header). Shorter headings are
 * left alone: one letter changes too much of them.
 */
function misreadHeading(text: string): ColumnRole | undefined {
  const t = foldText(text).replace(/[:*]+$/, '').replace(/\s+/g, ' ').trim();
  if ((t.match(/[a-z]/g)?.length ?? 0) < 8 || /\d/.test(t)) return undefined;
  const roles = new Set<ColumnRole>();
  for (let i = 0; i < t.length; i++) {
    if (!/[a-z]/.test(t[i]!)) continue;
    for (const c of 'abcdefghijklmnopqrstuvwxyz') {
      if (c === t[i]) continue;
      const role = roleOfPhrase(t.slice(0, i) + c + t.slice(i + 1));
      if (role) roles.add(role);
    }
  }
  const role = roles.size === 1 ? [...roles][0] : undefined;
  return role === 'range' || role === 'unit' || role === 'result' || role === 'flag' ? role : undefined;
}

/**
 * "Age-Specific Reference Range", "Adult Reference Interval": a heading of two words or more after a
 * short qualifier (one or two words that name no column themselves).
 */
function qualifiedHeading(t: string): ColumnRole | undefined {
  const words = t.split(' ');
  if (words.length < 3 || words.length > 4) return undefined;
  for (let k = words.length - 1; k >= 2; k--) {
    const role = roleOfPhrase(words.slice(-k).join(' '));
    if (role && words.slice(0, -k).every((w) => roleOfPhrase(w) === undefined)) return role;
  }
  return undefined;
}

export interface ColumnLayout {
  /** Columns left to right; a result column headed with a unit ("Result (kUA/L)") carries it. */
  columns: { role: ColumnRole; x: number; unit?: string }[];
  positioned: boolean;
}

/**
 * A line is a column header when at least two of its chunks are header words, one of them the result
 * or range column, and nothing else on it looks like data.
 */
export function detectHeader(line: TextLine): ColumnLayout | undefined {
  const chunks = chunksOf(line).flatMap(splitMergedHeadings);
  if (chunks.length < 2) return splitHeaderWords(line);
  const cumulative = dateColumns(chunks);
  if (cumulative) return cumulative;
  const roles = chunks.map((c) => headerRoleOf(c.text));
  if (roles.filter((r) => r !== undefined).length >= 2) roles.forEach((r, i) => (roles[i] = r ?? misreadHeading(chunks[i]!.text)));
  const unknown = roles.filter((r) => r === undefined).length;
  // One unfamiliar heading among three or more familiar ones is still a header (its column is ignored).
  // Two among four or more (OCR garbles a heading now and then: "Catagory", "am" for "Test item") are too,
  // when the familiar ones name the result and the range.
  const familiar = roles.length - unknown;
  const garbled = unknown === 2 && familiar >= 4 && roles.includes('result') && roles.includes('range');
  if ((unknown > 1 && !garbled) || (unknown === 1 && familiar < 3)) return splitHeaderWords(line);
  // With no name heading, an unfamiliar heading just left of the first data column heads the test names.
  const firstData = roles.findIndex((r) => r === 'result' || r === 'unit' || r === 'range');
  if (!roles.includes('name') && firstData > 0 && roles[firstData - 1] === undefined && roles.slice(0, firstData - 1).every((r) => r === undefined || r === 'other')) {
    roles[firstData - 1] = 'name';
  }
  const settled = settleRoles(roles.map((r) => r ?? 'other'), chunks.map((c) => c.text));
  const columns = chunks.map((c, i) => ({ role: settled[i]!, x: c.x, ...unitOfHeading(c.text, roles[i]) }));
  return validLayout(columns, chunks[0]!.positioned);
}

/** A range column of targets beside the laboratory's own: "Optimal Range", "Target", "Functional Range", "Goal". */
const SECONDARY_RANGE = /^(optimal|optimum|target|functional|goal|desirable|ideal|sufficient|sufficiency|zielbereich|ziel|optimale?)\b/;

/**
 * Roles that depend on the other headings of the line:
 * - Two or more range columns, one of them a target ("Standard Range | Optimal Range", "Reference | Target"):
 *   the laboratory's range is the reference; the targets are other columns. Alone, a target band is the range.
 * - A limit column without its partner ("Max" alone) makes no range: it is another column.
 * - A "Status" column beside a flag column gives the result's report status (final, preliminary, corrected),
 *   not its flag.
 */
function settleRoles(roles: ColumnRole[], texts: string[]): ColumnRole[] {
  const folded = texts.map((t) => foldText(t).replace(/[:*]+$/, '').trim());
  const out = [...roles];
  const ranges = out.flatMap((r, i) => (r === 'range' ? [i] : []));
  const secondary = ranges.filter((i) => SECONDARY_RANGE.test(folded[i]!));
  if (secondary.length > 0 && secondary.length < ranges.length) for (const i of secondary) out[i] = 'other';
  const hasLow = out.includes('low');
  const hasHigh = out.includes('high');
  if (hasLow !== hasHigh || (hasLow && out.includes('range'))) out.forEach((r, i) => (r === 'low' || r === 'high' ? (out[i] = 'other') : undefined));
  const flags = out.flatMap((r, i) => (r === 'flag' ? [i] : []));
  if (flags.length > 1) for (const i of flags) if (/^status$/.test(folded[i]!)) out[i] = 'other';
  return out;
}

/** A word that names a range's category or tier ("Desirable", "Deficiency", "Borderline"): a range or band heading. */
export const isTierWord = (text: string): boolean => ['range', 'other'].includes(headerRoleOf(text) ?? '');

/** "Result (kUA/L)": the unit a result column's heading names in brackets, for rows printing none. */
function unitOfHeading(text: string, role: ColumnRole | undefined): { unit?: string } {
  const inside = role === 'result' ? /\(([^()]+)\)\s*$/.exec(text)?.[1]?.trim() : undefined;
  return inside && isUnitToken(inside) ? { unit: inside } : {};
}

/** Index of the newest of several dates, or undefined when the dates do not say it without guessing. */
export function newestDateIndex(texts: string[]): number | undefined {
  const newest = (order: 'dmy' | 'mdy'): { at: number; monotonic: boolean } | undefined => {
    const isos = texts.map((t) => parseDate(t, { order }));
    if (isos.some((d) => d === '')) return undefined;
    const up = isos.every((d, i) => i === 0 || d > isos[i - 1]!);
    const down = isos.every((d, i) => i === 0 || d < isos[i - 1]!);
    let at = 0;
    isos.forEach((d, i) => {
      if (d > isos[at]!) at = i;
    });
    return { at, monotonic: up || down };
  };
  const readings = [newest('dmy'), newest('mdy')].filter((r) => r !== undefined && r.monotonic);
  if (readings.length === 0) return undefined;
  // Both orders read the dates in sequence but disagree: a cumulative report runs chronologically either
  // way, so the newest is at one end; labs put it on the right far more often than on the left.
  if (readings.length === 2 && readings[0]!.at !== readings[1]!.at) return texts.length - 1;
  return readings[0]!.at;
}

const DATE_CELL = /^(?:\d{1,4}[./-]\d{1,2}[./-]\d{2,4}|\d{1,2}[.\s-]?[A-Za-zéû]{3,9}\.?[\s-]?\d{2,4})$/;

/**
 * The header of a cumulative report: a label (or nothing) then two or more collection dates, one per
 * column ("Date  22/02/23  20/09/23  06/02/24"). The rows under it hold one value per date; the newest
 * date's column is the current result, the older ones are previous results. Unit and range printed
 * after the dated columns fall into the newest column's cell and are read from it, unless the header
 * names their columns after the dates ("... 2024-06-02  Units  Reference"). A lone character between
 * the cells is a speck.
 */
function dateColumns(all: Chunk[]): ColumnLayout | undefined {
  if (!all.every((c) => c.positioned)) return undefined;
  const labelled = !DATE_CELL.test(all[0]!.text);
  const chunks = [all[0]!, ...all.slice(1).flatMap(splitDates).filter((c) => c.text.length > 1)];
  let lastDate = chunks.length - 1;
  while (lastDate > 0 && !DATE_CELL.test(chunks[lastDate]!.text)) lastDate--;
  const trailing = chunks.slice(lastDate + 1).map((c) => ({ role: headerRoleOf(c.text), x: c.x }));
  if (trailing.some((c) => c.role === undefined || c.role === 'result' || c.role === 'name')) return undefined;
  const dates = chunks.slice(labelled ? 1 : 0, lastDate + 1);
  if (dates.length < 2 || !dates.every((c) => DATE_CELL.test(c.text))) return undefined;
  if (labelled && (/\d/.test(chunks[0]!.text) || chunks[0]!.text.split(/\s+/).length > 3)) return undefined;
  const newest = newestDateIndex(dates.map((c) => c.text));
  if (newest === undefined) return undefined;
  const columns: ColumnLayout['columns'] = [{ role: 'name', x: labelled ? chunks[0]!.x : 0 }];
  dates.forEach((c, i) => columns.push({ role: i === newest ? 'result' : 'previous', x: c.x }));
  trailing.forEach((c) => columns.push({ role: c.role!, x: c.x }));
  return { columns, positioned: true };
}

/**
 * A cell holding several dates with single spaces between them ("26/03/24 27/09/24 19/12/24"), as OCR
 * joins the dates of a cumulative header when they stand close: one chunk per date, each placed by its
 * share of the cell's width (dates are all digits, so of about equal width). Without a width, or when a
 * word is not a date, the cell stays whole.
 */
function splitDates(c: Chunk): Chunk[] {
  const words = [...c.text.matchAll(/\S+/g)];
  if (words.length < 2 || c.width === undefined || !words.every((w) => DATE_CELL.test(w[0]))) return [c];
  return words.map((w) => ({ text: w[0], x: c.x + (c.width! * w.index) / c.text.length, positioned: true, width: (c.width! * w[0].length) / c.text.length }));
}

const CONNECTORS = new Set(['and', '&', '/', 'und', 'et', '+']);

/**
 * A header cell holding two headings ("Résultats Unités", "Ergebnis Einheit"), as OCR joins headings
 * that stand close: one chunk per heading, each placed by its share of the cell's width. Only when
 * every word belongs to a heading phrase and the phrases name different columns; else the cell stays.
 */
function splitMergedHeadings(c: Chunk): Chunk[] {
  if (!c.positioned || c.width === undefined || headerRoleOf(c.text) !== undefined) return [c];
  const words = [...c.text.matchAll(/\S+/g)];
  if (words.length < 2 || words.length > 6) return [c];
  const parts: { text: string; at: number; role: ColumnRole }[] = [];
  for (let i = 0; i < words.length; ) {
    let span = Math.min(4, words.length - i);
    for (; span >= 1; span--) {
      const text = words.slice(i, i + span).map((w) => w[0]).join(' ');
      const role = headerRoleOf(text);
      if (role) {
        parts.push({ text, at: words[i]!.index, role });
        break;
      }
    }
    if (span === 0) return [c];
    i += span;
  }
  if (parts.length < 2 || new Set(parts.map((p) => p.role)).size < parts.length) return [c];
  const perChar = c.width / c.text.length;
  return parts.map((p) => ({ text: p.text, x: c.x + p.at * perChar, positioned: true, width: p.text.length * perChar }));
}

/** The line's words, each with the x of the cell it sits in (or its character offset without cells). */
function wordsWithX(line: TextLine): { word: string; x: number }[] {
  if (line.cells && line.cells.length > 0) {
    return line.cells.flatMap((c) => cleanCell(c.text).split(/\s+/).filter((w) => w !== '').map((word) => ({ word, x: c.x })));
  }
  return [...line.text.matchAll(/\S+/g)].map((m) => ({ word: m[0], x: m.index }));
}

/**
 * Header whose words are not one per chunk ("Test Result Units Reference Range" with single spaces,
 * or one cell per word): match header phrases of up to four words in order, skipping connectors.
 */
function splitHeaderWords(line: TextLine): ColumnLayout | undefined {
  const words = wordsWithX(line);
  if (words.length < 2 || words.length > 16) return undefined;
  const columns: { role: ColumnRole; x: number; text: string }[] = [];
  let i = 0;
  while (i < words.length) {
    if (CONNECTORS.has(foldText(words[i]!.word))) {
      i++;
      continue;
    }
    let span = 4;
    for (; span >= 1; span--) {
      if (i + span > words.length) continue;
      const phrase = words.slice(i, i + span).map((w) => w.word).join(' ');
      const role = headerRoleOf(phrase);
      if (!role) continue;
      const prev = columns.at(-1);
      // A phrase split over several cells ("Reference" "Range") is one column.
      if (!(prev && prev.role === role && line.cells && words[i]!.x - prev.x < 1e-9)) columns.push({ role, x: words[i]!.x, text: phrase });
      break;
    }
    if (span === 0) return undefined;
    i += span;
  }
  const settled = settleRoles(columns.map((c) => c.role), columns.map((c) => c.text));
  return validLayout(columns.map((c, k) => ({ role: settled[k]!, x: c.x })), Boolean(line.cells && line.cells.length > 0));
}

function validLayout(columns: { role: ColumnRole; x: number }[], positioned: boolean): ColumnLayout | undefined {
  const roles = new Set(columns.map((c) => c.role));
  // Two limit columns together are the range column (settleRoles leaves no lone limit).
  if (roles.has('low') && roles.has('high')) roles.add('range');
  const dataRoles = ['result', 'range', 'unit', 'flag'].filter((r) => roles.has(r as ColumnRole)).length;
  if (columns.length < 2 || dataRoles < 1 || !(roles.has('result') || roles.has('range'))) return undefined;
  if (!roles.has('name') && dataRoles < 2) return undefined;
  return { columns, positioned };
}

/**
 * Which column a chunk belongs to. Boundaries lie halfway between column starts, so a right-aligned
 * number a little left of its centred header still lands in its column.
 */
export function columnOf(layout: ColumnLayout, chunk: Chunk): ColumnRole {
  if (!layout.positioned || !chunk.positioned) return layout.columns[0]!.role;
  const cols = layout.columns;
  for (let i = 0; i < cols.length; i++) {
    const next = cols[i + 1];
    if (!next || chunk.x < (cols[i]!.x + next.x) / 2) return cols[i]!.role;
  }
  return cols[cols.length - 1]!.role;
}
