import { z } from 'zod';
import { countryName, normalisePhone } from '../../../domain/orders/address.js';
import { aoeAnswersInput } from '../../../domain/orders/aoe.js';
import { COLLECTION_METHODS, LOW_LEVEL_STATUSES } from '../../../domain/orders/status.js';
import { isRealDate } from '../../../domain/users.js';

const text = (max = 200) => z.string().trim().min(1).max(max);
const optionalText = (max = 200) => z.string().trim().max(max).nullish().transform((v) => v || undefined);

const country = z
  .string()
  .trim()
  .transform((v) => v.toUpperCase())
  .refine((v) => countryName(v) !== null, 'country must be an ISO 3166-1 alpha-2 code, e.g. US');
const phone = z
  .string()
  .transform((v, ctx) => {
    const n = normalisePhone(v);
    if (!n) ctx.addIssue({ code: 'custom', message: 'phone_number must be in international format, e.g. +14155552671' });
    return n ?? v;
  });
const pastDate = z
  .string()
  .refine(isRealDate, 'must be a real date written YYYY-mm-dd')
  .refine((d) => d <= new Date().toISOString().slice(0, 10), 'must not be in the future');

export const shippingAddress = z.object({
  receiver_name: text(),
  first_line: text(),
  second_line: optionalText(),
  city: text(),
  state: text(50),
  zip: z.string().trim().regex(/^[A-Za-z0-9][A-Za-z0-9 -]{1,9}$/, 'zip must be a postal code'),
  country,
  phone_number: phone,
});

export const patientAddress = shippingAddress.extend({
  receiver_name: optionalText(),
  phone_number: phone.nullish().transform((v) => v ?? undefined),
  access_notes: optionalText(1000),
});

export const patientDetails = z.object({
  first_name: text(100),
  last_name: text(100),
  dob: pastDate,
  gender: z.enum(['female', 'male', 'other', 'unknown']),
  phone_number: phone,
  email: z.email('email must be an e-mail address'),
  race: z.string().nullish(),
  ethnicity: z.string().nullish(),
  sexual_orientation: z.string().nullish(),
  gender_identity: z.string().nullish(),
  household_income: z.number().nullish(),
  household_size: z.number().int().nullish(),
});

export const physician = z.object({
  first_name: text(100),
  last_name: text(100),
  npi: z.string().regex(/^\d{10}$/, 'npi must be the 10-digit National Provider Identifier'),
  email: z.email().nullish(),
  licensed_states: z.array(z.string().length(2)).nullish(),
});

export const consent = z.object({
  consentType: z.enum([
    'terms-of-use', 'telehealth-informed-consent', 'mobile-terms-and-conditions', 'notice-of-privacy-practices',
    'privacy-policy', 'hipaa-authorization',
  ]),
  version: z.string().nullish(),
  timeOfConsent: z.iso.datetime({ offset: true }).nullish(),
});

const uuid = (name: string) => z.guid(`${name} must be a UUID`);

export const createTestkitOrderBody = z.object({
  user_id: uuid('user_id'),
  lab_test_id: uuid('lab_test_id'),
  shipping_details: shippingAddress,
  passthrough: optionalText(1000),
  lab_account_id: uuid('lab_account_id').nullish(),
});

