import type { Client } from '@temporalio/client';
import { WorkflowNotFoundError, WorkflowUpdateFailedError } from '@temporalio/client';
import type { Context } from 'hono';
import { Hono } from 'hono';
import type { Db } from '../../../db/client.js';
import type { LinkErrorType, LinkOutcome } from '../../../domain/link/outcomes.js';
import type { SecretBox } from '../../../lib/secret-box.js';
import { completeMfaUpdate, connectionWorkflowId } from '../../../workflows/connection/definitions.js';
import type { AppEnv } from '../../env.js';
import { parse, parseJsonBody } from '../../validation.js';
import { runLinkAttempt } from './runner.js';
import { deprecatedPasswordAuthBody, mfaBody, passwordBody, passwordProviderParam } from './schemas.js';
import { checkLinkToken, presentedToken, refusalText } from './token.js';

export interface PasswordLinkDeps {
  db: Db;
  temporal: Client;
  secretBox: () => Promise<SecretBox>;
  startIngestion: boolean;
}

/** `ProviderLinkResponse` (CONTRACT §2), with the deprecated `provider`, `connected` and `provider_id`. */
export function linkResponse(provider: string, redirectUrl: string | null, outcome: LinkOutcome) {
  return {
    state: outcome.state,
    redirect_url: redirectUrl,
    error_type: outcome.state === 'error' ? outcome.errorType : null,
    error: outcome.state === 'error' ? outcome.error : null,
    provider_mfa: outcome.state === 'pending_provider_mfa' ? { method: outcome.method, hint: outcome.hint } : null,
    provider,
    connected: outcome.state === 'success',
    provider_id: outcome.state === 'success' ? outcome.providerId : null,
  };
}

export const failed = (errorType: LinkErrorType, error: string): LinkOutcome => ({ state: 'error', errorType, error });

/**
 * Password providers (`/v2/link/provider/password/{provider}`, `…/complete_mfa`, deprecated `/v2/link/auth`),
 * mounted at `/v2/link`: link-token auth,
 * always HTTP 200 with `state`; bad input is a 422. Credentials are sealed here and opened only by the
 * connection workflow's activity; they are never logged or returned.
 */
export function passwordLinkRoutes({ db, temporal, secretBox, startIngestion }: PasswordLinkDeps) {
  const app = new Hono<AppEnv>({ strict: false });

  async function attempt(c: Context<AppEnv>, provider: string, body: { username: string; password: string; region?: string | undefined }) {
    const found = await tokenFor(c, provider);
    if (!found.token) return found.response;
    const { token } = found;
    const sealed = (await secretBox()).seal(JSON.stringify({ username: body.username, password: body.password, region: body.region ?? null }));
    const outcome = await runLinkAttempt(temporal, {
      teamId: token.teamId,
      userId: token.userId,
      provider,
      method: 'password',
      linkTokenId: token.id,
      sealedCredentials: sealed,
      startIngestion,
    });
    return c.json(linkResponse(provider, token.redirectUrl, outcome));
  }

  async function tokenFor(c: Context<AppEnv>, provider: string) {
    const check = await checkLinkToken(db, presentedToken(c));
    if (!check.ok) {
      const redirect = check.token?.redirectUrl ?? null;
      return { response: c.json(linkResponse(provider, redirect, failed(check.errorType, refusalText(check.errorType)))) };
    }
    return { token: check.token };
  }

  app.post('/provider/password/:provider', async (c) => {
    const { provider } = parse(passwordProviderParam, c.req.param(), 'path');
    return attempt(c, provider, await parseJsonBody(c, passwordBody));
  });

  /** Deprecated `POST /v2/link/auth` (`passwordAuth`): the provider in the body, otherwise the same call. */
  app.post('/auth', async (c) => {
    const body = await parseJsonBody(c, deprecatedPasswordAuthBody);
    return attempt(c, body.provider, body);
  });

  app.post('/provider/password/:provider/complete_mfa', async (c) => {
    const { provider } = parse(passwordProviderParam, c.req.param(), 'path');
    const body = await parseJsonBody(c, mfaBody);
    const found = await tokenFor(c, provider);
    if (!found.token) return found.response;
    const { token } = found;
    let outcome: LinkOutcome;
    try {
      outcome = await temporal.workflow
        .getHandle(connectionWorkflowId(token.userId, provider))
        .executeUpdate(completeMfaUpdate, { args: [{ code: body.mfa_code, linkTokenId: token.id }] });
    } catch (err) {
      if (!(err instanceof WorkflowUpdateFailedError) && !(err instanceof WorkflowNotFoundError)) throw err;
      outcome = failed('invalid_token', 'No MFA challenge of this link token is pending for this provider; send the password again.');
    }
    return c.json(linkResponse(provider, token.redirectUrl, outcome));
  });

  return app;
}
