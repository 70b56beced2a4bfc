import { z } from 'zod';
import { SHIPMENT_EVENTS } from '../../../domain/orders/testkit-lifecycle.js';
import { finite, name, text, uuid } from '../../validation.js';

/** Request and response shapes of the partner API (/partner/v1, docs/partner-api.md). */

/** Notes may span lines; every other text is one line. */
const optionalText = (max: number, multiline = false) => text(max, { multiline }).nullish().transform((v) => v || null);
const requiredText = (max: number) => name(max);

export const orderIdParam = z.object({ order_id: uuid('order_id') });
export const sampleIdParam = z.object({
  sample_id: name(64).regex(/^[A-Za-z0-9-]{4,64}$/, 'sample_id must be 4–64 letters, digits or dashes'),
});

export const shipmentBody = z.object({
  event: z.enum(SHIPMENT_EVENTS),
  courier: optionalText(100),
  tracking_number: optionalText(100),
  tracking_url: name(2000)
    .pipe(z.url({ protocol: /^https?$/, message: 'tracking_url must be an http(s) URL' }))
    .nullish()
    .transform((v) => v ?? null),
  notes: optionalText(2000, true),
  status_detail: optionalText(200),
});

/** POST …/sample_received: the body is optional. */
export const sampleReceivedBody = z
  .object({ notes: optionalText(2000, true), status_detail: optionalText(200) })
  .nullish()
  .transform((v) => v ?? { notes: null, status_detail: null });

export const RESULT_TYPES = ['numeric', 'range', 'comment', 'coded_value'] as const;
export const FAILURE_TYPES = [
  'quantity_not_sufficient_failure', 'collection_process_failure', 'drop_off_failure', 'internal_lab_failure',
  'order_entry_failure', 'non_failure', 'unknown_failure', 'patient_condition_failure', 'missing_result_calc_failure',
  'missing_demo_aoe_calc_failure', 'insufficient_volume',
] as const;

const optionalNumber = finite().nullish().transform((v) => v ?? null);

/** One biomarker as the lab reports it (CONTRACT BiomarkerResult: the value is the string `result`). */
const biomarkerResult = z
  .object({
    name: requiredText(200),
    slug: name(100).regex(/^[a-z0-9][a-z0-9-]*$/, 'slug must be lower-case letters, digits and dashes').optional(),
    result: text(1000, { min: 1, multiline: true }),
    type: z.enum(RESULT_TYPES),
    unit: optionalText(50),
    reference_range: optionalText(200),
    min_range_value: optionalNumber,
    max_range_value: optionalNumber,
    is_above_max_range: z.boolean().nullish().transform((v) => v ?? null),
    is_below_min_range: z.boolean().nullish().transform((v) => v ?? null),
    interpretation: optionalText(100),
    loinc: name(20).regex(/^\d{1,7}-\d$/, 'loinc must be a LOINC code, e.g. 4548-4').nullish().transform((v) => v ?? null),
    loinc_slug: optionalText(200),
  })
  .refine((r) => r.min_range_value === null || r.max_range_value === null || r.min_range_value <= r.max_range_value, {
    message: 'min_range_value must not be above max_range_value',
    path: ['min_range_value'],
  });

const missingResult = z.object({
  name: requiredText(200),
  slug: requiredText(100),
  inferred_failure_type: z.enum(FAILURE_TYPES),
  note: optionalText(1000, true),
});

export const resultsBody = z
  .object({
    final: z.boolean(),
    interpretation: z.enum(['normal', 'abnormal', 'critical']),
    results: z.array(biomarkerResult).max(1000),
    missing_results: z.array(missingResult).max(1000).nullish().transform((v) => v ?? []),
  })
  .refine((b) => b.results.length > 0 || b.missing_results.length > 0, {
    message: 'report at least one result or missing result',
    path: ['results'],
  });

/**
 * Failures a partner can report: `sample_error` once the sample is at the lab; the others are the
 * final shipment failures (couriers may also send these as shipment events).
 */
export const FAILURE_KINDS = ['sample_error', 'failure_to_deliver_to_customer', 'failure_to_deliver_to_lab', 'lost'] as const;
export type FailureKind = (typeof FAILURE_KINDS)[number];

export const failureBody = z.object({
  kind: z.enum(FAILURE_KINDS),
  status_detail: requiredText(200),
});

/**
 * POST …/appointment: the appointment's provider reports the draw: `in_progress` (the phlebotomist or PSC
 * started it), `completed` (the order moves to `draw_completed`), `no_show` (the appointment is cancelled).
 */
export const APPOINTMENT_PROGRESS = ['in_progress', 'completed', 'no_show'] as const;
export const appointmentBody = z.object({
  status: z.enum(APPOINTMENT_PROGRESS),
  notes: optionalText(2000, true),
});

/** 202 body of every accepted report: only the order id and its status, never team or patient data. */
export const acceptedResponse = z.object({
  accepted: z.literal(true),
  order_id: z.guid(),
  status: z.string(),
});
export type AcceptedResponse = z.infer<typeof acceptedResponse>;
