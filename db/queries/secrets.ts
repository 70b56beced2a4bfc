import { randomBytes } from 'node:crypto';
import type { DbOrTx } from '../client.js';
import { createUrlSigner, publicBaseUrl, type UrlSigner } from '../../lib/url-signing.js';
import { onceRetrying } from '../../lib/once.js';
import { serviceSecret } from './service-secrets.js';

export interface UrlSigningConfig {
  URL_SIGNING_SECRET?: string | undefined;
  PUBLIC_URL?: string | undefined;
  PORT?: number | undefined;
}

/**
 * The signer of document links (`requisition_form_url`): keyed by `URL_SIGNING_SECRET` when set, else
 * by a 32-byte secret made once and kept in service_secrets, so every API instance and worker of a
 * deployment signs and verifies with the same key.
 */
export async function loadUrlSigner(db: DbOrTx, config: UrlSigningConfig): Promise<UrlSigner> {
  const secret = config.URL_SIGNING_SECRET ?? (await serviceSecret(db, 'url-signing-key', () => randomBytes(32).toString('base64url')));
  return createUrlSigner(secret, publicBaseUrl(config));
}

/** `loadUrlSigner` once per process (again after a failure, e.g. Postgres down at the first call). */
export function lazyUrlSigner(db: DbOrTx, config: UrlSigningConfig): () => Promise<UrlSigner> {
  return onceRetrying(() => loadUrlSigner(db, config));
}
