import { timingSafeEqual } from 'node:crypto';
import type { Context, MiddlewareHandler } from 'hono';
import { getCookie } from 'hono/cookie';
import { findSession } from '../../db/queries/dashboard/operators.js';
import { DashboardError, type DashEnv, type DashboardDeps } from './env.js';

export const SESSION_COOKIE = 'lf_session';
export const LOGIN_CSRF_COOKIE = 'lf_login_csrf';
export const CSRF_FIELD = '_csrf';
export const CSRF_HEADER = 'x-csrf-token';
export const BASE = '/dashboard';

export function cookieOptions(deps: DashboardDeps, maxAge: number, path = BASE) {
  return {
    path,
    httpOnly: true,
    sameSite: 'Strict' as const,
    secure: (deps.publicUrl ?? '').startsWith('https:'),
    maxAge,
  };
}

export function sameToken(a: string | undefined, b: string): boolean {
  if (!a) return false;
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

const wantsHtml = (c: Context) => (c.req.header('accept') ?? '').includes('text/html');

/** A form field of a url-encoded or multipart POST (parsed once; Hono caches the body). */
export async function formField(c: Context, name: string): Promise<string | undefined> {
  const type = c.req.header('content-type') ?? '';
  if (!/^(multipart\/form-data|application\/x-www-form-urlencoded)/i.test(type)) return undefined;
  try {
    const body = await c.req.parseBody();
    const v = body[name];
    return typeof v === 'string' ? v : undefined;
  } catch {
    throw new DashboardError(400, 'The form body could not be read.');
  }
}

/**
 * Every dashboard route but the login page: a live session (else a redirect to the login page for
 * browsers, 401 for others), and on every POST the session's CSRF token in the `_csrf` field or the
 * `x-csrf-token` header (else 403).
 */
export function requireSession(deps: DashboardDeps): MiddlewareHandler<DashEnv> {
  return async (c, next) => {
    const token = getCookie(c, SESSION_COOKIE);
    const operator = token ? await findSession(deps.db, token) : null;
    if (!operator) {
      if (c.req.method === 'GET' && wantsHtml(c)) {
        const next = c.req.path + (c.req.url.includes('?') ? c.req.url.slice(c.req.url.indexOf('?')) : '');
        return c.redirect(`${BASE}/login?next=${encodeURIComponent(next)}`, 303);
      }
      throw new DashboardError(401, 'Log in to the dashboard first.');
    }
    if (c.req.method !== 'GET' && c.req.method !== 'HEAD') {
      const sent = c.req.header(CSRF_HEADER) ?? (await formField(c, CSRF_FIELD));
      if (!sameToken(sent, operator.csrfToken)) throw new DashboardError(403, 'Missing or wrong CSRF token: reload the page and try again.');
    }
    c.set('operator', operator);
    await next();
  };
}

/** Actions (resend, cancel, replay, rotate…) need the `operator` role; viewers only read. */
export const requireOperatorRole: MiddlewareHandler<DashEnv> = async (c, next) => {
  if (c.get('operator').role !== 'operator') throw new DashboardError(403, 'This action needs the operator role (you are a viewer).');
  await next();
};
