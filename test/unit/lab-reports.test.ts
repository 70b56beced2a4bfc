import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import PDFDocument from 'pdfkit';
import { afterAll, describe, expect, it } from 'vitest';
import { extractText } from '../../activities/lab-reports/extract.js';
import { MAX_PDF_PAGES } from '../../lib/report-files.js';
import { looksNotEnglish } from '../../activities/lab-reports/language.js';
import { toPage } from '../../activities/lab-reports/ocr.js';
import { createJobFields, sniffMime } from '../../api/routes/lab-reports/schemas.js';
import { BlobNotFoundError, FileBlobStore, sha256Hex } from '../../lib/blob-store.js';
import { samplePdf } from '../fixtures/lab-reports/report.js';

const dirs: string[] = [];
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

describe('upload type sniffing', () => {
  it('recognises PDF, PNG and JPEG by their bytes, and nothing else', () => {
    const bytes = (...b: number[]) => new Uint8Array(b);
    expect(sniffMime(bytes(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0))).toBe('image/png');
    expect(sniffMime(bytes(0xff, 0xd8, 0xff, 0xe0))).toBe('image/jpeg');
    expect(sniffMime(new TextEncoder().encode('%PDF-1.7\n…'))).toBe('application/pdf');
    expect(sniffMime(new TextEncoder().encode('\n\n junk before the header %PDF-1.4'))).toBe('application/pdf');
    expect(sniffMime(new TextEncoder().encode('GIF89a'))).toBeNull();
    expect(sniffMime(new TextEncoder().encode('hello, I am a .pdf'))).toBeNull();
    expect(sniffMime(bytes(0x89, 0x50, 0x4e))).toBeNull();
  });

  it('reads form fields the way FastAPI does', () => {
    const id = '7f9c2b1e-3a4d-4c5e-8f60-718293a4b5c6';
    expect(createJobFields.parse({ user_id: id })).toEqual({ user_id: id, needs_human_review: false });
    expect(createJobFields.parse({ user_id: id, needs_human_review: 'True' }).needs_human_review).toBe(true);
    expect(createJobFields.parse({ user_id: id, needs_human_review: '0' }).needs_human_review).toBe(false);
    expect(createJobFields.safeParse({ user_id: id, needs_human_review: 'maybe' }).success).toBe(false);
    expect(createJobFields.safeParse({ user_id: 'nope' }).success).toBe(false);
  });
});

describe('content-addressed blob store', () => {
  const store = () => {
    const dir = mkdtempSync(join(tmpdir(), 'labflow-blobs-'));
    dirs.push(dir);
    return new FileBlobStore(dir);
  };

  it('stores bytes under their SHA-256, idempotently, and reads them back', async () => {
    const s = store();
    const bytes = new TextEncoder().encode('a lab report');
    const [a, b] = await Promise.all([s.put(bytes), s.put(bytes)]);
    expect(a).toEqual({ sha256: sha256Hex(bytes), size: bytes.length });
    expect(b).toEqual(a);
    expect(s.pathOf(a.sha256)).toBe(join(s.root, a.sha256.slice(0, 2), a.sha256));
    expect(await s.has(a.sha256)).toBe(true);
    expect((await s.get(a.sha256)).toString()).toBe('a lab report');
  });

  it('refuses unknown, malformed and damaged blobs', async () => {
    const s = store();
    const missing = sha256Hex(new TextEncoder().encode('never stored'));
    expect(await s.has(missing)).toBe(false);
    await expect(s.get(missing)).rejects.toBeInstanceOf(BlobNotFoundError);
    expect(() => s.pathOf('../../etc/passwd')).toThrow(/SHA-256/);
    const { sha256 } = await s.put(new TextEncoder().encode('original'));
    writeFileSync(s.pathOf(sha256), 'tampered');
    await expect(s.get(sha256)).rejects.toThrow(/corrupt/);
  });
});

describe('PDF text layer extraction', () => {
  it('groups text items into lines of positioned cells', async () => {
    const result = await extractText(await samplePdf(), 'application/pdf');
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.summary).toEqual({ page_count: 1, ocr_pages: [] });
    const [page] = result.pages;
    expect(page!.source).toBe('text_layer');
    const glucose = page!.lines.find((l) => l.text.startsWith('Glucose'))!;
    expect(glucose.cells!.map((c) => c.text)).toEqual(['Glucose', '105', 'H', 'mg/dL', '70-99']);
    const header = page!.lines.find((l) => l.text.startsWith('Test'))!;
    // Cells of one column share their x across lines.
    expect(glucose.cells![1]!.x).toBeCloseTo(header.cells![1]!.x, 1);
    const ys = page!.lines.map((l) => l.y);
    expect(ys).toEqual([...ys].sort((a, b) => a - b));
  });

  it('keeps a monospaced print\'s words at one space in one cell, its columns and delimited fields apart', async () => {
    const doc = new PDFDocument({ size: 'LETTER' });
    const chunks: Buffer[] = [];
    doc.on('data', (c: Buffer) => chunks.push(c));
    const done = new Promise<Buffer>((resolve) => doc.on('end', () => resolve(Buffer.concat(chunks))));
    doc.font('Courier').fontSize(8);
    doc.text('Reporting Lab: VA PUGET SOUND HEALTH CARE SYSTEM [663]', 36, 60, { lineBreak: false });
    doc.text(`${'05/18/2024 08:54'.padEnd(18)}${'CHEM7'.padEnd(7)}${'UREA NITROGEN'.padEnd(23)}${'17'.padEnd(11)}${'mg/dL'.padEnd(8)}7-20`, 36, 80, { lineBreak: false });
    doc.text('GLU  ; Glucose, fasting ; 5.2 ; mmol/L ; 3.9-5.5 ;', 36, 100, { lineBreak: false });
    doc.end();
    const result = await extractText(await done, 'application/pdf');
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    const cells = result.pages[0]!.lines.map((l) => l.cells!.map((c) => c.text));
    expect(cells[0]).toEqual(['Reporting Lab: VA PUGET SOUND HEALTH CARE SYSTEM [663]']);
    expect(cells[1]).toEqual(['05/18/2024 08:54', 'CHEM7', 'UREA NITROGEN', '17', 'mg/dL', '7-20']);
    // A lone ";" between fields is never glued to the field after it.
    expect(cells[2]!.some((c) => /^;\s*3\.9-5\.5$/.test(c))).toBe(false);
    expect(cells[2]).toContain('3.9-5.5');
  });

  it('fails encrypted, damaged and over-long PDFs as invalid_input', async () => {
    const encrypted = await extractText(await samplePdf({ userPassword: 'pw' }), 'application/pdf');
    expect(encrypted).toMatchObject({ ok: false, reason: 'invalid_input', detail: expect.stringMatching(/encrypted/) });
    const whole = await samplePdf();
    const damaged = await extractText(whole.subarray(0, 300), 'application/pdf');
    expect(damaged).toMatchObject({ ok: false, reason: 'invalid_input' });
    const long = await extractText(await pdfWithPages(MAX_PDF_PAGES + 1), 'application/pdf');
    expect(long).toMatchObject({ ok: false, reason: 'invalid_input', detail: expect.stringMatching(/31 pages/) });
  });
});

