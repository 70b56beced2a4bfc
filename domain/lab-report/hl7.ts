/**
 * HL7 v2 result messages printed as text (an interface engine's message viewer, a LIS export): one
 * segment a line, "OBX|3|NM|2160-0^Creatinine^LN||1.02|mg/dL|0.60-1.30|N|||F", fields split by "|",
 * components by "^", long segments wrapped onto indented lines. Such pages are rewritten before they are
 * read: each OBX segment becomes a table row (name, value, units, reference range, abnormal flag) under a
 * header row of those columns, so the usual evidence test and LOINC matching apply; PID, OBR and MSH give
 * labelled metadata lines (name, birth date, collection and result times, filler order number). Pages
 * without two OBX segments are left as they are.
 *
 * The same printout photographed or scanned reaches the parser through OCR, which reads the field
 * separator "|" as "1", "l", "I", "]", "{", "(", "J" and the like, the component separator "^" as "*",
 * '"', "A" or nothing, and the segment id as "0BX", "08X", "Dex". Such lines are read by the
 * segment's structure instead (ocrObxSegment): the coded element "code^name^system" anchors the line,
 * the two separators after it (the empty field 4) lead to the value, then come unit, range and flag.
 * Where a "1" may be a separator or a digit, the reading with exactly two separators is taken when the range
 * and flag printed after it agree with it; failing that, another reading only when the row confirms it alone
 * (otherReading: range, decimals and flag, and on a page whose zeros come out as 8, zeros read so). A value in
 * doubt is left out.
 */
import { matchLoinc } from './loinc-match.js';
import { isValidLoincCode } from './loinc-table.js';
import { repairOcrName } from './ocr-names.js';
import { isUnitToken } from './units.js';
import { type ExtractedPage, LIKELY_TEST_NAME, type TextLine } from './types.js';

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

// ---------- OBX segments read by OCR ----------

/** What OCR reads a printed "|" as, in print of one stroke: never a letter that starts a unit or a flag word. */
const PIPE_CHAR = /^[|!lIiJj1[\]{}()/\\]$/;
/** The segment id OBX as OCR reads it at the start of a line: "OBX", "0BX", "08X", "OEX", "06X", "Dex". */
const OCR_OBX_ID = /^\s*[O0QD][BE86e][Xx]/;
/**
 * "2345-7“Glucose*LN", "3094-0 BUNLN|", "669-2WBCALN|": a LOINC-like code (its check digit may come as
 * "@"), a component separator or none, the test's name, a separator or none, and the coding system LN.
 */
