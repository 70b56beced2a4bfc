import { z } from 'zod';
import {
  ALL_PROVIDERS,
  DEMO_PROVIDERS,
  EMAIL_PROVIDERS,
  MANUAL_PROVIDERS,
  OAUTH_PROVIDERS,
  PASSWORD_PROVIDERS,
  REGIONS,
} from '../../../domain/link/catalog.js';
import { BULK_OPS_PAGE_MAX, MAX_BULK_ITEMS } from '../../../domain/link/bulk.js';
import { INT4_MAX, hasControlChars, queryInt4 } from '../../validation.js';

/** `null` is treated like an absent key: the SDK sends keys set to `undefined` as `null`. */
const optional = <T extends z.ZodType>(schema: T) => schema.nullish().transform((v) => (v === null ? undefined : v));

const uuid = z.uuid({ message: 'must be a UUID' });
const provider = z.enum(ALL_PROVIDERS as [string, ...string[]]);
const httpUrl = z
  .string()
  .max(2048)
  .regex(/^https?:\/\/[^\s]+$/, 'must be an http(s) URL');

export const linkTokenBody = z.object({
  user_id: uuid,
  provider: optional(provider),
  redirect_url: optional(httpUrl),
  filter_on_providers: optional(z.array(provider).max(ALL_PROVIDERS.length)),
  on_error: optional(z.literal('redirect')),
  on_close: optional(z.literal('redirect')),
});

export const tokenValidationBody = z.object({ token: z.string().min(1).max(512) });
export const beginLinkBody = z.object({ link_token: z.string().min(1).max(512), provider });

export const codeCreateQuery = z.object({
  user_id: uuid,
  expires_at: optional(z.iso.datetime({ offset: true, message: 'must be an ISO 8601 date-time' })),
});

export const passwordProviderParam = z.object({ provider: z.enum(PASSWORD_PROVIDERS) });
export const oauthProviderParam = z.object({ oauth_provider: z.enum(OAUTH_PROVIDERS) });
export const emailProviderParam = z.object({ provider: z.enum(EMAIL_PROVIDERS) });
export const manualProviderParam = z.object({ provider: z.enum(MANUAL_PROVIDERS) });

export const passwordBody = z.object({
  username: z.string().max(512).refine((v) => v.trim().length > 0, { abort: true, message: 'username must not be empty' }),
  password: z.string().max(1024).refine((v) => v.trim().length > 0, { abort: true, message: 'password must not be empty' }),
  region: optional(z.enum(REGIONS)),
});
export const mfaBody = z.object({ mfa_code: z.string().trim().min(1).max(32) });

const email = z
  .string()
  .max(320, { abort: true, message: 'must be at most 320 characters' })
  .pipe(z.email({ message: 'must be an e-mail address' }));

export const emailBody = z.object({
  email,
  provider: optional(provider),
  region: optional(z.enum(REGIONS)),
});

export const demoBody = z.object({ user_id: uuid, provider: z.enum(DEMO_PROVIDERS) });
export const manualBody = z.object({ user_id: uuid, provider_id: optional(z.string().min(1).max(255)) });

export const providersQuery = z.object({ source_type: optional(z.enum(['app', 'ble', 'device', 'lab', 'provider'])) });

/** Deprecated `POST /v2/link/auth`: `{username, password, provider, auth_type}`; only password providers. */
export const deprecatedPasswordAuthBody = passwordBody.extend({
  provider: z.enum(PASSWORD_PROVIDERS),
  auth_type: z.literal('password'),
});

/** Deprecated `POST /v2/link/auth/email`: `{email, provider, auth_type, region?}`; only e-mail providers. */
export const deprecatedEmailAuthBody = z.object({
  email,
  provider: z.enum(EMAIL_PROVIDERS),
  auth_type: z.literal('email'),
  region: optional(z.enum(REGIONS)),
});

// ---- bulk link operations (team key) --------------------------------------------------------------

const oauthProvider = z.enum(OAUTH_PROVIDERS);
/** One line, not blank, at most `max` characters (checked first). */
const line = (max: number) =>
  z
    .string()
    .max(max, { abort: true, message: `must be at most ${max} characters` })
    .refine((v) => v.trim().length > 0, { abort: true, message: 'must not be empty' })
    .refine((v) => !hasControlChars(v), { abort: true, message: 'must not contain control characters' });
const distinct = (ids: string[]) => new Set(ids).size === ids.length;
const userIds = (min: number) =>
  z
    .array(uuid)
    .min(min, { message: min === 1 ? 'must name at least one user' : `must name at least ${min} users` })
    .max(MAX_BULK_ITEMS, { message: `must name at most ${MAX_BULK_ITEMS} users` })
    .refine(distinct, { message: 'must not name a user twice' });

/** `team_id` of the bulk calls: `infer_from_context` (the SDK's default) or the key's own team. */
export const teamIdQuery = z.object({
  team_id: optional(z.string().max(64, { abort: true, message: 'must be infer_from_context or a team UUID' })),
});

export const bulkOpsQuery = teamIdQuery.extend({
  next_cursor: optional(z.string().min(1).max(200)),
  page_size: optional(queryInt4(1).pipe(z.number().max(BULK_OPS_PAGE_MAX, { message: `must be at most ${BULK_OPS_PAGE_MAX}` }))),
});

/** The SDK's ConnectionRecipe. */
const connectionRecipe = z.object({
  user_id: uuid,
  access_token: line(8192),
  refresh_token: line(8192),
  provider_id: line(255),
  expires_at: z.number().int().min(0).max(INT4_MAX, { message: `must be at most ${INT4_MAX}` }),
  oauth_scopes: optional(z.array(line(255)).max(100)),
});

export const bulkImportBody = z.object({
  provider: oauthProvider,
  connections: z
    .array(connectionRecipe)
    .min(1, { message: 'must hold at least one connection' })
    .max(MAX_BULK_ITEMS, { message: `must hold at most ${MAX_BULK_ITEMS} connections` })
    .refine((list) => distinct(list.map((c) => c.user_id)), { message: 'must not hold two connections of one user' }),
  wait_for_completion: optional(z.boolean()),
});

export const bulkTriggerBody = z.object({
  user_ids: userIds(1),
  provider: oauthProvider,
  wait_for_completion: optional(z.boolean()),
});

export const bulkPauseBody = z.object({ user_ids: userIds(1), provider: oauthProvider });

export const bulkExportBody = z.object({
  user_ids: optional(userIds(0)),
  provider: oauthProvider,
  next_token: optional(z.string().min(1).max(200)),
});
