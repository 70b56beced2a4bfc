import { createHash } from 'node:crypto';
import type { LinkErrorType, MfaMethod } from './outcomes.js';

export interface PasswordCredentials {
  username: string;
  password: string;
  region?: string | null;
}

export type LoginResult =
  | { kind: 'success'; externalUserId: string }
  | { kind: 'mfa'; method: MfaMethod; hint: string; session: string }
  | { kind: 'error'; errorType: LinkErrorType; message: string };

/**
 * A password provider (WHOOP, LibreView…): log in with the user's credentials, possibly in two steps
 * (MFA). Real adapters call the provider; the sandbox one behaves like them from documented test
 * usernames (README, "Sandbox credentials").
 */
export interface PasswordProviderAdapter {
  login(provider: string, credentials: PasswordCredentials): Promise<LoginResult>;
  /** Second step: the code the user received; `session` is what `login` returned. */
  completeMfa(provider: string, session: string, code: string): Promise<LoginResult>;
}

/** The code every sandbox MFA challenge accepts. */
export const SANDBOX_MFA_CODE = '000000';

function externalId(provider: string, username: string): string {
  return `sbx-${createHash('sha256').update(`${provider}\0${username.toLowerCase()}`).digest('hex').slice(0, 20)}`;
}

/** Redacts all but the edges of a contact: `+1 ••• ••• 0142`, `s•••@example.com`. */
function hintFor(method: MfaMethod, username: string): string {
  const digits = createHash('sha256').update(username).digest().readUInt16BE(0) % 10_000;
  return method === 'sms' ? `+1 ••• ••• ${String(digits).padStart(4, '0')}` : `${username[0] ?? 'u'}•••@example.com`;
}

/**
 * The sandbox adapter. The username picks the result; a username ending in `+<anything>`
 * (`sandbox_ok+2`) behaves like the part before the `+` but is a different account at the provider.
 */
export function sandboxPasswordAdapter(): PasswordProviderAdapter {
  return {
    async login(provider, { username, region }) {
      if (region === 'kr') return { kind: 'error', errorType: 'unsupported_region', message: `${provider} is not available in region kr.` };
      const base = username.split('+')[0]!;
      switch (base) {
        case 'sandbox_ok':
          return { kind: 'success', externalUserId: externalId(provider, username) };
        case 'sandbox_mfa_sms':
        case 'sandbox_mfa_email': {
          const method: MfaMethod = base === 'sandbox_mfa_sms' ? 'sms' : 'email';
          return { kind: 'mfa', method, hint: hintFor(method, username), session: username };
        }
        case 'sandbox_password_expired':
          return { kind: 'error', errorType: 'provider_password_expired', message: 'The provider asks the user to reset their password.' };
        case 'sandbox_api_error':
          return { kind: 'error', errorType: 'provider_api_error', message: 'The provider did not answer as expected.' };
        default:
          return { kind: 'error', errorType: 'provider_credential_error', message: 'The provider refused the username or password.' };
      }
    },
    async completeMfa(provider, session, code) {
      if (code !== SANDBOX_MFA_CODE) return { kind: 'error', errorType: 'incorrect_mfa_code', message: 'The MFA code is not correct.' };
      return { kind: 'success', externalUserId: externalId(provider, session) };
    },
  };
}

/** An e-mail provider (FreeStyle Libre): the user is found by their e-mail address at the provider. */
export interface EmailProviderAdapter {
  connect(provider: string, credentials: { email: string; region?: string | null }): Promise<LoginResult>;
}

/**
 * The sandbox e-mail adapter (README, "Sandbox e-mail providers"): the e-mail's local part picks the
 * result, case-insensitive; a `+<anything>` suffix (`sandbox_ok+2@example.com`) behaves like the part
 * before the `+` but is a different account at the provider.
 */
export function sandboxEmailAdapter(): EmailProviderAdapter {
  return {
    async connect(provider, { email, region }) {
      if (region === 'kr') return { kind: 'error', errorType: 'unsupported_region', message: `${provider} is not available in region kr.` };
      const local = email.slice(0, email.lastIndexOf('@')).toLowerCase();
      switch (local.split('+')[0]) {
        case 'sandbox_ok':
          return { kind: 'success', externalUserId: externalId(provider, email) };
        case 'sandbox_api_error':
          return { kind: 'error', errorType: 'provider_api_error', message: 'The provider did not answer as expected.' };
        default:
          return { kind: 'error', errorType: 'provider_credential_error', message: 'The provider has no account with this e-mail address.' };
      }
    },
  };
}
