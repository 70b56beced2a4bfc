import { describe, expect, it } from 'vitest';
import { checkKeyScope, hashApiKey, mintApiKey } from '../../domain/api-keys.js';

describe('API keys', () => {
  it('carry environment and region in their text', () => {
    expect(mintApiKey('sandbox', 'us').key).toMatch(/^sk_us_[A-Za-z0-9_-]{43}$/);
    expect(mintApiKey('production', 'eu').key).toMatch(/^pk_eu_[A-Za-z0-9_-]{43}$/);
  });

  it('are random, and stored as a SHA-256 hash that is not the key', () => {
    const a = mintApiKey('sandbox', 'us');
    const b = mintApiKey('sandbox', 'us');
    expect(a.key).not.toBe(b.key);
    expect(a.hash).toBe(hashApiKey(a.key));
    expect(a.hash).toMatch(/^[0-9a-f]{64}$/);
    expect(a.hash).not.toContain(a.key.slice(6));
    expect(a.hint).toMatch(/^sk_us_…/);
    expect(a.hint.length).toBeLessThan(16);
  });

  it('only work in the environment and region they were minted for', () => {
    const sandboxUs = mintApiKey('sandbox', 'us').key;
    expect(checkKeyScope(sandboxUs, 'sandbox', 'us')).toEqual({ ok: true });
    expect(checkKeyScope(sandboxUs, 'production', 'us').ok).toBe(false);
    expect(checkKeyScope(sandboxUs, 'sandbox', 'eu').ok).toBe(false);
    expect(checkKeyScope('sk_us_short', 'sandbox', 'us')).toEqual({ ok: false, reason: 'Invalid API key.' });
    expect(checkKeyScope('', 'sandbox', 'us').ok).toBe(false);
  });
});
