import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import * as zlib from 'node:zlib';
import { createCanvas, loadImage, type Image } from '@napi-rs/canvas';
import { afterAll, describe, expect, it } from 'vitest';
import { extractFiles, extractText, loadPageImage } from '../../activities/lab-reports/extract.js';
import { MAX_IMAGE_PIXELS, checkJpeg, checkPng } from '../../lib/report-files.js';

const REPORT_PNG = readFileSync(new URL('../fixtures/lab-reports/report.png', import.meta.url));
const dirs: string[] = [];
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

/** A small picture: white, with a red square in its top-left corner. */
function marked(width = 200, height = 100) {
  const canvas = createCanvas(width, height);
  const ctx = canvas.getContext('2d');
  ctx.fillStyle = '#ffffff';
  ctx.fillRect(0, 0, width, height);
  ctx.fillStyle = '#ff0000';
  ctx.fillRect(0, 0, 30, 30);
  return { jpeg: canvas.toBuffer('image/jpeg', 92), png: canvas.toBuffer('image/png') };
}

/** An EXIF APP1 segment holding only the Orientation tag (big-endian TIFF, one IFD entry). */
function exifSegment(orientation: number): Buffer {
  const tiff = Buffer.alloc(26);
  tiff.write('MM', 0, 'latin1');
  tiff.writeUInt16BE(42, 2);
  tiff.writeUInt32BE(8, 4);
  tiff.writeUInt16BE(1, 8); // one entry
  tiff.writeUInt16BE(0x0112, 10); // Orientation
  tiff.writeUInt16BE(3, 12); // SHORT
  tiff.writeUInt32BE(1, 14);
  tiff.writeUInt16BE(orientation, 18);
  const payload = Buffer.concat([Buffer.from('Exif\0\0', 'latin1'), tiff]);
  const head = Buffer.alloc(4);
  head.writeUInt16BE(0xffe1, 0);
  head.writeUInt16BE(payload.length + 2, 2);
  return Buffer.concat([head, payload]);
}
const withOrientation = (jpeg: Buffer, orientation: number) => Buffer.concat([jpeg.subarray(0, 2), exifSegment(orientation), jpeg.subarray(2)]);

/** Where the red mark is in the decoded image: which corner. */
function redCorner(image: Image): string {
  const canvas = createCanvas(image.width, image.height);
  const ctx = canvas.getContext('2d');
  ctx.drawImage(image, 0, 0);
  const isRed = (x: number, y: number) => {
    const [r, g, b] = ctx.getImageData(x, y, 1, 1).data;
    return r! > 200 && g! < 80 && b! < 80;
  };
  const corners: [string, number, number][] = [
    ['top-left', 5, 5],
    ['top-right', image.width - 6, 5],
    ['bottom-left', 5, image.height - 6],
    ['bottom-right', image.width - 6, image.height - 6],
  ];
  return corners.filter(([, x, y]) => isRed(x, y)).map(([name]) => name).join(',');
}

/** The JPEG's segments up to the start of its scan data. */
function jpegHeaderEnd(jpeg: Buffer): number {
  let i = 2;
  for (;;) {
    const marker = jpeg[i + 1]!;
    const length = jpeg.readUInt16BE(i + 2);
    i += 2 + length;
    if (marker === 0xda) return i;
  }
}

function pngChunk(type: string, data: Buffer): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 0);
  head.write(type, 4, 'latin1');
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE((zlib as unknown as { crc32: (b: Uint8Array) => number }).crc32(Buffer.concat([head.subarray(4), data])) >>> 0);
  return Buffer.concat([head, data, crc]);
}
/** A PNG with its IHDR width/height replaced (checksum recomputed). */
function pngSized(png: Buffer, width: number, height: number): Buffer {
  const ihdr = Buffer.from(png.subarray(16, 29));
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  return Buffer.concat([png.subarray(0, 8), pngChunk('IHDR', ihdr), png.subarray(33)]);
}

