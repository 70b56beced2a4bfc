/**
 * Reading regions of a page, found from where its text sits (recursive XY-cut on the cells of positioned
 * lines): a wide band of white space across a block cuts it in two. Side by side columns of results
 * (two-column panels, cards in a grid) become separate regions; a table's columns do not, because a cut
 * is taken only when each side reads on its own (results are found in each alone), where a table's
 * right-hand columns hold values, units, ranges and flags but no names.
 */
import { headerRoleOf } from './layout.js';
import { parseFlag } from './flags.js';
import { foldText } from './text.js';
import { type TextLine } from './types.js';
import { isUnitToken } from './units.js';
import { qualitativeClass } from './values.js';

export interface Cell {
  text: string;
  x: number;
  right: number;
}

/** A line as it falls in one region: the original line and the cells of it that lie there. */
export interface RegionLine {
  line: TextLine;
  y: number;
  cells: Cell[];
}

export interface Region {
  lines: RegionLine[];
  left: number;
  right: number;
}

/** Cells of a line with their extent; without positions, one cell per run of text at ~5 units a character. */
function cellsOf(line: TextLine): Cell[] {
  if (line.cells && line.cells.length > 0) {
    return line.cells
      .filter((c) => c.text.trim() !== '')
      .map((c) => ({ text: c.text.trim(), x: c.x, right: c.x + (c.width ?? c.text.length * 5) }))
      .sort((a, b) => a.x - b.x);
  }
  return [{ text: line.text.trim(), x: 0, right: line.text.length * 5 }].filter((c) => c.text !== '');
}

/** Typical distance between consecutive lines of the page (its median), the unit of white space. */
export function lineStep(lines: { y: number }[]): number {
  const gaps = lines
    .slice(1)
    .map((l, i) => l.y - lines[i]!.y)
    .filter((g) => g > 0.5)
    .sort((a, b) => a - b);
  return gaps.length ? gaps[Math.floor(gaps.length / 2)]! : 12;
}

/** A word that can be part of a test name: three letters or more, not a unit, flag, header or result word. */
export function isNameWord(word: string): boolean {
  const w = word.replace(/^[([]|[)\],:;.]$/g, '');
  if (!/\p{L}{3}/u.test(w) || isUnitToken(w) || parseFlag(w) || qualitativeClass(w) || headerRoleOf(w)) return false;
  return !/^(range|in|out|of|above|below|normal|ref|reference)$/i.test(foldText(w));
}

/** How many results a set of lines gives read on its own (the caller reads them); 0: it does not stand alone. */
export type StandsAlone = (lines: RegionLine[]) => number;

/**
 * A side of a cut reads on its own when it gives results and they account for most of its lines (a
 * result spans at most about six: name, plain-language line, value, bar, range, badge). The right-hand
 * columns of a table under a heading cell read as one "result" at most, named after the heading.
 */
function readsAlone(lines: RegionLine[], standsAlone: StandsAlone): boolean {
  const n = standsAlone(lines);
  return n > 0 && n * 6 >= lines.length;
}

function bounds(lines: RegionLine[]): { left: number; right: number } {
  const cells = lines.flatMap((l) => l.cells);
  return { left: Math.min(...cells.map((c) => c.x)), right: Math.max(...cells.map((c) => c.right)) };
}

/** The widest vertical band of white space across every line of the block that leaves two readable sides. */
function verticalCut(lines: RegionLine[], minGap: number, standsAlone: StandsAlone): [RegionLine[], RegionLine[]] | undefined {
  const spans = lines.flatMap((l) => l.cells.map((c) => [c.x, c.right] as const)).sort((a, b) => a[0] - b[0]);
  const gaps: { at: number; width: number }[] = [];
  let reach = spans[0]![1];
  for (const [x, right] of spans.slice(1)) {
    if (x - reach >= minGap) gaps.push({ at: (x + reach) / 2, width: x - reach });
    reach = Math.max(reach, right);
  }
  gaps.sort((a, b) => b.width - a.width);
  for (const gap of gaps) {
    const side = (keep: (c: Cell) => boolean) =>
      lines.map((l) => ({ ...l, cells: l.cells.filter(keep) })).filter((l) => l.cells.length > 0);
    const left = side((c) => c.right <= gap.at);
    const right = side((c) => c.x >= gap.at);
    if (readsAlone(left, standsAlone) && readsAlone(right, standsAlone)) return [left, right];
  }
  return undefined;
}

/**
 * Columns below or between full-width lines (a title, a patient banner, a panel heading across both card
 * columns): the longest run of consecutive lines that a band of white space crosses, at a gap seen
 * between two cells of some line, whose two sides each read on its own and whose band of white space
 * holds no cell on any other line of the block. The block is cut into the
 * lines before the run, the run's two sides, and the lines after it.
 */
