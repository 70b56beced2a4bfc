import { countryName } from '../../domain/orders/address.js';
import { REQUISITION_URL_TTL_SECONDS, hasRequisition, requisitionDocumentPath } from '../../domain/orders/requisition.js';
import type { UrlSigner } from '../../lib/url-signing.js';
import { desc, inArray } from 'drizzle-orm';
import { appointments } from '../schema/appointments.js';
import type { DbOrTx } from '../client.js';
import type { OrderEventRow, OrderPayloadBuilder, OrderRow } from './orders.js';
import { loadLabTestViews } from './lab-test-view.js';
import { findOrder, listOrderEvents } from './orders.js';
import { orderTransactionViews, type OrderTransactionView } from './order-transactions.js';

/** Serialised lab tests by id (the catalogue's ClientFacingLabTest), loaded in bulk. */
export type LabTestLoader = (db: DbOrTx, teamId: string, labTestIds: string[]) => Promise<Map<string, Record<string, unknown>>>;

function withCountryName(address: Record<string, unknown> | null, optionalKeys: readonly string[]): Record<string, unknown> | null {
  if (!address) return null;
  const code = typeof address.country === 'string' ? address.country : '';
  return { ...withNulls(address, optionalKeys), country: countryName(code) ?? code };
}

/** Optional keys the hosted service always sends, as null when empty (api/routes/orders/responses.ts). */
const PATIENT_DETAILS_OPTIONAL = ['medical_proxy', 'race', 'ethnicity', 'sexual_orientation', 'gender_identity'] as const;
const PATIENT_ADDRESS_OPTIONAL = ['receiver_name', 'second_line', 'phone_number', 'access_notes'] as const;
const SHIPPING_OPTIONAL = ['second_line'] as const;

function withNulls(value: Record<string, unknown>, keys: readonly string[]): Record<string, unknown> {
  return { ...Object.fromEntries(keys.map((k) => [k, null])), ...Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined && v !== null)) };
}

function event(e: OrderEventRow) {
  return { id: e.id, created_at: e.createdAt.toISOString(), status: e.status, status_detail: e.statusDetail };
}

/** Loads the signer of document links (`requisition_form_url`); the key may live in Postgres, hence async. */
export type UrlSignerSource = () => Promise<UrlSigner>;

/**
 * ClientFacingOrder (CONTRACT §4): the one shape used by GET, list, create responses and webhook payloads.
 * `requisitionFormUrl` is the signed link to the requisition PDF, made by the caller (see `orderViews`).
 */
