import { FONT, FONT_BOLD, renderPdf } from './document.js';
import { sampleBarcode } from './requisition-pdf.js';

export interface LabelContent {
  orderId: string;
  sampleId: string;
  patientName: string;
  dob: string;
  collectedAt: Date;
  labName: string;
}

// Specimen labels, 2 × 5 per US-letter page (2" × 4" cells with a gutter), as tube labels are printed.
const COLUMNS = 2;
const ROWS = 5;
const CELL_W = 270;
const CELL_H = 130;
const LEFT = 36;
const TOP = 54;

/** `count` identical specimen labels for one order: patient, DOB, collection time, sample id barcode. */
export async function renderLabelsPdf(label: LabelContent, count: number): Promise<Buffer> {
  const barcode = await sampleBarcode(label.sampleId);
  const collected = label.collectedAt.toISOString().replace('T', ' ').slice(0, 16) + ' UTC';
  return renderPdf({ title: `Specimen labels ${label.orderId}`, subject: `Specimen labels for sample ${label.sampleId}` }, (doc) => {
    for (let i = 0; i < count; i++) {
      const slot = i % (COLUMNS * ROWS);
      if (i > 0 && slot === 0) doc.addPage();
      const x = LEFT + (slot % COLUMNS) * (CELL_W + 12);
      const y = TOP + Math.floor(slot / COLUMNS) * (CELL_H + 10);
      doc.rect(x, y, CELL_W, CELL_H).lineWidth(0.5).strokeColor('#999999').stroke();
      doc.font(FONT_BOLD).fontSize(11).fillColor('black').text(label.patientName, x + 8, y + 8, { width: CELL_W - 16, lineBreak: false });
      doc.font(FONT).fontSize(9);
      doc.text(`DOB ${label.dob}`, x + 8, y + 24, { width: CELL_W - 16, lineBreak: false });
      doc.text(`Collected ${collected}`, x + 8, y + 36, { width: CELL_W - 16, lineBreak: false });
      doc.text(`${label.labName} · Label ${i + 1} of ${count}`, x + 8, y + 48, { width: CELL_W - 16, lineBreak: false });
      doc.image(barcode, x + 8, y + 64, { height: 56 });
    }
  });
}
