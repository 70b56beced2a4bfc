import type { TestStack } from '../support/harness.js';
import { insertOperator } from '../../db/queries/dashboard/operators.js';
import { hashPassword } from '../../api/dashboard/password.js';
import type { OperatorRole } from '../../db/schema/operators.js';

/** A fresh operator (own email per test) straight in the database. */
export async function newOperator(stack: TestStack, role: OperatorRole = 'operator') {
  const email = `op-${Date.now()}-${Math.random().toString(36).slice(2, 8)}@example.com`;
  const password = `pw-${Math.random().toString(36).slice(2)}-long-enough`;
  const row = await insertOperator(stack.db.db, { email, passwordHash: await hashPassword(password), role });
  if (!row) throw new Error('operator not created');
  return { id: row.id, email, password, role };
}

const cookieOf = (res: Response, name: string) =>
  res.headers
    .getSetCookie()
    .map((c) => c.split(';')[0]!)
    .find((c) => c.startsWith(`${name}=`) && c.length > name.length + 1);

/** The login form's double-submit CSRF pair (cookie + hidden field). */
export async function loginForm(stack: TestStack) {
  const res = await fetch(`${stack.url}/dashboard/login`);
  const html = await res.text();
  const csrf = /name="_csrf" value="([^"]+)"/.exec(html)?.[1];
  const cookie = cookieOf(res, 'lf_login_csrf');
  if (!csrf || !cookie) throw new Error('no login CSRF token');
  return { csrf, cookie };
}

export async function postLogin(stack: TestStack, email: string, password: string, form?: { csrf: string; cookie: string }) {
  const f = form ?? (await loginForm(stack));
  return fetch(`${stack.url}/dashboard/login`, {
    method: 'POST',
    redirect: 'manual',
    headers: { cookie: f.cookie, 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ _csrf: f.csrf, email, password }).toString(),
  });
}

/** A logged-in HTTP client of the dashboard: its session cookie and CSRF token. */
export class DashboardClient {
  constructor(
    readonly stack: TestStack,
    readonly cookie: string,
    readonly csrf: string,
  ) {}

  static async login(stack: TestStack, email: string, password: string): Promise<DashboardClient> {
    const res = await postLogin(stack, email, password);
    const cookie = cookieOf(res, 'lf_session');
    if (res.status !== 303 || !cookie) throw new Error(`login failed: ${res.status}`);
    const page = await fetch(`${stack.url}/dashboard/orders`, { headers: { cookie, accept: 'text/html' } });
    const csrf = /name="_csrf" value="([^"]+)"/.exec(await page.text())?.[1];
    if (!csrf) throw new Error('no session CSRF token on the page');
    return new DashboardClient(stack, cookie, csrf);
  }

  get(path: string, headers: Record<string, string> = {}) {
    return fetch(`${this.stack.url}${path}`, { redirect: 'manual', headers: { cookie: this.cookie, accept: 'text/html', ...headers } });
  }

  /** A form POST; `csrf: null` leaves the token out, a string sends that one instead. */
  post(path: string, fields: Record<string, string> = {}, csrf: string | null = this.csrf) {
    const body = new URLSearchParams(csrf === null ? fields : { _csrf: csrf, ...fields });
    return fetch(`${this.stack.url}${path}`, {
      method: 'POST',
      redirect: 'manual',
      headers: { cookie: this.cookie, 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
      body: body.toString(),
    });
  }
}