describe('OCR words to lines', () => {
  const word = (text: string, x0: number, x1: number, confidence = 90) => ({ text, confidence, bbox: { x0, y0: 100, x1, y1: 130 } });

  it('splits a line into cells at wide gaps and scales positions', () => {
    const page = toPage(
      [
        {
          bbox: { x0: 0, y0: 100, x1: 900, y1: 130 },
          baseline: { x0: 0, y0: 125, x1: 900, y1: 125 },
          words: [word('105', 400, 450), word('Total', 10, 80), word('Cholesterol', 90, 250), word('mg/dL', 600, 680), word('~', 700, 705, 5)],
        },
      ],
      2,
    );
    expect(page.lines).toEqual([
      {
        text: 'Total Cholesterol 105 mg/dL',
        y: 62.5,
        cells: [
          { text: 'Total Cholesterol', x: 5, width: 120 },
          { text: '105', x: 200, width: 25 },
          { text: 'mg/dL', x: 300, width: 40 },
        ],
      },
    ]);
    expect(page.confidence).toBe(90);
  });
});

describe('OCR words far shorter than the print', () => {
  const at = (text: string, x0: number, x1: number, y0: number, y1: number, confidence = 90) => ({ text, confidence, bbox: { x0, y0, x1, y1 } });
  const row = (y: number, words: ReturnType<typeof at>[]) => ({ bbox: { x0: 0, y0: y, x1: 1200, y1: y + 40 }, words });

  it('drops dot leaders and specks read as letters, and keeps lower-case words, values and a dash', () => {
    const body = (y: number) => row(y, [at('Sodium', 10, 120, y, y + 36), at('140', 400, 450, y, y + 36), at('mmol/L', 500, 600, y, y + 36)]);
    const page = toPage(
      [
        body(0),
        body(60),
        body(120),
        row(180, [
          at('GLYCEMIE', 10, 200, 180, 216),
          at('o.oo', 210, 300, 208, 216), // dots on the baseline
          at('essen', 300, 390, 200, 216, 0), // dots read as letters, half as tall, no confidence
          at('0,87', 400, 450, 180, 216),
          at('sec', 500, 560, 196, 216, 40), // x-height only, even read with little confidence
          at('(0,70', 700, 760, 180, 218),
          at('-', 770, 780, 198, 202), // a range's dash is thin, and kept
          at('1,10)', 790, 850, 180, 218),
          at('ee', 1000, 1030, 205, 214), // a speck
        ]),
      ],
      1,
    );
    expect(page.lines.at(-1)!.text).toBe('GLYCEMIE 0,87 sec (0,70 - 1,10)');
  });
});

describe('language check', () => {
  const pages = (text: string) => [{ page: 1, source: 'ocr' as const, lines: text.split('\n').map((t, i) => ({ text: t, y: i * 10 })) }];

  it('tells a German report from an English one', () => {
    const german = 'Befund der Untersuchung\nPatient und Geburtsdatum\nErgebnis mit Einheit und Referenzbereich für die Werte von Blut\nDas ist nicht normal';
    const english = 'Report of the blood test\nPatient and date of collection\nResult with units and reference range for the patient';
    expect(looksNotEnglish(pages(german))).toBe(true);
    expect(looksNotEnglish(pages(english))).toBe(false);
    expect(looksNotEnglish(pages('Glucose 105'))).toBe(false);
  });
});

async function pdfWithPages(n: number): Promise<Buffer> {
  const doc = new PDFDocument({ size: 'A6' });
  const chunks: Buffer[] = [];
  doc.on('data', (c: Buffer) => chunks.push(c));
  const done = new Promise<Buffer>((resolve) => doc.on('end', () => resolve(Buffer.concat(chunks))));
  for (let i = 1; i <= n; i++) {
    if (i > 1) doc.addPage();
    doc.text(`Page ${i}`);
  }
  doc.end();
  return done;
}
