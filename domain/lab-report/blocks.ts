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

/** Whether a set of lines reads on its own (the caller says: results are found in it alone). */
export type StandsAlone = (lines: RegionLine[]) => boolean;

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
    if (standsAlone(left) && standsAlone(right)) return [left, right];
  }
  return undefined;
}

/** Split where the vertical distance between lines is well above the page's line step. */
function horizontalCut(lines: RegionLine[], step: number): RegionLine[][] {
  const groups: RegionLine[][] = [];
  for (const l of lines) {
    const last = groups.at(-1);
    if (last && l.y - last.at(-1)!.y <= 1.75 * step) last.push(l);
    else groups.push([l]);
  }
  return groups;
}

function cut(lines: RegionLine[], step: number, depth: number, standsAlone: StandsAlone): Region[] {
  if (lines.length === 0) return [];
  if (depth < 8) {
    const v = verticalCut(lines, 1.4 * step, standsAlone);
    if (v) return v.flatMap((side) => cut(side, step, depth + 1, standsAlone));
    const h = horizontalCut(lines, step);
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
