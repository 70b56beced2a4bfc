import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { loadPdfjs } from '../../lib/pdfjs.js';

const standardFontDataUrl = join(dirname(createRequire(import.meta.url).resolve('pdfjs-dist/package.json')), 'standard_fonts') + '/';

/**
 * The text of a PDF as PDF.js reads it (an independent parser, not the library that wrote it): one
 * entry per text run, pages in order. Throws when the bytes are not a well-formed PDF.
 */
export async function pdfText(bytes: Uint8Array): Promise<{ pages: number; lines: string[]; text: string }> {
  const { getDocument } = await loadPdfjs();
  const pdf = await getDocument({ data: new Uint8Array(bytes), standardFontDataUrl, verbosity: 0 }).promise;
  const lines: string[] = [];
  for (let n = 1; n <= pdf.numPages; n++) {
    const content = await (await pdf.getPage(n)).getTextContent();
    for (const item of content.items) if ('str' in item && item.str.trim()) lines.push(item.str);
  }
  await pdf.destroy();
  return { pages: pdf.numPages, lines, text: lines.join('\n') };
}
