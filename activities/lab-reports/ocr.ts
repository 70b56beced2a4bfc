import { mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { createRequire } from 'node:module';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import type * as Tesseract from 'tesseract.js';
import type { Worker } from 'tesseract.js';
import { type Canvas, createCanvas } from '@napi-rs/canvas';
import { type TextLine, UNREADABLE } from '../../domain/lab-report/types.js';
import { ocrQueueDepth } from '../../lib/metrics.js';
import { availableScripts, mayBeOtherScript, modelFile, OTHER_SCRIPTS, pickScript, preferReading, stripLines } from './ocr-script.js';
import { cleanWord, joinUnitPieces, repairLineCells, repairUnit } from './ocr-text.js';
import { nativeReadNumbers, nativeReadPage, nativeTesseractAvailable } from './tesseract-native.js';

/**
 * OCR with tesseract.js (WebAssembly, in worker threads), reading its language models from the
 * `@tesseract.js-data/*` npm packages: nothing is downloaded at run time. Up to OCR_WORKERS tesseract
 * workers per process (one per core, at most two), made on first use and ended after a while idle: each
 * page is read by one; a page's separator re-reads are shared with a second worker when one is free,
 * so a lone page uses both cores for them and two pages at a time each have a core of their own.
 *
 * Tesseract is handed raw pixels (a binary PGM or PPM, which its image library reads as is): encoding a
 * 3,600-pixel page as PNG and having the WebAssembly build decode it again cost more than a third of
 * a page's time (measured with `npm run bench:parser`, see README).
 *
 * A page that the Latin models read as look-alike gibberish is read again in Cyrillic or Greek
 * (eng+rus, eng+ell) when their models are installed: see ocr-script.ts and readInScript() below.
 */

export const OCR_LANGUAGES = ['eng', 'deu', 'fra'] as const;
export const OCR_WORKERS = Math.max(1, Math.min(2, availableParallelism()));

export type OcrEngine = 'native' | 'wasm';
let engine: OcrEngine | undefined;
/**
 * The engine behind recognize(): tesseract.js unless OCR_ENGINE=native asks for native tesseract
 * (activities/lab-reports/tesseract-native.ts: the `tesseract` command, 4 or later, reading the same
 * models; an error when it is not installed). Native is not the default: measured on the corpus images
 * it was no more accurate and used as much CPU per page (process starts, see README).
 */
export function ocrEngine(env: Record<string, string | undefined> = process.env): OcrEngine {
  if (engine) return engine;
  const wanted = env.OCR_ENGINE?.trim().toLowerCase();
  if (wanted && wanted !== 'native' && wanted !== 'wasm') throw new Error(`OCR_ENGINE must be native or wasm, not ${JSON.stringify(env.OCR_ENGINE)}`);
  if (wanted === 'native' && !nativeTesseractAvailable()) throw new Error('OCR_ENGINE=native, but no tesseract (4 or later) answers on the PATH');
  engine = (wanted as OcrEngine | undefined) ?? 'wasm';
  return engine;
}
/** A page (or a batch of re-reads) that takes longer than this is abandoned (its worker is ended). */
const PAGE_TIMEOUT_MS = 120_000;
const IDLE_MS = 60_000;

const require = createRequire(import.meta.url);

interface Thread {
  ref(): void;
  unref(): void;
}
/**
 * tesseract.js keeps its worker threads to itself, and an idle thread would keep a finished process (a
 * test run) alive until the idle timeout. Its (pinned) internal spawn function is wrapped, before
 * tesseract.js loads, to get hold of each thread: it is held (ref) only while it reads.
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
 * The other scripts' models are linked too when installed (ocr-script.ts's modelFile()): a system
 * model is an uncompressed file, linked under the `.gz` name tesseract.js asks for, which it reads as
 * is (it unzips only what starts with gzip's magic bytes).
 */
function languageDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'labflow-tessdata-'));
  liveDirs.add(dir);
  for (const code of [...OCR_LANGUAGES, ...availableScripts().map((s) => s.code)]) {
    const file = modelFile(code);
    if (!file) throw new Error(`OCR language data missing: ${code}.traineddata`);
    symlinkSync(file, join(dir, `${code}.traineddata.gz`));
  }
  return dir;
}

const LATIN = OCR_LANGUAGES.join('+');

interface Running {
  worker: Worker;
  dir: string;
  /** The languages it reads with now: LATIN, or another script's (readInScript()), until switched back. */
  languages: string;
  thread: Thread | null;
  /** The pool generation it belongs to: stopOcr() starts a new one, and older workers are ended when free. */
  generation: number;
  idleTimer?: NodeJS.Timeout;
}

