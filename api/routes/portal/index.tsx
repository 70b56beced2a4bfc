import { Hono, type Context } from 'hono';
import type { FC } from 'hono/jsx';
import { z } from 'zod';
import type { Db } from '../../../db/client.js';
import { consumeSignInToken, portalUser, portalView } from '../../../db/queries/portal.js';
import { hashLinkToken } from '../../../domain/link/tokens.js';
import { providerDisplay } from '../../../domain/providers.js';
import type { UrlSigner } from '../../../lib/url-signing.js';
import type { AppEnv } from '../../env.js';
import { HttpError, notFound } from '../../errors.js';
import { parse } from '../../validation.js';
import { SIGN_IN_TOKEN_EXCHANGE_TTL_SECONDS, portalPath } from './paths.js';

export const params = z.object({ user_id: z.uuid('user_id must be a UUID'), order_id: z.uuid('order_id must be a UUID').optional() });
export const signInQuery = z.object({ token: z.string().regex(/^st_[A-Za-z0-9_-]{32}$/, 'token must be a sign-in token (st_…)') });

const STYLE = `body{font:15px/1.5 system-ui,sans-serif;margin:0 auto;max-width:720px;padding:16px;color:#1d2330}
h1{font-size:22px}h2{font-size:17px;margin-top:24px}table{border-collapse:collapse;width:100%}
td,th{border-bottom:1px solid #e3e6eb;padding:6px;text-align:left}.muted{color:#6b7487}`;

type View = Awaited<ReturnType<typeof portalView>>;

const Page: FC<{ view: View; oneOrder: boolean }> = ({ view, oneOrder }) => (
  <html lang="en">
    <head>
      <meta charset="utf-8" />
      <meta name="viewport" content="width=device-width, initial-scale=1" />
      <meta name="robots" content="noindex" />
      <title>Your health data</title>
      <style>{STYLE}</style>
    </head>
    <body>
      <h1>Your health data</h1>
      {!oneOrder && (
        <section id="connections">
          <h2>Connected sources</h2>
          {view.connections.length ? (
            <table>
              <tbody>
                {view.connections.map((c) => (
                  <tr>
                    <td>{providerDisplay(c.provider).name}</td>
                    <td>{c.status}</td>
                    <td class="muted">since {c.createdAt.toISOString().slice(0, 10)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          ) : (
            <p class="muted">No sources connected yet.</p>
          )}
        </section>
      )}
      <section id="orders">
        <h2>{oneOrder ? 'Your lab order' : 'Lab orders'}</h2>
        {view.orders.length ? (
          <table>
            <tbody>
              {view.orders.map((o) => (
                <tr data-order={o.id}>
                  <td>{o.testName}</td>
                  <td>{o.status.replace(/_/g, ' ')}</td>
                  <td class="muted">{o.method.replace(/_/g, ' ')}</td>
                  <td class="muted">ordered {o.createdAt.toISOString().slice(0, 10)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        ) : (
          <p class="muted">No lab orders.</p>
        )}
      </section>
    </body>
  </html>
);

/**
 * The user portal: what a team's user sees of their own data (connected sources, lab orders) through a
 * link from `user.createPortalUrl` (signed path + expiry) or a sign-in token from `user.getUserSignInToken`
 * (single use, exchanged here for a portal link). No API key: the link is the credential.
 */
export function portalRoutes({ db, urlSigner }: { db: Db; urlSigner: () => Promise<UrlSigner> }) {
  const app = new Hono<AppEnv>({ strict: false });

  async function page(c: Context<AppEnv>) {
    const p = parse(params, c.req.param(), 'path');
    const check = (await urlSigner()).verify(portalPath(p.user_id, p.order_id), { expires: c.req.query('expires'), signature: c.req.query('signature') });
    if (check === 'expired') throw new HttpError(403, 'This portal link has expired; ask for a new one.');
    if (check !== 'valid') throw new HttpError(403, 'Invalid portal link signature');
    const user = await portalUser(db, p.user_id);
    if (!user) throw notFound('User not found');
    const view = await portalView(db, user.id, p.order_id);
    if (p.order_id && view.orders.length === 0) throw notFound('Order not found');
    c.header('cache-control', 'private, no-store');
    c.header('referrer-policy', 'no-referrer'); // the signed link must not leak to other sites
    return c.html(<Page view={view} oneOrder={Boolean(p.order_id)} />);
  }

  app.get('/users/:user_id', page);
  app.get('/users/:user_id/orders/:order_id', page);

  app.get('/sign-in', async (c) => {
    const { token } = parse(signInQuery, c.req.query(), 'query');
    const row = await consumeSignInToken(db, hashLinkToken(token), new Date());
    if (!row) throw new HttpError(403, 'This sign-in token is invalid, expired or already used.');
    const url = (await urlSigner()).sign(portalPath(row.userId), new Date(Date.now() + SIGN_IN_TOKEN_EXCHANGE_TTL_SECONDS * 1000));
    const signed = new URL(url);
    return c.redirect(`${signed.pathname}${signed.search}`, 303); // on this host, whatever PUBLIC_URL says
  });

  return app;
}
