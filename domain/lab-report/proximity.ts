/**
 * Reading a region by proximity, whatever its line structure: each value is a result unit with its test
 * name to its left on the same line or on the nearest name line above it, its unit after it, and its
 * reference range and flag on its line or on the lines just below it ("Range: 70-99 mg/dL", "Above
 * Range", "Ref. 135-145"). Consumer cards (name, plain-language line, value, range text, badge), compact
 * panels with the reference under the value, and tables all read so; the caller keeps, per region,
 * whichever of this and the row reading explains more of it.
 */
import { isNameWord, lineStep, type RegionLine } from './blocks.js';
import { parseFlag } from './flags.js';
import { headerRoleOf, isTierWord } from './layout.js';
import { hasMetadataLabel } from './metadata.js';
import { isPanelHeading } from './panels.js';
import { parseRange } from './ranges.js';
import { parseRow, type RowCandidate, type RowOptions } from './rows.js';
import { squash } from './text.js';
import { applyRangeLabels, type Token, tokenize } from './tokens.js';
import { type TextLine, UNREADABLE } from './types.js';
import { qualitativeClass } from './values.js';

export interface ProximityRow {
  row: RowCandidate;
  /** The lines the result was read from (name, value, range, flag). */
  lines: RegionLine[];
}

const VALUE_KINDS = new Set(['num', 'pct', 'cmp', 'ratio']);

function tokensOf(l: RegionLine, decimalComma: boolean): Token[] {
  const tokens = l.cells.flatMap((c, i) => tokenize(c.text, i));
  return applyRangeLabels(tokens, (t) => parseRange(t, decimalComma) !== undefined);
}

const asLine = (l: RegionLine, cells = l.cells): TextLine => ({
  text: cells.map((c) => c.text).join(' '),
  y: l.y,
  cells: cells.map((c) => ({ text: c.text, x: c.x, width: c.right - c.x })),
});

/** A whole cell that is a flag or a badge ("H", "Above Range", "LOW", "↑", "In Range"). */
const flagCell = (text: string) => parseFlag(text.replace(/^[•●◆■▲▼\s]+/, ''));

type Kind = 'value' | 'range' | 'flag' | 'name' | 'scale' | 'other';

/**
 * "70            99" just under "83 mg/dL", to its right: the end labels of a range bar graphic, one or
 * two lone numbers. Not a result, and not the end of the value's range and badge lines.
 */
function isScale(l: RegionLine, prev: RegionLine | undefined, step: number): boolean {
  if (!prev || l.cells.length > 2 || !l.cells.every((c) => /^\d+(?:[.,]\d+)?$/.test(c.text))) return false;
  return l.y - prev.y < 0.6 * step && l.cells[0]!.x > prev.cells.at(-1)!.right;
}

interface Classified {
  l: RegionLine;
  kind: Kind;
  tokens: Token[];
}

/**
 * "Range: 70-99 mg/dL", "Ref. 3.5 - 5.1", "70 - 99", "< 35": a line that is a reference range and nothing
 * else. A bound alone is a range too: a value printed so would carry its unit or flag.
 */
function rangeOnly(tokens: Token[]): boolean {
  const lone = tokens.length === 1 && tokens[0]!.kind === 'cmp';
  // "ng/mL  Deficiency <20": after a unit cell, a category word right before a bound names the range's tier (layout.ts
  // knows these words): a table's unit and range cells, cut from their row.
  const tier = (t: Token | undefined) => t?.kind === 'word' && isTierWord(t.text);
  const ranges = tokens.filter((t, i) => t.kind === 'range' || (t.kind === 'cmp' && (t.labelled || lone || (tier(tokens[i - 1]) && tokens[i - 2]?.kind === 'unit'))));
  const rest = tokens.filter((t, i) => !ranges.includes(t) && t.kind !== 'unit' && t.kind !== 'sep' && !(tier(t) && ranges.includes(tokens[i + 1]!) && tokens[i - 1]?.kind === 'unit') && !(t.kind === 'word' && /^(range|normal|ref\.?|reference|optimal|target)[:.,]?$/i.test(t.text)));
  // One short word after the range: its unit as OCR misread it ("mmoll.", "gdL").
  const unitLike = rest.length === 1 && rest[0]!.kind === 'word' && rest[0]!.text.length <= 8 && tokens.indexOf(rest[0]!) > tokens.indexOf(ranges[0]!);
  return ranges.length === 1 && (rest.length === 0 || unitLike);
}

