import { eq } from 'drizzle-orm';
import { aoeRequisitionLines } from '../../domain/orders/aoe.js';
import { hasRequisition, type RequisitionInput } from '../../domain/orders/requisition.js';
import type { DbOrTx } from '../client.js';
import { orders } from '../schema/index.js';
import { findPayor } from './insurance.js';
import { findLabAccount } from './lab-accounts.js';
import { loadLabTestViews } from './lab-test-view.js';
import { listOrderEvents, type OrderRow } from './orders.js';

/**
 * An order by id alone, for signed document links only: there the signature (over the order's
 * path) is the credential, so no team is known. Every other read is scoped by team.
 */
export async function findOrderForSignedLink(db: DbOrTx, orderId: string): Promise<OrderRow | null> {
  const [row] = await db.select().from(orders).where(eq(orders.id, orderId)).limit(1);
  return row ?? null;
}

/** What the order's requisition prints, or null when the order has no requisition (yet). */
export async function loadRequisitionInput(db: DbOrTx, order: OrderRow): Promise<RequisitionInput | null> {
  const [events, tests, account] = await Promise.all([
    listOrderEvents(db, [order.id]),
    loadLabTestViews(db, order.teamId, [order.labTestId]),
    order.labAccountId ? findLabAccount(db, order.teamId, order.labAccountId) : Promise.resolve(null),
  ]);
  if (!hasRequisition((events.get(order.id) ?? []).map((e) => e.status))) return null;
  const test = tests.get(order.labTestId);
  return {
    orderId: order.id,
    sampleId: order.sampleId,
    createdAt: order.createdAt,
    method: order.method,
    priority: order.priority,
    billingType: order.billingType,
    icdCodes: order.icdCodes,
    activateBy: order.activateBy,
    clinicalNotes: order.clinicalNotes,
    patient: order.patientDetails ?? null,
    patientAddress: order.patientAddress ?? null,
    physician: order.physician ?? null,
    labTest: {
      name: test?.name ?? 'Unknown lab test',
      labName: test?.lab?.name ?? null,
      markers: (test?.markers ?? []).map((m) => ({ name: m.name, providerId: m.provider_id })),
    },
    labAccount: account ? { id: account.id, name: account.name, defaultComment: account.defaultComment } : null,
    aoeAnswers: aoeRequisitionLines(test?.markers ?? [], order.aoeAnswers),
  };
}

/** What an order's labels, ABN and collection instructions print: the order, its lab test and payor. */
export async function loadOrderPaperwork(db: DbOrTx, order: OrderRow) {
  const tests = await loadLabTestViews(db, order.teamId, [order.labTestId]);
  const test = tests.get(order.labTestId);
  const p = (order.patientDetails ?? {}) as Record<string, unknown>;
  const str = (v: unknown) => (typeof v === 'string' && v.trim() !== '' ? v : null);
  const payorCode = str((order.healthInsurance ?? {}).payor_code);
  return {
    patientName: [str(p.first_name), str(p.last_name)].filter(Boolean).join(' ') || 'Patient not yet registered',
    dob: str(p.dob) ?? '—',
    payorCode,
    payor: payorCode ? await findPayor(db, order.teamId, payorCode) : null,
    test: {
      name: test?.name ?? 'Unknown lab test',
      labName: test?.lab?.name ?? '—',
      sampleType: test?.sample_type ?? 'serum',
      fasting: test?.fasting ?? false,
      price: test?.price ?? 0,
      markers: (test?.markers ?? []).map((m) => m.name),
    },
  };
}
