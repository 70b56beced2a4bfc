import { createCanvas } from '@napi-rs/canvas';
import { beforeAll, describe, expect, it } from 'vitest';
import { OCR_LANGUAGES, toPnm } from '../../activities/lab-reports/ocr.js';
import { nativeReadNumbers, nativeTesseractAvailable, parseHocr } from '../../activities/lab-reports/tesseract-native.js';
import { ensureTesseract } from '../support/tesseract.js';

// As tesseract 5 writes it with hocr_char_boxes=1 (line titles in double quotes, words' in single).
const HOCR = `<div class='ocr_page' id='page_1' title='image "stdin"; bbox 0 0 3600 2700; ppageno 0'>
   <div class='ocr_carea' id='block_1_1' title="bbox 10 10 2000 300">
    <p class='ocr_par' id='par_1_1' lang='eng' title="bbox 10 10 2000 300">
     <span class='ocr_line' id='line_1_1' title="bbox 242 718 1903 786; baseline 0.026 -22; x_size 55.7; x_descenders 10; x_ascenders 12">
      <span class='ocrx_word' id='word_1_1' title='bbox 242 741 500 770; x_wconf 92'>
       <span class='ocrx_cinfo' title='x_bboxes 242 741 270 770; x_conf 99.5'>N</span>
       <span class='ocrx_cinfo' title='x_bboxes 272 745 300 770; x_conf 99.1'>a</span>
      </span>
      <span class='ocrx_word' id='word_1_2' title='bbox 1016 750 1100 778; x_wconf 61' lang='fra'>
       <span class='ocrx_cinfo' title='x_bboxes 1016 750 1032 778; x_conf 98.9'>3</span>
       <span class='ocrx_cinfo' title='x_bboxes 1038 750 1055 778; x_conf 99.5'>3</span>
       <span class='ocrx_cinfo' title='x_bboxes 1080 750 1100 778; x_conf 97.0'>L</span>
      </span>
      <span class='ocrx_word' id='word_1_3' title='bbox 1200 750 1260 778; x_wconf 80'>
       <span class='ocrx_cinfo' title='x_bboxes 1200 750 1220 778; x_conf 98.0'>&lt;</span>
       <span class='ocrx_cinfo' title='x_bboxes 1222 750 1260 778; x_conf 98.0'>&amp;</span>
      </span>
     </span>
     <span class='ocr_header' id='line_1_2' title="bbox 100 900 400 940; baseline 0 -5; x_size 40">
      <span class='ocrx_word' id='word_1_4' title='bbox 100 900 400 935; x_wconf 95'>
       <span class='ocrx_cinfo' title='x_bboxes 100 900 400 935; x_conf 99'>Hb</span>
      </span>
     </span>
    </p>
   </div>
  </div>`;

describe('native tesseract hOCR', () => {
  it('gives lines of words with boxes, confidences, letter boxes and a baseline from the line box', () => {
    const lines = parseHocr(HOCR);
    expect(lines).toHaveLength(2);
    const [first, second] = lines;
    expect(first!.bbox).toEqual({ x0: 242, y0: 718, x1: 1903, y1: 786 });
    // baseline p1 p0 from the bottom-left corner: 786 - 22 at the left end, rising by 0.026 a pixel.
    expect(first!.baseline).toEqual({ x0: 242, y0: 764, x1: 1903, y1: Math.round(764 + 0.026 * (1903 - 242)) });
    expect(first!.words.map((w) => [w.text, w.confidence])).toEqual([
      ['Na', 92],
      ['33L', 61],
      ['<&', 80],
    ]);
    expect(first!.words[1]!.bbox).toEqual({ x0: 1016, y0: 750, x1: 1100, y1: 778 });
    expect(first!.words[1]!.symbols.map((s) => s.text)).toEqual(['3', '3', 'L']);
    expect(first!.words[1]!.symbols[2]!.bbox).toEqual({ x0: 1080, y0: 750, x1: 1100, y1: 778 });
    // Other line classes tesseract uses (ocr_header, ocr_caption, ocr_textfloat) are lines too.
    expect(second!.words.map((w) => w.text)).toEqual(['Hb']);
  });

  it('reads nothing from a page without words', () => {
    expect(parseHocr("<div class='ocr_page' id='page_1' title='bbox 0 0 10 10'></div>")).toEqual([]);
  });
});


/** A crop as recognize() makes them: digits drawn 64 pixels tall on a white border. */
function crop(text: string) {
  const c = createCanvas(320, 112);
  const ctx = c.getContext('2d');
  ctx.fillStyle = '#ffffff';
  ctx.fillRect(0, 0, c.width, c.height);
  ctx.fillStyle = '#000000';
  ctx.font = '64px sans-serif';
  ctx.fillText(text, 24, 88);
  return toPnm(c);
}

describe('native tesseract re-reads of numbers', () => {
  // native is opt-in; its tests still run everywhere (Debian's tesseract-ocr is installed when missing)
  beforeAll(() => {
    ensureTesseract();
    expect(nativeTesseractAvailable()).toBe(true);
  }, 1_500_000);

  it('reads a batch of crops in one process, each with its own text and confidence, in order', async () => {
    const read = await nativeReadNumbers([crop('49,5'), crop(''), crop('135-145'), crop('12.9')], OCR_LANGUAGES, 120_000);
    expect(read.map((r) => r.text)).toEqual(['49,5', '', '135-145', '12.9']);
    expect(read[1]!.confidence).toBe(0);
    expect(Math.min(read[0]!.confidence, read[2]!.confidence, read[3]!.confidence)).toBeGreaterThan(60);
  }, 120_000);
});
