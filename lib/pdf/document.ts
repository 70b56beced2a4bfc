import PDFDocument from 'pdfkit';

export type Pdf = PDFKit.PDFDocument;

export const PAGE_MARGIN = 50;
export const FONT = 'Helvetica';
export const FONT_BOLD = 'Helvetica-Bold';

/**
 * Builds a US-letter PDF with pdfkit's standard fonts (built into the library: no font files, no
 * network) and collects it into a Buffer.
 */
export function renderPdf(info: { title: string; subject: string }, draw: (doc: Pdf) => void): Promise<Buffer> {
  const doc = new PDFDocument({
    size: 'LETTER',
    margin: PAGE_MARGIN,
    info: { Title: info.title, Subject: info.subject, Producer: 'labflow', Creator: 'labflow' },
  });
  const chunks: Buffer[] = [];
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on('data', (chunk: Buffer) => chunks.push(chunk));
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });
  try {
    draw(doc);
  } finally {
    doc.end();
  }
  return done;
}

/** Width of the writable area of a page. */
export const contentWidth = (doc: Pdf) => doc.page.width - doc.page.margins.left - doc.page.margins.right;

/** A bold section heading with a rule under it. */
export function heading(doc: Pdf, text: string): void {
  doc.moveDown(0.8);
  if (doc.y > doc.page.height - doc.page.margins.bottom - 60) doc.addPage();
  const x = doc.page.margins.left;
  doc.font(FONT_BOLD).fontSize(12).fillColor('black').text(text, x, doc.y);
  const y = doc.y + 2;
  doc.moveTo(x, y).lineTo(x + contentWidth(doc), y).lineWidth(0.5).strokeColor('#888888').stroke();
  doc.y = y + 6;
}

/** `label   value` on one row; the value wraps within its column. */
export function labelled(doc: Pdf, label: string, value: string, labelWidth = 110): void {
  const x = doc.page.margins.left;
  const valueWidth = contentWidth(doc) - labelWidth - 10;
  doc.font(FONT).fontSize(10);
  const height = Math.max(doc.heightOfString(label, { width: labelWidth }), doc.heightOfString(value, { width: valueWidth }));
  if (doc.y + height > doc.page.height - doc.page.margins.bottom) doc.addPage();
  const y = doc.y;
  doc.font(FONT_BOLD).text(label, x, y, { width: labelWidth });
  doc.font(FONT).text(value, x + labelWidth + 10, y, { width: valueWidth });
  doc.x = x;
  doc.y = y + height + 3;
}
