/**
 * Draws the sample lab report (test/fixtures/lab-reports/report.ts) as a PNG, like a screenshot or a
 * clean scan at 200 dpi, into test/fixtures/lab-reports/report.png. Run once when the sample changes:
 *   npx tsx scripts/lab-report-fixtures.ts
 */
import { writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { GlobalFonts, createCanvas } from '@napi-rs/canvas';
import { COLUMN_X, SAMPLE_REPORT } from '../test/fixtures/lab-reports/report.js';

const require = createRequire(import.meta.url);
// A font that ships in an npm package, so the image is the same on every machine.
const fonts = join(dirname(require.resolve('pdfjs-dist/package.json')), 'standard_fonts');
GlobalFonts.registerFromPath(join(fonts, 'LiberationSans-Regular.ttf'), 'Report Sans');
GlobalFonts.registerFromPath(join(fonts, 'LiberationSans-Bold.ttf'), 'Report Sans Bold');

const W = 1700;
const H = 2200;
const canvas = createCanvas(W, H);
const ctx = canvas.getContext('2d');
ctx.fillStyle = '#ffffff';
ctx.fillRect(0, 0, W, H);
ctx.fillStyle = '#111111';
ctx.textBaseline = 'alphabetic';

const left = 140;
const width = W - 2 * left;
const font = (px: number, bold = false) => (ctx.font = `${px}px "${bold ? 'Report Sans Bold' : 'Report Sans'}"`);

font(48, true);
ctx.fillText(SAMPLE_REPORT.lab, left, 170);
let y = 260;
font(30);
for (const [a, b] of SAMPLE_REPORT.header) {
  ctx.fillText(a, left, y);
  ctx.fillText(b, left + width / 2, y);
  y += 46;
}
y += 40;
font(30, true);
SAMPLE_REPORT.columns.forEach((c, i) => ctx.fillText(c, left + COLUMN_X[i]! * width, y));
ctx.fillRect(left, y + 14, width, 2);
y += 66;
for (const section of SAMPLE_REPORT.sections) {
  font(30, true);
  ctx.fillText(section.panel.toUpperCase(), left, y);
  y += 50;
  font(30);
  for (const row of section.rows) {
    row.forEach((cell, i) => {
      if (cell) ctx.fillText(cell, left + COLUMN_X[i]! * width, y);
    });
    y += 48;
  }
  y += 24;
}

const out = join(dirname(fileURLToPath(import.meta.url)), '..', 'test', 'fixtures', 'lab-reports', 'report.png');
writeFileSync(out, canvas.toBuffer('image/png'));
process.stdout.write(`wrote ${out}\n`);
