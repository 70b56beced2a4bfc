/** Wire shapes of the Link routes (CONTRACT §2: LinkTokenExchangeResponse, ProviderLinkResponse, bulk operations…). */
import { z } from 'zod';

const isoDateTime = z.iso.datetime({ offset: true });
const display = { name: z.string(), slug: z.string(), logo: z.string() };

export const linkToken = z.object({ link_token: z.string(), link_web_url: z.string() });
export const linkTokenValidity = z.object({ valid: z.boolean(), error_type: z.string().nullable(), user_id: z.string().nullable(), expires_at: isoDateTime.nullable() });
export const linkStart = z.object({
  link_token: z.string(), provider: z.string(), auth_type: z.string(), user_id: z.string(), redirect_url: z.string().nullable(), expires_at: isoDateTime,
});
export const linkCode = z.object({ code: z.string(), exchange_url: z.string(), expires_at: isoDateTime });
export const linkSuccess = z.object({ success: z.boolean(), detail: z.string().optional() });

/** Password and email providers answer 200 with a `state`, success or not. */
export const providerLinkResponse = z.object({
  state: z.string(),
  redirect_url: z.string().nullable(),
  error_type: z.string().nullable(),
  error: z.string().nullable(),
  provider_mfa: z.object({ method: z.string(), hint: z.string().nullable() }).nullable(),
  provider: z.string(),
  connected: z.boolean(),
  provider_id: z.string().nullable(),
});

export const linkState = z.object({
  state: z.enum(['consumed', 'active']),
  user_id: z.string(),
  team_id: z.string(),
  provider: z.string().nullable(),
  redirect_url: z.string().nullable(),
  filter_on_providers: z.array(z.string()).nullable(),
  expires_at: isoDateTime,
  expires_in_seconds: z.number().int(),
  connected_providers: z.array(z.object({ slug: z.string(), status: z.string() })),
});
export const linkProviders = z.array(z.object({ id: z.number().int(), ...display, description: z.string(), auth_type: z.string() }));
export const oauthProvider = z.object({
  id: z.number().int(), ...display, description: z.string(), oauth_url: z.string(), auth_type: z.literal('oauth'), source_type: z.string(), is_active: z.boolean(),
});
export const linkConfig = z.object({ reject_duplicate_connection: z.boolean(), filter_on_providers: z.array(z.string()).nullable(), redirect_url: z.string().nullable() });
/** The sandbox consent page's decision, when the link token has no redirect URL. */
export const sandboxDecision = z.object({ state: z.string(), provider: z.string(), error_type: z.string().optional(), error: z.string().optional() });

const ids = z.array(z.string());
export const bulkOps = z.object({
  data: z.array(
    z.object({
      id: z.string(), type: z.string(), status: z.string(), provider: z.string(), pending: z.number().int(), processed: z.number().int(),
      started_at: isoDateTime, ended_at: isoDateTime.nullable(), user_ids_succeeded: ids, user_ids_failed: ids,
    }),
  ),
  next_cursor: z.string().nullable(),
});
export const bulkImport = z.object({ user_ids_imported: ids, user_ids_failed: ids, bulk_op_id: z.string(), status: z.string() });
export const bulkTrigger = z.object({ bulk_op_id: z.string(), status: z.string(), user_ids_triggered: ids, user_ids_not_running: ids, user_ids_failed: ids });
export const bulkPause = z.object({ success: z.boolean(), provider: z.string(), user_ids_paused: ids, user_ids_without_connection: ids });
export const bulkExport = z.object({ data: z.array(z.looseObject({ user_id: z.string(), access_token: z.string(), refresh_token: z.string() })), next_token: z.string().nullable() });
