import { describe, expect, it } from 'vitest';
import { physician } from '../../api/routes/orders/responses.js';
import { orderingPhysician } from '../../domain/lab-accounts/delegation.js';
import { SERVICE_PHYSICIANS, servicePhysicianFor } from '../../domain/lab-accounts/physicians.js';
import { isValidNpi, orderPhysician, servicePhysicianNetwork } from '../../domain/physician.js';
import { ConfigError, loadConfig } from '../../lib/config.js';

describe("the service's physicians: one notion", () => {
  it('checks the NPI check digit (Luhn over 80840 + the number)', () => {
    expect(isValidNpi('1234567893')).toBe(true); // the CMS example
    for (const p of SERVICE_PHYSICIANS) expect(isValidNpi(p.npi)).toBe(true);
    expect(isValidNpi('1234567890')).toBe(false);
    expect(isValidNpi('123456789')).toBe(false);
    expect(isValidNpi('12345678931')).toBe(false);
    expect(isValidNpi('12345678a3')).toBe(false);
  });

  it('is the sandbox network by state when unconfigured, and the configured physician everywhere when set', () => {
    const sandbox = servicePhysicianNetwork(loadConfig({}));
    expect(sandbox).toBe(SERVICE_PHYSICIANS);
    expect(servicePhysicianFor('CA', sandbox).last_name).toBe('Okafor');
    expect(servicePhysicianFor('NY', sandbox).last_name).toBe('Whitfield');
    expect(servicePhysicianFor('TX', sandbox).last_name).toBe('Ferreira');
    const mine = servicePhysicianNetwork(loadConfig({ SERVICE_PHYSICIAN_FIRST_NAME: 'Ada', SERVICE_PHYSICIAN_LAST_NAME: 'Lovel', SERVICE_PHYSICIAN_NPI: '1234567893' }));
    for (const state of ['CA', 'NY', 'TX']) {
      expect(orderPhysician(servicePhysicianFor(state, mine))).toEqual({ first_name: 'Ada', last_name: 'Lovel', npi: '1234567893' });
    }
    // the lab-account rules sign with the same network
    const account = { id: 'a', delegatedFlow: 'order_and_results_with_vital_physician_network', delegatedAt: null } as never;
    const who = orderingPhysician({ account, physician: null, patientState: 'CA', now: new Date(), network: mine });
    expect(who.ok && orderPhysician(who.physician)).toEqual({ first_name: 'Ada', last_name: 'Lovel', npi: '1234567893' });
    expect(physician.parse(orderPhysician(servicePhysicianFor('CA', mine)))).toEqual({ first_name: 'Ada', last_name: 'Lovel', npi: '1234567893' });
  });

  it('refuses a bad NPI, an empty name, or a partial setting at start-up, naming the variable', () => {
    expect(() => loadConfig({ SERVICE_PHYSICIAN_NPI: '1234567890' })).toThrow(ConfigError);
    expect(() => loadConfig({ SERVICE_PHYSICIAN_NPI: '1234567890' })).toThrow(/SERVICE_PHYSICIAN_NPI: must be a 10-digit NPI/);
    expect(() => loadConfig({ SERVICE_PHYSICIAN_FIRST_NAME: ' ' })).toThrow(/SERVICE_PHYSICIAN_FIRST_NAME/);
    expect(() => loadConfig({ SERVICE_PHYSICIAN_LAST_NAME: 'x'.repeat(101) })).toThrow(/SERVICE_PHYSICIAN_LAST_NAME/);
    expect(() => loadConfig({ SERVICE_PHYSICIAN_NPI: '1234567893' })).toThrow(/SERVICE_PHYSICIAN_FIRST_NAME: required when any SERVICE_PHYSICIAN_\* is set/);
  });
});
