/**
 * Per reading region (blocks.ts), which strategy's reading to keep: the row reader's results read from
 * the region's lines, or the proximity reading of the region (proximity.ts), whichever explains more
 * of it, counted as results that pass the parser's evidence test (a unit, a range, a flag or a known
 * name); between as many, the one with more results measured (a unit or a range). Regions cut from
 * the same printed lines (two columns the text layer gives as one line) are judged together, each
 * line's row result counted once. The row reader keeps ties: on tables it also
 * knows columns and panels. A region where rows found nothing but values with units or ranges are
 * printed is thereby read by proximity, so a report that prints results never comes out empty. A
 * region written mostly in sentences (prose.ts) is read as prose when that gives more results than both.
 */
import { type Region, regionsOf } from './blocks.js';
import { isProse, readProse } from './prose.js';
import { readByProximity } from './proximity.js';
import { type RowCandidate, type RowOptions } from './rows.js';
import { type NameConfidence, type ParsedResult, type TextLine } from './types.js';

interface Sourced {
  result: ParsedResult;
  line: TextLine;
}

/** Regions grouped when they share a printed line, in the order of their first region. */
function groupsOf(regions: Region[]): Region[][] {
  const groupOf = new Map<TextLine, Region[]>();
  const groups: Region[][] = [];
  for (const r of regions) {
    const joined = [...new Set(r.lines.map((l) => groupOf.get(l.line)).filter((g): g is Region[] => g !== undefined))];
    const group = joined[0] ?? [];
    if (joined.length === 0) groups.push(group);
    for (const other of joined.slice(1)) {
      group.push(...other);
      groups.splice(groups.indexOf(other), 1);
    }
    group.push(r);
    for (const g of group) for (const l of g.lines) groupOf.set(l.line, group);
  }
  return groups;
}

const fieldsOf = (r: ParsedResult) => [r.units, r.reference_range_text, r.flag, r.source_panel_name].filter((f) => f !== undefined).length;

/** The same result (name and value) as the row reader read it, when that reading knows more of it (its range, from a column). */
function richer(r: ParsedResult, rows: Sourced[]): ParsedResult {
  const same = rows.find((s) => s.result.test_name === r.test_name && s.result.value === r.value);
  return same && fieldsOf(same.result) > fieldsOf(r) ? same.result : r;
}

export function chooseByRegion(
  pages: { page: number; lines: TextLine[] }[],
  rowResults: Sourced[],
  opts: Omit<RowOptions, 'layout'> & { nameConfidence: NameConfidence },
  resultOf: (row: RowCandidate, page: number) => ParsedResult | undefined,
): ParsedResult[] {
  const out: ParsedResult[] = [];
  for (const { page, lines } of pages) {
    // Lines the row reader read through their columns and found in doubt (rows.ts): no other reading takes them.
    const doubted = opts.doubted ?? new Set<TextLine>();
    const onPage = rowResults.filter((s) => s.result.page === page);
    // A bound read as a value ("<41" under the range column, a method cell before it read as a name) on a line whose
    // row result has that very text as its range is that row's range, not a result of its own.
    const rangeOfRow = (p: { lines: Region['lines'] }, r: ParsedResult) =>
      /^[<>≤≥]/.test(r.value) && p.lines.some((l) => onPage.some((s) => s.line === l.line && s.result.reference_range_text?.replace(/\s+/g, '') === r.value.replace(/\s+/g, '')));
    const near = (r: { lines: Region['lines'] }) =>
      readByProximity(r.lines.filter((l) => !doubted.has(l.line)), opts)
        .map((p) => ({ p, r: resultOf(p.row, page) }))
        .filter((x): x is { p: (typeof x)['p']; r: ParsedResult } => x.r !== undefined && !rangeOfRow(x.p, x.r))
        .map((x) => x.r);
    const regions = regionsOf(lines, (side) => near({ lines: side }).length);
    const placed = new Set<Sourced>();
    for (const group of groupsOf(regions)) {
      const own = new Set(group.flatMap((r) => r.lines.map((l) => l.line)));
      const rows = onPage.filter((s) => own.has(s.line));
      // A doubted line is explained by the row reading (which declined its value), not left to the proximity reading.
      const declined = [...own].filter((l) => doubted.has(l)).length;
      rows.forEach((s) => placed.add(s));
      const byProximity = group.map(near);
      const prox = byProximity.flat();
      // More results, or as many with more of them measured (a unit or a range): "Glucose  Normal" read
      // as a row is a status word where the card prints "82 mg/dL" below.
      const measured = (rs: ParsedResult[]) => rs.filter((r) => r.units !== undefined || r.reference_range_text !== undefined).length;
      const rowResults = rows.map((s) => s.result);
      const texts = group.flatMap((r) => r.lines.map((l) => l.cells.map((c) => c.text).join(' ')));
      const prose = isProse(texts)
        ? readProse(texts, opts.decimalComma, opts.nameConfidence)
            .map((row) => resultOf(row, page))
            .filter((x): x is ParsedResult => x !== undefined)
        : [];
      const explained = rows.length + declined;
      if (prose.length > Math.max(prox.length, explained)) out.push(...prose);
      else if (prox.length > explained || (prox.length === explained && measured(prox) > measured(rowResults))) out.push(...prox.map((r) => richer(r, rows)));
      else out.push(...rows.map((s) => s.result));
    }
    out.push(...onPage.filter((s) => !placed.has(s)).map((s) => s.result));
  }
  return out;
}
