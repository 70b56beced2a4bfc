/**
 * The requisition form of an order: what the lab needs to accept the sample (who, which order and
 * sample, which tests, which physician, and any comment). Built here as plain content; lib/pdf
 * renders it. Pure: no I/O, no clock.
 */

/** `requisition_form_url` links last 7 days (the documented validity). */
export const REQUISITION_URL_TTL_SECONDS = 7 * 24 * 3600;

/** Path of an order's requisition behind a signed link (no API key; the signature is the credential). */
export const requisitionDocumentPath = (orderId: string) => `/documents/orders/${orderId}/requisition.pdf`;

/** An order has a requisition once it reached `requisition_created` (imported, bypassed orders have none). */
export function hasRequisition(eventStatuses: readonly string[]): boolean {
  return eventStatuses.some((s) => s.endsWith('.requisition_created'));
}

/** The divider printed between the order's comment and the lab account's default comment. */
export const COMMENT_SEPARATOR = '\n\n';

/**
 * The comment printed on the requisition: the order's own comment, then the lab account's default
 * comment, each on its own lines with a blank line between; either alone when only one exists.
 */
export function requisitionComment(orderComment: string | null | undefined, accountComment: string | null | undefined): string | null {
  const parts = [orderComment, accountComment].map((c) => c?.trim() ?? '').filter((c) => c !== '');
  return parts.length ? parts.join(COMMENT_SEPARATOR) : null;
}

export interface RequisitionInput {
  orderId: string;
  sampleId: string | null;
  createdAt: Date;
  method: string;
  priority: boolean;
  billingType: string;
  icdCodes: string[] | null;
  activateBy: string | null;
  clinicalNotes: string | null;
  patient: Record<string, unknown> | null;
  patientAddress: Record<string, unknown> | null;
  physician: Record<string, unknown> | null;
  labTest: { name: string; labName: string | null; markers: { name: string; providerId: string | null }[] };
  labAccount: { id: string; name: string; defaultComment: string | null } | null;
  /** Answers to the markers' ask-on-order-entry questions (domain/orders/aoe.ts `aoeRequisitionLines`). */
  aoeAnswers?: RequisitionLine[];
}

export interface RequisitionLine {
  label: string;
  value: string;
}

export interface RequisitionSection {
  heading: string;
  lines: RequisitionLine[];
}

export interface RequisitionContent {
  title: string;
  subtitle: string;
  /** Printed as a Code 128 barcode beside the order section; null when the order has no sample id yet. */
  barcode: string | null;
  sections: RequisitionSection[];
  /** The joined comment (see `requisitionComment`), or null. */
  comment: string | null;
}

const NONE = '—';
const text = (v: unknown): string => (typeof v === 'string' && v.trim() ? v.trim() : typeof v === 'number' ? String(v) : '');
const orNone = (v: string) => v || NONE;

function addressLine(address: Record<string, unknown> | null): string {
  if (!address) return '';
  const street = [text(address.first_line), text(address.second_line)].filter(Boolean).join(', ');
  const cityLine = [text(address.city), [text(address.state), text(address.zip)].filter(Boolean).join(' ')].filter(Boolean).join(', ');
  return [street, cityLine, text(address.country)].filter(Boolean).join(', ');
}

export function buildRequisition(input: RequisitionInput): RequisitionContent {
  const p = input.patient ?? {};
  const patientName = [text(p.first_name), text(p.last_name)].filter(Boolean).join(' ');
  const doctor = input.physician;
  const physicianName = doctor ? [text(doctor.first_name), text(doctor.last_name)].filter(Boolean).join(' ') : '';
  const lab = input.labTest.labName ?? '';

  const sections: RequisitionSection[] = [
    {
      heading: 'Patient',
      lines: [
        { label: 'Name', value: orNone(patientName) },
        { label: 'Date of birth', value: orNone(text(p.dob).slice(0, 10)) },
        { label: 'Sex', value: orNone(text(p.gender)) },
        { label: 'Phone', value: orNone(text(p.phone_number)) },
        { label: 'Email', value: orNone(text(p.email)) },
        { label: 'Address', value: orNone(addressLine(input.patientAddress)) },
      ],
    },
    {
      heading: 'Order',
      lines: [
        { label: 'Order ID', value: input.orderId },
        { label: 'Sample ID', value: orNone(input.sampleId ?? '') },
        { label: 'Ordered on', value: input.createdAt.toISOString().slice(0, 10) },
        { label: 'Collection', value: input.method },
        { label: 'Priority', value: input.priority ? 'STAT' : 'Routine' },
        { label: 'Billing', value: input.billingType },
        ...(input.icdCodes?.length ? [{ label: 'ICD-10 codes', value: input.icdCodes.join(', ') }] : []),
        ...(input.activateBy ? [{ label: 'Activate by', value: input.activateBy }] : []),
        ...(input.labAccount ? [{ label: 'Lab account', value: `${input.labAccount.name} (${input.labAccount.id})` }] : []),
      ],
    },
    {
      heading: 'Tests',
      lines: [
        { label: 'Lab test', value: input.labTest.name },
        ...input.labTest.markers.map((m) => ({ label: 'Marker', value: m.providerId ? `${m.name} (${m.providerId})` : m.name })),
      ],
    },
    ...(input.aoeAnswers?.length ? [{ heading: 'Order entry questions', lines: input.aoeAnswers }] : []),
    {
      heading: 'Ordering physician',
      lines: doctor
        ? [
            { label: 'Name', value: orNone(physicianName) },
            { label: 'NPI', value: orNone(text(doctor.npi)) },
          ]
        : [{ label: 'Name', value: NONE }],
    },
  ];

  return {
    title: 'Laboratory requisition',
    subtitle: lab ? `Performing laboratory: ${lab}` : 'Performing laboratory: not assigned',
    barcode: input.sampleId,
    sections,
    comment: requisitionComment(input.clinicalNotes, input.labAccount?.defaultComment),
  };
}
