import { countryName } from '../../domain/orders/address.js';
import type { DbOrTx } from '../client.js';
import type { OrderEventRow, OrderRow } from './orders.js';
import { findOrder, listOrderEvents } from './orders.js';

/** Serialised lab tests by id (the catalogue's ClientFacingLabTest), loaded in bulk. */
export type LabTestLoader = (db: DbOrTx, teamId: string, labTestIds: string[]) => Promise<Map<string, Record<string, unknown>>>;

function withCountryName(address: Record<string, unknown> | null): Record<string, unknown> | null {
  if (!address) return null;
  const code = typeof address.country === 'string' ? address.country : '';
  return { ...address, country: countryName(code) ?? code };
}

function event(e: OrderEventRow) {
  return { id: e.id, created_at: e.createdAt.toISOString(), status: e.status, status_detail: e.statusDetail };
}

/** ClientFacingOrder (CONTRACT §4): the one shape used by GET, list, create responses and webhook payloads. */
export function toClientFacingOrder(order: OrderRow, events: OrderEventRow[], labTest: Record<string, unknown>) {
  const evs = events.map(event);
  const physician = order.physician
    ? { first_name: order.physician.first_name, last_name: order.physician.last_name, npi: order.physician.npi }
    : null;
  return {
    id: order.id,
    team_id: order.teamId,
    user_id: order.userId,
    patient_details: order.patientDetails ?? null,
    patient_address: withCountryName(order.patientAddress ?? null),
    shipping_details: withCountryName(order.shippingDetails ?? null),
    lab_test: labTest,
    details: {
      type: order.method,
      data: {
        id: order.detailsId,
        shipment: order.shipment ?? null,
        created_at: order.createdAt.toISOString(),
        updated_at: order.updatedAt.toISOString(),
      },
    },
    sample_id: order.sampleId,
    notes: order.notes,
    created_at: order.createdAt.toISOString(),
    updated_at: order.updatedAt.toISOString(),
    events: evs,
    last_event: evs.at(-1) ?? null,
    status: order.status,
    physician,
    health_insurance_id: null,
    requisition_form_url: null,
    priority: order.priority,
    activate_by: order.activateBy,
    passthrough: order.passthrough,
    billing_type: order.billingType,
    icd_codes: order.icdCodes,
    has_abn: false,
    interpretation: order.interpretation,
    has_missing_results: order.hasMissingResults,
    expected_result_by_date: order.expectedResultByDate,
    worst_case_result_by_date: order.worstCaseResultByDate,
    origin: order.origin,
    clinical_notes: order.clinicalNotes,
  };
}

export type ClientFacingOrder = ReturnType<typeof toClientFacingOrder>;

/** Loads and serialises orders of a team (events and lab tests in bulk). */
export async function orderViews(db: DbOrTx, teamId: string, rows: OrderRow[], loadLabTests: LabTestLoader): Promise<ClientFacingOrder[]> {
  const [events, tests] = await Promise.all([
    listOrderEvents(db, rows.map((r) => r.id)),
    loadLabTests(db, teamId, [...new Set(rows.map((r) => r.labTestId))]),
  ]);
  return rows.map((r) => toClientFacingOrder(r, events.get(r.id) ?? [], tests.get(r.labTestId) ?? {}));
}

export async function orderView(db: DbOrTx, teamId: string, orderId: string, loadLabTests: LabTestLoader): Promise<ClientFacingOrder | null> {
  const order = await findOrder(db, teamId, orderId);
  if (!order) return null;
  const [view] = await orderViews(db, teamId, [order], loadLabTests);
  return view ?? null;
}
