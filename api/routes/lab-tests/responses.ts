/**
 * Wire shapes of the lab catalogue's responses (CONTRACT §3 ClientFacing*): every key the hosted
 * service sends, optional ones always present and `null` when empty. Tests parse real responses with
 * these (test/integration/lab-tests.http.test.ts, wire-*.test.ts).
 */
import { z } from 'zod';
import { LAB_TEST_SAMPLE_TYPES, LAB_TEST_STATUSES } from '../../../db/queries/catalog.js';
import { QUESTION_TYPES } from '../../../domain/orders/aoe.js';
import { COLLECTION_METHODS } from '../../../domain/orders/status.js';

export const clientFacingLab = z.object({
  id: z.number().int(),
  slug: z.string(),
  name: z.string(),
  first_line_address: z.string(),
  city: z.string(),
  zipcode: z.string(),
  collection_methods: z.array(z.enum(COLLECTION_METHODS)),
  sample_types: z.array(z.enum(LAB_TEST_SAMPLE_TYPES)),
  logo_url: z.string().nullable(),
});

export const aoeAnswerOption = z.object({ id: z.number().int(), code: z.string(), value: z.string() });

export const aoeQuestion = z.object({
  id: z.number().int(),
  required: z.boolean(),
  code: z.string(),
  value: z.string(),
  type: z.enum(QUESTION_TYPES),
  sequence: z.number().int(),
  answers: z.array(aoeAnswerOption),
  constraint: z.string().nullable(),
  default: z.string().nullable(),
});

export const aoe = z.object({ questions: z.array(aoeQuestion).min(1) });

export const clientFacingMarker = z.object({
  id: z.number().int(),
  name: z.string(),
  slug: z.string(),
  description: z.string().nullable(),
  lab_id: z.number().int(),
  provider_id: z.string(),
  type: z.enum(['biomarker', 'panel']),
  unit: z.string().nullable(),
  price: z.string().nullable(),
  aoe: aoe.nullable(),
  a_la_carte_enabled: z.boolean(),
  common_tat_days: z.number().nullable(),
  worst_case_tat_days: z.number().nullable(),
  is_orderable: z.boolean(),
});

export const clientFacingResult = z.object({
  id: z.number().int(),
  name: z.string(),
  slug: z.string(),
  lab_id: z.number().int(),
  provider_id: z.string().nullable(),
  required: z.boolean(),
  loinc: z.object({ id: z.number().int(), name: z.string(), slug: z.string(), code: z.string(), unit: z.string().nullable() }).nullable(),
});

export const clientFacingMarkerComplete = clientFacingMarker.extend({ expected_results: z.array(clientFacingResult) });

export const getMarkersResponse = z.object({
  markers: z.array(clientFacingMarkerComplete),
  total: z.number().int(),
  page: z.number().int(),
  size: z.number().int(),
  pages: z.number().int(),
});

export const clientFacingLabTest = z.object({
  id: z.string(),
  slug: z.string(),
  name: z.string(),
  description: z.string(),
  sample_type: z.enum(LAB_TEST_SAMPLE_TYPES),
  method: z.enum(COLLECTION_METHODS),
  price: z.number(),
  is_active: z.boolean(),
  status: z.enum(LAB_TEST_STATUSES),
  fasting: z.boolean(),
  lab: clientFacingLab.nullable(),
  markers: z.array(clientFacingMarker),
  is_delegated: z.boolean(),
  auto_generated: z.boolean(),
  has_collection_instructions: z.boolean(),
  common_tat_days: z.number().nullable(),
  worst_case_tat_days: z.number().nullable(),
});

export const labTestResourcesResponse = z.object({ data: z.array(clientFacingLabTest), next_cursor: z.string().nullable() });
