import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { and, eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, inject, it } from 'vitest';
import { operatorAudit, operators, orders } from '../../db/schema/index.js';
import { verifyPassword } from '../../api/dashboard/password.js';
import { DashboardClient, loginForm, newOperator, postLogin } from '../browser/dashboard-client.js';
import { testkitLabTest } from '../support/catalog-fixture.js';
import { SHIPPING, orderWithReceiver as fixture } from '../browser/fixtures.js';
import { eventually, sdkFor, startTestStack, type TestStack } from '../support/harness.js';
import { Receivers } from '../support/webhooks.js';

const run = promisify(execFile);
let stack: TestStack;
const receivers = new Receivers();
beforeAll(async () => {
  stack = await startTestStack();
});
afterEach(async () => receivers.stopAll());
afterAll(async () => {
  await stack?.close();
});

const orderWithReceiver = () => fixture(stack, receivers);

describe('dashboard: refusals', () => {
  it('without a session: browsers are sent to the login page, others get 401; POSTs are refused', async () => {
    const page = await fetch(`${stack.url}/dashboard/orders?q=x`, { redirect: 'manual', headers: { accept: 'text/html' } });
    expect(page.status).toBe(303);
    expect(page.headers.get('location')).toBe('/dashboard/login?next=%2Fdashboard%2Forders%3Fq%3Dx');
    const api = await fetch(`${stack.url}/dashboard/orders`);
    expect(api.status).toBe(401);
    expect(((await api.json()) as { detail: string }).detail).toMatch(/Log in/);
    const id = crypto.randomUUID();
    for (const path of [`/dashboard/orders/${id}`, `/dashboard/orders/${id}/confirm/cancel`]) {
      expect((await fetch(`${stack.url}${path}`)).status).toBe(401);
    }
    const post = await fetch(`${stack.url}/dashboard/orders/${id}/cancel`, { method: 'POST', body: new URLSearchParams({ _csrf: 'x' }) });
    expect(post.status).toBe(401);
    const forged = await fetch(`${stack.url}/dashboard/orders`, { headers: { cookie: 'lf_session=forged-token' } });
    expect(forged.status).toBe(401);
  });

  it('login needs its CSRF pair; a wrong password is 401; five failures throttle even the right password (429)', async () => {
    const op = await newOperator(stack);
    const form = await loginForm(stack);
    const noCookie = await postLogin(stack, op.email, op.password, { csrf: form.csrf, cookie: '' });
    expect(noCookie.status).toBe(403);
    const wrongField = await postLogin(stack, op.email, op.password, { csrf: 'nope', cookie: form.cookie });
    expect(wrongField.status).toBe(403);
    const empty = await postLogin(stack, '', '');
    expect(empty.status).toBe(400);
    for (let i = 0; i < 5; i++) expect((await postLogin(stack, op.email, 'wrong password!')).status).toBe(401);
    const throttled = await postLogin(stack, op.email, op.password);
    expect(throttled.status).toBe(429);
    expect(await throttled.text()).toContain('Too many failed attempts');
    expect(throttled.headers.getSetCookie().some((c) => c.startsWith('lf_session='))).toBe(false);
  });

  it('with a session: POSTs without or with a wrong CSRF token are 403, bad parameters 400, unknown ids 404; viewers cannot act', async () => {
    const op = await newOperator(stack);
    const dash = await DashboardClient.login(stack, op.email, op.password);
    const { order } = await orderWithReceiver();
    expect((await dash.post(`/dashboard/orders/${order.id}/cancel`, {}, null)).status).toBe(403);
    expect((await dash.post(`/dashboard/orders/${order.id}/cancel`, {}, 'wrong-token')).status).toBe(403);
    expect((await dash.post('/dashboard/logout', {}, null)).status).toBe(403);
    const cases: [string, number][] = [
      ['/dashboard/orders?status=bogus', 400],
      ['/dashboard/orders?method=drone', 400],
      ['/dashboard/orders?team=not-a-uuid', 400],
      ['/dashboard/orders?from=yesterday', 400],
      ['/dashboard/orders?before=garbage', 400],
      ['/dashboard/orders?limit=0', 400],
      [`/dashboard/orders?q=${'x'.repeat(201)}`, 400],
      ['/dashboard/orders/not-a-uuid', 400],
      [`/dashboard/orders/${crypto.randomUUID()}`, 404],
      [`/dashboard/orders/${order.id}/confirm/explode`, 404],
    ];
    for (const [path, status] of cases) expect([path, (await dash.get(path, { accept: 'application/json' })).status]).toEqual([path, status]);
    expect((await dash.post(`/dashboard/orders/${order.id}/resend`, { event_id: 'nope' })).status).toBe(400);
    expect((await dash.post(`/dashboard/orders/${order.id}/resend`, { event_id: crypto.randomUUID() })).status).toBe(404);
    expect((await dash.post(`/dashboard/orders/${order.id}/explode`)).status).toBe(404);

    const viewer = await newOperator(stack, 'viewer');
    const vdash = await DashboardClient.login(stack, viewer.email, viewer.password);
    expect((await vdash.get(`/dashboard/orders/${order.id}`)).status).toBe(200);
    expect((await vdash.post(`/dashboard/orders/${order.id}/cancel`)).status).toBe(403);
    const [row] = await stack.db.db.select().from(orders).where(eq(orders.id, order.id));
    expect(row!.status).not.toBe('cancelled');
  });
});

