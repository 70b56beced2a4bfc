import type { Context } from 'hono';
import type { Db } from '../../../db/client.js';
import { findLinkToken, type LinkTokenRow } from '../../../db/queries/link.js';
import { findUser } from '../../../db/queries/users.js';
import { LINK_TOKEN_HEADERS, hashLinkToken, tokenRefusal } from '../../../domain/link/tokens.js';
import type { LinkErrorType } from '../../../domain/link/outcomes.js';
import type { AppEnv } from '../../env.js';
import { HttpError } from '../../errors.js';

export type TokenCheck = { ok: true; token: LinkTokenRow } | { ok: false; errorType: LinkErrorType; token: LinkTokenRow | null };

const TOKEN_SHAPE = /^l[tc]_[A-Za-z0-9_-]{16,128}$/;

/** Looks a link token up by its hash and says whether it may be used now (its user must still exist). */
export async function checkLinkToken(db: Db, presented: string | undefined, now = new Date()): Promise<TokenCheck> {
  if (!presented || !TOKEN_SHAPE.test(presented)) return { ok: false, errorType: 'invalid_token', token: null };
  const token = await findLinkToken(db, hashLinkToken(presented));
  const refusal = tokenRefusal(token, now);
  if (refusal) return { ok: false, errorType: refusal, token };
  const user = await findUser(db, token!.teamId, token!.userId);
  if (!user || user.deletedAt) return { ok: false, errorType: 'invalid_token', token: null };
  return { ok: true, token: token! };
}

export function presentedToken(c: Context<AppEnv>): string | undefined {
  return c.req.header(LINK_TOKEN_HEADERS[0]) ?? c.req.header(LINK_TOKEN_HEADERS[1]);
}

const REFUSALS: Partial<Record<LinkErrorType, string>> = {
  invalid_token: 'The link token is missing or not valid.',
  token_expired: 'The link token has expired; ask for a new one.',
  token_consumed: 'The link token has already been used to connect a provider.',
};

export function refusalText(type: LinkErrorType): string {
  return REFUSALS[type] ?? type;
}

/** For link-token routes that answer errors with a status (not the password routes' `state`). */
export async function requireLinkToken(c: Context<AppEnv>, db: Db, options: { allowConsumed?: boolean } = {}): Promise<LinkTokenRow> {
  const check = await checkLinkToken(db, presentedToken(c));
  if (check.ok) return check.token;
  if (options.allowConsumed && check.errorType === 'token_consumed' && check.token) return check.token;
  throw new HttpError(401, refusalText(check.errorType));
}