/** Started workers that are free, workers started or starting, and jobs waiting for a free one. */
const free: Running[] = [];
let size = 0;
let generation = 0;
const waiting: { resolve: (r: Running) => void; reject: (err: unknown) => void }[] = [];
/** Workers are started one after the other, so each gets hold of its own thread. */
let starting: Promise<unknown> = Promise.resolve();

function start(): Promise<Running> {
  const made = starting.then(async () => {
    const dir = languageDir();
    lastThread = null;
    try {
      const worker = await createWorker(LATIN, OEM.LSTM_ONLY, {
        langPath: dir,
        gzip: true,
        // Never read or write a cache of the models in the working directory.
        cacheMethod: 'none',
        errorHandler: () => {},
      });
      await worker.setParameters(PAGE_PARAMETERS);
      return { worker, dir, languages: LATIN, thread: lastThread, generation };
    } catch (err) {
      removeDir(dir);
      throw err;
    }
  });
  starting = made.catch(() => undefined);
  return made;
}

/** One uniform block: a report's table rows come out as whole lines, left to right. */
const PAGE_PARAMETERS = { tessedit_pageseg_mode: PSM.SINGLE_BLOCK, preserve_interword_spaces: '1' };

/**
 * Has the worker read with `languages` from now on: tesseract is initialised again (the models already
 * loaded stay in the worker's memory), which resets its parameters. Nothing to do when it already does.
 */
async function useLanguages(r: Running, languages: string): Promise<void> {
  if (r.languages === languages) return;
  r.languages = '';
  await r.worker.reinitialize(languages, OEM.LSTM_ONLY);
  await r.worker.setParameters(PAGE_PARAMETERS);
  r.languages = languages;
}

/** A new worker in the pool's place `size` already counts. */
async function startCounted(): Promise<Running> {
  try {
    const r = await start();
    r.thread?.ref();
    return r;
  } catch (err) {
    size--;
    throw err;
  }
}

/** A free worker, a new one while the pool is not full, else the next one freed. */
function acquire(): Promise<Running> {
  const r = takeFree();
  if (r) return Promise.resolve(r);
  if (size < OCR_WORKERS) {
    size++;
    return startCounted();
  }
  return new Promise((resolve, reject) => waiting.push({ resolve, reject }));
}

/** A second worker for a page's re-reads, only when one is free or can be started: never waits for a busy one. */
async function acquireSpare(): Promise<Running | undefined> {
  const r = takeFree();
  if (r) return r;
  if (size >= OCR_WORKERS || waiting.length) return undefined;
  size++;
  return startCounted().catch(() => undefined);
}

function takeFree(): Running | undefined {
  const r = free.pop();
  if (!r) return undefined;
  clearTimeout(r.idleTimer);
  r.thread?.ref();
  return r;
}

function release(r: Running): void {
  if (r.generation !== generation) return void end(r);
  const next = waiting.shift();
  if (next) return next.resolve(r);
  r.thread?.unref();
  r.idleTimer = setTimeout(() => {
    free.splice(free.indexOf(r), 1);
    void end(r);
  }, IDLE_MS);
  r.idleTimer.unref();
  free.push(r);
}

/** Ends a worker (idle, stuck, failed, or stopped) and gives its place to a job waiting, if any. */
async function end(r: Running): Promise<void> {
  size--;
  clearTimeout(r.idleTimer);
  removeDir(r.dir);
  const next = waiting.shift();
  if (next) {
    size++;
    startCounted().then(next.resolve, next.reject);
  }
  try {
    await r.worker.terminate();
  } catch {
    // already gone
  }
}

/** Ends the process's OCR workers: the free ones now, busy ones when they finish. */
export async function stopOcr(): Promise<void> {
  generation++;
  const stopping = free.splice(0);
  await Promise.all(stopping.map((r) => end(r)));
}

/** A worker call abandoned after PAGE_TIMEOUT_MS. */
async function timed<T>(work: Promise<T>, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([
      work,
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(`OCR of ${what} took longer than ${PAGE_TIMEOUT_MS / 1000} s`)), PAGE_TIMEOUT_MS);
      }),
    ]);
  } finally {
    clearTimeout(timer);
  }
}

/** Runs `use` with a worker; a worker that failed or timed out is ended, never reused. */
async function withWorker<T>(r: Running, use: (w: Worker) => Promise<T>): Promise<T> {
  try {
    const out = await use(r.worker);
    release(r);
    return out;
  } catch (err) {
    await end(r);
    throw err;
  }
}