describe('image header checks (lib/report-files.ts)', () => {
  const { jpeg, png } = marked();

  it('accept real JPEG and PNG files, with their size', () => {
    expect(checkJpeg(jpeg)).toEqual({ ok: true, width: 200, height: 100 });
    expect(checkPng(png)).toEqual({ ok: true, width: 200, height: 100 });
    expect(checkPng(REPORT_PNG)).toEqual({ ok: true, width: 1700, height: 2200 });
    expect(checkJpeg(withOrientation(jpeg, 6))).toEqual({ ok: true, width: 200, height: 100 });
    // Cut inside the compressed pixels: decoded as far as it goes (not a crash), so accepted.
    expect(checkPng(png.subarray(0, Math.floor(png.length * 0.8))).ok).toBe(true);
    expect(checkJpeg(jpeg.subarray(0, jpegHeaderEnd(jpeg) + 20)).ok).toBe(true);
  });

  it('refuse damaged JPEG headers', () => {
    const end = jpegHeaderEnd(jpeg);
    const reserved = Buffer.from(jpeg);
    reserved[jpeg.indexOf(Buffer.from([0xff, 0xc4])) + 1] = 0x41; // a DHT marker turned into a reserved one
    const twelveBit = Buffer.from(jpeg);
    twelveBit[jpeg.indexOf(Buffer.from([0xff, 0xc0])) + 4] = 12;
    const lossless = Buffer.from(jpeg);
    lossless[jpeg.indexOf(Buffer.from([0xff, 0xc0])) + 1] = 0xc3;
    const cases: [string, Buffer, RegExp][] = [
      ['SOI and EOI only', Buffer.from([0xff, 0xd8, 0xff, 0xd9]), /damaged/],
      ['cut in the headers', jpeg.subarray(0, Math.floor(end / 2)), /ends before its image data/],
      ['headers without data', jpeg.subarray(0, end), /ends before its image data/],
      ['garbage after SOI', Buffer.concat([Buffer.from([0xff, 0xd8, 0xff]), Buffer.alloc(100, 7)]), /unsupported or damaged segment/],
      ['reserved marker', reserved, /unsupported or damaged segment/],
      ['12-bit samples', twelveBit, /8-bit/],
      ['lossless coding', lossless, /lossless/],
    ];
    for (const [name, bytes, detail] of cases) {
      const check = checkJpeg(bytes);
      expect(check.ok, name).toBe(false);
      if (!check.ok) expect(check.detail, name).toMatch(detail);
    }
  });

  it('refuse damaged PNG headers, checksums and absurd sizes', () => {
    const badCrc = Buffer.from(png);
    badCrc[20] = badCrc[20]! ^ 0xff; // inside IHDR
    const unknownCritical = Buffer.concat([png.subarray(0, 33), pngChunk('ABCD', Buffer.alloc(4)), png.subarray(33)]);
    const cases: [string, Buffer, RegExp][] = [
      ['signature only', png.subarray(0, 8), /no image header/],
      ['IHDR only', png.subarray(0, 33), /no image data/],
      ['bad IHDR checksum', badCrc, /checksum/],
      ['zero width', pngSized(png, 0, 100), /no pixels/],
      ['60000 × 60000', pngSized(png, 60000, 60000), /too large/],
      ['unknown critical chunk', unknownCritical, /unknown critical chunk/],
    ];
    for (const [name, bytes, detail] of cases) {
      const check = checkPng(bytes);
      expect(check.ok, name).toBe(false);
      if (!check.ok) expect(check.detail, name).toMatch(detail);
    }
    expect(checkPng(pngSized(png, 12000, 10001)).ok).toBe(false); // just over MAX_IMAGE_PIXELS
    expect(12000 * 10001).toBeGreaterThan(MAX_IMAGE_PIXELS);
  });

  it('every damaged file they accept decodes without crashing the process (@napi-rs/canvas segfaults on the refused ones)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'labflow-decode-'));
    dirs.push(dir);
    const script = join(dir, 'decode.mjs');
    writeFileSync(
      script,
      `import { createRequire } from 'node:module';
import { readFileSync } from 'node:fs';
const { loadImage } = createRequire(${JSON.stringify(join(process.cwd(), 'package.json'))})('@napi-rs/canvas');
try { await loadImage(readFileSync(process.argv[2])); } catch {}
console.log('survived');\n`,
    );
    // Deterministic damage: cuts at many places, and single bytes changed in the headers.
    const candidates: Buffer[] = [];
    for (const base of [jpeg, png]) {
      for (let k = 1; k < 24; k++) candidates.push(base.subarray(0, Math.floor((base.length * k) / 24)));
      for (let at = 2; at < Math.min(base.length, 700); at += 23) {
        const b = Buffer.from(base);
        b[at] = (b[at]! + 97) & 0xff;
        candidates.push(b);
      }
    }
    const accepted = candidates.filter((b) => (b[0] === 0xff ? checkJpeg(b) : checkPng(b)).ok);
    expect(accepted.length).toBeGreaterThan(10);
    const run = promisify(execFile);
    const outcomes = await Promise.all(
      accepted.map(async (bytes, k) => {
        const file = join(dir, `case-${k}`);
        writeFileSync(file, bytes);
        try {
          return (await run(process.execPath, [script, file])).stdout.trim();
        } catch (err) {
          return `crashed: ${(err as Error).message.slice(0, 100)}`;
        }
      }),
    );
    expect(outcomes.filter((o) => o !== 'survived')).toEqual([]);
  }, 60_000);
});