function classify(l: RegionLine, decimalComma: boolean): Classified {
  const tokens = tokensOf(l, decimalComma);
  const text = l.cells.map((c) => c.text).join(' ');
  // A word OCR could not read for sure: the row reader decides around it (parse.ts), never this reading.
  if (text.includes(UNREADABLE)) return { l, kind: 'other', tokens };
  if (l.cells.every((c) => flagCell(c.text))) return { l, kind: 'flag', tokens };
  if (rangeOnly(tokens)) return { l, kind: 'range', tokens };
  // "Your average blood sugar over about 3 months.": a sentence (a card's plain-language line, a comment), not a value.
  if (/[.!?]$/.test(text) && text.split(/\s+/).length >= 5 && !tokens.some((t) => t.kind === 'unit' || t.kind === 'range')) return { l, kind: 'other', tokens };
  if (tokens.some((t) => VALUE_KINDS.has(t.kind) && !t.labelled) || tokens.some((t) => t.kind === 'qual')) return { l, kind: 'value', tokens };
  const words = text.split(/\s+/);
  // "Material: Serum", "Specimen: Blood": a labelled field, not a test's name; "REFERENCE INTERVAL  LAB": column headings.
  const field = /\p{L}\s*:\s*\S/u.test(text) || l.cells.every((x) => headerRoleOf(x.text) !== undefined);
  if (words.some(isNameWord) && words.length <= 8 && !field && !/[.;!?]$/.test(text) && !hasMetadataLabel(text)) return { l, kind: 'name', tokens };
  return { l, kind: 'other', tokens };
}

/**
 * How many column headings a line holds, counted over its words and word pairs, so that cells OCR
 * merged ("Standard Range Flag") count as printed.
 */
function headingRoles(l: RegionLine): number {
  const words = l.cells.flatMap((c) => c.text.split(/\s+/));
  const roles = new Set<string>();
  for (let i = 0; i < words.length; i++) {
    const pair = i + 1 < words.length ? headerRoleOf(`${words[i]} ${words[i + 1]}`) : undefined;
    const role = pair ?? headerRoleOf(words[i]!);
    if (role) roles.add(role);
    if (pair) i++;
  }
  return roles.size;
}

/** The name line's name and, when a badge sits on it ("Glucose      Above Range"), its flag. */
function nameOf(c: Classified): { name: string; flagText?: string } {
  const flags = c.l.cells.filter((x) => flagCell(x.text) && !x.text.split(/\s+/).some(isNameWord));
  const rest = c.l.cells.filter((x) => !flags.includes(x));
  return { name: squash(rest.map((x) => x.text).join(' ')), flagText: flags[0]?.text };
}

/** Whether the line starts with its value (no name before it): "105 mg/dL", "4.2  mmol/L  High". */
function startsWithValue(c: Classified): boolean {
  const first = c.tokens.findIndex((t) => VALUE_KINDS.has(t.kind) || t.kind === 'qual');
  return first >= 0 && !c.tokens.slice(0, first).some((t) => t.kind === 'word' && isNameWord(t.text));
}

/** A numeric value not taken as a range bound: "78", "5.5", "<0.3", "12 %". */
const hasNumber = (c: Classified) => c.tokens.some((t) => VALUE_KINDS.has(t.kind) && !t.labelled);

/**
 * "Glucose      NORMAL" over "78 mg/dL": a name line whose only result word is a status badge in a cell of
 * its own (NORMAL, HIGH, In Range), and whose next value line (after at most a plain-language line or
 * two) starts with a number. The badge belongs to that number; read as a qualitative value it would
 * hide the printed one.
 */
