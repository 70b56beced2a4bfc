import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { PDFPageProxy } from 'pdfjs-dist/legacy/build/pdf.mjs';
import { loadPdfjs } from '../../lib/pdfjs.js';

const pdfjsRoot = dirname(createRequire(import.meta.url).resolve('pdfjs-dist/package.json'));
const ASSETS = { standardFontDataUrl: `${join(pdfjsRoot, 'standard_fonts')}/`, cMapUrl: `${join(pdfjsRoot, 'cmaps')}/`, cMapPacked: true };
// Loaded on first use: pdfjs and the canvas are heavy, and the API starts without them.
const pdfjs = loadPdfjs;

/** Pages shown to reviewers are at most this wide (px): readable beside the table, small to send. */
const WIDTH = 1000;

/** How many pages a stored PDF has (null if it cannot be read). */
export async function pdfPageCount(bytes: Uint8Array): Promise<number | null> {
  try {
    const { getDocument } = await pdfjs();
    const doc = await getDocument({ data: new Uint8Array(bytes), verbosity: 0, isEvalSupported: false, ...ASSETS }).promise;
    const n = doc.numPages;
    await doc.destroy();
    return n;
  } catch {
    return null;
  }
}

/** One page of a PDF drawn as PNG on the server: every browser shows it, no PDF plug-in or script needed. */
export async function pdfPagePng(bytes: Uint8Array, pageNumber: number): Promise<Buffer | null> {
  const [{ getDocument }, { createCanvas }] = await Promise.all([pdfjs(), import('@napi-rs/canvas')]);
  const doc = await getDocument({ data: new Uint8Array(bytes), verbosity: 0, isEvalSupported: false, ...ASSETS }).promise;
  try {
    if (pageNumber < 1 || pageNumber > doc.numPages) return null;
    const page = await doc.getPage(pageNumber);
    const base = page.getViewport({ scale: 1 });
    const viewport = page.getViewport({ scale: WIDTH / base.width });
    const canvas = createCanvas(Math.ceil(viewport.width), Math.ceil(viewport.height));
    const ctx = canvas.getContext('2d');
    ctx.fillStyle = '#fff';
    ctx.fillRect(0, 0, canvas.width, canvas.height);
    // pdfjs is typed for DOM canvases; @napi-rs/canvas implements the same 2D API.
    await page.render({ canvas, canvasContext: ctx, viewport } as unknown as Parameters<PDFPageProxy['render']>[0]).promise;
    return canvas.toBuffer('image/png');
  } finally {
    await doc.destroy();
  }
}
