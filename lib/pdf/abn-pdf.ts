import { FONT, FONT_BOLD, contentWidth, heading, labelled, renderPdf } from './document.js';

export interface AbnContent {
  orderId: string;
  patientName: string;
  payorName: string;
  items: { name: string; price: string }[];
  reason: string;
}

/**
 * An Advance Beneficiary Notice of Noncoverage (after CMS-R-131): the tests Medicare may not pay for,
 * their estimated cost, and the patient's three options, with room to sign.
 */
export function renderAbnPdf(abn: AbnContent): Promise<Buffer> {
  return renderPdf({ title: `ABN ${abn.orderId}`, subject: 'Advance Beneficiary Notice of Noncoverage' }, (doc) => {
    const left = doc.page.margins.left;
    const width = contentWidth(doc);
    doc.font(FONT_BOLD).fontSize(16).text('Advance Beneficiary Notice of Noncoverage (ABN)', left, doc.page.margins.top, { width });
    doc.font(FONT).fontSize(10).moveDown(0.5);
    labelled(doc, 'Patient', abn.patientName);
    labelled(doc, 'Order', abn.orderId);
    labelled(doc, 'Insurance', abn.payorName);
    doc.moveDown(0.5);
    doc.font(FONT_BOLD).text('NOTE: If Medicare doesn\'t pay for the items below, you may have to pay.', left, doc.y, { width });
    doc.font(FONT).text(`Medicare does not pay for everything, even some care that you or your health care provider have good reason to think you need. ${abn.reason}`, { width });
    heading(doc, 'Items and estimated cost');
    for (const item of abn.items) labelled(doc, item.price, item.name, 90);
    heading(doc, 'Options (check only one box)');
    for (const option of [
      'OPTION 1. I want the tests listed above. You may ask to be paid now, but I also want Medicare billed for an official decision on payment. If Medicare does not pay, I am responsible for payment, but I can appeal to Medicare.',
      'OPTION 2. I want the tests listed above, but do not bill Medicare. You may ask to be paid now as I am responsible for payment. I cannot appeal if Medicare is not billed.',
      'OPTION 3. I don\'t want the tests listed above. I understand with this choice I am not responsible for payment, and I cannot appeal to see if Medicare would pay.',
    ]) {
      doc.rect(left, doc.y + 2, 8, 8).lineWidth(0.7).strokeColor('black').stroke();
      doc.text(option, left + 16, doc.y, { width: width - 16 });
      doc.moveDown(0.4);
    }
    heading(doc, 'Signature');
    doc.text('Signature: ______________________________        Date: ______________', left, doc.y + 10, { width });
  });
}
