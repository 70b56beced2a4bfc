/** Wire shapes of the user routes that api/routes/users/responses.ts does not hold (CONTRACT §1). */
import { z } from 'zod';
import { clientFacingProvider } from '../../routes/users/schemas.js';

const isoDateTime = z.iso.datetime({ offset: true });

export const userProviders = z.object({
  providers: z.array(
    clientFacingProvider.extend({
      created_on: isoDateTime,
      status: z.string(),
      external_user_id: z.string().nullable(),
      error_details: z.object({ error_type: z.string(), error_message: z.string(), errored_at: isoDateTime }).optional(),
      resource_availability: z.record(z.string(), z.unknown()),
    }),
  ),
});

export const teamConnectionMetrics = z.object({
  team_id: z.string(),
  number_of_connected_sources: z.number().int(),
  number_of_users: z.number().int(),
  number_of_errored_connected_sources: z.number().int(),
});

export const refreshResult = z.object({
  success: z.boolean(),
  user_id: z.string(),
  refreshed_sources: z.array(z.string()),
  in_progress_sources: z.array(z.string()),
  failed_sources: z.array(z.string()),
});

export const device = z.object({
  id: z.string(),
  user_id: z.string(),
  provider: z.string(),
  source_type: z.string(),
  device_manufacturer: z.string(),
  device_id: z.string().nullable(),
});

export const signInToken = z.object({ user_id: z.string(), sign_in_token: z.string() });
export const portalUrl = z.object({ url: z.string(), expires_in: z.number() });

const address = z.looseObject({ first_line: z.string(), second_line: z.string().nullish(), city: z.string().optional(), state: z.string().optional(), zip: z.string(), country: z.string() });

export const userInsurance = z.object({
  id: z.string(),
  member_id: z.string(),
  payor_code: z.string(),
  group_id: z.string().nullable(),
  relationship: z.string(),
  insured: z.looseObject({}),
  guarantor: z.looseObject({}).nullable(),
  is_primary: z.boolean(),
  company: z.object({ name: z.string(), address: address.nullable() }),
  created_at: isoDateTime,
});

/** The user's info as last written (PATCH /v2/user/{id}/info echoes what it stored). */
export const userInfo = z.looseObject({
  first_name: z.string(),
  last_name: z.string(),
  email: z.string(),
  phone_number: z.string(),
  gender: z.string(),
  dob: z.string(),
  address: address,
});
