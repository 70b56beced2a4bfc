/** Physicians who order lab tests: the client's own (on delegated accounts) or the service's network. */

export interface Physician {
  first_name: string;
  last_name: string;
  npi: string;
  email?: string | null;
  licensed_states?: string[] | null;
}

/**
 * Whether an NPI is well formed: ten digits whose last is the Luhn check digit of the other nine
 * prefixed with 80840 (the card issuer prefix the NPI standard uses).
 */
export function isValidNpi(npi: string): boolean {
  if (!/^[12]\d{9}$/.test(npi)) return false;
  const digits = `80840${npi}`;
  let sum = 0;
  for (let i = digits.length - 1, double = false; i >= 0; i--, double = !double) {
    let d = Number(digits[i]);
    if (double) d = d * 2 > 9 ? d * 2 - 9 : d * 2;
    sum += d;
  }
  return sum % 10 === 0;
}

/**
 * The service's own physician network (sandbox identities, valid NPIs): they order on non-delegated
 * and platform accounts. Each is licensed in a set of states; the first licensed in the patient's
 * state orders, and the last (licensed everywhere) covers the rest.
 */
export interface NetworkPhysician {
  first_name: string;
  last_name: string;
  npi: string;
  /** USPS state codes, or `*` for every state. */
  licensed_states: string[];
}

export const SERVICE_PHYSICIANS: readonly NetworkPhysician[] = [
  { first_name: 'Amara', last_name: 'Okafor', npi: '1743829560', licensed_states: ['CA', 'OR', 'WA', 'NV', 'AZ'] },
  { first_name: 'Daniel', last_name: 'Whitfield', npi: '1284053976', licensed_states: ['NY', 'NJ', 'CT', 'MA', 'PA'] },
  { first_name: 'Lucia', last_name: 'Ferreira', npi: '1992036453', licensed_states: ['*'] },
];

/** The network's physician for a patient in `state`: the first licensed there, else one licensed everywhere (`*`), else the last. */
export function servicePhysicianFor(state: string, network: readonly NetworkPhysician[] = SERVICE_PHYSICIANS): Physician {
  const wanted = state.toUpperCase();
  const found = network.find((p) => p.licensed_states.includes(wanted)) ?? network.find((p) => p.licensed_states.includes('*')) ?? network[network.length - 1]!;
  return { first_name: found.first_name, last_name: found.last_name, npi: found.npi, licensed_states: [...found.licensed_states] };
}