export function toClientFacingOrder(
  order: OrderRow,
  events: OrderEventRow[],
  labTest: Record<string, unknown>,
  requisitionFormUrl: string | null = null,
  transaction: OrderTransactionView | null = null,
  appointmentId: string | null = null,
) {
  const evs = events.map(event);
  const physician = order.physician
    ? { first_name: order.physician.first_name, last_name: order.physician.last_name, npi: order.physician.npi }
    : null;
  return {
    id: order.id,
    team_id: order.teamId,
    user_id: order.userId,
    patient_details: order.patientDetails ? withNulls(order.patientDetails, PATIENT_DETAILS_OPTIONAL) : null,
    patient_address: withCountryName(order.patientAddress ?? null, PATIENT_ADDRESS_OPTIONAL),
    shipping_details: withCountryName(order.shippingDetails ?? null, SHIPPING_OPTIONAL),
    lab_test: labTest,
    details: {
      type: order.method,
      data: {
        id: order.detailsId,
        // per method (CONTRACT ClientFacing*Order): a kit has its shipment, a phlebotomy or walk-in order its appointment
        ...(order.method === 'testkit' ? { shipment: order.shipment ?? null } : {}),
        ...(order.method === 'at_home_phlebotomy' || order.method === 'walk_in_test' ? { appointment_id: appointmentId } : {}),
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
    requisition_form_url: requisitionFormUrl,
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
    order_transaction: transaction,
    clinical_notes: order.clinicalNotes,
  };
}

export type ClientFacingOrder = ReturnType<typeof toClientFacingOrder>;

/**
 * Loads and serialises orders of a team (events and lab tests in bulk). An order with a requisition
 * gets a `requisition_form_url` signed now and valid for 7 days: each response (and each webhook
 * event, whose payload is built once and stored) carries a fresh link.
 */
export async function orderViews(
  db: DbOrTx,
  teamId: string,
  rows: OrderRow[],
  loadLabTests: LabTestLoader,
  urlSigner: UrlSignerSource,
): Promise<ClientFacingOrder[]> {
  const [events, tests, transactions, appointmentIds] = await Promise.all([
    listOrderEvents(db, rows.map((r) => r.id)),
    loadLabTests(db, teamId, [...new Set(rows.map((r) => r.labTestId))]),
    orderTransactionViews(db, teamId, [...new Set(rows.map((r) => r.transactionId))]),
    latestAppointmentIds(db, rows.filter((r) => r.method === 'at_home_phlebotomy' || r.method === 'walk_in_test').map((r) => r.id)),
  ]);
  const withRequisition = rows.some((r) => hasRequisition((events.get(r.id) ?? []).map((e) => e.status)));
  const signer = withRequisition ? await urlSigner() : null;
  return rows.map((r) => {
    const evs = events.get(r.id) ?? [];
    return toClientFacingOrder(r, evs, tests.get(r.labTestId) ?? {}, requisitionUrl(r.id, evs, signer), transactions.get(r.transactionId) ?? null, appointmentIds.get(r.id) ?? null);
  });
}

/** The signed link to the order's requisition, valid for 7 days from now; null before the order has one. */
function requisitionUrl(orderId: string, events: OrderEventRow[], signer: UrlSigner | null): string | null {
  if (!signer || !hasRequisition(events.map((e) => e.status))) return null;
  return signer.sign(requisitionDocumentPath(orderId), new Date(Date.now() + REQUISITION_URL_TTL_SECONDS * 1000));
}

/** Everything an order's payload is made of, read in one statement by the writer of a step (db/queries/order-steps.ts). */
export interface OrderPayloadRows {
  order: OrderRow;
  events: OrderEventRow[];
  labTest: Record<string, unknown>;
  transaction: OrderTransactionView | null;
  appointmentId: string | null;
}

/** The order as GET returns it, from rows already read: the same shaping as `orderViews`, without a read. */
export function orderViewFromRows(rows: OrderPayloadRows, signer: UrlSigner): ClientFacingOrder {
  const { order, events } = rows;
  return toClientFacingOrder(order, events, rows.labTest, requisitionUrl(order.id, events, signer), rows.transaction, rows.appointmentId);
}

/** The order's appointment (`details.data.appointment_id`): its latest one, cancelled or not; none before booking. */
async function latestAppointmentIds(db: DbOrTx, orderIds: string[]): Promise<Map<string, string>> {
  if (orderIds.length === 0) return new Map();
  const rows = await db
    .selectDistinctOn([appointments.orderId], { orderId: appointments.orderId, id: appointments.id })
    .from(appointments)
    .where(inArray(appointments.orderId, orderIds))
    .orderBy(appointments.orderId, desc(appointments.createdAt));
  return new Map(rows.map((r) => [r.orderId, r.id]));
}

export async function orderView(
  db: DbOrTx,
  teamId: string,
  orderId: string,
  loadLabTests: LabTestLoader,
  urlSigner: UrlSignerSource,
): Promise<ClientFacingOrder | null> {
  const order = await findOrder(db, teamId, orderId);
  if (!order) return null;
  const [view] = await orderViews(db, teamId, [order], loadLabTests, urlSigner);
  return view ?? null;
}

/**
 * The order exactly as GET /v3/order/{id} returns it, read inside the writing transaction. It takes a
 * loaded signer: inside a transaction nothing may wait for another pool connection (a full pool would
 * wait on itself).
 */
export function orderPayloadBuilder(signer: UrlSigner): OrderPayloadBuilder {
  const source = () => Promise.resolve(signer);
  const build: OrderPayloadBuilder = async (tx, teamId, orderId) => {
    const view = await orderView(tx, teamId, orderId, loadLabTestViews, source);
    if (!view) throw new Error(`order ${orderId} not found while building its event`);
    return view;
  };
  // the writers of order steps read the rows in their own statement: shaped here, the same way as GET
  build.fromRows = (rows) => orderViewFromRows(rows, signer);
  return build;
}
