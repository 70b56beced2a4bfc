import { existsSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type * as Tesseract from 'tesseract.js';
import type { Worker } from 'tesseract.js';
import { createCanvas, type Image, loadImage } from '@napi-rs/canvas';
import { type TextLine, UNREADABLE } from '../../domain/lab-report/types.js';
import { ocrQueueDepth } from '../../lib/metrics.js';
import { cleanWord, joinUnitPieces, repairUnit } from './ocr-text.js';

/**
 * OCR with tesseract.js (WebAssembly, in a worker thread), reading its language models from the
 * `@tesseract.js-data/*` npm packages: nothing is downloaded at run time. One tesseract worker per
 * process, made on first use and ended after a while idle; pages are recognised one at a time.
 */

export const OCR_LANGUAGES = ['eng', 'deu', 'fra'] as const;
/** A page that takes longer than this is abandoned (the worker is ended and made anew). */
const PAGE_TIMEOUT_MS = 120_000;
const IDLE_MS = 60_000;

const require = createRequire(import.meta.url);

interface Thread {
  ref(): void;
  unref(): void;
}
/**
 * tesseract.js keeps its worker thread to itself, and an idle thread would keep a finished process (a
 * test run) alive until the idle timeout. Its (pinned) internal spawn function is wrapped, before
 * tesseract.js loads, to get hold of the thread: it is held (ref) only while a page is being read.
 */
let lastThread: Thread | null = null;
const nodeWorker = require('tesseract.js/src/worker/node/index.js') as { spawnWorker?: (options: unknown) => Thread };
const spawnWorker = nodeWorker.spawnWorker;
if (typeof spawnWorker === 'function') {
  nodeWorker.spawnWorker = (options) => (lastThread = spawnWorker(options));
}
const { createWorker, OEM, PSM } = require('tesseract.js') as typeof Tesseract;

/** Language dirs not removed yet: removed at exit too, if OCR was never stopped (a killed process still leaves them). */
const liveDirs = new Set<string>();
process.once('exit', () => liveDirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

function removeDir(dir: string): void {
  rmSync(dir, { recursive: true, force: true });
  liveDirs.delete(dir);
}

/**
 * tesseract.js takes one directory for all languages, while each data package has its own: link
 * them side by side in a private temp dir. The `_best_int` models are the LSTM-only integer ones.
 */
function languageDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'labflow-tessdata-'));
  liveDirs.add(dir);
  for (const code of OCR_LANGUAGES) {
    const pkg = require(`@tesseract.js-data/${code}`) as { langPath: string };
    const file = join(`${pkg.langPath}_best_int`, `${code}.traineddata.gz`);
    if (!existsSync(file)) throw new Error(`OCR language data missing: ${file}`);
    symlinkSync(file, join(dir, `${code}.traineddata.gz`));
  }
  return dir;
}

interface Running {
  worker: Worker;
  dir: string;
  thread: Thread | null;
}

let running: Promise<Running> | null = null;
let queue: Promise<unknown> = Promise.resolve();
let idleTimer: NodeJS.Timeout | null = null;

async function start(): Promise<Running> {
  const dir = languageDir();
  lastThread = null;
  try {
    const worker = await createWorker(OCR_LANGUAGES.join('+'), OEM.LSTM_ONLY, {
      langPath: dir,
      gzip: true,
      // Never read or write a cache of the models in the working directory.
      cacheMethod: 'none',
      errorHandler: () => {},
    });
    // One uniform block: a report's table rows come out as whole lines, left to right.
    await worker.setParameters({ tessedit_pageseg_mode: PSM.SINGLE_BLOCK, preserve_interword_spaces: '1' });
    return { worker, dir, thread: lastThread };
  } catch (err) {
    removeDir(dir);
    throw err;
  }
}

/** Ends the process's OCR worker (idle timeout, a stuck page, or shutdown). */
export async function stopOcr(): Promise<void> {
  const r = running;
  running = null;
  if (idleTimer) clearTimeout(idleTimer);
  idleTimer = null;
  if (!r) return;
  try {
    const { worker, dir } = await r;
    removeDir(dir);
    await worker.terminate();
  } catch {
    // it never started, or is already gone
  }
}

export interface OcrPage {
  lines: TextLine[];
  /** Mean word confidence, 0–100. */
  confidence: number;
}

interface Box {
  x0: number;
  y0: number;
  x1: number;
  y1: number;
}
interface OcrWord {
  text: string;
  confidence: number;
  bbox: Box;
  symbols?: { text: string; bbox: Box }[];
}

/**
 * The box of a word's digits only, without a flag letter stuck to them ("33L"), and how far right a
 * crop of it may reach (halfway to the letter): read alone, the letter would come out as a digit and
 * the reading would never match. The word's box when there is no such letter or no symbols.
 */