function partialVerticalCut(lines: RegionLine[], minGap: number, standsAlone: StandsAlone): RegionLine[][] | undefined {
  const candidates = new Set<number>();
  for (const l of lines) {
    for (let k = 1; k < l.cells.length; k++) {
      if (l.cells[k]!.x - l.cells[k - 1]!.right >= minGap) candidates.add(Math.round((l.cells[k]!.x + l.cells[k - 1]!.right) / 2));
    }
  }
  const runs: { from: number; to: number; at: number }[] = [];
  for (const at of candidates) {
    const crosses = (l: RegionLine) => l.cells.some((c) => c.x < at && c.right > at);
    let from = -1;
    for (let i = 0; i <= lines.length; i++) {
      if (i < lines.length && !crosses(lines[i]!)) {
        if (from < 0) from = i;
        continue;
      }
      if (from >= 0 && i - from >= 3 && i - from < lines.length) runs.push({ from, to: i, at });
      from = -1;
    }
  }
  // The right side must start at one left edge on most lines (a column's start), not at a badge or a
  // value inside the left column's cards; longest run first, then the best aligned.
  const aligned = (run: { from: number; to: number; at: number }) => {
    const starts = lines
      .slice(run.from, run.to)
      .map((l) => ({ y: l.y, x: l.cells.find((c) => c.x >= run.at)?.x }))
      .filter((p): p is { y: number; x: number } => p.x !== undefined);
    return starts.length ? starts.filter(onEdge(starts, minGap / 4)).length / starts.length : 0;
  };
  runs.sort((a, b) => b.to - b.from - (a.to - a.from) || aligned(b) - aligned(a));
  for (const run of runs) {
    if (aligned(run) < 0.6) continue;
    const part = lines.slice(run.from, run.to);
    const cells = part.flatMap((l) => l.cells);
    const reach = Math.max(...cells.filter((c) => c.right <= run.at).map((c) => c.right));
    const start = Math.min(...cells.filter((c) => c.x >= run.at).map((c) => c.x));
    if (!(start - reach >= minGap)) continue;
    // A cell inside the band on another line ("High" in a flag column the run's rows leave empty): the
    // band is a column of a table, not the gutter between two columns of results.
    if (lines.some((l) => l.cells.some((c) => c.x >= reach && c.right <= start))) continue;
    const side = (keep: (c: Cell) => boolean) => part.map((l) => ({ ...l, cells: l.cells.filter(keep) })).filter((l) => l.cells.length > 0);
    const left = side((c) => c.right <= run.at);
    const right = side((c) => c.x >= run.at);
    if (readsAlone(left, standsAlone) && readsAlone(right, standsAlone)) return [lines.slice(0, run.from), left, right, lines.slice(run.to)].filter((p) => p.length > 0);
  }
  return undefined;
}

/**
 * Whether a point lies on the column edge the points mostly share: the line x = a + b·y fitted to the
 * leftmost point of each row (a scanned or photographed page is a little skewed), fitted again without
 * the points far off it, within `tolerance`.
 */
function onEdge(points: { y: number; x: number }[], tolerance: number): (p: { y: number; x: number }) => boolean {
  const fit = (ps: { y: number; x: number }[]) => {
    const my = ps.reduce((s, p) => s + p.y, 0) / ps.length;
    const mx = ps.reduce((s, p) => s + p.x, 0) / ps.length;
    const vy = ps.reduce((s, p) => s + (p.y - my) ** 2, 0);
    const b = vy > 0 ? ps.reduce((s, p) => s + (p.y - my) * (p.x - mx), 0) / vy : 0;
    // At most about 3° of skew.
    const slope = Math.max(-0.05, Math.min(0.05, b));
    return (p: { y: number; x: number }) => Math.abs(p.x - (mx + slope * (p.y - my)));
  };
  const first = fit(points);
  const kept = points.filter((p) => first(p) <= 2 * tolerance);
  const off = fit(kept.length >= 2 ? kept : points);
  return (p) => off(p) <= tolerance;
}

/** Split where the vertical distance between lines is well above the page's line step. */
function horizontalCut(lines: RegionLine[], step: number, standsAlone: StandsAlone): RegionLine[][] {
  const groups: RegionLine[][] = [];
  for (const l of lines) {
    const last = groups.at(-1);
    if (last && l.y - last.at(-1)!.y <= 1.75 * step) last.push(l);
    else groups.push([l]);
  }
  // A gap inside one result (a card's name and description, then its value lower down) is not a cut:
  // parts that together give more results than apart stay one.
  const merged: RegionLine[][] = [];
  for (const g of groups) {
    const last = merged.at(-1);
    if (groups.length > 1 && last && standsAlone([...last, ...g]) > standsAlone(last) + standsAlone(g)) last.push(...g);
    else merged.push(g);
  }
  return merged;
}

function cut(lines: RegionLine[], step: number, depth: number, standsAlone: StandsAlone): Region[] {
  if (lines.length === 0) return [];
  if (depth < 8) {
    const v = verticalCut(lines, 1.4 * step, standsAlone);
    if (v) return v.flatMap((side) => cut(side, step, depth + 1, standsAlone));
    // A narrower band than a full cut needs: the other tests (aligned edge, empty band, both sides reading) hold it.
    const p = partialVerticalCut(lines, step, standsAlone);
    if (p) return p.flatMap((part) => cut(part, step, depth + 1, standsAlone));
    const h = horizontalCut(lines, step, standsAlone);
    if (h.length > 1) return h.flatMap((part) => cut(part, step, depth + 1, standsAlone));
  }
  return [{ lines, ...bounds(lines) }];
}

/** The page's reading regions, top to bottom as their first lines come, each with its lines in order. */
export function regionsOf(lines: TextLine[], standsAlone: StandsAlone): Region[] {
  const regionLines = lines.map((line) => ({ line, y: line.y, cells: cellsOf(line) })).filter((l) => l.cells.length > 0);
  regionLines.sort((a, b) => a.y - b.y);
  return cut(regionLines, lineStep(regionLines), 0, standsAlone);
}
