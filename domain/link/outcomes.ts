/** Link outcomes (CONTRACT §2 `ProviderLinkResponse*`, §11 `ProviderConnectionErrorErrorType`). */
export const LINK_ERROR_TYPES = [
  'invalid_token', 'token_expired', 'token_not_validated', 'token_consumed', 'provider_credential_error',
  'provider_password_expired', 'provider_api_error', 'unsupported_region', 'duplicate_connection',
  'required_scopes_not_granted', 'incorrect_mfa_code', 'user_cancelled',
] as const;
export type LinkErrorType = (typeof LINK_ERROR_TYPES)[number];

export type MfaMethod = 'sms' | 'email';

/** What a link attempt came to, before it is put on the wire. */
export type LinkOutcome =
  | { state: 'success'; providerId: string }
  | { state: 'pending_provider_mfa'; method: MfaMethod; hint: string }
  | { state: 'error'; errorType: LinkErrorType; error: string };

/** The `error_type` of a `provider.connection.error` event for a link failure at the provider. */
export function connectionErrorType(type: LinkErrorType): 'provider_credential_error' | 'provider_password_expired' | 'unknown' {
  return type === 'provider_credential_error' || type === 'provider_password_expired' ? type : 'unknown';
}

/** Failures that happened at the provider (announced as `provider.connection.error`); token and input errors are not. */
export function isProviderFailure(type: LinkErrorType): boolean {
  return type === 'provider_credential_error' || type === 'provider_password_expired' || type === 'provider_api_error';
}
