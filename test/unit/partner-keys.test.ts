import { describe, expect, it } from 'vitest';
import { checkKeyScope, checkPartnerKeyScope, hashApiKey, mintApiKey, mintPartnerKey } from '../../domain/api-keys.js';
import { mayReport } from '../../api/routes/partner/report.js';
import type { Partner } from '../../db/queries/partners.js';

describe('partner keys', () => {
  it('have their own prefix carrying environment and region, and are stored as a hash', () => {
    const k = mintPartnerKey('sandbox', 'us');
    expect(k.key).toMatch(/^partner_sandbox_us_[A-Za-z0-9_-]{43}$/);
    expect(mintPartnerKey('production', 'eu').key).toMatch(/^partner_production_eu_/);
    expect(k.hash).toBe(hashApiKey(k.key));
    expect(k.hash).not.toContain(k.key.slice(19));
    expect(k.hint).toMatch(/^partner_sandbox_us_….{4}$/);
    expect(mintPartnerKey('sandbox', 'us').key).not.toBe(k.key);
  });

  it('are never taken for team keys, nor team keys for partner keys', () => {
    for (const env of ['sandbox', 'production'] as const) {
      for (const region of ['us', 'eu'] as const) {
        expect(checkKeyScope(mintPartnerKey(env, region).key, env, region).ok).toBe(false);
        expect(checkPartnerKeyScope(mintApiKey(env, region).key, env, region).ok).toBe(false);
        expect(checkPartnerKeyScope(mintPartnerKey(env, region).key, env, region)).toEqual({ ok: true });
      }
    }
  });

  it('only work in the environment and region they were minted for', () => {
    const key = mintPartnerKey('sandbox', 'us').key;
    expect(checkPartnerKeyScope(key, 'production', 'us').ok).toBe(false);
    expect(checkPartnerKeyScope(key, 'sandbox', 'eu').ok).toBe(false);
    expect(checkPartnerKeyScope('partner_sandbox_us_short', 'sandbox', 'us')).toEqual({ ok: false, reason: 'Invalid partner API key.' });
  });
});

describe('partner kinds', () => {
  const as = (kind: Partner['kind']): Partner => ({ id: 'k', name: 'n', kind, labId: kind === 'lab' ? 1 : null });

  it('couriers report shipment events only', () => {
    expect(mayReport(as('courier'), 'shipment', 'transit_customer')).toBe(true);
    expect(mayReport(as('courier'), 'shipment', 'delivered_to_lab')).toBe(true);
    for (const e of ['sample_received', 'results', 'failure'] as const) expect(mayReport(as('courier'), e)).toBe(false);
  });

  it('labs report receipt, results, failures, and of the shipment events only delivery to the lab', () => {
    for (const e of ['sample_received', 'results', 'failure'] as const) expect(mayReport(as('lab'), e)).toBe(true);
    expect(mayReport(as('lab'), 'shipment', 'delivered_to_lab')).toBe(true);
    expect(mayReport(as('lab'), 'shipment', 'transit_customer')).toBe(false);
  });

  it('operators report everything', () => {
    for (const e of ['shipment', 'sample_received', 'results', 'failure'] as const) expect(mayReport(as('operator'), e, 'lost')).toBe(true);
  });
});
