import { execFileSync } from 'node:child_process';
import { modelFile } from '../../activities/lab-reports/ocr-script.js';
import { aptInstall } from './apt.js';

const found = (): boolean => {
  try {
    execFileSync('tesseract', ['--version'], { stdio: 'ignore', timeout: 10_000 });
    return true;
  } catch {
    return false;
  }
};

/**
 * Installs Debian's `tesseract-ocr` with apt-get when the command is missing, so the tests of the opt-in
 * native engine (OCR_ENGINE=native) run on every machine instead of being skipped.
 */
export function ensureTesseract(log: (msg: string) => void = (m) => process.stderr.write(`${m}\n`)): void {
  if (found()) return;
  log('tesseract missing');
  aptInstall('tesseract-ocr', log);
  if (!found()) throw new Error('apt-get install tesseract-ocr did not provide the tesseract command');
}

/**
 * Installs Debian's `tesseract-ocr-<code>` (e.g. rus: no npm package ships the Russian model) when no
 * `<code>.traineddata` is found where OCR looks (activities/lab-reports/ocr-script.ts's modelFile()), so
 * the tests of pages in that script run on every machine instead of being skipped. Call it before the
 * first OCR of the test file: which models are installed is looked up once per process.
 */
export function ensureTesseractModel(code: string, log: (msg: string) => void = (m) => process.stderr.write(`${m}\n`)): string {
  const have = modelFile(code);
  if (have) return have;
  log(`no ${code}.traineddata`);
  aptInstall(`tesseract-ocr-${code}`, log);
  const file = modelFile(code);
  if (!file) throw new Error(`apt-get install tesseract-ocr-${code} did not provide ${code}.traineddata`);
  return file;
}
