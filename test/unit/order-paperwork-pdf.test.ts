import { describe, expect, it } from 'vitest';
import { orderHasAbn } from '../../domain/insurance/abn.js';
import { collectionSteps } from '../../lib/pdf/collection-instructions-pdf.js';
import { renderLabelsPdf } from '../../lib/pdf/labels-pdf.js';
import { pdfText } from '../support/pdf-text.js';

describe('specimen labels', () => {
  it('ten to a page, each numbered', async () => {
    const bytes = await renderLabelsPdf(
      { orderId: 'o-1', sampleId: 'SMP12345678', patientName: 'Jane Doe', dob: '1990-05-17', collectedAt: new Date('2026-11-20T09:30:00Z'), labName: 'Meridian' },
      12,
    );
    const { pages, text } = await pdfText(bytes);
    expect(pages).toBe(2);
    expect(text).toContain('Label 12 of 12');
    expect(text).toContain('DOB 1990-05-17');
  });
});

describe('collection instructions and ABN', () => {
  it('steps follow the collection method and fasting', () => {
    expect(collectionSteps({ method: 'walk_in_test', fasting: true, sampleType: 'serum' }).join(' ')).toMatch(/Fast for 10–12 hours.*patient service centre/);
    expect(collectionSteps({ method: 'at_home_phlebotomy', fasting: false, sampleType: 'serum' }).join(' ')).toMatch(/No fasting.*short-sleeved/);
    expect(collectionSteps({ method: 'testkit', fasting: false, sampleType: 'dried_blood_spot' }).join(' ')).toMatch(/fill every circle/);
  });
  it('only insurance-billed orders with a Medicare payor have an ABN', () => {
    expect(orderHasAbn({ billingType: 'commercial_insurance', payorCode: 'MEDICARECA' })).toBe(true);
    expect(orderHasAbn({ billingType: 'commercial_insurance', payorCode: 'AETNA' })).toBe(false);
    expect(orderHasAbn({ billingType: 'client_bill', payorCode: 'MEDICARECA' })).toBe(false);
    expect(orderHasAbn({ billingType: 'commercial_insurance', payorCode: null })).toBe(false);
  });
});