describe('JPEG EXIF orientation', () => {
  it('loadPageImage (@napi-rs/canvas loadImage) turns photos upright by their EXIF Orientation tag', async () => {
    const { jpeg } = marked(200, 100);
    // Orientation n: how to transform the stored pixels for display (EXIF 2.3 §4.6.4.A).
    const expected: [number, number, number, string][] = [
      [1, 200, 100, 'top-left'],
      [2, 200, 100, 'top-right'], // mirrored
      [3, 200, 100, 'bottom-right'], // 180°
      [4, 200, 100, 'bottom-left'], // mirrored vertically
      [5, 100, 200, 'top-left'], // transposed
      [6, 100, 200, 'top-right'], // 90° clockwise
      [7, 100, 200, 'bottom-right'], // transversed
      [8, 100, 200, 'bottom-left'], // 90° counter-clockwise
    ];
    for (const [orientation, width, height, corner] of expected) {
      const image = await loadPageImage(withOrientation(jpeg, orientation), 'image/jpeg');
      if ('error' in image) throw new Error(image.error);
      expect([image.width, image.height, redCorner(image)], `orientation ${orientation}`).toEqual([width, height, corner]);
    }
  });

  it('a sideways phone photo of a report (pixels turned, EXIF Orientation 6) is read upright by OCR', async () => {
    // The report's pixels stored turned 90° counter-clockwise, as a camera held sideways writes them.
    const report = await loadImage(REPORT_PNG);
    const canvas = createCanvas(report.height, report.width);
    const ctx = canvas.getContext('2d');
    ctx.translate(0, report.width);
    ctx.rotate(-Math.PI / 2);
    ctx.drawImage(report, 0, 0);
    const sideways = withOrientation(canvas.toBuffer('image/jpeg', 90), 6);
    const result = await extractText(sideways, 'image/jpeg');
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    const text = result.pages[0]!.lines.map((l) => l.text).join('\n');
    expect(text).toMatch(/Glucose/);
    expect(text).toMatch(/Cholesterol/);
  }, 120_000);
});

describe('reports uploaded as several images', () => {
  it('each image is one page, numbered in upload order; a damaged one fails the extraction, naming it', async () => {
    const blank = createCanvas(400, 300);
    const ctx = blank.getContext('2d');
    ctx.fillStyle = '#fff';
    ctx.fillRect(0, 0, 400, 300);
    const blankPng = blank.toBuffer('image/png');
    const result = await extractFiles([
      { bytes: REPORT_PNG, mime: 'image/png' },
      { bytes: blankPng, mime: 'image/png' },
    ]);
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.pages.map((p) => [p.page, p.source])).toEqual([
      [1, 'ocr'],
      [2, 'ocr'],
    ]);
    expect(result.pages[0]!.lines.length).toBeGreaterThan(5);
    expect(result.summary).toMatchObject({ page_count: 2, ocr_pages: [1, 2] });

    const damaged = await extractFiles([
      { bytes: blankPng, mime: 'image/png' },
      { bytes: blankPng.subarray(0, 20), mime: 'image/png' },
    ]);
    expect(damaged).toMatchObject({ ok: false, reason: 'invalid_input', detail: expect.stringMatching(/^Image 2 could not be decoded/) });
    const withPdf = await extractFiles([
      { bytes: blankPng, mime: 'image/png' },
      { bytes: Buffer.from('%PDF-1.4'), mime: 'application/pdf' },
    ]);
    expect(withPdf).toMatchObject({ ok: false, reason: 'invalid_input' });
  }, 120_000);
});