function digitsBox(w: OcrWord): { box: Box; right?: number } {
  const symbols = w.symbols ?? [];
  let last = -1;
  symbols.forEach((sym, i) => {
    if (/^[\d.,\-–]$/.test(sym.text)) last = i;
  });
  if (last < 0 || last === symbols.length - 1) return { box: w.bbox };
  const kept = symbols.slice(0, last + 1);
  const box = {
    x0: Math.min(...kept.map((k) => k.bbox.x0)),
    y0: Math.min(...kept.map((k) => k.bbox.y0)),
    x1: Math.max(...kept.map((k) => k.bbox.x1)),
    y1: Math.max(...kept.map((k) => k.bbox.y1)),
  };
  return { box, right: Math.floor((box.x1 + symbols[last + 1]!.bbox.x0) / 2) };
}

interface OcrLine {
  bbox: Box;
  baseline?: Box;
  words: OcrWord[];
}

/**
 * Recognises one image (PNG/JPEG bytes). Positions are divided by `scale`, so a rendered PDF page
 * reports PDF points like its text layer would; an uploaded image reports pixels (scale 1).
 */
export function recognize(image: Buffer, scale = 1): Promise<OcrPage> {
  ocrQueueDepth.inc();
  const job = queue.then(async () => {
    if (idleTimer) clearTimeout(idleTimer);
    running ??= start();
    const { worker, thread } = await running;
    let timer: NodeJS.Timeout | undefined;
    thread?.ref();
    try {
      const result = await Promise.race([
        worker.recognize(image, {}, { blocks: true, text: false }),
        new Promise<never>((_, reject) => {
          timer = setTimeout(() => reject(new Error(`OCR of a page took longer than ${PAGE_TIMEOUT_MS / 1000} s`)), PAGE_TIMEOUT_MS);
        }),
      ]);
      const lines = (result.data.blocks ?? []).flatMap((b) => b.paragraphs.flatMap((p) => p.lines)) as OcrLine[];
      await rereadNumbers(worker, image, lines);
      return toPage(lines, scale);
    } catch (err) {
      await stopOcr(); // a worker in an unknown state is not reused
      throw err;
    } finally {
      clearTimeout(timer);
      thread?.unref();
      idleTimer = setTimeout(() => void stopOcr(), IDLE_MS);
      idleTimer.unref();
    }
  });
  queue = job.catch(() => undefined);
  void queue.then(() => ocrQueueDepth.dec());
  return job;
}

/**
 * A whole number or a span of two ("43", "35-51"), maybe with a flag letter stuck on, as first read:
 * a decimal separator may have been lost.
 */
const BARE_NUMBER = /^(\d{2,5}(?:[-–]\d{2,5})?)([HL*]?)$/;
/** Heights in pixels a re-read number is scaled to, tried in turn: tesseract sees a point at one size and not another. */
const REREAD_HEIGHTS = [64, 40, 96];

/** The word's box with a margin, enlarged so the text is `height` pixels tall, on a white border. */
function cropWord(source: Image, box: Box, height: number, right = Infinity): Buffer {
  const h = Math.max(1, box.y1 - box.y0);
  const pad = Math.round(h * 0.3);
  const x0 = Math.max(0, box.x0 - pad);
  const y0 = Math.max(0, box.y0 - pad);
  const w = Math.min(source.width, box.x1 + pad, Math.max(box.x1, right)) - x0;
  const hh = Math.min(source.height, box.y1 + pad) - y0;
  const k = height / h;
  const border = 24;
  const canvas = createCanvas(Math.round(w * k) + 2 * border, Math.round(hh * k) + 2 * border);
  const ctx = canvas.getContext('2d');
  ctx.fillStyle = '#ffffff';
  ctx.fillRect(0, 0, canvas.width, canvas.height);
  ctx.imageSmoothingQuality = 'high';
  ctx.drawImage(source, x0, y0, w, hh, border, border, w * k, hh * k);
  return canvas.toBuffer('image/png');
}

/**
 * Second look at numbers read without a decimal separator: each is cropped, enlarged and read alone
 * as a line of digits, separators and dashes. The new reading replaces the old only when it has the
 * same digits and dashes with separators inserted (so "129" may become "12,9", never "128"): at worst
 * a separator stays lost, as before, and a digit is never changed. A number whose re-readings never
 * once give its digits, and at least twice give other digits, is marked UNREADABLE: its row is not
 * read. Measured with `npm run bench:parser`: wrong values on the photos went from 13% to about 1%.
 */
