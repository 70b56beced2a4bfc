import { describe, expect, it } from 'vitest';
import { SANDBOX_MFA_CODE, sandboxEmailAdapter, sandboxPasswordAdapter } from '../../domain/link/adapters.js';
import { hashLinkToken, newLinkToken, tokenRefusal } from '../../domain/link/tokens.js';

const adapter = sandboxPasswordAdapter();
const login = (username: string, region?: string) => adapter.login('whoop', { username, password: 'p', region: region ?? null });

describe('sandbox password adapter (README table)', () => {
  it.each([
    ['sandbox_ok', undefined, { kind: 'success' }],
    ['sandbox_mfa_sms', undefined, { kind: 'mfa', method: 'sms' }],
    ['sandbox_mfa_email', undefined, { kind: 'mfa', method: 'email' }],
    ['sandbox_bad_password', undefined, { kind: 'error', errorType: 'provider_credential_error' }],
    ['somebody_else', undefined, { kind: 'error', errorType: 'provider_credential_error' }],
    ['sandbox_password_expired', undefined, { kind: 'error', errorType: 'provider_password_expired' }],
    ['sandbox_api_error', undefined, { kind: 'error', errorType: 'provider_api_error' }],
    ['sandbox_ok', 'kr', { kind: 'error', errorType: 'unsupported_region' }],
    ['sandbox_mfa_sms', 'kr', { kind: 'error', errorType: 'unsupported_region' }],
  ])('%s in region %s', async (username, region, expected) => {
    expect(await login(username, region)).toMatchObject(expected);
  });

  it('hints are redacted and MFA accepts only the sandbox code', async () => {
    const mfa = await login('sandbox_mfa_sms');
    if (mfa.kind !== 'mfa') throw new Error('expected an MFA challenge');
    expect(mfa.hint).toMatch(/^\+1 ••• ••• \d{4}$/);
    expect(await adapter.completeMfa('whoop', mfa.session, '123456')).toMatchObject({ kind: 'error', errorType: 'incorrect_mfa_code' });
    const ok = await adapter.completeMfa('whoop', mfa.session, SANDBOX_MFA_CODE);
    expect(ok).toMatchObject({ kind: 'success' });
  });

  it('the same account gives the same external id; a +suffix is another account', async () => {
    const a = await login('sandbox_ok');
    const b = await login('sandbox_ok');
    const c = await login('sandbox_ok+2');
    expect(a).toEqual(b);
    expect(c).not.toEqual(a);
  });
});

describe('link tokens', () => {
  it('are random, stored only as a hash, and refused when consumed or expired', () => {
    const t = newLinkToken('token');
    expect(t).toMatch(/^lt_[A-Za-z0-9_-]{32}$/);
    expect(newLinkToken('token')).not.toBe(t);
    expect(hashLinkToken(t)).toMatch(/^[0-9a-f]{64}$/);
    const now = new Date('2026-01-01T00:00:00Z');
    expect(tokenRefusal(null, now)).toBe('invalid_token');
    expect(tokenRefusal({ expiresAt: new Date('2026-01-01T00:00:01Z'), consumedAt: null }, now)).toBeNull();
    expect(tokenRefusal({ expiresAt: now, consumedAt: null }, now)).toBe('token_expired');
    expect(tokenRefusal({ expiresAt: new Date('2027-01-01'), consumedAt: now }, now)).toBe('token_consumed');
  });
});

describe('sandbox e-mail adapter (README table)', () => {
  const emails = sandboxEmailAdapter();
  it.each([
    ['sandbox_ok@example.com', undefined, { kind: 'success' }],
    ['Sandbox_OK+2@example.com', undefined, { kind: 'success' }],
    ['sandbox_api_error@example.com', undefined, { kind: 'error', errorType: 'provider_api_error' }],
    ['nobody@example.com', undefined, { kind: 'error', errorType: 'provider_credential_error' }],
    ['sandbox_ok@example.com', 'kr', { kind: 'error', errorType: 'unsupported_region' }],
  ])('%s in region %s', async (email, region, expected) => {
    expect(await emails.connect('freestyle_libre', { email, region: region ?? null })).toMatchObject(expected);
  });

  it('the address picks the account: case does not matter, a +suffix is another account', async () => {
    const id = async (email: string) => {
      const r = await emails.connect('freestyle_libre', { email });
      return r.kind === 'success' ? r.externalUserId : null;
    };
    expect(await id('SANDBOX_OK@example.com')).toBe(await id('sandbox_ok@example.com'));
    expect(await id('sandbox_ok+2@example.com')).not.toBe(await id('sandbox_ok@example.com'));
  });
});
