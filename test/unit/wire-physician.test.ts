import { describe, expect, it } from 'vitest';
import { physician } from '../../api/routes/orders/responses.js';
import { SANDBOX_PHYSICIAN, isValidNpi, servicePhysician } from '../../domain/physician.js';
import { ConfigError, loadConfig } from '../../lib/config.js';

describe("the service's physician", () => {
  it('checks the NPI check digit (Luhn over 80840 + the number)', () => {
    expect(isValidNpi('1234567893')).toBe(true); // the CMS example
    expect(isValidNpi(SANDBOX_PHYSICIAN.npi)).toBe(true);
    expect(isValidNpi('1234567890')).toBe(false);
    expect(isValidNpi('123456789')).toBe(false);
    expect(isValidNpi('12345678931')).toBe(false);
    expect(isValidNpi('12345678a3')).toBe(false);
  });

  it('defaults to the sandbox physician and is configurable', () => {
    expect(servicePhysician(loadConfig({}))).toEqual(SANDBOX_PHYSICIAN);
    expect(physician.parse(servicePhysician(loadConfig({})))).toEqual(SANDBOX_PHYSICIAN);
    const mine = loadConfig({ SERVICE_PHYSICIAN_FIRST_NAME: 'Ada', SERVICE_PHYSICIAN_LAST_NAME: 'Okafor', SERVICE_PHYSICIAN_NPI: '1234567893' });
    expect(servicePhysician(mine)).toEqual({ first_name: 'Ada', last_name: 'Okafor', npi: '1234567893' });
    expect(servicePhysician({})).toEqual(SANDBOX_PHYSICIAN);
  });

  it('refuses a bad NPI or an empty name at start-up, naming the variable', () => {
    expect(() => loadConfig({ SERVICE_PHYSICIAN_NPI: '1234567890' })).toThrow(ConfigError);
    expect(() => loadConfig({ SERVICE_PHYSICIAN_NPI: '1234567890' })).toThrow(/SERVICE_PHYSICIAN_NPI: must be a 10-digit NPI/);
    expect(() => loadConfig({ SERVICE_PHYSICIAN_FIRST_NAME: ' ' })).toThrow(/SERVICE_PHYSICIAN_FIRST_NAME/);
    expect(() => loadConfig({ SERVICE_PHYSICIAN_LAST_NAME: 'x'.repeat(101) })).toThrow(/SERVICE_PHYSICIAN_LAST_NAME/);
  });
});
