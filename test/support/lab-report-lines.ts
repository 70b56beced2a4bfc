import { parseLabReport } from '../../domain/lab-report/parse.js';
import { type ExtractedPage, type ParsedResult, type TextLine } from '../../domain/lab-report/types.js';

/**
 * Synthetic text-layer lines for the parser's unit tests: a line of cells at given x positions (joined by a
 * column gap), a one-cell line, a page of them parsed, and a result looked up by name.
 */
export const row = (y: number, cells: [string, number][]): TextLine => ({
  text: cells.map(([t]) => t).join('   '),
  y,
  cells: cells.map(([t, x]) => ({ text: t, x, width: t.length * 5 })),
});

export const line = (y: number, text: string, x = 40): TextLine => row(y, [[text, x]]);

/** One text-layer page of `lines`, parsed as of 2025; its results. */
export const parseLines = (lines: TextLine[]): ParsedResult[] =>
  parseLabReport([{ page: 1, source: 'text_layer', lines } as ExtractedPage], { currentYear: 2025 }).results;

export const byName = (results: ParsedResult[], name: string): ParsedResult => {
  const r = results.find((x) => x.test_name === name);
  if (!r) throw new Error(`no result "${name}" in ${results.map((x) => x.test_name).join(', ')}`);
  return r;
};
