import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';

/**
 * Pages in another script than Latin (Cyrillic, Greek). The page is read first with the Latin models
 * (eng+deu+fra), as every page is: a Russian or Greek page then comes out as Latin look-alikes
 * ("KpEATMHMH", "Oupia") read with low confidence, while its numbers are right. So:
 *
 * 1. mayBeOtherScript(): a page whose words of letters are mostly read with low confidence may be in
 *    another script. Latin pages, even poor photos, have few such words (measured on the corpus
 *    images, see NOTES); they pay nothing more.
 * 2. Only then the lines with the most doubtful words are cut out as one strip and read again with each
 *    other script's model next to English (eng+rus, eng+ell: Latin abbreviations and units stay
 *    readable); pickScript() keeps the script whose reading of the strip is clearly more confident than
 *    the Latin one and is written in that script.
 * 3. The whole page is read again with that script's models, and preferReading() keeps whichever page
 *    reading has the more confident words.
 *
 * This file holds the decisions (pure, unit-tested with made-up readings) and where the models are found.
 */

export type OtherScript = 'cyrillic' | 'greek';

export interface ScriptModels {
  script: OtherScript;
  /** The script's tesseract language (its model file is `<code>.traineddata`). */
  code: string;
  /**
   * What the page is read with: English first, then the script's model. Tesseract tries the next
   * language on a word the first reads poorly, so names come out in the script while Latin
   * abbreviations and units stay Latin: with the script's model first, the Greek photo's units came
   * out as Greek look-alikes ("mg/dL" as "τηα/αὶ"), with English first as printed.
   */
  languages: readonly string[];
}

export const OTHER_SCRIPTS: readonly ScriptModels[] = [
  { script: 'cyrillic', code: 'rus', languages: ['eng', 'rus'] },
  { script: 'greek', code: 'ell', languages: ['eng', 'ell'] },
];

/** A word as tesseract read it (its text and confidence, 0–100). */
export interface ReadWord {
  text: string;
  confidence: number;
}

/** Below this confidence a word of letters counts as doubtful. */
export const DOUBTFUL_CONFIDENCE = 60;
/** A page with at least this share of doubtful words of letters (and enough of them) may be in another script. */
export const DOUBTFUL_SHARE = 0.4;
/** Fewer words of letters than this: too little to tell, the page is left as read. */
const MIN_WORDS = 8;
/** How much more confident (mean word confidence, points) another script's reading of the strip must be. */
export const STRIP_MARGIN = 10;
/** The share of a reading's words of letters that must be written in the script chosen. */
const MIN_SCRIPT_SHARE = 0.3;

const SCRIPT_LETTER: Record<OtherScript, RegExp> = {
  cyrillic: /\p{Script=Cyrillic}/u,
  greek: /\p{Script=Greek}/u,
};

/**
 * A word of at least three letters, mostly letters: what tells one script from another. Units
 * ("mg/dL", "10^9/л") and numbers are left out: read in any script, and often with low confidence.
 */
export function isLetterWord(text: string): boolean {
  if (text.includes('/')) return false;
  const letters = text.match(/\p{L}/gu)?.length ?? 0;
  const visible = text.replace(/[\s\p{P}]/gu, '').length;
  return letters >= 3 && letters >= 0.7 * visible;
}

const letterWords = (words: readonly ReadWord[]) => words.filter((w) => isLetterWord(w.text));

/** The mean confidence of the words of letters (0 when there are none). */
export function letterConfidence(words: readonly ReadWord[]): number {
  const ws = letterWords(words);
  return ws.length ? ws.reduce((s, w) => s + w.confidence, 0) / ws.length : 0;
}

/** The share of the words of letters read with less than DOUBTFUL_CONFIDENCE. */
export function doubtfulShare(words: readonly ReadWord[]): number {
  const ws = letterWords(words);
  return ws.length ? ws.filter((w) => w.confidence < DOUBTFUL_CONFIDENCE).length / ws.length : 0;
}

/** The first (Latin) reading of a page suggests another script: many words of letters, mostly doubtful. */
export function mayBeOtherScript(words: readonly ReadWord[]): boolean {
  return letterWords(words).length >= MIN_WORDS && doubtfulShare(words) >= DOUBTFUL_SHARE;
}

/** The share of the words of letters that have a letter of `script`. */
export function scriptShare(words: readonly ReadWord[], script: OtherScript): number {
  const ws = letterWords(words);
  return ws.length ? ws.filter((w) => SCRIPT_LETTER[script].test(w.text)).length / ws.length : 0;
}