function isBadgedName(c: Classified, next: Classified | undefined): boolean {
  if (c.kind !== 'value' || hasNumber(c) || !next || next.kind !== 'value' || !hasNumber(next) || !startsWithValue(next)) return false;
  const badges = c.l.cells.filter((x) => flagCell(x.text));
  const names = c.l.cells.filter((x) => !badges.includes(x));
  return badges.length > 0 && names.length > 0 && names.every((x) => !qualitativeClass(x.text)) && names.some((x) => x.text.split(/\s+/).some(isNameWord));
}

export function readByProximity(lines: RegionLine[], opts: RowOptions): ProximityRow[] {
  const all = lines.map((l) => classify(l, opts.decimalComma));
  const step = lineStep(lines);
  // Column headings ("REFERENCE | PREVIOUS RESULT | LAB") and a second heading line next to them
  // ("INTERVAL | AND DATE", which OCR may give first): never a test's name.
  const heading = (c: Classified) => c.kind !== 'value' && headingRoles(c.l) >= 2;
  all.forEach((c, i) => {
    const beside = (j: number) => j >= 0 && j < all.length && heading(all[j]!) && Math.abs(c.l.y - all[j]!.l.y) < step;
    if (c.kind === 'name' && (heading(c) || beside(i - 1) || beside(i + 1))) c.kind = 'other';
    if (isBadgedName(c, all.slice(i + 1, i + 4).find((n) => n.kind === 'value'))) c.kind = 'name';
    if (c.kind === 'value' && i > 0 && all[i - 1]!.kind === 'value' && isScale(c.l, all[i - 1]!.l, step)) c.kind = 'scale';
  });
  const used = new Set<number>();
  const out: ProximityRow[] = [];
  for (let i = 0; i < all.length; i++) {
    const c = all[i]!;
    if (c.kind !== 'value' || used.has(i)) continue;
    const from: RegionLine[] = [c.l];
    let row: RowCandidate | undefined;
    let badge: string | undefined;
    if (startsWithValue(c)) {
      // The name is on the nearest unused name line above, after the last result's lines.
      const above: number[] = [];
      for (let j = i - 1; j >= 0 && !used.has(j) && all[j]!.kind !== 'value'; j--) if (all[j]!.kind === 'name') above.unshift(j);
      if (above.length === 0) continue;
      // A panel heading over the first card of its panel ("LIPID PANEL", then "Total Cholesterol") is not its name.
      const names = above.filter((j) => !isPanelHeading(nameOf(all[j]!).name));
      const candidates = names.length > 0 ? names : above;
      // The nearest name line with a badge (a card's title line), else the nearest known name, else the
      // first name line (a plain-language line may follow the name).
      const badged = above.findLast((j) => nameOf(all[j]!).flagText !== undefined);
      const known = candidates.findLast((j) => opts.isKnownName(nameOf(all[j]!).name));
      const pick = badged ?? known ?? candidates[0]!;
      const { name, flagText } = nameOf(all[pick]!);
      badge = flagText;
      row = parseRow({ text: `${name} ${asLine(c.l).text}`, y: c.l.y, cells: [{ text: name, x: c.l.cells[0]!.x - 1000 }, ...asLine(c.l).cells!] }, { ...opts, layout: undefined });
      if (row) {
        from.unshift(all[pick]!.l);
        for (let j = pick; j < i; j++) used.add(j);
      }
    } else {
      row = parseRow(asLine(c.l), { ...opts, layout: undefined });
    }
    if (!row || !row.name.split(/\s+/).some(isNameWord)) continue;
    used.add(i);
    // Range and flag lines just below the value belong to it.
    for (let k = i + 1; k < all.length && k <= i + 3; k++) {
      const below = all[k]!;
      if (below.kind === 'range' && !row.range) {
        const t = below.tokens.find((x) => x.kind === 'range' || x.kind === 'cmp')!;
        row.range = parseRange(t.text, opts.decimalComma);
        const unit = below.tokens.find((x) => x.kind === 'unit');
        if (!row.unit && unit) row.unit = unit.text;
      } else if (below.kind === 'flag') {
        badge ??= below.l.cells.map((x) => x.text).join(' ');
      } else if (below.kind !== 'scale') break;
      used.add(k);
      from.push(below.l);
    }
    if (!row.flag && badge) row.flag = flagCell(badge);
    out.push({ row, lines: from });
  }
  return out;
}
