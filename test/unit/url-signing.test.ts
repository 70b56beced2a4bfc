import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../lib/config.js';
import { createUrlSigner, publicBaseUrl } from '../../lib/url-signing.js';

const secret = 'a-test-signing-secret-of-at-least-32-chars';
const now = new Date('2026-11-23T10:00:00Z');
const in7Days = new Date(now.getTime() + 7 * 86400_000);
const path = '/documents/orders/5b6f0a52-1d0e-4a8e-9d7c-2f1f4b1d2c3e/requisition.pdf';

function queryOf(url: string) {
  const u = new URL(url);
  return { path: u.pathname, expires: u.searchParams.get('expires') ?? undefined, signature: u.searchParams.get('signature') ?? undefined };
}

describe('signed URLs', () => {
  const signer = createUrlSigner(secret, 'https://labs.example.com/');

  it('signs a path under the public base with an expiry in Unix seconds', () => {
    const url = signer.sign(path, in7Days);
    expect(url).toMatch(new RegExp(`^https://labs\\.example\\.com${path}\\?expires=${in7Days.getTime() / 1000}&signature=[A-Za-z0-9_-]{43}$`));
    const q = queryOf(url);
    expect(q.path).toBe(path);
    expect(signer.verify(path, q, now)).toBe('valid');
    // the same inputs sign the same way (a webhook payload and a GET agree on one link)
    expect(signer.sign(path, in7Days)).toBe(url);
  });

  it('is valid until the expiry and expired from then on', () => {
    const q = queryOf(signer.sign(path, in7Days));
    expect(signer.verify(path, q, new Date(in7Days.getTime() - 1000))).toBe('valid');
    expect(signer.verify(path, q, in7Days)).toBe('expired');
    expect(signer.verify(path, q, new Date(in7Days.getTime() + 86400_000))).toBe('expired');
  });

  it('refuses a changed path, expiry or signature, another key, and missing or malformed values', () => {
    const q = queryOf(signer.sign(path, in7Days));
    expect(signer.verify(path.replace('5b6f', '5b6e'), q, now)).toBe('invalid');
    expect(signer.verify(path, { ...q, expires: String(Number(q.expires) + 3600) }, now)).toBe('invalid');
    const flipped = (q.signature![0] === 'A' ? 'B' : 'A') + q.signature!.slice(1);
    expect(signer.verify(path, { ...q, signature: flipped }, now)).toBe('invalid');
    expect(createUrlSigner(`${secret}-other`, 'https://labs.example.com').verify(path, q, now)).toBe('invalid');
    expect(signer.verify(path, { expires: q.expires }, now)).toBe('invalid');
    expect(signer.verify(path, { signature: q.signature }, now)).toBe('invalid');
    expect(signer.verify(path, { ...q, expires: '-1' }, now)).toBe('invalid');
    expect(signer.verify(path, { ...q, signature: `${q.signature}A` }, now)).toBe('invalid');
    expect(signer.verify(path, { ...q, signature: 'short' }, now)).toBe('invalid');
  });

  it('an expired link with a tampered expiry is refused as invalid, not extended', () => {
    const past = queryOf(signer.sign(path, new Date(now.getTime() - 1000)));
    expect(signer.verify(path, past, now)).toBe('expired');
    expect(signer.verify(path, { ...past, expires: String(Number(past.expires) + 7 * 86400) }, now)).toBe('invalid');
  });

  it('needs a secret of at least 32 characters', () => {
    expect(() => createUrlSigner('too-short', 'http://localhost:8000')).toThrow(/at least 32/);
  });
});

describe('URL settings', () => {
  it('PUBLIC_URL is the base of links; unset, this host on PORT', () => {
    expect(publicBaseUrl(loadConfig({}))).toBe('http://localhost:8000');
    expect(publicBaseUrl(loadConfig({ PORT: '9100' }))).toBe('http://localhost:9100');
    expect(publicBaseUrl(loadConfig({ PUBLIC_URL: 'https://labs.example.com/api/' }))).toBe('https://labs.example.com/api');
  });

  it('refuses a PUBLIC_URL that is not an http(s) URL and a short URL_SIGNING_SECRET', () => {
    expect(() => loadConfig({ PUBLIC_URL: 'labs.example.com' })).toThrow(/PUBLIC_URL/);
    expect(() => loadConfig({ PUBLIC_URL: 'https://labs.example.com/?x=1' })).toThrow(/PUBLIC_URL/);
    expect(() => loadConfig({ URL_SIGNING_SECRET: 'short' })).toThrow(/URL_SIGNING_SECRET: must be at least 32 characters/);
    expect(loadConfig({ URL_SIGNING_SECRET: secret }).URL_SIGNING_SECRET).toBe(secret);
  });
});