async function rereadNumbers(worker: Worker, image: Buffer, lines: OcrLine[]): Promise<void> {
  const words = lines.flatMap((l) => l.words).filter((w) => BARE_NUMBER.test(w.text.trim()));
  if (words.length === 0) return;
  const source = await loadImage(image);
  await worker.setParameters({ tessedit_pageseg_mode: PSM.SINGLE_LINE, tessedit_char_whitelist: '0123456789.,-' });
  try {
    for (const w of words) {
      const [, number = '', mark = ''] = BARE_NUMBER.exec(w.text.trim()) ?? [];
      const first = number.replace('–', '-');
      const crop = digitsBox(w);
      let disagreements = 0;
      let agreed = false;
      for (const height of REREAD_HEIGHTS) {
        const again = await worker.recognize(cropWord(source, crop.box, height, crop.right), {}, { text: true });
        const text = again.data.text.replace(/\s+/g, '');
        const same = text.replace(/[.,]/g, '') === first;
        if (same && /\d[.,]\d/.test(text)) {
          w.text = `${text}${mark}`;
          agreed = true;
          break;
        }
        if (same) agreed = true;
        else if (text !== '' && again.data.confidence >= 60) disagreements++;
      }
      // Never once read with its digits again, and twice with others: which reading is right is not known.
      if (!agreed && disagreements >= 2) w.text = `${UNREADABLE}${w.text}`;
    }
  } finally {
    await worker.setParameters({ tessedit_pageseg_mode: PSM.SINGLE_BLOCK, tessedit_char_whitelist: '' });
  }
}

const heightOf = (w: OcrWord) => w.bbox.y1 - w.bbox.y0;

/**
 * The page's typical word height: the median over words of two or more letters or digits read with
 * some confidence (undefined when there are too few to tell).
 */
function typicalHeight(ocrLines: OcrLine[]): number | undefined {
  const heights = ocrLines
    .flatMap((l) => l.words)
    .filter((w) => w.confidence >= 60 && (w.text.match(/[\p{L}\p{N}]/gu)?.length ?? 0) >= 2)
    .map(heightOf)
    .sort((a, b) => a - b);
  return heights.length >= 10 ? heights[Math.floor(heights.length / 2)] : undefined;
}

/**
 * Words far shorter than the page's print: dot leaders ("GLYCÉMIE ........ 0,87" read as "o.oo",
 * "essen", "…viorressccrer…", all about half the height of capitals, read with confidence near 0) and
 * specks read as letters ("ee" in an empty column, a third of it). Lower-case words with no ascender
 * stand about 0.6 as tall as capitals and digits, so a word goes when under a third of the typical
 * height, or under half of it and read with low confidence. Marks without a letter or digit (a
 * range's dash, a flag's asterisk) are left to cleanWord: a separator is never dropped here.
 */
const isTiny = (w: OcrWord, typical: number | undefined): boolean =>
  typical !== undefined && /[\p{L}\p{N}]/u.test(w.text) && (heightOf(w) < typical / 3 || (heightOf(w) < typical / 2 && w.confidence < 50));

/** Tesseract's lines → TextLines; words separated by a gap wider than about one line height start a new cell. */
export function toPage(ocrLines: OcrLine[], scale: number): OcrPage {
  const lines: TextLine[] = [];
  const confidences: number[] = [];
  const typical = typicalHeight(ocrLines);
  for (const line of ocrLines) {
    // Noise from rules and specks comes out as low-confidence words without a letter or digit.
    const words = line.words
      .filter((w) => (w.confidence >= 30 || /[\p{L}\p{N}]/u.test(w.text)) && !isTiny(w, typical))
      .map((w) => ({ ...w, text: cleanWord(w.text) }))
      .filter((w) => w.text !== '')
      .sort((a, b) => a.bbox.x0 - b.bbox.x0);
    if (words.length === 0) continue;
    const height = Math.max(1, line.bbox.y1 - line.bbox.y0);
    const cells: { words: string[]; x: number; width: number; right: number }[] = [];
    for (const w of words) {
      confidences.push(w.confidence);
      const last = cells.at(-1);
      if (last && w.bbox.x0 - last.right < 0.8 * height) {
        last.words.push(w.text);
        last.right = w.bbox.x1;
        last.width = last.right - last.x;
      } else {
        cells.push({ words: [w.text], x: w.bbox.x0, width: w.bbox.x1 - w.bbox.x0, right: w.bbox.x1 });
      }
    }
    const texts = cells.map((c) => joinUnitPieces(c.words).map(repairUnit).join(' '));
    lines.push({
      text: texts.join(' '),
      // The baseline, like a PDF text layer's y.
      y: round((line.baseline?.y0 ?? line.bbox.y1) / scale),
      cells: cells.map((c, i) => ({ text: texts[i]!, x: round(c.x / scale), width: round(c.width / scale) })),
    });
  }
  lines.sort((a, b) => a.y - b.y);
  const confidence = confidences.length ? confidences.reduce((s, c) => s + c, 0) / confidences.length : 0;
  return { lines, confidence: Math.round(confidence * 10) / 10 };
}

const round = (n: number) => Math.round(n * 100) / 100;
