import type { Client } from '@temporalio/client';
import { Hono } from 'hono';
import type { Db } from '../../../db/client.js';
import { connectionsOfUser } from '../../../db/queries/connections.js';
import { teamLinkSettings } from '../../../db/queries/link.js';
import { ALL_PROVIDERS, authTypeOf } from '../../../domain/link/catalog.js';
import { providerDisplay } from '../../../domain/providers.js';
import type { SecretBox } from '../../../lib/secret-box.js';
import type { AppEnv } from '../../env.js';
import { describeProvider, providerNumericId } from '../providers/index.js';
import { emailLinkRoutes } from './email.js';
import { passwordLinkRoutes } from './password.js';
import { presentedToken, requireLinkToken } from './token.js';
import { sandboxOauthUrl } from './oauth-sandbox.js';
import { oauthProviderParam } from './schemas.js';
import { parse } from '../../validation.js';

export interface LinkTokenRouteDeps {
  db: Db;
  temporal: Client;
  secretBox: () => Promise<SecretBox>;
  startIngestion: boolean;
  /** Base of the links handed out (the sandbox OAuth page). */
  publicUrl: string;
}

/**
 * The routes the Link widget calls with a link token (`x-vital-link-token`) and no API key. Mounted at
 * `/v2` before the team-key middleware; each route checks the token itself, which names its team and user.
 */
export function linkTokenRoutes(deps: LinkTokenRouteDeps) {
  const { db } = deps;
  const app = new Hono<AppEnv>({ strict: false });

  app.route('/link', passwordLinkRoutes(deps));
  app.route('/link', emailLinkRoutes(deps));

  app.get('/link/state', async (c) => {
    const token = await requireLinkToken(c, db, { allowConsumed: true });
    const connections = await connectionsOfUser(db, token.teamId, token.userId);
    const now = new Date();
    return c.json({
      state: token.consumedAt ? 'consumed' : 'active',
      user_id: token.userId,
      team_id: token.teamId,
      provider: token.provider,
      redirect_url: token.redirectUrl,
      filter_on_providers: token.filterOnProviders,
      expires_at: token.expiresAt.toISOString(),
      expires_in_seconds: Math.max(0, Math.round((token.expiresAt.getTime() - now.getTime()) / 1000)),
      connected_providers: connections.map((conn) => ({ slug: conn.provider, status: conn.status })),
    });
  });

  app.get('/link/providers', async (c) => {
    const token = await requireLinkToken(c, db);
    const allowed = token.filterOnProviders?.length ? token.filterOnProviders : ALL_PROVIDERS;
    return c.json(
      allowed.map((slug) => ({
        id: providerNumericId(slug),
        ...providerDisplay(slug),
        description: describeProvider(slug),
        auth_type: authTypeOf(slug),
      })),
    );
  });

  app.get('/link/provider/oauth/:oauth_provider', async (c) => {
    const { oauth_provider } = parse(oauthProviderParam, c.req.param(), 'path');
    const presented = presentedToken(c)!;
    await requireLinkToken(c, db);
    return c.json({
      id: providerNumericId(oauth_provider),
      ...providerDisplay(oauth_provider),
      description: describeProvider(oauth_provider),
      oauth_url: sandboxOauthUrl(deps.publicUrl, oauth_provider, presented),
      auth_type: 'oauth',
      source_type: 'provider',
      is_active: true,
    });
  });

  app.get('/team/link/config', async (c) => {
    const token = await requireLinkToken(c, db, { allowConsumed: true });
    const settings = await teamLinkSettings(db, token.teamId);
    return c.json({
      reject_duplicate_connection: settings.rejectDuplicateConnection,
      filter_on_providers: token.filterOnProviders,
      redirect_url: token.redirectUrl,
    });
  });

  return app;
}
