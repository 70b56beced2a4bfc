import { createHash, randomBytes } from 'node:crypto';
import type { ServiceEnvironment, ServiceRegion } from './environment.js';

/**
 * Team API keys carry where they are valid in their text: `sk_<region>_…` for sandbox and
 * `pk_<region>_…` for production, so a sandbox key can never authenticate against production.
 */
const PREFIX_BY_ENV: Record<ServiceEnvironment, string> = { sandbox: 'sk', production: 'pk' };
const KEY_PATTERN = /^(sk|pk)_(us|eu)_([A-Za-z0-9_-]{32,})$/;

export interface MintedKey {
  key: string;
  hash: string;
  hint: string;
}

export function mintApiKey(environment: ServiceEnvironment, region: ServiceRegion): MintedKey {
  const key = `${PREFIX_BY_ENV[environment]}_${region}_${randomBytes(32).toString('base64url')}`;
  return { key, hash: hashApiKey(key), hint: `${key.slice(0, 6)}…${key.slice(-4)}` };
}

/** Keys are 256-bit random, so a plain SHA-256 is a safe one-way storage form (no brute force). */
export function hashApiKey(key: string): string {
  return createHash('sha256').update(key, 'utf8').digest('hex');
}

export type KeyScopeCheck =
  | { ok: true }
  | { ok: false; reason: string };

/** Checks the key's shape and that it was minted for this service's environment and region. */
export function checkKeyScope(key: string, environment: ServiceEnvironment, region: ServiceRegion): KeyScopeCheck {
  const m = KEY_PATTERN.exec(key);
  if (!m) return { ok: false, reason: 'Invalid API key.' };
  const env: ServiceEnvironment = m[1] === 'sk' ? 'sandbox' : 'production';
  if (env !== environment || m[2] !== region) {
    return { ok: false, reason: `This API key is for the ${env} ${m[2]} environment; this service is ${environment} ${region}.` };
  }
  return { ok: true };
}

/**
 * Partner keys (couriers, labs, operators reporting on orders) are a separate kind of key:
 * `partner_<environment>_<region>_…`. Neither pattern matches the other's keys, so a partner key is
 * refused by team authentication and a team key by partner authentication before any lookup, and
 * they live in different tables besides.
 */
export const PARTNER_KEY_PREFIX = 'partner';
const PARTNER_KEY_PATTERN = /^partner_(sandbox|production)_(us|eu)_([A-Za-z0-9_-]{32,})$/;

export function mintPartnerKey(environment: ServiceEnvironment, region: ServiceRegion): MintedKey {
  const key = `${PARTNER_KEY_PREFIX}_${environment}_${region}_${randomBytes(32).toString('base64url')}`;
  return { key, hash: hashApiKey(key), hint: `${key.slice(0, PARTNER_KEY_PREFIX.length + environment.length + region.length + 3)}…${key.slice(-4)}` };
}

/** Like checkKeyScope, for partner keys: the shape, and the environment and region they were minted for. */
export function checkPartnerKeyScope(key: string, environment: ServiceEnvironment, region: ServiceRegion): KeyScopeCheck {
  const m = PARTNER_KEY_PATTERN.exec(key);
  if (!m) return { ok: false, reason: 'Invalid partner API key.' };
  if (m[1] !== environment || m[2] !== region) {
    return { ok: false, reason: `This partner key is for the ${m[1]} ${m[2]} environment; this service is ${environment} ${region}.` };
  }
  return { ok: true };
}
