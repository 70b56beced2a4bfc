import { z } from 'zod';
import { countryName, normalisePhone } from '../../../domain/orders/address.js';
import { aoeAnswersInput } from '../../../domain/orders/aoe.js';
import { COLLECTION_METHODS, LOW_LEVEL_STATUSES } from '../../../domain/orders/status.js';
import { MAX_NAME, birthDate, dateTime as boundedDateTime, dateTimeString, dateWithin, finite, int4, name, queryInt4, text as boundedText, uuid as boundedUuid } from '../../validation.js';

const text = (max = 200) => name(max);
const optionalText = (max = 200, multiline = false) => boundedText(max, { multiline }).nullish().transform((v) => v || undefined);

const country = name(8)
  .transform((v) => v.toUpperCase())
  .refine((v) => countryName(v) !== null, 'country must be an ISO 3166-1 alpha-2 code, e.g. US');
const phone = name(40)
  .transform((v, ctx) => {
    const n = normalisePhone(v);
    if (!n) ctx.addIssue({ code: 'custom', message: 'phone_number must be in international format, e.g. +14155552671' });
    return n ?? v;
  });
const pastDate = birthDate('must be a real date written YYYY-mm-dd');

export const shippingAddress = z.object({
  receiver_name: text(),
  first_line: text(),
  second_line: optionalText(),
  city: text(),
  state: text(50),
  zip: name(20).regex(/^[A-Za-z0-9][A-Za-z0-9 -]{1,9}$/, 'zip must be a postal code'),
  country,
  phone_number: phone,
});

export const patientAddress = shippingAddress.extend({
  receiver_name: optionalText(),
  phone_number: phone.nullish().transform((v) => v ?? undefined),
  access_notes: optionalText(1000, true),
});

export const patientDetails = z.object({
  first_name: text(100),
  last_name: text(100),
  dob: pastDate,
  gender: z.enum(['female', 'male', 'other', 'unknown']),
  phone_number: phone,
  email: name().pipe(z.email('email must be an e-mail address')),
  race: boundedText(MAX_NAME).nullish(),
  ethnicity: boundedText(MAX_NAME).nullish(),
  sexual_orientation: boundedText(MAX_NAME).nullish(),
  gender_identity: boundedText(MAX_NAME).nullish(),
  household_income: finite().min(0, { message: 'must not be negative' }).nullish(),
  household_size: int4(0).nullish(),
});

export const physician = z.object({
  first_name: text(100),
  last_name: text(100),
  npi: name(10).regex(/^\d{10}$/, 'npi must be the 10-digit National Provider Identifier'),
  email: name().pipe(z.email()).nullish(),
  licensed_states: z.array(name(2).length(2)).max(60).nullish(),
});

export const consent = z.object({
  consentType: z.enum([
    'terms-of-use', 'telehealth-informed-consent', 'mobile-terms-and-conditions', 'notice-of-privacy-practices',
    'privacy-policy', 'hipaa-authorization',
  ]),
  version: name().nullish(),
  timeOfConsent: dateTimeString().nullish(),
});

const uuid = boundedUuid;

export const createTestkitOrderBody = z.object({
  user_id: uuid('user_id'),
  lab_test_id: uuid('lab_test_id'),
  shipping_details: shippingAddress,
  passthrough: optionalText(1000, true),
  lab_account_id: uuid('lab_account_id').nullish(),
});

export const createOrderBody = z
  .object({
    user_id: uuid('user_id'),
    lab_test_id: uuid('lab_test_id').nullish(),
    order_set: z
      .object({
        lab_test_ids: z.array(uuid('lab_test_ids[]')).min(1).max(50).nullish(),
        add_on: z.object({ marker_ids: z.array(int4(1)).max(200).nullish(), provider_ids: z.array(name(100)).max(200).nullish() }).nullish(),
        lab_account_id: uuid('lab_account_id').nullish(),
      })
      .nullish(),
    collection_method: z.enum(COLLECTION_METHODS).nullish(),
    physician: physician.nullish(),
    health_insurance: z.record(z.string(), z.unknown()).nullish(),
    priority: z.boolean().nullish(),
    billing_type: z.enum(['client_bill', 'commercial_insurance', 'patient_bill_passthrough', 'patient_bill']).nullish(),
    icd_codes: z.array(name(10).regex(/^[A-TV-Z][0-9][0-9A-Z](\.?[0-9A-Z]{1,4})?$/, 'not an ICD-10 code')).nullish(),
    consents: z.array(consent).max(20).nullish(),
    activate_by: dateWithin(366, 'activate_by must be a real date written YYYY-mm-dd').nullish(),
    passthrough: optionalText(1000, true),
    lab_account_id: uuid('lab_account_id').nullish(),
    clinical_notes: boundedText(1000, { multiline: true }).nullish(),
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
  sample_id: name(64).min(4),
  patient_details: patientDetails,
  patient_address: patientAddress,
  physician: physician.nullish(),
  health_insurance: z.record(z.string(), z.unknown()).nullish(),
  consents: z.array(consent).max(20).nullish(),
});

export const orderIdParam = z.object({ order_id: uuid('order_id') });

const dottedStatus = name(100).regex(/^[a-z_]+\.[a-z_]+\.[a-z_]+$/, 'final_status must be a dotted order status, e.g. completed.testkit.completed');

export const simulateQuery = z.object({
  final_status: dottedStatus.optional(),
  delay: queryInt4(0).pipe(z.number().max(3600)).default(0),
});

export const simulationFlags = z
  .object({
    interpretation: z.enum(['normal', 'abnormal', 'critical']).nullish(),
    result_types: z.array(z.enum(['numeric', 'range', 'comment', 'coded_value'])).nullish(),
    has_missing_results: z.boolean().nullish(),
  })
  .nullish();

const many = <T extends z.ZodType>(item: T) => z.preprocess((v) => (v === undefined ? undefined : Array.isArray(v) ? v : [v]), z.array(item).max(100).optional());
const isoDateTime = boundedDateTime();

export const listOrdersQuery = z.object({
  search_input: boundedText(200).optional(),
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
  patient_name: boundedText(200).optional(),
  shipping_recipient_name: boundedText(200).optional(),
  order_ids: many(uuid('order_ids')),
  page: queryInt4(1).default(1),
  size: queryInt4(1).pipe(z.number().max(100)).default(50),
});
