import type { Client } from '@temporalio/client';
import type { Context } from 'hono';
import { Hono } from 'hono';
import type { Db } from '../../../db/client.js';
import type { SecretBox } from '../../../lib/secret-box.js';
import type { AppEnv } from '../../env.js';
import { ValidationError } from '../../errors.js';
import { parse, parseJsonBody } from '../../validation.js';
import { failed, linkResponse } from './password.js';
import { runLinkAttempt } from './runner.js';
import { deprecatedEmailAuthBody, emailBody, emailProviderParam } from './schemas.js';
import { checkLinkToken, presentedToken, refusalText } from './token.js';

export interface EmailLinkDeps {
  db: Db;
  temporal: Client;
  secretBox: () => Promise<SecretBox>;
  startIngestion: boolean;
}

/**
 * E-mail providers (`POST /v2/link/provider/email/{provider}`, deprecated `POST /v2/link/auth/email`),
 * mounted at `/v2/link`: link-token auth, answered like the password providers (HTTP 200 with `state`;
 * a bad link token is `state: error` with its `error_type`; bad input is a 422). The address is sealed
 * here and opened only by the connection workflow's activity; the sandbox rules are in the README.
 */
export function emailLinkRoutes({ db, temporal, secretBox, startIngestion }: EmailLinkDeps) {
  const app = new Hono<AppEnv>({ strict: false });

  async function attempt(c: Context<AppEnv>, provider: string, body: { email: string; region?: string | undefined }) {
    const check = await checkLinkToken(db, presentedToken(c));
    if (!check.ok) return c.json(linkResponse(provider, check.token?.redirectUrl ?? null, failed(check.errorType, refusalText(check.errorType))));
    const { token } = check;
    const sealed = (await secretBox()).seal(JSON.stringify({ email: body.email, region: body.region ?? null }));
    const outcome = await runLinkAttempt(temporal, {
      teamId: token.teamId,
      userId: token.userId,
      provider,
      method: 'email',
      linkTokenId: token.id,
      sealedCredentials: sealed,
      startIngestion,
    });
    return c.json(linkResponse(provider, token.redirectUrl, outcome));
  }

  app.post('/provider/email/:provider', async (c) => {
    const { provider } = parse(emailProviderParam, c.req.param(), 'path');
    const body = await parseJsonBody(c, emailBody);
    if (body.provider !== undefined && body.provider !== provider) {
      throw new ValidationError([
        { loc: ['body', 'provider'], msg: `must be the provider of the path (${provider}) when given`, type: 'value_error', input: body.provider },
      ]);
    }
    return attempt(c, provider, body);
  });

  /** Deprecated `POST /v2/link/auth/email` (`emailAuth`): the provider and `auth_type: email` in the body. */
  app.post('/auth/email', async (c) => {
    const body = await parseJsonBody(c, deprecatedEmailAuthBody);
    return attempt(c, body.provider, body);
  });

  return app;
}
