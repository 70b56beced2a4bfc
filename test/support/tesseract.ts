import { execFileSync } from 'node:child_process';
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
