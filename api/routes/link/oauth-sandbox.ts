import type { Client } from '@temporalio/client';
import { Hono } from 'hono';
import { html } from 'hono/html';
import { z } from 'zod';
import type { Db } from '../../../db/client.js';
import { OAUTH_PROVIDERS } from '../../../domain/link/catalog.js';
import type { LinkOutcome } from '../../../domain/link/outcomes.js';
import { providerDisplay } from '../../../domain/providers.js';
import type { AppEnv } from '../../env.js';
import { HttpError } from '../../errors.js';
import { parse } from '../../validation.js';
import { runLinkAttempt } from './runner.js';
import { checkLinkToken, refusalText } from './token.js';

export const providerParam = z.object({ provider: z.enum(OAUTH_PROVIDERS) });
export const pageQuery = z.object({ state: z.string().min(1).max(512) });
export const decisionQuery = pageQuery.extend({ decision: z.enum(['approve', 'deny']) });

/** Where the sandbox OAuth consent page of a provider lives (`oauth_url`); `state` is the link token. */
export const sandboxOauthUrl = (publicUrl: string, provider: string, linkToken: string): string =>
  `${publicUrl}/link/oauth/sandbox/${provider}?state=${encodeURIComponent(linkToken)}`;

function withOutcome(redirectUrl: string, outcome: LinkOutcome, provider: string): string {
  const url = new URL(redirectUrl);
  url.searchParams.set('state', outcome.state);
  url.searchParams.set('provider', provider);
  if (outcome.state === 'error') {
    url.searchParams.set('error_type', outcome.errorType);
    url.searchParams.set('error', outcome.error);
  }
  return url.toString();
}

/**
 * The sandbox OAuth providers' consent page, served by this service (no API key; the link token in
 * `state` is the credential). Approve connects the provider through the connection workflow; deny is
 * `user_cancelled`. With a `redirect_url` on the token the outcome goes back by 307 redirect, as the
 * hosted Link does; without one the page says it.
 */
export function oauthSandboxRoutes({ db, temporal, startIngestion }: { db: Db; temporal: Client; startIngestion: boolean }) {
  const app = new Hono<AppEnv>({ strict: false });

  app.get('/:provider', async (c) => {
    const { provider } = parse(providerParam, c.req.param(), 'path');
    const { state } = parse(pageQuery, c.req.query(), 'query');
    const check = await checkLinkToken(db, state);
    if (!check.ok) throw new HttpError(400, refusalText(check.errorType));
    const name = providerDisplay(provider).name;
    const action = (decision: string) => `/link/oauth/sandbox/${provider}?state=${encodeURIComponent(state)}&decision=${decision}`;
    return c.html(html`<!doctype html>
      <html lang="en"><head><meta charset="utf-8"><title>${name} (sandbox)</title></head>
      <body>
        <h1>${name} sandbox</h1>
        <p>Allow this service to read your ${name} data?</p>
        <form method="post" action="${action('approve')}"><button type="submit">Allow</button></form>
        <form method="post" action="${action('deny')}"><button type="submit">Deny</button></form>
      </body></html>`);
  });

  app.post('/:provider', async (c) => {
    const { provider } = parse(providerParam, c.req.param(), 'path');
    const { state, decision } = parse(decisionQuery, c.req.query(), 'query');
    const check = await checkLinkToken(db, state);
    let outcome: LinkOutcome;
    if (!check.ok) outcome = { state: 'error', errorType: check.errorType, error: refusalText(check.errorType) };
    else if (decision === 'deny') outcome = { state: 'error', errorType: 'user_cancelled', error: 'The user did not allow access.' };
    else {
      outcome = await runLinkAttempt(temporal, {
        teamId: check.token.teamId,
        userId: check.token.userId,
        provider,
        method: 'oauth',
        linkTokenId: check.token.id,
        startIngestion,
      });
    }
    const redirectUrl = check.token?.redirectUrl;
    if (redirectUrl) return c.redirect(withOutcome(redirectUrl, outcome, provider), 307);
    return c.json({ state: outcome.state, provider, ...(outcome.state === 'error' ? { error_type: outcome.errorType, error: outcome.error } : {}) });
  });

  return app;
}
