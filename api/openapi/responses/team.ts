/** Wire shapes of the team, provider, insurance and payor routes (SDK ClientFacingTeam, ClientFacingPayorSearchResponse…). */
import { z } from 'zod';
import { clientFacingProvider } from '../../routes/users/schemas.js';
import { physician } from '../../routes/orders/responses.js';

export const team = z.object({
  id: z.string(),
  org_id: z.string(),
  name: z.string(),
  testkits_texts_enabled: z.boolean(),
  lab_tests_patient_communication_enabled: z.boolean(),
  lab_tests_patient_sms_communication_enabled: z.boolean(),
  lab_tests_patient_email_communication_enabled: z.boolean(),
  delegated_flow: z.string(),
  configuration: z.looseObject({}),
});

export const physicians = z.array(physician);

export const sourcePriorities = z.array(
  z.object({ data_type: z.string(), priorities: z.array(z.object({ priority: z.number().int(), source: z.object({ slug: z.string() }) })) }),
);

export const providerDetailed = clientFacingProvider.extend({ description: z.string(), auth_type: z.string(), supported_resources: z.array(z.string()) });

const payorAddress = z.object({ first_line: z.string(), second_line: z.string().nullable(), city: z.string(), state: z.string(), zip: z.string(), country: z.string() });
const payorFields = { name: z.string(), aliases: z.array(z.string()), org_address: payorAddress, source: z.enum(['platform', 'team']) };
export const payor = z.object({ payor_code: z.string(), ...payorFields });
/** The deprecated POST search names the code `code`. */
export const payorByCode = z.object({ code: z.string(), ...payorFields });

export const diagnoses = z.array(z.object({ diagnosis_code: z.string(), description: z.string(), is_secondary: z.boolean() }));
export const icdValidation = z.object({
  valid: z.boolean(),
  errors: z.array(z.string()),
  violations: z.array(z.object({ code: z.string(), conflicts_with: z.string(), type: z.string() })),
  warnings: z.array(z.object({ code: z.string(), overlaps_with: z.string(), type: z.string() })),
});
