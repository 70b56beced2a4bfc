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

export const emailBody = z.object({
  email: z.email().max(320),
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
