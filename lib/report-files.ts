import * as zlib from 'node:zlib';

/**
 * Structure checks of uploaded JPEG and PNG files, by reading their headers (no pixels are decoded).
 *
 * Why: @napi-rs/canvas (0.1.100) crashes the whole process (SIGSEGV) when asked to decode an image
 * whose headers it cannot read — a truncated JPEG, a PNG with a bad IHDR or chunk CRC, absurd sizes.
 * So nothing is handed to `loadImage` before these checks pass: the API refuses such uploads (400),
 * and extraction checks again before decoding. Data cut short *inside* the compressed pixels is
 * decoded as far as it goes (the rest stays blank), which is not a crash, so it is accepted.
 */

/** PDFs of more pages are refused (at upload, and by extraction). */
export const MAX_PDF_PAGES = 30;

/** Images larger than this are refused (a 108 MP phone photo is 12,000 × 9,000). */
export const MAX_IMAGE_PIXELS = 120_000_000;
export const MAX_IMAGE_SIDE = 20_000;

export type ImageCheck = { ok: true; width: number; height: number } | { ok: false; detail: string };

const bad = (detail: string): ImageCheck => ({ ok: false, detail });

function sized(width: number, height: number): ImageCheck {
  if (width <= 0 || height <= 0) return bad('it has no pixels');
  if (width > MAX_IMAGE_SIDE || height > MAX_IMAGE_SIDE || width * height > MAX_IMAGE_PIXELS) {
    return bad(`it is too large (${width} × ${height} pixels; at most ${MAX_IMAGE_PIXELS / 1e6} megapixels)`);
  }
  return { ok: true, width, height };
}

const u16 = (b: Uint8Array, i: number) => (b[i]! << 8) | b[i + 1]!;
const u32 = (b: Uint8Array, i: number) => ((b[i]! << 24) >>> 0) + (b[i + 1]! << 16) + (b[i + 2]! << 8) + b[i + 3]!;

/**
 * A JPEG's segments up to its first scan: well-formed and complete, a baseline/extended/progressive
 * 8-bit frame of 1, 3 or 4 components whose quantisation tables are defined, then the scan's header
 * and some compressed data.
 */
export function checkJpeg(b: Uint8Array): ImageCheck {
  if (b.length < 4 || b[0] !== 0xff || b[1] !== 0xd8) return bad('it does not start like a JPEG');
  let i = 2;
  let frame: { width: number; height: number; components: Map<number, number> } | null = null;
  const quantTables = new Set<number>();
  for (;;) {
    if (i >= b.length) return bad('it ends before its image data');
    if (b[i] !== 0xff) return bad(`its segments are damaged (byte ${i})`);
    while (i < b.length && b[i] === 0xff) i++; // fill bytes
    if (i >= b.length) return bad('it ends before its image data');
    const marker = b[i++]!;
    if (marker === 0x01 || (marker >= 0xd0 && marker <= 0xd7)) continue; // stand-alone markers
    if (marker === 0xd8 || marker === 0xd9 || marker === 0x00) return bad(`its segments are damaged (byte ${i - 1})`);
    // Any other marker (reserved ones, DAC, DHP, EXP, JPG extensions) stops the decoder with an error.
    const known = (marker >= 0xe0 && marker <= 0xef) || marker === 0xfe || marker === 0xdb || marker === 0xc4 || marker === 0xdd || marker === 0xda;
    if (!known && !(marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc)) {
      return bad(`it has an unsupported or damaged segment (marker 0x${marker.toString(16)})`);
    }
    if (i + 2 > b.length) return bad('it ends before its image data');
    const length = u16(b, i);
    if (length < 2 || i + length > b.length) return bad('it ends before its image data');
    const seg = b.subarray(i + 2, i + length);
    if (marker === 0xdd && length !== 4) return bad('its restart interval is damaged');
    if (marker === 0xdb) {
      // DQT: tables of 64 8-bit or 16-bit entries
      let j = 0;
      while (j < seg.length) {
        const precision = seg[j]! >> 4;
        const id = seg[j]! & 15;
        if (precision > 1 || id > 3) return bad('its quantisation tables are damaged');
        j += 1 + 64 * (precision + 1);
        quantTables.add(id);
      }
      if (j !== seg.length) return bad('its quantisation tables are damaged');
    } else if (marker === 0xc4) {
      // DHT: 16 code counts, then that many symbols
      let j = 0;
      while (j < seg.length) {
        if (seg[j]! >> 4 > 1 || (seg[j]! & 15) > 3 || j + 17 > seg.length) return bad('its Huffman tables are damaged');
        let symbols = 0;
        for (let k = 1; k <= 16; k++) symbols += seg[j + k]!;
        if (symbols > 256) return bad('its Huffman tables are damaged');
        j += 17 + symbols;
      }
      if (j !== seg.length) return bad('its Huffman tables are damaged');
    } else if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) {
      if (frame) return bad('it has more than one frame');
      if (marker > 0xc2) return bad('it uses a JPEG coding (lossless, hierarchical or arithmetic) that cannot be read');
      if (seg.length < 6) return bad('its frame header is damaged');
      if (seg[0] !== 8) return bad(`it has ${seg[0]}-bit samples (only 8-bit JPEGs can be read)`);
      const count = seg[5]!;
      if (![1, 3, 4].includes(count) || seg.length !== 6 + 3 * count) return bad('its frame header is damaged');
      const components = new Map<number, number>();
      for (let k = 0; k < count; k++) {
        const at = 6 + 3 * k;
        const h = seg[at + 1]! >> 4;
        const v = seg[at + 1]! & 15;
        if (h < 1 || h > 4 || v < 1 || v > 4 || seg[at + 2]! > 3) return bad('its frame header is damaged');
        components.set(seg[at]!, seg[at + 2]!);
      }
      frame = { height: u16(seg, 1), width: u16(seg, 3), components };
    } else if (marker === 0xda) {
      if (!frame) return bad('its image data comes before its frame header');
      const count = seg[0] ?? 0;
      if (count < 1 || count > 4 || seg.length !== 4 + 2 * count) return bad('its scan header is damaged');
      for (let k = 0; k < count; k++) {
        const table = frame.components.get(seg[1 + 2 * k]!);
        if (table === undefined || (seg[2 + 2 * k]! & 0xcc) !== 0) return bad('its scan header is damaged');
      }
      for (const table of frame.components.values()) if (!quantTables.has(table)) return bad('a quantisation table it uses is missing');
      if (i + length >= b.length) return bad('it ends before its image data');
      return sized(frame.width, frame.height);
    }
    i += length;
  }
}

