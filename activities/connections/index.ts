import { ApplicationFailure } from '@temporalio/common';
import type { Db } from '../../db/client.js';
import { activateConnection, recordLinkFailure, type Activation, type LinkFailure } from '../../db/queries/connections.js';
import {
  sandboxEmailAdapter,
  sandboxPasswordAdapter,
  type EmailProviderAdapter,
  type LoginResult,
  type PasswordCredentials,
  type PasswordProviderAdapter,
} from '../../domain/link/adapters.js';
import type { Logger } from '../../lib/logger.js';
import type { SecretBox } from '../../lib/secret-box.js';
import { eventAnnouncer } from '../webhooks/announce.js';

interface Deps {
  db: Db;
  logger: Logger;
  secretBox: () => Promise<SecretBox>;
  wakeEndpoints: (endpointIds: string[]) => Promise<void>;
  /** The password providers' adapter (default: the sandbox one). */
  passwordAdapter?: PasswordProviderAdapter;
  /** The e-mail providers' adapter (default: the sandbox one). */
  emailAdapter?: EmailProviderAdapter;
}

function openCredentials(box: SecretBox, sealed: string): PasswordCredentials {
  let parsed: unknown;
  try {
    parsed = JSON.parse(box.open(sealed));
  } catch {
    throw ApplicationFailure.nonRetryable('sealed credentials cannot be opened', 'BadCredentials');
  }
  const c = parsed as Partial<PasswordCredentials> | null;
  if (!c || typeof c.username !== 'string' || typeof c.password !== 'string') {
    throw ApplicationFailure.nonRetryable('sealed credentials are malformed', 'BadCredentials');
  }
  return { username: c.username, password: c.password, region: c.region ?? null };
}

/** The connection workflow's I/O. Credentials are opened only here and never logged. */
function openEmail(box: SecretBox, sealed: string): { email: string; region: string | null } {
  let parsed: unknown;
  try {
    parsed = JSON.parse(box.open(sealed));
  } catch {
    throw ApplicationFailure.nonRetryable('sealed e-mail cannot be opened', 'BadCredentials');
  }
  const c = parsed as { email?: unknown; region?: unknown } | null;
  if (!c || typeof c.email !== 'string') throw ApplicationFailure.nonRetryable('sealed e-mail is malformed', 'BadCredentials');
  return { email: c.email, region: typeof c.region === 'string' ? c.region : null };
}

export function createConnectionActivities({ db, logger, secretBox, wakeEndpoints, passwordAdapter, emailAdapter }: Deps) {
  const adapter = passwordAdapter ?? sandboxPasswordAdapter();
  const emails = emailAdapter ?? sandboxEmailAdapter();
  const announce = eventAnnouncer(db, wakeEndpoints);
  return {
    async loginToProvider(input: { provider: string; sealedCredentials: string }): Promise<LoginResult> {
      const credentials = openCredentials(await secretBox(), input.sealedCredentials);
      const result = await adapter.login(input.provider, credentials);
      logger.info({ provider: input.provider, result: result.kind }, 'provider login');
      return result;
    },

    /** E-mail providers: finds the user's account at the provider by the (sealed) e-mail address. */
    async connectEmailProvider(input: { provider: string; sealedCredentials: string }): Promise<LoginResult> {
      const result = await emails.connect(input.provider, openEmail(await secretBox(), input.sealedCredentials));
      logger.info({ provider: input.provider, result: result.kind }, 'provider e-mail link');
      return result;
    },

    async completeProviderMfa(input: { provider: string; session: string; code: string }): Promise<LoginResult> {
      const result = await adapter.completeMfa(input.provider, input.session, input.code);
      logger.info({ provider: input.provider, result: result.kind }, 'provider mfa');
      return result;
    },

    async activateConnection(input: Activation): Promise<{ connectionId: string } | { duplicate: true }> {
      const result = await activateConnection(db, input, new Date());
      if ('userGone' in result) throw ApplicationFailure.nonRetryable('the user no longer exists', 'UserGone');
      if ('duplicate' in result) return result;
      logger.info({ provider: input.provider, user_id: input.userId, connection_id: result.connectionId }, 'connection active');
      await announce(input.eventId);
      return { connectionId: result.connectionId };
    },

    async recordLinkFailure(input: LinkFailure): Promise<void> {
      const endpoints = await recordLinkFailure(db, input, new Date());
      logger.info({ provider: input.provider, user_id: input.userId, error_type: input.errorType }, 'link failed');
      if (endpoints.length) await announce(input.eventId);
    },
  };
}
