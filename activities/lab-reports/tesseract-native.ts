import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { modelFile } from './ocr-script.js';

/**
 * Native tesseract (the `tesseract` command, 5.x; opt-in with OCR_ENGINE=native, see ocrEngine()),
 * run as one child process per page and one per batch of number re-reads, with the SAME language models as tesseract.js (the `@tesseract.js-data/*`
 * packages, unzipped once per process into a private temp dir and passed with --tessdata-dir, and the
 * system's model for a script without a package, e.g. Russian): only the engine differs, not the model. Word boxes, confidences, baselines and letter boxes come from its
 * hOCR output (hocr_char_boxes), so the page reaches the same layout code as tesseract.js's blocks.
 * Each process is single-threaded (OMP_THREAD_LIMIT=1): parallelism comes from running one process per
 * core, as tesseract.js runs one worker per core.
 */

export interface NativeBox {
  x0: number;
  y0: number;
  x1: number;
  y1: number;
}
export interface NativeWord {
  text: string;
  confidence: number;
  bbox: NativeBox;
  symbols: { text: string; bbox: NativeBox }[];
}
export interface NativeLine {
  bbox: NativeBox;
  baseline?: NativeBox;
  words: NativeWord[];
}

let binaryChecked: boolean | undefined;
/** Whether a `tesseract` 4 or later (LSTM) answers on the PATH; asked once per process. */
export function nativeTesseractAvailable(): boolean {
  if (binaryChecked === undefined) {
    try {
      const out = execFileSync('tesseract', ['--version'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], timeout: 10_000 });
      const major = Number(/tesseract\s+v?(\d+)/i.exec(out)?.[1] ?? 0);
      binaryChecked = major >= 4;
    } catch {
      binaryChecked = false;
    }
  }
  return binaryChecked;
}

let dataDir: string | undefined;
/**
 * A private temp dir (one per process) holding the models of `languages`, each added the first time it
 * is asked for: the tesseract.js data packages' models unzipped, or the system's model (a script with
 * no npm package, e.g. Debian's tesseract-ocr-rus) linked as is; see ocr-script.ts's modelFile().
 */
function tessdataDir(languages: readonly string[]): string {
  if (!dataDir || !existsSync(dataDir)) {
    const dir = mkdtempSync(join(tmpdir(), 'labflow-tessdata-native-'));
    process.once('exit', () => rmSync(dir, { recursive: true, force: true }));
    dataDir = dir;
  }
  for (const code of languages) {
    const to = join(dataDir, `${code}.traineddata`);
    if (existsSync(to)) continue;
    const file = modelFile(code);
    if (!file) throw new Error(`OCR language data missing: ${code}.traineddata`);
    if (file.endsWith('.gz')) writeFileSync(to, gunzipSync(readFileSync(file)));
    else symlinkSync(file, to);
  }
  return dataDir;
}

/** Runs tesseract with `args`, `input` on stdin; its stdout. Killed after `timeoutMs`. */
function run(args: string[], input: Buffer | null, timeoutMs: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn('tesseract', args, {
      stdio: [input ? 'pipe' : 'ignore', 'pipe', 'pipe'],
      env: { ...process.env, OMP_THREAD_LIMIT: '1' },
    });
    const out: Buffer[] = [];
    let err = '';
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.stdout?.on('data', (d: Buffer) => out.push(d));
    child.stderr?.on('data', (d: Buffer) => (err = (err + d.toString('utf8')).slice(-2000)));
    child.on('error', (e) => {
      clearTimeout(timer);
      reject(e);
    });
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      if (code === 0) resolve(Buffer.concat(out).toString('utf8'));
      else reject(new Error(signal === 'SIGKILL' ? `tesseract took longer than ${timeoutMs / 1000} s` : `tesseract exited with ${code}: ${err.trim().split('\n').at(-1) ?? ''}`));
    });
    if (input && child.stdin) {
      child.stdin.on('error', () => {}); // a child that died early: its exit code says why
      child.stdin.end(input);
    }
  });
}

const common = (languages: readonly string[]) => ['--tessdata-dir', tessdataDir(languages), '-l', languages.join('+'), '--oem', '1'];