describe('dashboard: orders', () => {
  it('finds an order by sample id, order id, user id, client_user_id and patient name; pages by keyset', async () => {
    const op = await newOperator(stack, 'viewer');
    const dash = await DashboardClient.login(stack, op.email, op.password);
    const { order, userId, clientUserId, lastName, team } = await orderWithReceiver();
    for (const q of [order.sampleId!, order.id, userId, clientUserId, lastName.toLowerCase(), `Ann ${lastName}`]) {
      const html = await (await dash.get(`/dashboard/orders?q=${encodeURIComponent(q)}`)).text();
      expect([q, html.includes(order.id)]).toEqual([q, true]);
    }
    expect(await (await dash.get(`/dashboard/orders?q=no-such-sample`)).text()).toContain('No orders match');

    const client = sdkFor(stack, team.apiKey);
    const { labTestId } = await testkitLabTest(stack.db.db, team.teamId);
    for (let i = 0; i < 2; i++) await client.testkit.createOrder({ userId, labTestId, shippingDetails: SHIPPING });
    const seen: string[] = [];
    let path: string | null = `/dashboard/orders?team=${team.teamId}&limit=2`;
    while (path) {
      const html: string = await (await dash.get(path, { 'hx-request': 'true' })).text();
      expect(html).not.toContain('<html'); // htmx asks for the results fragment only
      seen.push(...[...html.matchAll(/href="\/dashboard\/orders\/([0-9a-f-]{36})"/g)].map((m) => m[1]!));
      const next: string | undefined = /href="(\/dashboard\/orders\?[^"]+)"/.exec(html)?.[1];
      path = next ? next.replace(/&amp;/g, '&') : null;
    }
    expect(seen).toHaveLength(3);
    expect(new Set(seen).size).toBe(3);
    expect(seen).toContain(order.id);
  });

  it('the order page shows events, decoded workflow history and every delivery attempt; resend reaches the receiver and is audited', async () => {
    const op = await newOperator(stack);
    const dash = await DashboardClient.login(stack, op.email, op.password);
    const { order, receiver } = await orderWithReceiver();
    const html = await (await dash.get(`/dashboard/orders/${order.id}`)).text();
    expect(html).toContain('order received.testkit.requisition_created');
    expect(html).toContain('started labOrderWorkflow');
    expect(html).toContain('update register'); // decoded: the update's arguments are readable
    expect(html).toContain(order.sampleId!);
    expect(html).toMatch(/activity \w+ \(local\)<\/td><td class="mono">completed after 1 attempt/);
    expect(html).toContain('delivery attempt → 204');
    expect(html).toContain('Waiting for:');

    const confirm = await (await dash.get(`/dashboard/orders/${order.id}/confirm/resend`, { 'hx-request': 'true' })).text();
    const eventId = /name="event_id" value="([^"]+)"/.exec(confirm)?.[1];
    expect(eventId).toBeTruthy();
    const before = receiver.accepted.length;
    const res = await dash.post(`/dashboard/orders/${order.id}/resend`, { event_id: eventId! });
    expect(res.status).toBe(303);
    await eventually(async () => receiver.accepted.length > before);
    expect(receiver.accepted.at(-1)!.headers['webhook-id']).toBe(eventId);
    const audit = await stack.db.db.select().from(operatorAudit).where(and(eq(operatorAudit.targetId, order.id), eq(operatorAudit.action, 'order.resend')));
    expect(audit).toHaveLength(1);
    expect(audit[0]!.operatorEmail).toBe(op.email);
    const log = await (await dash.get('/dashboard/audit')).text();
    expect(log).toContain(`order ${order.id}`);
    expect((await fetch(`${stack.url}/dashboard/audit`)).status).toBe(401);
  });

  it('cancel asks for confirmation, goes through the workflow, and a second cancel is refused with 409', async () => {
    const op = await newOperator(stack);
    const dash = await DashboardClient.login(stack, op.email, op.password);
    const { order } = await orderWithReceiver();
    const confirm = await (await dash.get(`/dashboard/orders/${order.id}/confirm/cancel`)).text();
    expect(confirm).toContain('Cancel this order?');
    expect((await dash.post(`/dashboard/orders/${order.id}/cancel`)).status).toBe(303);
    const [row] = await stack.db.db.select().from(orders).where(eq(orders.id, order.id));
    expect(row!.lowLevelStatus).toBe('cancelled');
    const again = await dash.post(`/dashboard/orders/${order.id}/cancel`);
    expect(again.status).toBe(409);
  });
});

