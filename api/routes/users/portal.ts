import { randomBytes } from 'node:crypto';
import { Hono } from 'hono';
import { z } from 'zod';
import type { Db } from '../../../db/client.js';
import { insertLinkToken } from '../../../db/queries/link.js';
import { findOrder } from '../../../db/queries/orders.js';
import { findUser } from '../../../db/queries/users.js';
import { hashLinkToken } from '../../../domain/link/tokens.js';
import type { UrlSigner } from '../../../lib/url-signing.js';
import type { AppEnv } from '../../env.js';
import { notFound } from '../../errors.js';
import { parse, parseJsonBody, uuid } from '../../validation.js';
import { userIdParam } from './schemas.js';
import { portalPath } from '../portal/paths.js';

/** A sign-in token opens the user portal once, within this many seconds. */
export const SIGN_IN_TOKEN_TTL_SECONDS = 3600;
/** Portal links: `launch` is opened at once by the app that asked; `communications` goes out in e-mail or SMS. */
export const PORTAL_URL_TTL_SECONDS = { launch: 15 * 60, communications: 7 * 24 * 3600 } as const;

export const portalBody = z.object({ context: z.enum(['launch', 'communications']), order_id: uuid('order_id').nullish() }).strict();

/**
 * `user.getUserSignInToken` and `user.createPortalUrl` (team key): the user portal (api/routes/portal)
 * shows a user their connected sources and lab orders. A portal URL is signed (path + expiry; the link is
 * the credential); a sign-in token is single-use, stored only as a SHA-256 hash, and exchanged at
 * `GET /portal/sign-in?token=…` for a fresh portal link.
 */
export function userPortalRoutes({ db, urlSigner }: { db: Db; urlSigner: () => Promise<UrlSigner> }) {
  const app = new Hono<AppEnv>({ strict: false });

  async function liveUser(teamId: string, userId: string) {
    const user = await findUser(db, teamId, userId);
    if (!user || user.deletedAt) throw notFound('User not found');
    return user;
  }

  app.post('/:user_id/sign_in_token', async (c) => {
    const { user_id } = parse(userIdParam, c.req.param(), 'path');
    const user = await liveUser(c.get('teamId'), user_id);
    const token = `st_${randomBytes(24).toString('base64url')}`;
    await insertLinkToken(db, {
      teamId: user.teamId,
      userId: user.id,
      kind: 'sign_in',
      tokenHash: hashLinkToken(token),
      expiresAt: new Date(Date.now() + SIGN_IN_TOKEN_TTL_SECONDS * 1000),
    });
    return c.json({ user_id: user.id, sign_in_token: token });
  });

  app.post('/:user_id/create_portal_url', async (c) => {
    const { user_id } = parse(userIdParam, c.req.param(), 'path');
    const body = await parseJsonBody(c, portalBody);
    const user = await liveUser(c.get('teamId'), user_id);
    if (body.order_id) {
      const order = await findOrder(db, user.teamId, body.order_id);
      if (!order || order.userId !== user.id) throw notFound('Order not found for this user');
    }
    const ttl = PORTAL_URL_TTL_SECONDS[body.context];
    const url = (await urlSigner()).sign(portalPath(user.id, body.order_id ?? undefined), new Date(Date.now() + ttl * 1000));
    return c.json({ url, expires_in: ttl });
  });

  return app;
}
