/**
 * The ordering physician of an order (`ClientFacingPhysician`: first_name, last_name, npi). Orders
 * whose team names none are signed by the service's own physician (SERVICE_PHYSICIAN_* settings), as
 * the hosted service does for teams without a physician network of their own ("orders on
 * non-delegated accounts use the service's physicians"). Pure.
 */

/** A type alias (not an interface) so it fits the orders' `Record<string, unknown>` physician column. */
export type Physician = {
  first_name: string;
  last_name: string;
  npi: string;
};

/** Sandbox default: a fictional physician whose NPI passes the check digit but belongs to no one. */
export const SANDBOX_PHYSICIAN: Physician = { first_name: 'Morgan', last_name: 'Ellery', npi: '1748593021' };

/** True for a 10-digit NPI with a valid check digit (Luhn over the number prefixed with 80840). */
export function isValidNpi(npi: string): boolean {
  if (!/^\d{10}$/.test(npi)) return false;
  let sum = 0;
  [...`80840${npi}`].reverse().forEach((ch, i) => {
    let d = Number(ch);
    if (i % 2 === 1) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
  });
  return sum % 10 === 0;
}

/** The service's physician from the settings, each missing part from the sandbox default. */
export function servicePhysician(config: { SERVICE_PHYSICIAN_FIRST_NAME?: string; SERVICE_PHYSICIAN_LAST_NAME?: string; SERVICE_PHYSICIAN_NPI?: string }): Physician {
  return {
    first_name: config.SERVICE_PHYSICIAN_FIRST_NAME ?? SANDBOX_PHYSICIAN.first_name,
    last_name: config.SERVICE_PHYSICIAN_LAST_NAME ?? SANDBOX_PHYSICIAN.last_name,
    npi: config.SERVICE_PHYSICIAN_NPI ?? SANDBOX_PHYSICIAN.npi,
  };
}