describe('npm run admin -- create-operator', () => {
  async function admin(...args: string[]) {
    try {
      const { stdout } = await run(process.execPath, ['--import', 'tsx', 'scripts/admin.ts', ...args], {
        env: { ...process.env, DATABASE_URL: inject('databaseUrl'), LOG_LEVEL: 'warn' },
      });
      return { code: 0, stdout };
    } catch (err) {
      return { code: (err as { code: number }).code, stdout: '' };
    }
  }

  it('creates an operator with a scrypt hash (never the password), who can log in; bad arguments exit 2', async () => {
    const email = `Admin-${Date.now()}@Example.com`;
    const out = await admin('create-operator', '--email', email, '--password', 'correct horse battery', '--role', 'viewer');
    expect(out.code).toBe(0);
    expect(JSON.parse(out.stdout)).toMatchObject({ email: email.toLowerCase(), role: 'viewer' });
    const [row] = await stack.db.db.select().from(operators).where(eq(operators.email, email.toLowerCase()));
    expect(row!.passwordHash).toMatch(/^scrypt\$32768\$8\$1\$/);
    expect(row!.passwordHash).not.toContain('correct horse');
    expect(await verifyPassword('correct horse battery', row!.passwordHash)).toBe(true);
    expect((await postLogin(stack, email, 'correct horse battery')).status).toBe(303);
    expect((await admin('create-operator', '--email', email, '--password', 'correct horse battery')).code).toBe(1);
    for (const args of [['create-operator', '--email', 'x@y.z', '--password', 'short'], ['create-operator', '--email', 'a@b.co', '--password', 'long enough pw', '--role', 'root']]) {
      expect((await admin(...args)).code).toBe(2);
    }
  }, 180_000); // five runs of the admin script, each a tsx start-up and an scrypt hash
});
