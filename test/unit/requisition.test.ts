import { describe, expect, it } from 'vitest';
import {
  buildRequisition,
  hasRequisition,
  requisitionComment,
  requisitionDocumentPath,
  type RequisitionInput,
} from '../../domain/orders/requisition.js';
import { renderRequisitionPdf } from '../../lib/pdf/requisition-pdf.js';
import { pdfText } from '../support/pdf-text.js';

const input: RequisitionInput = {
  orderId: '5b6f0a52-1d0e-4a8e-9d7c-2f1f4b1d2c3e',
  sampleId: 'K7Q2M9X4P3ZT',
  createdAt: new Date('2026-11-20T15:30:00Z'),
  method: 'testkit',
  priority: false,
  billingType: 'client_bill',
  icdCodes: ['E11.9', 'Z00.00'],
  activateBy: null,
  clinicalNotes: 'Patient is fasting.',
  patient: { first_name: 'Jane', last_name: 'Doe', dob: '1990-05-17', gender: 'female', phone_number: '+14155552671', email: 'jane@example.com' },
  patientAddress: { first_line: '123 Main St', city: 'San Francisco', state: 'CA', zip: '94105', country: 'US' },
  physician: { first_name: 'Gregory', last_name: 'House', npi: '1234567893' },
  labTest: {
    name: 'Metabolic kit',
    labName: 'Fixture Lab',
    markers: [
      { name: 'Hemoglobin A1c', providerId: 'A1C-1' },
      { name: 'Total Cholesterol', providerId: null },
    ],
  },
  labAccount: { id: '0c8b2f0e-6a57-4f59-8f0b-3f4a8d2e9b11', name: 'Acme at Fixture Lab', defaultComment: 'Bill to account 1234567890.' },
};

const section = (content: ReturnType<typeof buildRequisition>, heading: string) =>
  Object.fromEntries(content.sections.find((s) => s.heading === heading)!.lines.map((l) => [l.label, l.value]));

describe('requisition comment', () => {
  it('joins the order comment and the lab account default, order first, with a blank line between', () => {
    expect(requisitionComment('Patient is fasting.', 'Bill to account 1234567890.')).toBe('Patient is fasting.\n\nBill to account 1234567890.');
  });

  it('uses either alone when only one exists; blank counts as none', () => {
    expect(requisitionComment('Patient is fasting.', null)).toBe('Patient is fasting.');
    expect(requisitionComment(undefined, 'Bill to account 1234567890.')).toBe('Bill to account 1234567890.');
    expect(requisitionComment('  ', '\n')).toBeNull();
    expect(requisitionComment(null, null)).toBeNull();
    expect(requisitionComment('  line one\nline two  ', ' default ')).toBe('line one\nline two\n\ndefault');
  });
});

describe('requisition content', () => {
  it('has patient, order and sample ids, tests with markers, physician and the joined comment', () => {
    const content = buildRequisition(input);
    expect(content.barcode).toBe('K7Q2M9X4P3ZT');
    expect(content.subtitle).toBe('Performing laboratory: Fixture Lab');
    expect(section(content, 'Patient')).toMatchObject({ Name: 'Jane Doe', 'Date of birth': '1990-05-17', Sex: 'female' });
    expect(section(content, 'Patient').Address).toBe('123 Main St, San Francisco, CA 94105, US');
    expect(section(content, 'Order')).toMatchObject({
      'Order ID': input.orderId,
      'Sample ID': 'K7Q2M9X4P3ZT',
      'Ordered on': '2026-11-20',
      'ICD-10 codes': 'E11.9, Z00.00',
      'Lab account': `Acme at Fixture Lab (${input.labAccount!.id})`,
    });
    const tests = content.sections.find((s) => s.heading === 'Tests')!.lines;
    expect(tests.map((l) => l.value)).toEqual(['Metabolic kit', 'Hemoglobin A1c (A1C-1)', 'Total Cholesterol']);
    expect(section(content, 'Ordering physician')).toEqual({ Name: 'Gregory House', NPI: '1234567893' });
    expect(content.comment).toBe('Patient is fasting.\n\nBill to account 1234567890.');
  });

  it('shows dashes for what is not known yet, and no barcode without a sample id', () => {
    const content = buildRequisition({ ...input, sampleId: null, patient: null, patientAddress: null, physician: null, labAccount: null, clinicalNotes: null, icdCodes: null });
    expect(content.barcode).toBeNull();
    expect(section(content, 'Patient').Name).toBe('—');
    expect(section(content, 'Order')['Sample ID']).toBe('—');
    expect(section(content, 'Order')).not.toHaveProperty('Lab account');
    expect(section(content, 'Ordering physician')).toEqual({ Name: '—' });
    expect(content.comment).toBeNull();
  });

  it('exists from requisition_created on; its link path names the order', () => {
    expect(hasRequisition(['received.testkit.ordered', 'received.testkit.awaiting_registration'])).toBe(false);
    expect(hasRequisition(['received.testkit.ordered', 'received.testkit.requisition_created', 'cancelled.testkit.cancelled'])).toBe(true);
    expect(requisitionDocumentPath(input.orderId)).toBe(`/documents/orders/${input.orderId}/requisition.pdf`);
  });
});

describe('requisition PDF', () => {
  it('renders a PDF that an independent parser reads back, with a barcode image', async () => {
    const bytes = await renderRequisitionPdf(buildRequisition(input), input.orderId);
    expect(bytes.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    expect(bytes.toString('latin1')).toMatch(/\/Subtype \/Image/);
    const { text, pages } = await pdfText(bytes);
    expect(pages).toBe(1);
    for (const s of ['Jane Doe', '1990-05-17', input.orderId, 'K7Q2M9X4P3ZT', 'Hemoglobin A1c (A1C-1)', 'Total Cholesterol', 'Gregory House', '1234567893']) {
      expect(text).toContain(s);
    }
    expect(text.indexOf('Patient is fasting.')).toBeLessThan(text.indexOf('Bill to account 1234567890.'));
  });

  it('flows a long order onto further pages', async () => {
    const markers = Array.from({ length: 80 }, (_, i) => ({ name: `Marker number ${i + 1}`, providerId: `M-${i + 1}` }));
    const bytes = await renderRequisitionPdf(buildRequisition({ ...input, labTest: { ...input.labTest, markers } }), input.orderId);
    const { text, pages } = await pdfText(bytes);
    expect(pages).toBeGreaterThan(1);
    expect(text).toContain('Marker number 80 (M-80)');
    expect(text).toContain('Bill to account 1234567890.');
  });
});