/**
 * The script to read the page in, from readings of the same strip: the Latin one (`latin`) and one per
 * other script. The most confident of the others, when it beats the Latin reading by STRIP_MARGIN and
 * is mostly written in its script; undefined (stay Latin) otherwise.
 */
export function pickScript(latin: readonly ReadWord[], others: readonly { script: OtherScript; words: readonly ReadWord[] }[]): OtherScript | undefined {
  const base = letterConfidence(latin);
  let best: { script: OtherScript; confidence: number } | undefined;
  for (const { script, words } of others) {
    const confidence = letterConfidence(words);
    if (confidence < base + STRIP_MARGIN || scriptShare(words, script) < MIN_SCRIPT_SHARE) continue;
    if (!best || confidence > best.confidence) best = { script, confidence };
  }
  return best?.script;
}

/** Whether the page's reading in another script is kept over its Latin reading: its words of letters are more confident. */
export function preferReading(latin: readonly ReadWord[], other: readonly ReadWord[], script: OtherScript): boolean {
  return letterConfidence(other) > letterConfidence(latin) && scriptShare(other, script) >= MIN_SCRIPT_SHARE;
}

/**
 * The lines to cut out for the strip: those with the most doubtful words of letters, at most `max`,
 * in page order. `lines` are each line's words; the result, indexes into `lines`.
 */
export function stripLines(lines: readonly (readonly ReadWord[])[], max = 8): number[] {
  return lines
    .map((words, i) => ({ i, doubtful: letterWords(words).filter((w) => w.confidence < DOUBTFUL_CONFIDENCE).length }))
    .filter((l) => l.doubtful > 0)
    .sort((a, b) => b.doubtful - a.doubtful || a.i - b.i)
    .slice(0, max)
    .map((l) => l.i)
    .sort((a, b) => a - b);
}

// ---------- where the models are ----------

const require = createRequire(import.meta.url);

/** System tessdata directories (Debian's tesseract-ocr-* packages, other distributions, TESSDATA_PREFIX). */
function systemDirs(env: Record<string, string | undefined>): string[] {
  const prefix = env.TESSDATA_PREFIX?.trim();
  return [
    ...(prefix ? [prefix, join(prefix, 'tessdata')] : []),
    '/usr/share/tesseract-ocr/5/tessdata',
    '/usr/share/tesseract-ocr/4.00/tessdata',
    '/usr/share/tessdata',
    '/usr/local/share/tessdata',
  ];
}

/**
 * A language's model file: the `@tesseract.js-data/<code>` package's `_best_int` model (gzip) when
 * installed, else the system's `<code>.traineddata` (uncompressed; Russian has no npm package, Debian's
 * tesseract-ocr-rus provides it). undefined when there is neither.
 */
export function modelFile(code: string, env: Record<string, string | undefined> = process.env): string | undefined {
  try {
    const pkg = require(`@tesseract.js-data/${code}`) as { langPath: string };
    const file = join(`${pkg.langPath}_best_int`, `${code}.traineddata.gz`);
    if (existsSync(file)) return file;
  } catch {
    // no such package
  }
  return systemDirs(env)
    .map((dir) => join(dir, `${code}.traineddata`))
    .find((file) => existsSync(file));
}

/** The other scripts whose model is installed (looked up once per process). */
let available: readonly ScriptModels[] | undefined;
export function availableScripts(): readonly ScriptModels[] {
  return (available ??= OTHER_SCRIPTS.filter((s) => modelFile(s.code) !== undefined));
}

/**
 * A line for the service's start-up log (warn level) when a script's model is missing: pages in that
 * script are then read with the Latin models only, as before. undefined when every model is there.
 */
export function missingScriptsNote(available: readonly ScriptModels[] = availableScripts()): string | undefined {
  const missing = OTHER_SCRIPTS.filter((s) => !available.includes(s));
  if (missing.length === 0) return undefined;
  return (
    `OCR: no ${missing.map((s) => `${s.code}.traineddata`).join(' or ')} model found (npm @tesseract.js-data/<code>, or the system's tessdata, e.g. ` +
    `Debian's ${missing.map((s) => `tesseract-ocr-${s.code}`).join(', ')}): ${missing.map((s) => s.script).join(' and ')} pages are read with the Latin models only`
  );
}
