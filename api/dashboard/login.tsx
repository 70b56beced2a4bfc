import { randomBytes } from 'node:crypto';
import { getConnInfo } from '@hono/node-server/conninfo';
import { Hono, type Context } from 'hono';
import { deleteCookie, getCookie, setCookie } from 'hono/cookie';
import {
  createSession,
  deleteSession,
  findOperatorByEmail,
  findSession,
  recentLoginFailures,
  recordAudit,
  recordLoginFailure,
} from '../../db/queries/dashboard/operators.js';
import { DashboardError, type DashEnv, type DashboardDeps } from './env.js';
import { Layout } from './layout.js';
import { decoyHash, verifyPassword } from './password.js';
import { BASE, CSRF_FIELD, LOGIN_CSRF_COOKIE, SESSION_COOKIE, cookieOptions, formField, sameToken } from './session.js';

/** Failed logins allowed per email, and per client address, in the window before refusing with 429. */
export const LOGIN_MAX_FAILURES_PER_EMAIL = 5;
export const LOGIN_MAX_FAILURES_PER_ADDRESS = 30;
export const LOGIN_WINDOW_SECONDS = 15 * 60;

function clientAddress(c: Context): string {
  try {
    return getConnInfo(c).remote.address ?? 'unknown';
  } catch {
    return 'unknown';
  }
}

/** Only a path inside the dashboard is followed after login (no open redirect). */
const safeNext = (next: string | undefined) => (next && /^\/dashboard(\/[\w\-./%?=&]*)?$/.test(next) && !next.includes('//') ? next : `${BASE}/orders`);

const LoginPage = (p: { csrf: string; next: string; error?: string }) => (
  <Layout title="Log in">
    <form method="post" action={`${BASE}/login`} class="panel" style="max-width:360px">
      {p.error && <p class="err">{p.error}</p>}
      <input type="hidden" name={CSRF_FIELD} value={p.csrf} />
      <input type="hidden" name="next" value={p.next} />
      <p>
        <label for="email">Email</label>
        <br />
        <input id="email" name="email" type="email" autocomplete="username" required style="width:100%" />
      </p>
      <p>
        <label for="password">Password</label>
        <br />
        <input id="password" name="password" type="password" autocomplete="current-password" required style="width:100%" />
      </p>
      <button type="submit">Log in</button>
    </form>
  </Layout>
);

/** GET/POST /dashboard/login and POST /dashboard/logout. Login forms carry a double-submit CSRF token. */
export function loginRoutes(deps: DashboardDeps) {
  const app = new Hono<DashEnv>();
  const ttl = deps.sessionTtlSeconds ?? 12 * 3600;

  const form = (c: Context, status: 200 | 401 | 429, error?: string) => {
    const csrf = randomBytes(24).toString('base64url');
    setCookie(c, LOGIN_CSRF_COOKIE, csrf, cookieOptions(deps, 3600, `${BASE}/login`));
    return c.html(<LoginPage csrf={csrf} next={safeNext(c.req.query('next') ?? undefined)} {...(error ? { error } : {})} />, status);
  };

  app.get('/login', (c) => form(c, 200));

  app.post('/login', async (c) => {
    const csrf = await formField(c, CSRF_FIELD);
    if (!sameToken(csrf, getCookie(c, LOGIN_CSRF_COOKIE) ?? '')) throw new DashboardError(403, 'Missing or wrong CSRF token: reload the login page.');
    const email = (await formField(c, 'email'))?.trim().toLowerCase() ?? '';
    const password = (await formField(c, 'password')) ?? '';
    if (!email || !password || email.length > 254 || password.length > 1024) throw new DashboardError(400, 'Email and Password are required.');
    const keys = [`email:${email}`, `ip:${clientAddress(c)}`];
    const failures = await recentLoginFailures(deps.db, keys, LOGIN_WINDOW_SECONDS);
    if ((failures.get(keys[0]!) ?? 0) >= LOGIN_MAX_FAILURES_PER_EMAIL || (failures.get(keys[1]!) ?? 0) >= LOGIN_MAX_FAILURES_PER_ADDRESS) {
      return form(c, 429, 'Too many failed attempts: wait 15 minutes and try again.');
    }
    const operator = await findOperatorByEmail(deps.db, email);
    const ok = await verifyPassword(password, operator?.passwordHash ?? (await decoyHash()));
    if (!operator || !ok) {
      await recordLoginFailure(deps.db, keys);
      return form(c, 401, 'Wrong email or password.');
    }
    const token = await createSession(deps.db, operator.id, ttl);
    setCookie(c, SESSION_COOKIE, token, cookieOptions(deps, ttl));
    deleteCookie(c, LOGIN_CSRF_COOKIE, { path: `${BASE}/login` });
    await recordAudit(deps.db, { operator: { id: operator.id, email: operator.email }, action: 'login' });
    return c.redirect(safeNext(await formField(c, 'next')), 303);
  });

  app.post('/logout', async (c) => {
    const token = getCookie(c, SESSION_COOKIE);
    const operator = token ? await findSession(deps.db, token) : null;
    if (!operator) throw new DashboardError(401, 'Not logged in.');
    if (!sameToken(await formField(c, CSRF_FIELD), operator.csrfToken)) throw new DashboardError(403, 'Missing or wrong CSRF token.');
    await deleteSession(deps.db, token!);
    deleteCookie(c, SESSION_COOKIE, { path: BASE });
    await recordAudit(deps.db, { operator: { id: operator.id, email: operator.email }, action: 'logout' });
    return c.redirect(`${BASE}/login`, 303);
  });

  return app;
}