export const createOrderBody = z
  .object({
    user_id: uuid('user_id'),
    lab_test_id: uuid('lab_test_id').nullish(),
    order_set: z
      .object({
        lab_test_ids: z.array(uuid('lab_test_ids[]')).min(1).nullish(),
        add_on: z.object({ marker_ids: z.array(z.number().int()).nullish(), provider_ids: z.array(z.string()).nullish() }).nullish(),
        lab_account_id: uuid('lab_account_id').nullish(),
      })
      .nullish(),
    collection_method: z.enum(COLLECTION_METHODS).nullish(),
    physician: physician.nullish(),
    health_insurance: z.record(z.string(), z.unknown()).nullish(),
    priority: z.boolean().nullish(),
    billing_type: z.enum(['client_bill', 'commercial_insurance', 'patient_bill_passthrough', 'patient_bill']).nullish(),
    icd_codes: z.array(z.string().regex(/^[A-TV-Z][0-9][0-9A-Z](\.?[0-9A-Z]{1,4})?$/, 'not an ICD-10 code')).nullish(),
    consents: z.array(consent).nullish(),
    activate_by: z.string().refine(isRealDate, 'activate_by must be a real date written YYYY-mm-dd').nullish(),
    passthrough: optionalText(1000),
    lab_account_id: uuid('lab_account_id').nullish(),
    clinical_notes: z.string().max(1000, 'clinical_notes must be at most 1,000 characters').nullish(),
    aoe_answers: aoeAnswersInput.nullish(),
    patient_details: patientDetails,
    patient_address: patientAddress,
  })
  .superRefine((body, ctx) => {
    const ids = body.order_set?.lab_test_ids ?? [];
    if (!body.lab_test_id && ids.length === 0) {
      ctx.addIssue({ code: 'custom', path: ['order_set', 'lab_test_ids'], message: 'give order_set.lab_test_ids (or the deprecated lab_test_id)' });
    }
    if (ids.length > 1) {
      ctx.addIssue({ code: 'custom', path: ['order_set', 'lab_test_ids'], message: 'one lab test per order is supported for now' });
    }
    if (body.order_set?.add_on && ((body.order_set.add_on.marker_ids?.length ?? 0) > 0 || (body.order_set.add_on.provider_ids?.length ?? 0) > 0)) {
      ctx.addIssue({ code: 'custom', path: ['order_set', 'add_on'], message: 'add-on markers are not supported yet' });
    }
  });

export const registerTestkitBody = z.object({
  user_id: uuid('user_id').nullish(),
  sample_id: z.string().trim().min(4).max(64),
  patient_details: patientDetails,
  patient_address: patientAddress,
  physician: physician.nullish(),
  health_insurance: z.record(z.string(), z.unknown()).nullish(),
  consents: z.array(consent).nullish(),
});

export const orderIdParam = z.object({ order_id: uuid('order_id') });

const dottedStatus = z.string().regex(/^[a-z_]+\.[a-z_]+\.[a-z_]+$/, 'final_status must be a dotted order status, e.g. completed.testkit.completed');

export const simulateQuery = z.object({
  final_status: dottedStatus.optional(),
  delay: z.coerce.number().int().min(0).max(3600).default(0),
});

export const simulationFlags = z
  .object({
    interpretation: z.enum(['normal', 'abnormal', 'critical']).nullish(),
    result_types: z.array(z.enum(['numeric', 'range', 'comment', 'coded_value'])).nullish(),
    has_missing_results: z.boolean().nullish(),
  })
  .nullish();

const many = <T extends z.ZodType>(item: T) => z.preprocess((v) => (v === undefined ? undefined : Array.isArray(v) ? v : [v]), z.array(item).optional());
const isoDateTime = z.iso.datetime({ offset: true }).transform((v) => new Date(v));

export const listOrdersQuery = z.object({
  search_input: z.string().max(200).optional(),
  start_date: isoDateTime.optional(),
  end_date: isoDateTime.optional(),
  updated_start_date: isoDateTime.optional(),
  updated_end_date: isoDateTime.optional(),
  status: many(z.enum(LOW_LEVEL_STATUSES)),
  order_key: z.enum(['created_at', 'patient_name', 'last_status']).default('created_at'),
  order_direction: z.enum(['asc', 'desc']).default('desc'),
  order_type: many(z.enum(COLLECTION_METHODS)),
  is_critical: z.enum(['true', 'false']).optional(),
  interpretation: z.enum(['normal', 'abnormal', 'critical', 'unknown']).optional(),
  order_activation_types: many(z.enum(['current', 'scheduled'])),
  user_id: uuid('user_id').optional(),
  patient_name: z.string().max(200).optional(),
  shipping_recipient_name: z.string().max(200).optional(),
  order_ids: many(uuid('order_ids')),
  page: z.coerce.number().int().min(1).default(1),
  size: z.coerce.number().int().min(1).max(100).default(50),
});