/**
 * A canvas's pixels as a binary PNM: PGM (8-bit grey) when every pixel is grey, else PPM (8-bit RGB),
 * so tesseract thresholds a colour photo as it would its PNG. No compression: making it is a pass
 * over the pixels, and tesseract's image library reads it without decoding.
 */
export function toPnm(canvas: Canvas): Buffer {
  const { width, height } = canvas;
  const rgba = canvas.getContext('2d').getImageData(0, 0, width, height).data;
  let grey = true;
  for (let i = 0; i < rgba.length && grey; i += 4) grey = rgba[i] === rgba[i + 1] && rgba[i] === rgba[i + 2];
  const channels = grey ? 1 : 3;
  const header = Buffer.from(`${grey ? 'P5' : 'P6'}\n${width} ${height}\n255\n`, 'latin1');
  const out = Buffer.allocUnsafe(header.length + width * height * channels);
  header.copy(out);
  // The canvas is opaque (drawn on white): alpha is dropped.
  if (grey) for (let i = 0, o = header.length; i < rgba.length; i += 4) out[o++] = rgba[i]!;
  else for (let i = 0, o = header.length; i < rgba.length; i += 4, o += 3) out.set(rgba.subarray(i, i + 3), o);
  return out;
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

const linesOf = (data: { blocks: Tesseract.Block[] | null }) => (data.blocks ?? []).flatMap((b) => b.paragraphs.flatMap((p) => p.lines)) as OcrLine[];

/**
 * Recognises one page, drawn on a canvas (white where there is nothing). Positions are divided by
 * `scale`, so a rendered PDF page reports PDF points like its text layer would; an uploaded image
 * reports its own pixels. `engine`: the process's (ocrEngine()) unless a test names one.
 */
export async function recognize(image: Canvas, scale = 1, engine: OcrEngine = ocrEngine()): Promise<OcrPage> {
  if (engine === 'native') return recognizeNative(image, scale);
  ocrQueueDepth.inc();
  try {
    const pixels = toPnm(image);
    const reader = await acquire();
    let lines: OcrLine[];
    try {
      const read = async (pnm: Buffer, languages: readonly string[]) => {
        await useLanguages(reader, languages.join('+'));
        return linesOf((await timed(reader.worker.recognize(pnm, {}, { blocks: true, text: false }), 'a page')).data);
      };
      lines = await readInScript(image, pixels, read);
    } catch (err) {
      await end(reader); // a worker in an unknown state is not reused
      throw err;
    }
    await rereadNumbers(reader, image, lines);
    return toPage(lines, scale);
  } finally {
    ocrQueueDepth.dec();
  }
}

/**
 * The page's reading to keep: first `read` with the Latin models (OCR_LANGUAGES). When that reading looks
 * like another script read as look-alikes (mayBeOtherScript), the lines with the most doubtful words are
 * cut out as one strip and read with each installed script's models; when one of them reads the strip
 * clearly better (pickScript), the page (`pixels`) is read again with it and the more confident reading
 * kept. Latin pages stop at the first test, on the words already read.
 */
async function readInScript(image: Canvas, pixels: Buffer, read: (pnm: Buffer, languages: readonly string[]) => Promise<OcrLine[]>): Promise<OcrLine[]> {
  const lines = await read(pixels, OCR_LANGUAGES);
  const scripts = availableScripts();
  const words = lines.flatMap((l) => l.words);
  if (scripts.length === 0 || !mayBeOtherScript(words)) return lines;
  const picked = stripLines(lines.map((l) => l.words)).map((i) => lines[i]!);
  const strip = cropStrip(
    image,
    picked.map((l) => l.bbox),
  );
  const others = [];
  for (const s of scripts) others.push({ script: s.script, words: (await read(strip, s.languages)).flatMap((l) => l.words) });
  const script = pickScript(
    picked.flatMap((l) => l.words),
    others,
  );
  if (!script) return lines;
  const again = await read(pixels, OTHER_SCRIPTS.find((s) => s.script === script)!.languages);
  return preferReading(words, again.flatMap((l) => l.words), script) ? again : lines;
}

/** The lines' boxes cut out of the page, each with a margin, one under the other on white, as a PNM. */
function cropStrip(source: Canvas, boxes: Box[]): Buffer {
  const pieces = boxes.map((b) => {
    const pad = Math.round(Math.max(1, b.y1 - b.y0) * 0.3);
    const x0 = Math.max(0, b.x0 - pad);
    const y0 = Math.max(0, b.y0 - pad);
    return { x0, y0, w: Math.max(1, Math.min(source.width, b.x1 + pad) - x0), h: Math.max(1, Math.min(source.height, b.y1 + pad) - y0) };
  });
  const gap = Math.max(8, Math.round(Math.max(...pieces.map((p) => p.h)) / 2));
  const canvas = createCanvas(Math.max(...pieces.map((p) => p.w)) + 2 * BORDER, pieces.reduce((s, p) => s + p.h + gap, 2 * BORDER - gap));
  const ctx = canvas.getContext('2d');
  ctx.fillStyle = '#ffffff';
  ctx.fillRect(0, 0, canvas.width, canvas.height);
  const from = source.getContext('2d');
  let y = BORDER;
  for (const p of pieces) {
    ctx.putImageData(from.getImageData(p.x0, p.y0, p.w, p.h), BORDER, y);
    y += p.h + gap;
  }
  return toPnm(canvas);
}

/**
 * A whole number or a span of two ("43", "35-51"), maybe with a flag letter stuck on, as first read:
 * a decimal separator may have been lost.
 */
const BARE_NUMBER = /^(\d{2,5}(?:[-–]\d{2,5})?)([HL*]?)$/;
/** Heights in pixels a re-read number is scaled to, tried in turn: tesseract sees a point at one size and not another. */
const REREAD_HEIGHTS = [64, 40, 96];
/** White around a crop. */
const BORDER = 24;

interface Crop {
  box: Box;
  right?: number;
}

/**
 * The word's box with a margin, enlarged so the text is `height` pixels tall, on a white border, as a
 * PNM. The piece is copied out of the page first: drawing from the page's canvas itself would copy all
 * of it (tens of MB) for every crop.
 */
function cropWord(source: Canvas, { box, right = Infinity }: Crop, height: number): Buffer {
  const h = Math.max(1, box.y1 - box.y0);
  const pad = Math.round(h * 0.3);
  const x0 = Math.max(0, box.x0 - pad);
  const y0 = Math.max(0, box.y0 - pad);
  const w = Math.max(1, Math.min(source.width, box.x1 + pad, Math.max(box.x1, right)) - x0);
  const hh = Math.max(1, Math.min(source.height, box.y1 + pad) - y0);
  // A few pixels more around the piece, so the smoothing filter sees the page's neighbours at its edges.
  const m = 4;
  const px = Math.max(0, x0 - m);
  const py = Math.max(0, y0 - m);
  const piece = createCanvas(Math.min(source.width, x0 + w + m) - px, Math.min(source.height, y0 + hh + m) - py);
  piece.getContext('2d').putImageData(source.getContext('2d').getImageData(px, py, piece.width, piece.height), 0, 0);
  const k = height / h;
  const canvas = createCanvas(Math.round(w * k) + 2 * BORDER, Math.round(hh * k) + 2 * BORDER);
  const ctx = canvas.getContext('2d');
  ctx.fillStyle = '#ffffff';
  ctx.fillRect(0, 0, canvas.width, canvas.height);
  ctx.imageSmoothingQuality = 'high';
  ctx.drawImage(piece, x0 - px, y0 - py, w, hh, BORDER, BORDER, w * k, hh * k);
  return toPnm(canvas);
}

interface Pending {
  word: OcrWord;
  first: string;
  mark: string;
  crop: Crop;
  agreed: boolean;
  disagreements: number;
}

/**
 * Second look at numbers read without a decimal separator: each is cropped, enlarged and read alone
 * as digits, separators and dashes. The new reading
 * replaces the old only when it has the same digits and dashes with separators inserted (so "129" may
 * become "12,9", never "128"): at worst a separator stays lost, as before, and a digit is never
 * changed. A number whose re-readings never once give its digits, and at least twice give other
 * digits, is marked UNREADABLE: its row is not read. Measured with `npm run bench:parser`: wrong values
 * on the photos went from 13% to about 1%. The crops are shared between the page's reader and a spare
 * worker when one is free; `reader` (the page's) and the spare are released when done.
 */
async function rereadNumbers(reader: Running, source: Canvas, lines: OcrLine[]): Promise<void> {
  const pending = pendingNumbers(lines);
  if (pending.length === 0) return release(reader);
  const readers = [reader];
  if (pending.length > 4) {
    const spare = await acquireSpare();
    if (spare) readers.push(spare);
  }
  await Promise.all(
    readers.map((r, i) =>
      withWorker(r, async (worker) => {
        await worker.setParameters({ tessedit_pageseg_mode: PSM.SINGLE_LINE, tessedit_char_whitelist: '0123456789.,-' });
        // Each worker takes every other number.
        for (const p of pending.filter((_, k) => k % readers.length === i)) {
          for (const height of REREAD_HEIGHTS) {
            const again = await timed(worker.recognize(cropWord(source, p.crop, height), {}, { text: true }), 'a separator re-read');
            if (judge(p, again.data.text, again.data.confidence)) break;
          }
        }
        await worker.setParameters({ tessedit_pageseg_mode: PSM.SINGLE_BLOCK, tessedit_char_whitelist: '' });
      }),
    ),
  );
  markUnreadable(pending);
}

/** The numbers of a page that may have lost a decimal separator. */
function pendingNumbers(lines: OcrLine[]): Pending[] {
  return lines
    .flatMap((l) => l.words)
    .flatMap((word) => {
      const [, number, mark = ''] = BARE_NUMBER.exec(word.text.trim()) ?? [];
      return number === undefined ? [] : [{ word, first: number.replace('–', '-'), mark, crop: digitsBox(word), agreed: false, disagreements: 0 }];
    });
}

/** One re-reading of `p` weighed; true when it gave the number its separator (no further reading needed). */
function judge(p: Pending, read: string, confidence: number): boolean {
  const text = read.replace(/\s+/g, '');
  const same = text.replace(/[.,]/g, '') === p.first;
  if (same) p.agreed = true;
  else if (text !== '' && confidence >= 60) p.disagreements++;
  if (same && /\d[.,]\d/.test(text)) {
    p.word.text = `${text}${p.mark}`;
    return true;
  }
  return false;
}

/** Never once read with its digits again, and twice with others: which reading is right is not known. */
function markUnreadable(pending: Pending[]): void {
  for (const p of pending) if (!p.agreed && p.disagreements >= 2) p.word.text = `${UNREADABLE}${p.word.text}`;
}

// ---------- native tesseract (child processes) ----------

/** Native tesseract processes running for this process's pages: at most OCR_WORKERS (one per core), as workers. */
let nativeBusy = 0;
const nativeWaiting: (() => void)[] = [];
function nativeSlot(): Promise<void> {
  if (nativeBusy < OCR_WORKERS) {
    nativeBusy++;
    return Promise.resolve();
  }
  return new Promise((resolve) => nativeWaiting.push(resolve));
}
/** A second slot only when one is free now: a page's re-reads never wait for another page. */
function spareNativeSlot(): boolean {
  if (nativeBusy >= OCR_WORKERS || nativeWaiting.length) return false;
  nativeBusy++;
  return true;
}
function freeNativeSlot(): void {
  const next = nativeWaiting.shift();
  if (next) next();
  else nativeBusy--;
}

/**
 * recognize() with native tesseract: one process reads the page, then the numbers' crops (every
 * re-read height at once, so one process start serves them all) are read by one process, or two when
 * a second slot is free. A number's readings are weighed in the same order as with tesseract.js, so
 * the outcome is the same; the crops it would have skipped are the price of starting fewer processes.
 */
async function recognizeNative(image: Canvas, scale: number): Promise<OcrPage> {
  ocrQueueDepth.inc();
  try {
    const pixels = toPnm(image);
    await nativeSlot();
    const slots = [0];
    try {
      const read = async (pnm: Buffer, languages: readonly string[]) => (await nativeReadPage(pnm, languages, PAGE_TIMEOUT_MS)) as OcrLine[];
      const lines = await readInScript(image, pixels, read);
      const pending = pendingNumbers(lines);
      if (pending.length > 4 && spareNativeSlot()) slots.push(1);
      const crops = pending.map((p) => REREAD_HEIGHTS.map((h) => cropWord(image, p.crop, h)));
      const shares = slots.map((i) => pending.flatMap((p, k) => (k % slots.length === i ? [{ p, crops: crops[k]! }] : [])));
      const readings = await Promise.all(
        shares.map((share) =>
          nativeReadNumbers(
            share.flatMap((s) => s.crops),
            OCR_LANGUAGES,
            PAGE_TIMEOUT_MS,
          ),
        ),
      );
      shares.forEach((share, i) =>
        share.forEach((s, k) => {
          for (let h = 0; h < REREAD_HEIGHTS.length; h++) {
            const r = readings[i]![k * REREAD_HEIGHTS.length + h]!;
            if (judge(s.p, r.text, r.confidence)) break;
          }
        }),
      );
      markUnreadable(pending);
      return toPage(lines, scale);
    } finally {
      slots.forEach(() => freeNativeSlot());
    }
  } finally {
    ocrQueueDepth.dec();
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
    const texts = repairLineCells(cells.map((c) => joinUnitPieces(c.words).map(repairUnit).join(' ')));
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
