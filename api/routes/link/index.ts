import type { Client } from '@temporalio/client';
import { Hono } from 'hono';
import type { Db } from '../../../db/client.js';
import { findLinkToken, insertLinkToken } from '../../../db/queries/link.js';
import { findUser } from '../../../db/queries/users.js';
import { authTypeOf } from '../../../domain/link/catalog.js';
import type { ServiceEnvironment } from '../../../domain/environment.js';
import { LINK_CODE_MAX_TTL_SECONDS, LINK_TOKEN_TTL_SECONDS, hashLinkToken, newLinkToken, tokenRefusal } from '../../../domain/link/tokens.js';
import type { AppEnv } from '../../env.js';
import { badRequest, notFound } from '../../errors.js';
import { parse, parseJsonBody, parseQuery } from '../../validation.js';
import type { SecretBox } from '../../../lib/secret-box.js';
import { bulkLinkRoutes } from './bulk.js';
import { runLinkAttempt } from './runner.js';
import { beginLinkBody, codeCreateQuery, demoBody, linkTokenBody, manualBody, manualProviderParam, tokenValidationBody } from './schemas.js';

export interface LinkRouteDeps {
  db: Db;
  temporal: Client;
  environment: ServiceEnvironment;
  /** Base of the links handed out (`link_web_url`, `exchange_url`). */
  publicUrl: string;
  startIngestion: boolean;
  secretBox: () => Promise<SecretBox>;
}

/** `/v2/link` calls made with the team API key (CONTRACT §2). */
export function linkRoutes({ db, temporal, environment, publicUrl, startIngestion, secretBox }: LinkRouteDeps) {
  const app = new Hono<AppEnv>({ strict: false });
  app.route('/', bulkLinkRoutes({ db, temporal, secretBox, startIngestion }));

  async function liveUser(teamId: string, userId: string) {
    const user = await findUser(db, teamId, userId);
    if (!user || user.deletedAt) throw notFound('User not found');
    return user;
  }

  /** A link token of the caller's team, and why it may not be used (null when it may). */
  async function teamToken(teamId: string, presented: string) {
    const token = await findLinkToken(db, hashLinkToken(presented));
    const mine = token && token.teamId === teamId ? token : null;
    return { token: mine, refusal: tokenRefusal(mine, new Date()) };
  }

  app.post('/token', async (c) => {
    const body = await parseJsonBody(c, linkTokenBody);
    const teamId = c.get('teamId');
    const user = await liveUser(teamId, body.user_id);
    const token = newLinkToken('token');
    await insertLinkToken(db, {
      teamId,
      userId: user.id,
      kind: 'token',
      tokenHash: hashLinkToken(token),
      provider: body.provider ?? null,
      redirectUrl: body.redirect_url ?? null,
      filterOnProviders: body.filter_on_providers ?? null,
      expiresAt: new Date(Date.now() + LINK_TOKEN_TTL_SECONDS * 1000),
    });
    return c.json({ link_token: token, link_web_url: `${publicUrl}/link?token=${encodeURIComponent(token)}` });
  });

  app.post('/token/isValid', async (c) => {
    const body = await parseJsonBody(c, tokenValidationBody);
    const { token, refusal } = await teamToken(c.get('teamId'), body.token);
    return c.json({
      valid: refusal === null,
      error_type: refusal,
      user_id: token?.userId ?? null,
      expires_at: token?.expiresAt.toISOString() ?? null,
    });
  });

  app.post('/start', async (c) => {
    const body = await parseJsonBody(c, beginLinkBody);
    const { token, refusal } = await teamToken(c.get('teamId'), body.link_token);
    if (refusal || !token) throw badRequest({ error_type: refusal, error_message: 'The link token cannot be used.' });
    return c.json({
      link_token: body.link_token,
      provider: body.provider,
      auth_type: authTypeOf(body.provider),
      user_id: token.userId,
      redirect_url: token.redirectUrl,
      expires_at: token.expiresAt.toISOString(),
    });
  });

  app.post('/code/create', async (c) => {
    const q = parseQuery(c, codeCreateQuery);
    const teamId = c.get('teamId');
    const user = await liveUser(teamId, q.user_id);
    const now = Date.now();
    const expiresAt = q.expires_at ? new Date(q.expires_at) : new Date(now + LINK_TOKEN_TTL_SECONDS * 1000);
    if (expiresAt.getTime() <= now || expiresAt.getTime() > now + LINK_CODE_MAX_TTL_SECONDS * 1000) {
      throw badRequest('expires_at must be in the future and at most 7 days away.');
    }
    const code = newLinkToken('code');
    await insertLinkToken(db, { teamId, userId: user.id, kind: 'code', tokenHash: hashLinkToken(code), expiresAt });
    return c.json({
      code,
      exchange_url: `${publicUrl}/v2/link/code/exchange?code=${encodeURIComponent(code)}`,
      expires_at: expiresAt.toISOString(),
    });
  });

  app.post('/connect/demo', async (c) => {
    const body = await parseJsonBody(c, demoBody);
    if (environment !== 'sandbox') throw badRequest('Demo connections are only available in the sandbox environment.');
    const teamId = c.get('teamId');
    await liveUser(teamId, body.user_id);
    // A demo connection exists to produce data (30 days backfilled, then new data every few hours), so it
    // ingests whatever WEARABLE_INGESTION_ENABLED says; the setting governs provider connections.
    const outcome = await runLinkAttempt(temporal, { teamId, userId: body.user_id, provider: body.provider, method: 'demo', startIngestion: true });
    if (outcome.state !== 'success') throw badRequest(outcome.state === 'error' ? outcome.error : 'The demo connection did not complete.');
    return c.json({ success: true, detail: `Demo ${body.provider} connection created.` });
  });

  app.post('/provider/manual/:provider', async (c) => {
    const { provider } = parse(manualProviderParam, c.req.param(), 'path');
    const body = await parseJsonBody(c, manualBody);
    const teamId = c.get('teamId');
    await liveUser(teamId, body.user_id);
    const outcome = await runLinkAttempt(temporal, {
      teamId,
      userId: body.user_id,
      provider,
      method: 'manual',
      externalUserId: body.provider_id ?? null,
      startIngestion,
    });
    if (outcome.state !== 'success') throw badRequest(outcome.state === 'error' ? outcome.error : 'The connection did not complete.');
    return c.json({ success: true });
  });

  return app;
}
