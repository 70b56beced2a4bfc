import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { type Canvas, createCanvas, loadImage, type Image } from '@napi-rs/canvas';
import type { PDFDocumentProxy, PDFPageProxy } from 'pdfjs-dist/legacy/build/pdf.mjs';
import type { TextItem } from 'pdfjs-dist/types/src/display/api.js';
import type { ExtractedPage, FailureReason, TextLine } from '../../domain/lab-report/types.js';
import type { ExtractionSummary } from '../../db/schema/lab-reports.js';
import { parserPageDuration, parserPages } from '../../lib/metrics.js';
import { loadPdfjs } from '../../lib/pdfjs.js';
import { MAX_PDF_PAGES, checkImage } from '../../lib/report-files.js';
import type { ParsingJobMime } from '../../workflows/lab-report/definitions.js';
import { prepareImage } from './image-prep.js';
import { recognize } from './ocr.js';

/**
 * Text extraction: a PDF's text layer (pdfjs-dist), OCR (tesseract.js) for images and for PDF pages
 * without a text layer (rendered with @napi-rs/canvas first). Output: pages of positioned lines, the
 * parser's input (domain/lab-report/types.ts). Documents that cannot be read give a failure with a
 * reason instead of an exception.
 */

/** A PDF page with fewer visible characters than this in its text layer is treated as scanned. */
const MIN_TEXT_LAYER_CHARS = 20;
/** Render scanned pages at 400 dpi (as photos are enlarged: decimal points survive), but no side beyond this many pixels. */
const RENDER_DPI = 400;
const MAX_RENDER_SIDE = 4800;
/**
 * Images are scaled so their longer side is at least / at most this: a phone photo of a page is
 * enlarged to about 400 dpi, where tesseract still sees decimal points in small print.
 */
const MIN_IMAGE_SIDE = 3600;
const MAX_IMAGE_SIDE = 5000;

export type ExtractionResult =
  | { ok: true; pages: ExtractedPage[]; summary: ExtractionSummary }
  | { ok: false; reason: FailureReason; detail: string };

export interface ExtractOptions {
  /** Called as each page is done (the activity heartbeats with it). */
  onPage?: (page: number, pages: number) => void;
}

const require = createRequire(import.meta.url);
const pdfjsRoot = dirname(require.resolve('pdfjs-dist/package.json'));
// Standard fonts and CMaps from the package itself: no network, and rendering matches the PDF.
const PDFJS_ASSETS = {
  standardFontDataUrl: `${join(pdfjsRoot, 'standard_fonts')}/`,
  cMapUrl: `${join(pdfjsRoot, 'cmaps')}/`,
  cMapPacked: true,
};

/** One page read: counted, and timed from `started` (performance.now()), by kind. */
function pageRead(kind: 'text' | 'ocr', started: number): void {
  parserPages.inc({ kind });
  parserPageDuration.observe({ kind }, (performance.now() - started) / 1000);
}

const invalid = (detail: string): ExtractionResult => ({ ok: false, reason: 'invalid_input', detail });

export async function extractText(bytes: Uint8Array, mime: ParsingJobMime, options: ExtractOptions = {}): Promise<ExtractionResult> {
  return readable(mime === 'application/pdf' ? await extractPdf(bytes, options) : await extractImage(bytes, mime, options));
}

/** The job's files: one PDF or image, or several images (the pages of one report, in order). */
export async function extractFiles(files: { bytes: Uint8Array; mime: ParsingJobMime }[], options: ExtractOptions = {}): Promise<ExtractionResult> {
  if (files.length === 1) return extractText(files[0]!.bytes, files[0]!.mime, options);
  if (files.length === 0) return invalid('No file was uploaded.');
  const images = files.filter((f): f is { bytes: Uint8Array; mime: ImageMime } => f.mime !== 'application/pdf');
  if (images.length !== files.length) return invalid('A report of several files can only be made of JPEG or PNG images.');
  return readable(await extractImages(images, options));
}

function readable(result: ExtractionResult): ExtractionResult {
  if (result.ok && result.pages.every((p) => p.lines.length === 0)) {
    return invalid('The document contains no readable text.');
  }
  return result;
}

