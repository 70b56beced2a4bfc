/**
 * HL7 v2 result messages printed as text (an interface engine's message viewer, a LIS export): one
 * segment a line, "OBX|3|NM|2160-0^Creatinine^LN||1.02|mg/dL|0.60-1.30|N|||F", fields split by "|",
 * components by "^", long segments wrapped onto indented lines. Such pages are rewritten before they are
 * read: each OBX segment becomes a table row (name, value, units, reference range, abnormal flag) under a
 * header row of those columns, so the usual evidence test and LOINC matching apply; PID, OBR and MSH give
 * labelled metadata lines (name, birth date, collection and result times, filler order number). Pages
 * without two OBX segments are left as they are.
 */
import type { ExtractedPage, TextLine } from './types.js';

const SEGMENT = /^([A-Z][A-Z0-9]{2})\|/;
const X = { name: 40, value: 260, unit: 320, range: 400, flag: 500 };

/** "20250114083000" → "2025-01-14"; undefined unless a plausible date starts the field. */
function hl7Date(ts: string | undefined): string | undefined {
  const m = /^(\d{4})(\d{2})(\d{2})/.exec(ts ?? '');
  if (!m) return undefined;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  return y > 1900 && mo >= 1 && mo <= 12 && d >= 1 && d <= 31 ? `${m[1]}-${m[2]}-${m[3]}` : undefined;
}

/** The text of a coded element ("2160-0^Creatinine^LN" → "Creatinine"; "mg/dL^^UCUM" → "mg/dL"). */
function textOf(field: string | undefined, prefer: 'text' | 'first'): string {
  const parts = (field ?? '').split('^');
  if (prefer === 'text') return (parts[1] || parts[0] || '').trim();
  return (parts[0] || parts[1] || '').trim();
}

/** Segment lines with their wrapped continuations joined (a wrapped part starts without a segment id). */
function segmentsOf(lines: TextLine[]): { text: string; y: number }[] {
  const out: { text: string; y: number }[] = [];
  for (const l of lines) {
    const t = l.text.trim();
    if (SEGMENT.test(t)) out.push({ text: t, y: l.y });
    else if (out.length > 0 && out.at(-1)!.y !== -1 && t !== '' && !/\s/.test(t)) out.at(-1)!.text += t;
    else out.push({ text: t, y: -1 });
  }
  return out;
}

const cellsLine = (y: number, parts: [number, string][]): TextLine => ({
  text: parts.map(([, t]) => t).join('   '),
  y,
  cells: parts.filter(([, t]) => t !== '').map(([x, t]) => ({ x, text: t })),
});

function rewrite(page: ExtractedPage): ExtractedPage {
  const lines: TextLine[] = [];
  let headed = false;
  let y = 0;
  for (const seg of segmentsOf(page.lines)) {
    y = seg.y === -1 ? y + 0.1 : seg.y;
    const id = SEGMENT.exec(seg.text)?.[1];
    if (!id) {
      lines.push({ text: seg.text, y });
      continue;
    }
    const f = seg.text.split('|');
    if (id === 'OBX') {
      if (!headed) {
        lines.push(cellsLine(y - 0.5, [[X.name, 'Test'], [X.value, 'Result'], [X.unit, 'Units'], [X.range, 'Reference Range'], [X.flag, 'Flag']]));
        headed = true;
      }
      const flag = (f[8] ?? '').split('~')[0]!.trim();
      lines.push(cellsLine(y, [[X.name, textOf(f[3], 'text')], [X.value, (f[5] ?? '').replace(/\^/g, ' ').trim()], [X.unit, textOf(f[6], 'first')], [X.range, (f[7] ?? '').trim()], [X.flag, flag === 'N' ? '' : flag]]));
    } else if (id === 'PID') {
      const [family, given] = (f[5] ?? '').split('^');
      if (family) lines.push({ text: `Last name: ${family}`, y });
      if (given) lines.push({ text: `First name: ${given}`, y: y + 0.01 });
      const dob = hl7Date(f[7]);
      if (dob) lines.push({ text: `Date of birth: ${dob}`, y: y + 0.02 });
    } else if (id === 'OBR') {
      const collected = hl7Date(f[7]);
      const resulted = hl7Date(f[22]);
      if (collected) lines.push({ text: `Collected: ${collected}`, y });
      if (resulted) lines.push({ text: `Reported: ${resulted}`, y: y + 0.01 });
      if (f[3]) lines.push({ text: `Accession: ${textOf(f[3], 'first')}`, y: y + 0.02 });
      headed = false;
    }
    // MSH, ORC, NTE and other segments carry no result or metadata read here.
  }
  return { ...page, lines };
}

/** The pages with HL7 segments rewritten as table rows and labelled lines, when they hold OBX segments. */
export function readHl7Segments(pages: ExtractedPage[]): ExtractedPage[] {
  const obx = pages.reduce((n, p) => n + p.lines.filter((l) => l.text.trim().startsWith('OBX|')).length, 0);
  return obx >= 2 ? pages.map((p) => (p.lines.some((l) => SEGMENT.test(l.text.trim())) ? rewrite(p) : p)) : pages;
}
