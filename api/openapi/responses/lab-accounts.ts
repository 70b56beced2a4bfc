/** Wire shape of a lab account (api/routes/lab-accounts/serialize.ts, SDK ClientFacingLabAccount). */
import { z } from 'zod';

export const labAccount = z.object({
  id: z.string(),
  lab: z.string(),
  lab_id: z.number().int(),
  org_id: z.string().nullable(),
  team_id: z.string().nullable(),
  is_platform: z.boolean(),
  status: z.string(),
  delegated_flow: z.string(),
  provider_account_id: z.string().nullable(),
  account_name: z.string(),
  name: z.string(),
  default_clinical_notes: z.string().nullable(),
  business_units: z.array(z.unknown()).nullable(),
  /** Billing types and the US states each is allowed in. */
  allowed_billing: z.record(z.string(), z.array(z.string())),
  team_id_allowlist: z.array(z.string().nullable()),
  created_at: z.iso.datetime({ offset: true }),
});
