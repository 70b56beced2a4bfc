/**
 * The service's own ordering physicians: they sign orders on non-delegated and platform accounts, and
 * orders whose team names none (`ClientFacingPhysician`: first_name, last_name, npi). One notion, used by
 * order creation, registration, requisitions and the lab-account rules (domain/lab-accounts/delegation.ts):
 * the physician configured with SERVICE_PHYSICIAN_* (licensed everywhere), or, when none is configured,
 * the sandbox network of domain/lab-accounts/physicians.ts (the first licensed in the patient's state). Pure.
 */
import { SERVICE_PHYSICIANS, type NetworkPhysician } from './lab-accounts/physicians.js';

export { isValidNpi } from './lab-accounts/physicians.js';

/** A type alias (not an interface) so it fits the orders' `Record<string, unknown>` physician column. */
export type Physician = {
  first_name: string;
  last_name: string;
  npi: string;
};

/** The physicians the service orders through, from the settings (all three SERVICE_PHYSICIAN_* or none). */
export function servicePhysicianNetwork(config: { SERVICE_PHYSICIAN_FIRST_NAME?: string | undefined; SERVICE_PHYSICIAN_LAST_NAME?: string | undefined; SERVICE_PHYSICIAN_NPI?: string | undefined }): readonly NetworkPhysician[] {
  const { SERVICE_PHYSICIAN_FIRST_NAME: first, SERVICE_PHYSICIAN_LAST_NAME: last, SERVICE_PHYSICIAN_NPI: npi } = config;
  return first && last && npi ? [{ first_name: first, last_name: last, npi, licensed_states: ['*'] }] : SERVICE_PHYSICIANS;
}

/** The physician as an order records it (ClientFacingPhysician: names and NPI only, no licences). */
export function orderPhysician(p: { first_name: string; last_name: string; npi: string }): Physician {
  return { first_name: p.first_name, last_name: p.last_name, npi: p.npi };
}
