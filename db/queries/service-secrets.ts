import { randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { DbOrTx } from '../client.js';
import { serviceSecrets } from '../schema/index.js';
import { onceRetrying } from '../../lib/once.js';
import { createSecretBox, parseKey, type SecretBox } from '../../lib/secret-box.js';

/**
 * A secret the service makes for itself once and every instance then shares: the first caller's
 * value wins (insert … on conflict do nothing, then read).
 */
export async function serviceSecret(db: DbOrTx, name: string, make: () => string): Promise<string> {
  await db.insert(serviceSecrets).values({ name, value: make() }).onConflictDoNothing();
  const [row] = await db.select({ value: serviceSecrets.value }).from(serviceSecrets).where(eq(serviceSecrets.name, name));
  if (!row) throw new Error(`service secret ${name} missing after insert`);
  return row.value;
}

/**
 * The box that seals stored secrets: keyed by `SECRET_ENCRYPTION_KEY` when set (production should set
 * it, kept outside the database), else by a key made once and kept in service_secrets.
 */
export async function loadSecretBox(db: DbOrTx, envKey: string | undefined): Promise<SecretBox> {
  return createSecretBox(await loadMasterKey(db, envKey));
}

/** The service's master key: `SECRET_ENCRYPTION_KEY`, else one made once and kept in Postgres. */
export async function loadMasterKey(db: DbOrTx, envKey: string | undefined): Promise<Buffer> {
  const text = envKey ?? (await serviceSecret(db, 'secret-encryption-key', () => randomBytes(32).toString('base64')));
  return parseKey(text);
}

/** `loadMasterKey` once per process (again after a failure). */
export function lazyMasterKey(db: DbOrTx, envKey: string | undefined): () => Promise<Buffer> {
  return onceRetrying(() => loadMasterKey(db, envKey));
}

/** `loadSecretBox` once per process (again after a failure, e.g. Postgres down at the first call). */
export function lazySecretBox(db: DbOrTx, envKey: string | undefined): () => Promise<SecretBox> {
  return onceRetrying(() => loadSecretBox(db, envKey));
}