const OCR_CODED = /(\d{2,5})\s?-\s?([\d@])\s*[\^"“”*™~°'‘’`-]?\s*([A-Za-z][A-Za-z0-9 ,%#/.()-]*?)\s*[\^"“”*™~°'‘’`-]?\s*L[NM](?![a-z])/;
/** The flag field's first letter: normal, high, low, abnormal (HL7 table 0078). */
const OCR_FLAG = /^(N|H|L|A|HH|LL)(?![a-z])/;

interface OcrValue {
  value: string;
  /** Separator look-alikes read between the coded element and the value. */
  pipes: number;
  end: number;
}

/**
 * The numbers that may be the value in `rest` (the text after the coded element), each with how many
 * separator look-alikes stand before it: "1 184 |mg/dL" gives 184 after one and 84 after two, a "1"
 * being either a digit or a separator.
 */
function valueCandidates(rest: string): OcrValue[] {
  const out: OcrValue[] = [];
  let pipes = 0;
  for (let i = 0; i < rest.length && pipes <= 3; i++) {
    const ch = rest[i]!;
    if (ch === ' ') continue;
    if (/\d/.test(ch)) {
      const m = /^\d+(?:\.\d+)?/.exec(rest.slice(i))!;
      out.push({ value: m[0], pipes, end: i + m[0].length });
    }
    // "LNL|40.2": right after the system, an "L" is a separator read as a letter too.
    if (PIPE_CHAR.test(ch) || (ch === 'L' && pipes === 0 && i === 0)) pipes++;
    else break;
  }
  return out;
}

const decimals = (n: string): number => /\.(\d+)$/.exec(n)?.[1]?.length ?? 0;

/**
 * "mg/dL170-93)NL [Fl]": the unit, reference range and flag fields after the value, separators read as
 * anything. A range read with a lower bound above its upper one had a separator read as a leading "1"
 * ("198-118" for |98-110|): that "1" is dropped.
 */
function fieldsAfterValue(after: string, lenient = false): { unit?: string; range?: { text: string; min: number; max: number }; flag?: string } {
  // Leniently, a space OCR put after a bound's point ("3.80-5. 10") is no gap.
  const m = lenient ? /(\d+(?:\.\s?\d+)?)\s?-\s?(\d+(?:\.\s?\d+)?)/.exec(after) : /(\d+(?:\.\d+)?)\s?-\s?(\d+(?:\.\d+)?)/.exec(after);
  const unitText = (m ? after.slice(0, m.index) : after.split(/\s{2,}/)[0]!).trim();
  const unit = unitText
    .replace(/^[|![\]{}()\\]+|[|![\]{}()\\]+$/g, '')
    .replace(/(?<=[a-z])1(?=\/)/g, 'l')
    .trim();
  const out: { unit?: string; range?: { text: string; min: number; max: number }; flag?: string } = {};
  if (isUnitToken(unit)) out.unit = unit;
  if (!m) return out;
  let lo = m[1]!.replace(/\s/g, '');
  let hi = m[2]!.replace(/\s/g, '');
  if (Number(lo) > Number(hi) && /^1\d/.test(lo)) lo = lo.slice(1);
  // Leniently, "140-4001NI": the separator after the upper bound read as its last digit, a flag letter after it.
  if (lenient && /\d1$/.test(hi) && /^[A-Z]/.test(after.slice(m.index + m[0].length)) && Number(hi.slice(0, -1)) > Number(lo)) hi = hi.slice(0, -1);
  if (Number(lo) > Number(hi)) return out;
  out.range = { text: `${lo}-${hi}`, min: Number(lo), max: Number(hi) };
  const tail = after.slice(m.index + m[0].length).replace(/^[\s|!lIiJj1[\]{}()/\\]+/, '');
  const flag = OCR_FLAG.exec(tail)?.[1];
  if (flag) out.flag = flag;
  return out;
}

/** Whether a flag agrees with where the value lies in its range (a normal value may lie up to 5% outside). */
function flagAgrees(value: number, range: { min: number; max: number }, flag: string): boolean {
  if (flag === 'N') return value >= range.min * 0.95 && value <= range.max * 1.05;
  if (flag.startsWith('H')) return value > range.max;
  if (flag.startsWith('L')) return value < range.min;
  return true;
}

/**
 * "RECA" (from "RBC^LN"): the component separator read as a capital A glued to the name. It is dropped when the
 * name as read is no test the LOINC table knows and without the A (a look-alike repaired, ocr-names.ts) it is one;
 * a name whose A is its own ("PSA", "CEA") is known as read and stays.
 */
function withoutSeparatorA(name: string): string {
  if (!/^[A-Z0-9]{2,}A$/.test(name) || (matchLoinc(name)[0]?.confidence_score ?? 0) >= LIKELY_TEST_NAME) return name;
  const bare = repairOcrName(name.slice(0, -1));
  return (matchLoinc(bare)[0]?.confidence_score ?? 0) >= LIKELY_TEST_NAME ? bare : name;
}

/** "188" → 108, 180, 100: the number with each non-empty choice of its 8s (up to three) read as 0. */
function zeroReadings(value: string): string[] {
  const at = [...value].flatMap((ch, i) => (ch === '8' ? [i] : []));
  if (at.length === 0 || at.length > 3) return [];
  const out: string[] = [];
  for (let mask = 1; mask < 1 << at.length; mask++) {
    const chars = [...value];
    at.forEach((i, k) => {
      if (mask & (1 << k)) chars[i] = '0';
    });
    out.push(chars.join(''));
  }
  return out;
}

/** What the OCR reader knows of the page a segment is on (see zerosReadAsEight). */
export interface OcrObxOptions {
  /** The page's zeros come out as 8 (a slashed or dotted zero): a value may be read with its 8s as 0s. */
  zeroAsEight?: boolean;
}

/** The LOINC code of a coded element as OCR read it ("2345-7"; a zero read as "@" put back). */
const codeOf = (coded: RegExpExecArray): string => `${coded[1]}-${coded[2]!.replace('@', '0')}`;

const rangeDecimals = (range: { text: string }): number => Math.max(...range.text.split('-').map((b) => decimals(b)));

/**
 * One OBX segment as OCR read it, rewritten with its separators ("OBX|1|NM|2345-7^Glucose^LN||84|mg/dL|
 * 70-93|N"), or undefined when the line is no OBX segment or its value is in doubt. The value is the
 * number after exactly two separator look-alikes (fields 4 and 5 begin there); with a range read, it has
 * the range's decimals, and with a flag read too, lies where the flag says. A number ending in "1" with
 * the unit right after it and no separator between is in doubt (the "1" may be the separator). When that
 * reading fails, the row may still say which reading is right (otherReading).
 */
export function ocrObxSegment(text: string, options: OcrObxOptions = {}): string | undefined {
  if (!OCR_OBX_ID.test(text)) return undefined;
  const coded = OCR_CODED.exec(text);
  if (!coded) return undefined;
  const name = withoutSeparatorA(coded[3]!.trim());
  if (name.length < 2) return undefined;
  // "1180110+3/uL": a count unit's "10" glued to the number before it is the unit's, not the value's.
  const rest = text.slice(coded.index + coded[0].length).replace(/(\d)(10[*^+r]\d{1,2}\s?\/)/, '$1 $2');
  const code = codeOf(coded);
  const segment = (value: string, f: ReturnType<typeof fieldsAfterValue>) => `OBX|0|NM|${code}^${name}^LN||${value}|${f.unit ?? ''}|${f.range?.text ?? ''}|${f.flag ?? ''}`;
  const candidate = valueCandidates(rest).find((c) => c.pipes === 2);
  const standard = candidate ? standardReading(candidate, rest) : undefined;
  if (standard) return segment(candidate!.value, standard);
  const other = otherReading(rest, options);
  return other ? segment(other.value, other.fields) : undefined;
}

/** The fields after a value read after exactly two separators, or undefined when the row contradicts it. */
function standardReading(candidate: OcrValue, rest: string): ReturnType<typeof fieldsAfterValue> | undefined {
  const after = rest.slice(candidate.end);
  if (/1$/.test(candidate.value) && !/^\s*[|![\]{}()\\Jj]/.test(after)) return undefined;
  const fields = fieldsAfterValue(after);
  const { range, flag } = fields;
  if (range && decimals(candidate.value) !== rangeDecimals(range)) return undefined;
  if (range && flag && !flagAgrees(Number(candidate.value), range, flag)) return undefined;
  return fields;
}

/**
 * A value the reading after exactly two separators missed, told by its own row: "||" read as one glyph ("LNI 187"),
 * or three look-alikes for two ("LN]J1180"), a separator after the value read as its last digit ("4.161 10r6/uL"
 * for |4.16|10^6/uL), and, on a page whose zeros come out as 8, its zeros read so ("187" for 107). Every such
 * reading (one to three separators before it, as read or with the last "1" taken for the separator, with 8s as 0s
 * where the page reads zeros so) is kept only if its row says it: a range is read, the value has the range's
 * decimals, and lies where the flag says (strictly inside the range for N or no flag, above for H, below for L),
 * against the range as read and, where zeros come out as 8, with its 8s read as 0s too. Exactly one value must
 * remain ("188" beside 125-288, where 180 and 188 both would, gives none); otherwise none is read.
 */
function otherReading(rest: string, options: OcrObxOptions): { value: string; fields: ReturnType<typeof fieldsAfterValue> } | undefined {
  const found = new Map<string, ReturnType<typeof fieldsAfterValue>>();
  for (const c of valueCandidates(rest)) {
    if (c.pipes < 1 || c.pipes > 3) continue;
    const fields = fieldsAfterValue(rest.slice(c.end), true);
    const { range, flag } = fields;
    if (!range) continue;
    const readings = [c.value];
    if (/\d1$/.test(c.value) && !/^\s*[|![\]{}()\\Jj]/.test(rest.slice(c.end))) readings.push(c.value.slice(0, -1));
    // Where zeros come out as 8, any 8 of the value may be a zero ("188": 188, 180, 108, 100), and the range is
    // asked both as read and with its 8s as 0s.
    const ranges = [range];
    if (options.zeroAsEight) {
      readings.push(...readings.flatMap((r) => zeroReadings(r)));
      const [lo, hi] = range.text.split('-').map((b) => b.replace(/8/g, '0'));
      if (Number(lo) < Number(hi)) ranges.push({ text: `${lo}-${hi}`, min: Number(lo), max: Number(hi) });
    }
    for (const value of readings) {
      if (/^0\d/.test(value) || decimals(value) !== rangeDecimals(range)) continue;
      const v = Number(value);
      const agrees = (r: { min: number; max: number }) => (flag === undefined || flag === 'N' ? v > r.min && v < r.max : flagAgrees(v, r, flag));
      if (ranges.every(agrees)) found.set(value, fields);
    }
  }
  if (found.size !== 1) return undefined;
  const [value, fields] = [...found.entries()][0]!;
  return { value, fields };
}

/**
 * An OCR page with its OBX segments rewritten (ocrObxSegment). Other segments whose id OCR garbled
 * ("PIDLY]", "OBR(2": two separators or more, no id the reader knows) and OBX segments whose value is in
 * doubt are left out: read as table rows they would give their numbers (an order number, a timestamp)
 * as results. Lines without separators are left as read.
 */
function withOcrSegments(page: ExtractedPage): ExtractedPage {
  if (page.source !== 'ocr') return page;
  const obxLike = page.lines.filter((l) => OCR_OBX_ID.test(l.text) && OCR_CODED.test(l.text));
  if (obxLike.length < 2) return page;
  const options = { zeroAsEight: zerosReadAsEight(obxLike.map((l) => l.text)) };
  const lines: TextLine[] = [];
  for (const l of page.lines) {
    const segment = ocrObxSegment(l.text, options);
    if (segment) lines.push({ text: segment, y: l.y });
    else if (SEGMENT.test(l.text.trim()) || (!OCR_OBX_ID.test(l.text) && (l.text.match(/\|/g)?.length ?? 0) < 2)) lines.push(l);
  }
  return { ...page, lines };
}

/**
 * Whether a page's zeros come out of OCR as 8, as a slashed or dotted zero does in the monospaced print of
 * message viewers: a LOINC code of its OBX segments fails its check digit as read ("2168-8") and passes it with
 * its 8s read as 0s (2160-0). The check digit is the page's own proof; without it no 8 is read as 0.
 */
export function zerosReadAsEight(segments: string[]): boolean {
  return segments.some((text) => {
    const coded = OCR_CODED.exec(text);
    const code = coded ? codeOf(coded) : '';
    return code.includes('8') && !isValidLoincCode(code) && isValidLoincCode(code.replace(/8/g, '0'));
  });
}

/** The pages with HL7 segments rewritten as table rows and labelled lines, when they hold OBX segments. */
export function readHl7Segments(pages: ExtractedPage[]): ExtractedPage[] {
  pages = pages.map(withOcrSegments);
  const obx = pages.reduce((n, p) => n + p.lines.filter((l) => l.text.trim().startsWith('OBX|')).length, 0);
  return obx >= 2 ? pages.map((p) => (p.lines.some((l) => SEGMENT.test(l.text.trim())) ? rewrite(p) : p)) : pages;
}