const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
const PNG_DEPTHS: Record<number, number[]> = { 0: [1, 2, 4, 8, 16], 2: [8, 16], 3: [1, 2, 4, 8], 4: [8, 16], 6: [8, 16] };
const crc32 = (zlib as unknown as { crc32: (data: Uint8Array) => number }).crc32;

/**
 * A PNG's chunks: a valid IHDR first, only known critical chunks (with correct checksums), a palette
 * when the image needs one, and image data. The last chunk may be cut short (the file was truncated).
 */
export function checkPng(b: Uint8Array): ImageCheck {
  if (b.length < 8 || !PNG_SIGNATURE.every((v, k) => b[k] === v)) return bad('it does not start like a PNG');
  let i = 8;
  let header: { width: number; height: number; colorType: number } | null = null;
  let palette = false;
  let data = false;
  for (;;) {
    if (i + 8 > b.length) break;
    const length = u32(b, i);
    const type = String.fromCharCode(b[i + 4]!, b[i + 5]!, b[i + 6]!, b[i + 7]!);
    if (!/^[A-Za-z]{4}$/.test(type)) return bad(`its chunks are damaged (byte ${i})`);
    const critical = type.charCodeAt(0) < 0x61;
    const end = i + 12 + length;
    if (!header && type !== 'IHDR') return bad('it has no image header');
    if (critical && !['IHDR', 'PLTE', 'IDAT', 'IEND'].includes(type)) return bad(`it has an unknown critical chunk (${type})`);
    if (end > b.length) {
      if (type === 'IDAT') {
        if (header!.colorType === 3 && !palette) return bad('its palette is missing');
        data = true;
        break; // cut short inside its image data
      }
      return bad(`it ends inside its ${type} chunk`);
    }
    if (critical && (crc32(b.subarray(i + 4, i + 8 + length)) >>> 0) !== u32(b, i + 8 + length)) return bad(`its ${type} chunk is damaged (checksum)`);
    const body = b.subarray(i + 8, i + 8 + length);
    if (type === 'IHDR') {
      if (header || length !== 13) return bad('its image header is damaged');
      const [depth, colorType, compression, filter, interlace] = [body[8]!, body[9]!, body[10]!, body[11]!, body[12]!];
      if (!PNG_DEPTHS[colorType]?.includes(depth) || compression !== 0 || filter !== 0 || interlace > 1) return bad('its image header is damaged');
      header = { width: u32(body, 0), height: u32(body, 4), colorType };
    } else if (type === 'PLTE') {
      if (length === 0 || length % 3 !== 0 || length > 768) return bad('its palette is damaged');
      palette = true;
    } else if (type === 'IDAT') {
      if (header!.colorType === 3 && !palette) return bad('its palette is missing');
      data = true;
    } else if (type === 'IEND') {
      break;
    }
    i = end;
  }
  if (!header) return bad('it has no image header');
  if (!data) return bad('it has no image data');
  return sized(header.width, header.height);
}

/** The check for an upload's sniffed type. */
export function checkImage(bytes: Uint8Array, mime: 'image/jpeg' | 'image/png'): ImageCheck {
  return mime === 'image/jpeg' ? checkJpeg(bytes) : checkPng(bytes);
}
