import { z } from 'zod';
import { isIanaTimeZone, personalDataIn } from '../../../domain/users.js';
import { birthDate, date, name, pathString, queryInt4, uuid } from '../../validation.js';

// ---- inputs ----------------------------------------------------------------------------------

// name(): the length is checked first and aborts, so the personal-data check never reads a too-long id.
export const clientUserIdSchema = name()
  .superRefine((value, ctx) => {
    const found = personalDataIn(value);
    if (found) {
      ctx.addIssue({ code: 'custom', message: `client_user_id must not contain personal data; it looks like ${found === "email address" ? "an" : "a"} ${found}` });
    }
  });

const timeZoneSchema = name(64).refine(
  isIanaTimeZone,
  'must be a valid IANA tz database identifier, such as Europe/Berlin or America/New_York',
);
const dateSchema = date();
const birthDateSchema = birthDate();

/** `null` is treated like an absent key: the SDK sends keys set to `undefined` as `null`. */
const optional = <T extends z.ZodType>(schema: T) =>
  schema.nullish().transform((v) => (v === null ? undefined : v));

const boundsInOrder = (body: { ingestion_start?: string | undefined; ingestion_end?: string | undefined }, ctx: z.RefinementCtx) => {
  if (body.ingestion_start && body.ingestion_end && body.ingestion_end < body.ingestion_start) {
    ctx.addIssue({ code: 'custom', path: ['ingestion_end'], message: 'ingestion_end must not be before ingestion_start' });
  }
};

export const userCreateBody = z
  .object({
    client_user_id: clientUserIdSchema,
    fallback_time_zone: optional(timeZoneSchema),
    fallback_birth_date: optional(birthDateSchema),
    ingestion_start: optional(dateSchema),
    ingestion_end: optional(dateSchema),
  })
  .superRefine(boundsInOrder);

export const userPatchBody = z
  .object({
    client_user_id: optional(clientUserIdSchema),
    fallback_time_zone: optional(timeZoneSchema),
    fallback_birth_date: optional(birthDateSchema),
    ingestion_start: optional(dateSchema),
    ingestion_end: optional(dateSchema),
  })
  .superRefine(boundsInOrder);

export const userIdParam = z.object({ user_id: uuid('user_id') });

export const clientUserIdParam = z.object({ client_user_id: pathString() });

export const listUsersQuery = z.object({
  offset: queryInt4(0).default(0),
  limit: queryInt4(1).pipe(z.number().max(500)).default(100),
});

export const undoDeleteQuery = z
  .object({
    user_id: uuid('user_id').optional(),
    client_user_id: pathString().optional(),
  })
  .refine((q) => q.user_id !== undefined || q.client_user_id !== undefined, {
    message: 'give user_id or client_user_id',
  });

// ---- responses (the wire shapes of CONTRACT §1; tests parse responses with these) -----------------

const isoDateTime = z.iso.datetime({ offset: true });

export const clientFacingProvider = z.object({ name: z.string(), slug: z.string(), logo: z.string() });

export const clientFacingUser = z.object({
  user_id: z.string(),
  team_id: z.string(),
  client_user_id: z.string(),
  created_on: isoDateTime,
  connected_sources: z.array(
    z.object({ provider: clientFacingProvider, source: clientFacingProvider, created_on: isoDateTime }),
  ),
  fallback_time_zone: z.object({ id: z.string(), source_slug: z.string(), updated_at: isoDateTime }).nullable(),
  fallback_birth_date: z.object({ value: z.string(), source_slug: z.string(), updated_at: isoDateTime }).nullable(),
  ingestion_start: z.string().nullable(),
  ingestion_end: z.string().nullable(),
});
export type ClientFacingUser = z.infer<typeof clientFacingUser>;

export const clientFacingUserKey = z.object({
  user_id: z.string(),
  client_user_id: z.string(),
  team_id: z.string(),
  created_on: isoDateTime,
});

export const paginatedUsers = z.object({
  users: z.array(clientFacingUser),
  total: z.number().int(),
  offset: z.number().int(),
  limit: z.number().int(),
});

export const providerWithStatus = clientFacingProvider.extend({
  created_on: isoDateTime,
  status: z.string(),
  external_user_id: z.string().nullable(),
  resource_availability: z.record(z.string(), z.unknown()),
});

export const userSuccess = z.object({ success: z.boolean() });