const unescapeHtml = (s: string) =>
  s
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&#x([0-9a-f]+);/gi, (_, h: string) => String.fromCodePoint(parseInt(h, 16)))
    .replace(/&#(\d+);/g, (_, d: string) => String.fromCodePoint(Number(d)))
    .replace(/&amp;/g, '&');

const boxOf = (title: string, key = 'bbox'): NativeBox | undefined => {
  const m = new RegExp(`${key} (-?\\d+) (-?\\d+) (-?\\d+) (-?\\d+)`).exec(title);
  return m ? { x0: Number(m[1]), y0: Number(m[2]), x1: Number(m[3]), y1: Number(m[4]) } : undefined;
};

/**
 * hOCR (with hocr_char_boxes) → lines of words, in tesseract's reading order. The baseline is given as
 * `baseline p1 p0` from the line box's bottom-left corner; its left end is what the layout reader uses.
 */
export function parseHocr(hocr: string): NativeLine[] {
  const lines: NativeLine[] = [];
  const tag = /<span class='(ocr_line|ocr_header|ocr_caption|ocr_textfloat|ocrx_word|ocrx_cinfo)'[^>]*title=(?:'([^']*)'|"([^"]*)")[^>]*>|<\/span>/g;
  let line: NativeLine | undefined;
  let word: NativeWord | undefined;
  let symbol: { title: string; from: number } | undefined;
  let wordFrom = 0;
  let m: RegExpExecArray | null;
  while ((m = tag.exec(hocr))) {
    const [whole, cls] = m;
    const title = m[2] ?? m[3] ?? '';
    if (whole === '</span>') {
      if (symbol && word) {
        const text = unescapeHtml(hocr.slice(symbol.from, m.index));
        const bbox = boxOf(symbol.title, 'x_bboxes');
        if (bbox) word.symbols.push({ text, bbox });
        symbol = undefined;
      } else if (word) {
        if (word.symbols.length === 0) word.text = unescapeHtml(hocr.slice(wordFrom, m.index).replace(/<[^>]+>/g, ''));
        else word.text = word.symbols.map((s) => s.text).join('');
        if (line && word.text.trim() !== '') line.words.push(word);
        word = undefined;
      } else line = undefined;
      continue;
    }
    if (cls === 'ocrx_cinfo') symbol = { title, from: m.index + whole.length };
    else if (cls === 'ocrx_word') {
      word = { text: '', confidence: Number(/x_wconf (-?[\d.]+)/.exec(title)?.[1] ?? 0), bbox: boxOf(title)!, symbols: [] };
      wordFrom = m.index + whole.length;
    } else {
      const bbox = boxOf(title)!;
      const base = /baseline (-?[\d.]+) (-?[\d.]+)/.exec(title);
      const baseline = base
        ? (() => {
            const [p1, p0] = [Number(base[1]), Number(base[2])];
            return { x0: bbox.x0, y0: Math.round(bbox.y1 + p0), x1: bbox.x1, y1: Math.round(bbox.y1 + p0 + p1 * (bbox.x1 - bbox.x0)) };
          })()
        : undefined;
      line = { bbox, ...(baseline ? { baseline } : {}), words: [] };
      lines.push(line);
    }
  }
  return lines.filter((l) => l.words.length > 0);
}

/** One page (a binary PNM) read as one uniform block, as tesseract.js reads it. */
export async function nativeReadPage(pnm: Buffer, languages: readonly string[], timeoutMs: number): Promise<NativeLine[]> {
  const hocr = await run(
    ['stdin', 'stdout', ...common(languages), '--psm', '6', '-c', 'preserve_interword_spaces=1', '-c', 'hocr_char_boxes=1', '-c', 'tessedit_create_hocr=1'],
    pnm,
    timeoutMs,
  );
  return parseHocr(hocr);
}

/**
 * Several crops (binary PNMs) read in ONE process, each as a single line of digits, separators and
 * dashes: tesseract takes a list of image files and writes one TSV with a page number per image. For
 * each crop: its text (words joined) and the mean of its word confidences, as tesseract.js gives them.
 */
export async function nativeReadNumbers(crops: Buffer[], languages: readonly string[], timeoutMs: number): Promise<{ text: string; confidence: number }[]> {
  if (crops.length === 0) return [];
  const dir = mkdtempSync(join(tmpdir(), 'labflow-ocr-crops-'));
  try {
    const names = crops.map((c, i) => {
      const name = join(dir, `${i}.pnm`);
      writeFileSync(name, c);
      return name;
    });
    const list = join(dir, 'list.txt');
    writeFileSync(list, `${names.join('\n')}\n`);
    const tsv = await run(
      [list, 'stdout', ...common(languages), '--psm', '7', '-c', 'tessedit_char_whitelist=0123456789.,-', '-c', 'tessedit_create_tsv=1'],
      null,
      timeoutMs,
    );
    const words: { text: string; conf: number }[][] = crops.map(() => []);
    for (const row of tsv.split('\n').slice(1)) {
      const f = row.split('\t');
      if (f.length < 12 || f[0] !== '5') continue;
      const page = Number(f[1]) - 1;
      const text = f.slice(11).join('\t').trim();
      if (page >= 0 && page < crops.length && text !== '') words[page]!.push({ text, conf: Number(f[10]) });
    }
    return words.map((ws) => ({
      text: ws.map((w) => w.text).join(''),
      // tesseract's MeanTextConf: the mean of the word confidences, as an integer.
      confidence: ws.length ? Math.floor(ws.reduce((s, w) => s + w.conf, 0) / ws.length) : 0,
    }));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
