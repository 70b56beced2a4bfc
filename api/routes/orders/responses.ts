/**
 * Wire shapes of the order responses (CONTRACT §4 ClientFacingOrder and friends, with the spec's
 * `last_event`, `origin`, `status_detail` and `order_transaction`): every key the hosted service sends,
 * optional ones always present and `null` when empty; and the 404 texts it answers. Tests parse real
 * responses with these (test/integration/wire-*.test.ts).
 */
import { z } from 'zod';
import { clientFacingLabTest } from '../lab-tests/responses.js';

/** 404 of GET /v3/order/{id} and the requisition PDF, as the hosted service words it. */
export const THIS_ORDER_MISSING = "This order doesn't exist";
/** 404 of cancel and simulate, as the hosted service words it. */
export const ORDER_MISSING = "Order doesn't exist";

const isoDateTime = z.iso.datetime({ offset: true });
/** CONTRACT `dt`: ISO-8601, date-only allowed (patient `dob`). */
const dt = z.union([isoDateTime, z.iso.date()]);

export const address = z.object({
  first_line: z.string(),
  second_line: z.string().nullable(),
  country: z.string(),
  zip: z.string(),
  city: z.string(),
  state: z.string(),
});

export const guarantorDetails = z.object({
  first_name: z.string(),
  last_name: z.string(),
  address,
  phone_number: z.string(),
  household_income: z.number().nullable(),
  household_size: z.number().nullable(),
  email: z.string().nullable(),
});

export const patientDetails = z.object({
  first_name: z.string().nullable(),
  last_name: z.string().nullable(),
  dob: dt,
  gender: z.string(),
  phone_number: z.string().nullable(),
  email: z.string().nullable(),
  medical_proxy: guarantorDetails.nullable(),
  race: z.string().nullable(),
  ethnicity: z.string().nullable(),
  sexual_orientation: z.string().nullable(),
  gender_identity: z.string().nullable(),
});

export const patientAddress = z.object({
  receiver_name: z.string().nullable(),
  first_line: z.string(),
  second_line: z.string().nullable(),
  city: z.string(),
  state: z.string(),
  zip: z.string(),
  country: z.string(),
  phone_number: z.string().nullable(),
  access_notes: z.string().nullable(),
});

export const shippingAddress = z.object({
  receiver_name: z.string(),
  first_line: z.string(),
  second_line: z.string().nullable(),
  city: z.string(),
  state: z.string(),
  zip: z.string(),
  country: z.string(),
  phone_number: z.string(),
});

export const shipment = z.object({
  id: z.string(),
  outbound_tracking_number: z.string().nullable(),
  outbound_tracking_url: z.string().nullable(),
  inbound_tracking_number: z.string().nullable(),
  inbound_tracking_url: z.string().nullable(),
  outbound_courier: z.string().nullable(),
  inbound_courier: z.string().nullable(),
  notes: z.string().nullable(),
  created_at: isoDateTime,
  updated_at: isoDateTime,
});

const detailsData = z.object({ id: z.string(), created_at: isoDateTime, updated_at: isoDateTime });

/** `details`, tagged by `type` (CONTRACT §4 ClientFacingOrderDetails). */
export const orderDetails = z.discriminatedUnion('type', [
  z.object({ type: z.literal('testkit'), data: detailsData.extend({ shipment: shipment.nullable() }).nullable() }),
  z.object({ type: z.literal('walk_in_test'), data: detailsData.extend({ appointment_id: z.string().nullable() }).nullable() }),
  z.object({ type: z.literal('at_home_phlebotomy'), data: detailsData.extend({ appointment_id: z.string().nullable() }).nullable() }),
  z.object({ type: z.literal('on_site_collection'), data: detailsData.nullable() }),
]);

export const orderEvent = z.object({
  id: z.number().int(),
  created_at: isoDateTime,
  status: z.string().regex(/^[a-z_]+\.[a-z_]+\.[a-z_]+$/),
  status_detail: z.string().nullable(),
});

export const physician = z.object({ first_name: z.string(), last_name: z.string(), npi: z.string() });

/** The order transaction (spec, Lab order): groups an initial order with its redraws. */
export const orderTransaction = z.object({
  id: z.string(),
  status: z.string(),
  orders: z.array(
    z.object({
      id: z.string(),
      created_at: isoDateTime,
      updated_at: isoDateTime,
      low_level_status: z.string(),
      low_level_status_created_at: isoDateTime,
      origin: z.string(),
      parent_id: z.string().nullable(),
    }),
  ),
});

export const clientFacingOrder = z.object({
  id: z.string(),
  team_id: z.string(),
  user_id: z.string(),
  patient_details: patientDetails.nullable(),
  patient_address: patientAddress.nullable(),
  lab_test: clientFacingLabTest,
  details: orderDetails,
  sample_id: z.string().nullable(),
  notes: z.string().nullable(),
  created_at: isoDateTime,
  updated_at: isoDateTime,
  events: z.array(orderEvent),
  last_event: orderEvent.nullable(),
  status: z.enum(['received', 'collecting_sample', 'sample_with_lab', 'completed', 'cancelled', 'failed']),
  physician: physician.nullable(),
  health_insurance_id: z.string().nullable(),
  requisition_form_url: z.string().nullable(),
  priority: z.boolean(),
  shipping_details: shippingAddress.nullable(),
  activate_by: z.string().nullable(),
  passthrough: z.string().nullable(),
  billing_type: z.string(),
  icd_codes: z.array(z.string()).nullable(),
  has_abn: z.boolean(),
  interpretation: z.enum(['normal', 'abnormal', 'critical', 'unknown']).nullable(),
  has_missing_results: z.boolean().nullable(),
  expected_result_by_date: z.string().nullable(),
  worst_case_result_by_date: z.string().nullable(),
  origin: z.string(),
  // Filled by the order-transaction work (issue 17 item 1, built separately); optional until it lands.
  order_transaction: orderTransaction,
});

export const postOrderResponse = z.object({ order: clientFacingOrder, status: z.string(), message: z.string() });

export const getOrdersResponse = z.object({
  orders: z.array(clientFacingOrder),
  total: z.number().int(),
  page: z.number().int(),
  size: z.number().int(),
});

export const resendWebhookResponse = z.object({ order_ids: z.array(z.string()) });