async function openPdf(bytes: Uint8Array): Promise<PDFDocumentProxy | ExtractionResult> {
  const { getDocument } = await loadPdfjs();
  try {
    // pdfjs takes ownership of the buffer it is given: hand it a copy.
    return await getDocument({ data: new Uint8Array(bytes), verbosity: 0, isEvalSupported: false, ...PDFJS_ASSETS }).promise;
  } catch (err) {
    const name = (err as { name?: string }).name;
    if (name === 'PasswordException') return invalid('The PDF is encrypted with a password and cannot be read.');
    if (name === 'InvalidPDFException') return invalid('The file is not a readable PDF (damaged or truncated).');
    return invalid(`The PDF could not be read: ${(err as Error).message}`);
  }
}

async function extractPdf(bytes: Uint8Array, options: ExtractOptions): Promise<ExtractionResult> {
  const opened = await openPdf(bytes);
  if (!('numPages' in opened)) return opened;
  const doc = opened;
  try {
    if (doc.numPages === 0) return invalid('The PDF has no pages.');
    if (doc.numPages > MAX_PDF_PAGES) return invalid(`The PDF has ${doc.numPages} pages; at most ${MAX_PDF_PAGES} are accepted.`);
    const pages: ExtractedPage[] = [];
    const ocrPages: number[] = [];
    const confidences: number[] = [];
    for (let n = 1; n <= doc.numPages; n++) {
      const started = performance.now();
      let page: PDFPageProxy;
      let lines: TextLine[];
      try {
        page = await doc.getPage(n);
        lines = await textLayerLines(page);
      } catch (err) {
        return invalid(`Page ${n} of the PDF could not be read: ${(err as Error).message}`);
      }
      const visible = lines.reduce((s, l) => s + l.text.replace(/\s/g, '').length, 0);
      if (visible >= MIN_TEXT_LAYER_CHARS) {
        pages.push({ page: n, lines, source: 'text_layer' });
        pageRead('text', started);
      } else {
        // A scanned page: render it and read it like a photo.
        const { canvas, scale } = await renderPage(page);
        const ocr = await recognize(canvas, scale);
        pages.push({ page: n, lines: ocr.lines, source: 'ocr', ocrConfidence: ocr.confidence });
        ocrPages.push(n);
        confidences.push(ocr.confidence);
        pageRead('ocr', started);
      }
      page.cleanup();
      options.onPage?.(n, doc.numPages);
    }
    return { ok: true, pages, summary: summary(doc.numPages, ocrPages, confidences) };
  } finally {
    await doc.destroy();
  }
}

const FIELD_SEPARATOR = /^\s*[;|¦]\s*$/;

interface Piece {
  text: string;
  x: number;
  right: number;
  y: number;
  size: number;
}

/** The page's text items, in viewport coordinates (origin top-left), grouped by baseline into lines of cells. */
async function textLayerLines(page: PDFPageProxy): Promise<TextLine[]> {
  const viewport = page.getViewport({ scale: 1 });
  const content = await page.getTextContent();
  const pieces: Piece[] = [];
  for (const item of content.items) {
    if (!('str' in item) || item.str.trim() === '') continue;
    const t = (item as TextItem).transform as number[];
    const [x, y] = viewport.convertToViewportPoint(t[4]!, t[5]!) as [number, number];
    const size = Math.hypot(t[2]!, t[3]!) || item.height || 10;
    pieces.push({ text: item.str, x, right: x + item.width, y, size });
  }
  pieces.sort((a, b) => a.y - b.y || a.x - b.x);
  const rows: Piece[][] = [];
  for (const p of pieces) {
    const row = rows.at(-1);
    // Same baseline, give or take half a glyph (superscripts, mixed fonts).
    if (row && Math.abs(row[0]!.y - p.y) <= 0.5 * Math.min(row[0]!.size, p.size)) row.push(p);
    else rows.push([p]);
  }
  return rows.map((row) => {
    row.sort((a, b) => a.x - b.x);
    const cells: { text: string; x: number; right: number }[] = [];
    for (const p of row) {
      const last = cells.at(-1);
      const gap = last ? p.x - last.right : Infinity;
      // Pieces closer than ~half an em belong to one cell (a word split into runs, or words of a phrase);
      // a monospaced font's one space is 0.6 em exactly (Courier), so the bound sits just above it, except
      // beside a lone field separator (";", "|" of a delimited export), which keeps its fields apart.
      const bound = last && (FIELD_SEPARATOR.test(last.text) || FIELD_SEPARATOR.test(p.text)) ? 0.6 : 0.62;
      if (last && gap < bound * p.size) {
        last.text += (gap > 0.15 * p.size && !last.text.endsWith(' ') && !p.text.startsWith(' ') ? ' ' : '') + p.text;
        last.right = Math.max(last.right, p.right);
      } else {
        cells.push({ text: p.text, x: p.x, right: p.right });
      }
    }
    const tidy = cells.map((c) => ({ text: c.text.replace(/\s+/g, ' ').trim(), x: round(c.x), width: round(c.right - c.x) }));
    return { text: tidy.map((c) => c.text).join(' '), y: round(row[0]!.y), cells: tidy };
  });
}

