import { createCanvas } from '@napi-rs/canvas';
import { afterAll, describe, expect, it } from 'vitest';
import { recognize, stopOcr, toPnm } from '../../activities/lab-reports/ocr.js';
import { nativeTesseractAvailable } from '../../activities/lab-reports/tesseract-native.js';
import { ensureTesseract } from '../support/tesseract.js';

afterAll(() => stopOcr());

const header = (pnm: Buffer) => pnm.subarray(0, pnm.indexOf('255\n') + 4).toString('latin1');

describe('pixels handed to tesseract', () => {
  it('a grey page is a PGM of its grey levels, one byte a pixel, row by row', () => {
    const canvas = createCanvas(3, 2);
    const ctx = canvas.getContext('2d');
    ctx.fillStyle = '#ffffff';
    ctx.fillRect(0, 0, 3, 2);
    ctx.fillStyle = '#404040';
    ctx.fillRect(1, 1, 1, 1);
    const pnm = toPnm(canvas);
    expect(header(pnm)).toBe('P5\n3 2\n255\n');
    expect([...pnm.subarray(header(pnm).length)]).toEqual([255, 255, 255, 255, 0x40, 255]);
  });

  it('a colour page (a photo) is a PPM, its colours kept for tesseract to threshold', () => {
    const canvas = createCanvas(2, 1);
    const ctx = canvas.getContext('2d');
    ctx.fillStyle = '#ffffff';
    ctx.fillRect(0, 0, 2, 1);
    ctx.fillStyle = '#c08040';
    ctx.fillRect(1, 0, 1, 1);
    const pnm = toPnm(canvas);
    expect(header(pnm)).toBe('P6\n2 1\n255\n');
    expect([...pnm.subarray(header(pnm).length)]).toEqual([255, 255, 255, 0xc0, 0x80, 0x40]);
  });
});

/** A small page of result lines, drawn large enough to read. */
function page(lines: string[]) {
  const canvas = createCanvas(1400, 90 * lines.length + 60);
  const ctx = canvas.getContext('2d');
  ctx.fillStyle = '#ffffff';
  ctx.fillRect(0, 0, canvas.width, canvas.height);
  ctx.fillStyle = '#000000';
  ctx.font = '48px sans-serif';
  lines.forEach((l, i) => ctx.fillText(l, 40, 90 * (i + 1)));
  return canvas;
}

/** Both engines: tesseract.js, and native tesseract (OCR_ENGINE=native, opt-in; Debian's installed when missing). */
ensureTesseract();
if (!nativeTesseractAvailable()) throw new Error('native tesseract is not usable after installing it');
const engines = ['wasm', 'native'] as const;

describe.each(engines)('OCR of pages at the same time (%s)', (engine) => {
  it('reads each page as drawn, decimals included, whichever worker takes it', async () => {
    const [a, b] = await Promise.all([
      recognize(page(['Glucose 5.4 mmol/L 3.9-6.1', 'Sodium 139 mmol/L 135-145']), 1, engine),
      recognize(page(['Hemoglobin 13.2 g/dL 12.0-16.0', 'Potassium 4.1 mmol/L 3.5-5.1']), 1, engine),
    ]);
    const text = (p: typeof a) => p.lines.map((l) => l.text).join('\n');
    expect(text(a)).toMatch(/Glucose\s+5\.4\s+mmol\/L\s+3\.9\s*-\s*6\.1/);
    expect(text(a)).toMatch(/Sodium\s+139\s+mmol\/L/);
    expect(text(b)).toMatch(/Hemoglobin\s+13\.2\s+g\/dL/);
    expect(text(b)).toMatch(/Potassium\s+4\.1\s+mmol\/L/);
    expect(a.confidence).toBeGreaterThan(60);
  }, 180_000);
});
