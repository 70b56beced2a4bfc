import { z } from 'zod';
import { LAB_TEST_SAMPLE_TYPES, LAB_TEST_STATUSES } from '../../../db/queries/catalog.js';
import { COLLECTION_METHODS } from '../../../domain/orders/status.js';
import { int4, name as nameOf, pathString, queryInt4, text, uuid } from '../../validation.js';

/** A query key that may repeat (`?lab_id=1&lab_id=2`): always an array after parsing. */
const many = <T extends z.ZodType>(item: T) => z.preprocess((v) => (v === undefined ? undefined : Array.isArray(v) ? v : [v]), z.array(item).max(100).optional());
const queryBool = z.enum(['true', 'false']).transform((v) => v === 'true');

/** Query keys the SDK repeats for arrays (CONTRACT §3). */
export const REPEATABLE_QUERY_KEYS = new Set(['lab_id', 'marker_ids', 'provider_ids']);

const pageQuery = {
  page: queryInt4(1).default(1),
  size: queryInt4(1).pipe(z.number().max(100)).default(50),
};

export const labTestIdParam = z.object({ lab_test_id: uuid('lab_test_id') });

export const labAndProviderParam = z.object({
  lab_id: queryInt4(1),
  provider_id: pathString(100),
});

export const labAccountQuery = z.object({ lab_account_id: uuid('lab_account_id').optional() });

const labTestFilters = {
  generation_method: z.enum(['auto', 'manual', 'all']).default('all'),
  lab_slug: nameOf(100).optional(),
  collection_method: z.enum(COLLECTION_METHODS).optional(),
  status: z.enum(LAB_TEST_STATUSES).optional(),
  marker_ids: many(queryInt4()),
  provider_ids: many(nameOf(100)),
  name: text(200).optional(),
  order_key: z.enum(['price', 'created_at', 'updated_at']).default('created_at'),
  order_direction: z.enum(['asc', 'desc']).default('asc'),
};

/** GET /v3/lab_tests (the older, unpaginated list). */
export const listLabTestsQuery = z.object(labTestFilters);

/** GET /v3/lab_test: the same filters, a page of `lab_test_limit` after `next_cursor`. */
export const paginatedLabTestsQuery = z.object({
  ...labTestFilters,
  lab_test_limit: queryInt4(1).pipe(z.number().max(100)).default(50),
  next_cursor: nameOf(1000).optional(),
});

export const listMarkersQuery = z.object({
  lab_id: many(queryInt4(1)),
  lab_slug: nameOf(100).optional(),
  name: text(200).optional(),
  a_la_carte_enabled: queryBool.optional(),
  lab_account_id: uuid('lab_account_id').optional(),
  ...pageQuery,
});

export const labTestMarkersQuery = z.object({ lab_account_id: uuid('lab_account_id').optional(), ...pageQuery });

export const pageOnlyQuery = z.object(pageQuery);

const markerIds = z.array(int4(1)).max(200);
const providerIds = z.array(nameOf(100)).max(200);

/** OrderSetRequest (CONTRACT §3). */
export const orderSetBody = z
  .object({
    lab_test_ids: z.array(uuid('lab_test_ids[]')).max(50).nullish(),
    add_on: z.object({ marker_ids: markerIds.nullish(), provider_ids: providerIds.nullish() }).nullish(),
    lab_account_id: uuid('lab_account_id').nullish(),
  })
  .superRefine((b, ctx) => {
    if (!b.lab_test_ids?.length && !b.add_on?.marker_ids?.length && !b.add_on?.provider_ids?.length) {
      ctx.addIssue({ code: 'custom', path: ['lab_test_ids'], message: 'give lab_test_ids and/or add_on markers' });
    }
  });

/**
 * CreateLabTestRequest (CONTRACT §3), plus two optional fields of ours: `sample_type` (else the lab's
 * usual one for the method) and `lab_id` (needed only when provider ids alone name several labs).
 */
export const createLabTestBody = z
  .object({
    marker_ids: markerIds.nullish(),
    provider_ids: providerIds.nullish(),
    name: nameOf(200),
    method: z.enum(COLLECTION_METHODS),
    description: text(2000, { multiline: true }),
    fasting: z.boolean().nullish(),
    sample_type: z.enum(LAB_TEST_SAMPLE_TYPES).nullish(),
    lab_id: int4(1).nullish(),
  })
  .superRefine((b, ctx) => {
    if (!b.marker_ids?.length && !b.provider_ids?.length) {
      ctx.addIssue({ code: 'custom', path: ['marker_ids'], message: 'give marker_ids and/or provider_ids of one lab' });
    }
  });

/** UpdateLabTestRequest (`name`, `active`), plus `description` and `status` (active or inactive). */
export const updateLabTestBody = z
  .object({
    name: nameOf(200).nullish(),
    active: z.boolean().nullish(),
    description: text(2000, { multiline: true }).nullish(),
    status: z.enum(['active', 'inactive']).nullish(),
  })
  .superRefine((b, ctx) => {
    if (b.active != null && b.status != null && b.active !== (b.status === 'active')) {
      ctx.addIssue({ code: 'custom', path: ['status'], message: 'active and status disagree' });
    }
  });

// Response schemas (the wire shapes of CONTRACT §3): responses.ts.
