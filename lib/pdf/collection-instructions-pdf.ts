import { FONT, contentWidth, heading, labelled, renderPdf } from './document.js';

export interface CollectionInstructionsContent {
  /** The order the instructions are for; null for a lab test's general instructions. */
  orderId: string | null;
  sampleId: string | null;
  method: string;
  labTestName: string;
  labName: string;
  sampleType: string;
  fasting: boolean;
}

/** What the patient does before and at collection, by collection method. */
export function collectionSteps(c: Pick<CollectionInstructionsContent, 'method' | 'fasting' | 'sampleType'>): string[] {
  const fasting = c.fasting
    ? ['Fast for 10–12 hours before collection: water only, no food, coffee, juice or chewing gum. Take your usual medicines unless your physician said otherwise.']
    : ['No fasting is needed for this test.'];
  const common = ['Drink water during the day before collection: it makes the draw easier.', ...fasting];
  switch (c.method) {
    case 'walk_in_test':
      return [...common, 'Bring a photo ID and this order\'s requisition (printed or on your phone) to the patient service centre.', 'Arrive 10 minutes before your appointment; without one, expect to wait.'];
    case 'at_home_phlebotomy':
      return [...common, 'Be at the address on the order at the appointment time, with a photo ID.', 'Wear a short-sleeved shirt or one whose sleeves roll up above the elbow.'];
    case 'on_site_collection':
      return [...common, 'Your clinic draws the sample: bring a photo ID and this order\'s requisition to the visit.'];
    default:
      return [
        ...fasting,
        `Register the kit before collecting (the sample id is printed on the tube).`,
        c.sampleType === 'dried_blood_spot'
          ? 'Wash your hands in warm water, lance the side of a fingertip, wipe away the first drop, and fill every circle on the card with one drop each. Let the card dry for 3 hours before packing it.'
          : 'Follow the picture guide in the kit to collect the sample, label it, and seal it in the specimen bag.',
        'Collect Monday to Thursday and send the kit back the same day with the prepaid return label.',
      ];
  }
}

export function renderCollectionInstructionsPdf(c: CollectionInstructionsContent): Promise<Buffer> {
  return renderPdf({ title: `Collection instructions ${c.orderId ?? c.labTestName}`, subject: `How to collect the sample for ${c.labTestName}` }, (doc) => {
    const left = doc.page.margins.left;
    doc.font(FONT).fontSize(16).text(`Collection instructions: ${c.labTestName}`, left, doc.page.margins.top, { width: contentWidth(doc) });
    doc.fontSize(10).moveDown(0.5);
    if (c.orderId) labelled(doc, 'Order', c.orderId);
    if (c.sampleId) labelled(doc, 'Sample id', c.sampleId);
    labelled(doc, 'Laboratory', c.labName);
    labelled(doc, 'Sample', c.sampleType.replaceAll('_', ' '));
    heading(doc, 'Before and at collection');
    collectionSteps(c).forEach((step, i) => labelled(doc, `${i + 1}.`, step, 20));
  });
}
