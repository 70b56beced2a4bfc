import { createHash, randomBytes } from 'node:crypto';
import type { LinkErrorType } from './outcomes.js';

/** Link tokens live one hour (the documented Link widget lifetime; BEHAVIOUR §7 notes the 10-minute variant). */
export const LINK_TOKEN_TTL_SECONDS = 3600;
/** Link codes (`link.codeCreate`) default to the same lifetime and may ask for at most 7 days. */
export const LINK_CODE_MAX_TTL_SECONDS = 7 * 24 * 3600;

/** Header names accepted for the link token; the first is what @tryvital/vital-node sends. */
export const LINK_TOKEN_HEADERS = ['x-vital-link-token', 'x-service-link-token'] as const;

export function newLinkToken(kind: 'token' | 'code'): string {
  return `${kind === 'token' ? 'lt' : 'lc'}_${randomBytes(24).toString('base64url')}`;
}

/** Only this hash is stored; a presented token is looked up by it. */
export function hashLinkToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

export interface TokenFacts {
  expiresAt: Date;
  consumedAt: Date | null;
}

/** Why a found token may not be used now, if it may not. */
export function tokenRefusal(token: TokenFacts | null, now: Date): LinkErrorType | null {
  if (!token) return 'invalid_token';
  if (token.consumedAt) return 'token_consumed';
  if (token.expiresAt.getTime() <= now.getTime()) return 'token_expired';
  return null;
}
