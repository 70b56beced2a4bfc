import bwipjs from 'bwip-js';
import type { RequisitionContent } from '../../domain/orders/requisition.js';
import { FONT, FONT_BOLD, contentWidth, heading, labelled, renderPdf } from './document.js';

const BARCODE_WIDTH = 190;

/** The sample id as a Code 128 barcode (PNG, with the id printed under the bars), as labs scan it. */
export function sampleBarcode(sampleId: string): Promise<Buffer> {
  return bwipjs.toBuffer({ bcid: 'code128', text: sampleId, scale: 3, height: 12, includetext: true, textxalign: 'center' });
}

/** Renders a requisition (domain/orders/requisition.ts) as a PDF. */
export async function renderRequisitionPdf(content: RequisitionContent, orderId: string): Promise<Buffer> {
  const barcode = content.barcode ? await sampleBarcode(content.barcode) : null;
  return renderPdf({ title: `Requisition ${orderId}`, subject: content.title }, (doc) => {
    const left = doc.page.margins.left;
    const top = doc.page.margins.top;
    const textWidth = contentWidth(doc) - (barcode ? BARCODE_WIDTH + 20 : 0);
    doc.font(FONT_BOLD).fontSize(18).text(content.title, left, top, { width: textWidth });
    doc.font(FONT).fontSize(10).fillColor('#333333').text(content.subtitle, { width: textWidth }).fillColor('black');
    if (barcode) {
      doc.image(barcode, left + contentWidth(doc) - BARCODE_WIDTH, top, { width: BARCODE_WIDTH });
      doc.y = Math.max(doc.y, top + 70);
    }
    for (const section of content.sections) {
      heading(doc, section.heading);
      for (const line of section.lines) labelled(doc, line.label, line.value);
    }
    heading(doc, 'Comment');
    doc.font(FONT).fontSize(10).text(content.comment ?? '—', doc.page.margins.left, doc.y, { width: contentWidth(doc) });
  });
}