async function renderPage(page: PDFPageProxy): Promise<{ canvas: Canvas; scale: number }> {
  const base = page.getViewport({ scale: 1 });
  const scale = Math.min(RENDER_DPI / 72, MAX_RENDER_SIDE / Math.max(base.width, base.height));
  const viewport = page.getViewport({ scale });
  const canvas = createCanvas(Math.ceil(viewport.width), Math.ceil(viewport.height));
  const ctx = canvas.getContext('2d');
  ctx.fillStyle = '#ffffff';
  ctx.fillRect(0, 0, canvas.width, canvas.height);
  // pdfjs is typed for DOM canvases; @napi-rs/canvas implements the same 2D API.
  const params = { canvas, canvasContext: ctx, viewport } as unknown as Parameters<PDFPageProxy['render']>[0];
  await page.render(params).promise;
  return { canvas, scale };
}

export type ImageMime = Exclude<ParsingJobMime, 'application/pdf'>;

/**
 * An image, decoded: its headers are checked first (a file @napi-rs/canvas cannot read would crash
 * the process, see lib/report-files.ts). `loadImage` applies a JPEG's EXIF orientation itself (phone
 * photos taken sideways come out upright; test/unit/lab-report-images.test.ts holds it to that).
 */
export async function loadPageImage(bytes: Uint8Array, mime: ImageMime): Promise<Image | { error: string }> {
  const check = checkImage(bytes, mime);
  if (!check.ok) return { error: check.detail };
  try {
    const image = await loadImage(Buffer.from(bytes));
    return image.width && image.height ? image : { error: 'it has no pixels' };
  } catch (err) {
    return { error: (err as Error).message };
  }
}

/** One image, read by OCR as a one-page report. */
const extractImage = (bytes: Uint8Array, mime: ImageMime, options: ExtractOptions) => extractImages([{ bytes, mime }], options);

/**
 * A report uploaded as images (1–8 JPEG/PNG files): each image is one page, numbered 1..n in upload
 * order, read by OCR.
 */
export async function extractImages(images: { bytes: Uint8Array; mime: ImageMime }[], options: ExtractOptions = {}): Promise<ExtractionResult> {
  const pages: ExtractedPage[] = [];
  const confidences: number[] = [];
  for (const [k, { bytes, mime }] of images.entries()) {
    const n = k + 1;
    const started = performance.now();
    const image = await loadPageImage(bytes, mime);
    if ('error' in image) {
      return invalid(images.length === 1 ? `The image could not be decoded: ${image.error}` : `Image ${n} could not be decoded: ${image.error}`);
    }
    const prepared = prepareImage(image, { minSide: MIN_IMAGE_SIDE, maxSide: MAX_IMAGE_SIDE });
    const ocr = await recognize(prepared.canvas, prepared.scale);
    pages.push({ page: n, lines: ocr.lines, source: 'ocr', ocrConfidence: ocr.confidence });
    confidences.push(ocr.confidence);
    pageRead('ocr', started);
    options.onPage?.(n, images.length);
  }
  return { ok: true, pages, summary: summary(images.length, pages.map((p) => p.page), confidences) };
}

function summary(pageCount: number, ocrPages: number[], confidences: number[]): ExtractionSummary {
  const s: ExtractionSummary = { page_count: pageCount, ocr_pages: ocrPages };
  if (confidences.length) s.ocr_confidence = Math.round((confidences.reduce((a, b) => a + b, 0) / confidences.length) * 10) / 10;
  return s;
}

const round = (n: number) => Math.round(n * 100) / 100;
