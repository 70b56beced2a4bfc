import { randomUUID } from 'node:crypto';
import { and, count, eq, inArray } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { operatorAudit, orders, partnerKeys, teams, webhookAttempts, webhookDeliveries, webhookEndpoints } from '../../db/schema/index.js';
import { DashboardClient, newOperator } from '../browser/dashboard-client.js';
import { orderWithReceiver } from '../browser/fixtures.js';
import { eventually, http, newTeam, startTestStack, type TestStack } from '../support/harness.js';
import { Receivers, createEndpoint } from '../support/webhooks.js';

/** Issue 12: teams and keys, the overview charts, workflows by search attribute, the codec's CORS. */
const UI_ORIGIN = 'http://127.0.0.1:8233';
let stack: TestStack;
const receivers = new Receivers();
beforeAll(async () => {
  stack = await startTestStack({ DASHBOARD_CODEC_ORIGINS: UI_ORIGIN });
});
afterEach(async () => receivers.stopAll());
afterAll(async () => {
  await stack?.close();
});

const keyOn = (html: string) => /<code id="new-key">([^<]+)<\/code>/.exec(html)?.[1];
/** Teams with one of these names: other test files may create teams meanwhile, so nothing counts them all. */
const teamsNamed = async (...names: string[]) => (await stack.db.db.select({ n: count() }).from(teams).where(inArray(teams.name, names)))[0]!.n;
const auditOf = (operatorId: string) => stack.db.db.select().from(operatorAudit).where(eq(operatorAudit.operatorId, operatorId));
/** A partner call that reaches the handler with a live key (404: no such order) and is refused with a revoked one (401). */
const partnerCall = (key: string) =>
  http(stack, 'POST', `/partner/v1/orders/${randomUUID()}/shipment`, { headers: { 'x-partner-api-key': key }, body: { event: 'transit_customer' } });

describe('dashboard: teams and keys', () => {
  it('creates a team whose key is shown once (no-store) and works; rotating revokes the old key; each action is audited', async () => {
    const op = await newOperator(stack);
    const dash = await DashboardClient.login(stack, op.email, op.password);
    const name = `Ops team ${randomUUID().slice(0, 8)}`;
    const created = await dash.post('/dashboard/teams', { name });
    expect(created.status).toBe(200);
    expect(created.headers.get('cache-control')).toBe('no-store');
    const firstKey = keyOn(await created.text())!;
    expect(firstKey).toMatch(/^sk_us_/);
    expect((await http(stack, 'GET', '/v2/user/', { apiKey: firstKey })).status).toBe(200);

    const page = await (await dash.get('/dashboard/teams')).text();
    const teamId = new RegExp(`data-team="([0-9a-f-]{36})"><td>${name}</td>`).exec(page)?.[1];
    expect(teamId).toBeDefined();
    expect(page).not.toContain(firstKey); // only its hint
    expect(page).toContain(firstKey.slice(-4));

    const confirm = await dash.get(`/dashboard/teams/${teamId}/confirm-rotate`);
    expect(await confirm.text()).toContain('Confirm: rotate key');
    expect((await dash.post(`/dashboard/teams/${teamId}/rotate-key`, {}, null)).status).toBe(403); // no CSRF token
    expect((await http(stack, 'GET', '/v2/user/', { apiKey: firstKey })).status).toBe(200); // still live
    const rotated = await dash.post(`/dashboard/teams/${teamId}/rotate-key`);
    expect(rotated.status).toBe(200);
    const secondKey = keyOn(await rotated.text())!;
    expect(secondKey).not.toBe(firstKey);
    expect((await http(stack, 'GET', '/v2/user/', { apiKey: firstKey })).status).toBe(401);
    expect((await http(stack, 'GET', '/v2/user/', { apiKey: secondKey })).status).toBe(200);

    const actions = (await auditOf(op.id)).map((a) => `${a.action} ${a.targetId}`);
    expect(actions).toEqual(expect.arrayContaining([`team.create ${teamId}`, `team.rotate_key ${teamId}`]));
    expect(JSON.stringify(await auditOf(op.id))).not.toContain(secondKey); // keys never reach the audit log
  });

  it('creates a partner key (lab keys need a known lab), lists it by hint, and revoking it stops it at once', async () => {
    const op = await newOperator(stack);
    const dash = await DashboardClient.login(stack, op.email, op.password);
    const name = `Courier ${randomUUID().slice(0, 8)}`;
    const res = await dash.post('/dashboard/partner-keys', { name, kind: 'courier', lab_slug: '' });
    expect(res.status).toBe(200);
    const key = keyOn(await res.text())!;
    expect((await partnerCall(key)).status).toBe(404);
    const [row] = await stack.db.db.select().from(partnerKeys).where(eq(partnerKeys.name, name));
    expect(row!.keyHash).not.toContain(key);
    expect(await (await dash.get('/dashboard/teams')).text()).toContain(`data-partner-key="${row!.id}"`);

    expect((await dash.post('/dashboard/partner-keys', { name: 'Lab without slug', kind: 'lab' })).status).toBe(400);
    const unknownLab = await dash.post('/dashboard/partner-keys', { name: 'Lab', kind: 'lab', lab_slug: 'no-such-lab' });
    expect(unknownLab.status).toBe(422);
    expect(((await unknownLab.json()) as { detail: string }).detail).toMatch(/no-such-lab/);
    expect((await dash.post('/dashboard/partner-keys', { name: 'Courier', kind: 'courier', lab_slug: 'quest' })).status).toBe(400);

    expect(await (await dash.get(`/dashboard/partner-keys/${row!.id}/confirm-revoke`)).text()).toContain('Confirm: revoke key');
    const revoked = await dash.post(`/dashboard/partner-keys/${row!.id}/revoke`);
    expect(revoked.status).toBe(303);
    expect((await partnerCall(key)).status).toBe(401);
    expect((await auditOf(op.id)).map((a) => a.action)).toEqual(expect.arrayContaining(['partner_key.create', 'partner_key.revoke']));
  });

  it('refuses viewers and bad input with a {detail}, and creates nothing', async () => {
    const viewer = await newOperator(stack, 'viewer');
    const asViewer = await DashboardClient.login(stack, viewer.email, viewer.password);
    const page = await (await asViewer.get('/dashboard/teams')).text();
    expect(page).toContain('Teams and keys');
    expect(page).not.toContain('Create team');
    const names = ['viewer team', '   ', '', 'x'.repeat(101)];
    const before = await teamsNamed(...names);
    const refused = await asViewer.post('/dashboard/teams', { name: 'viewer team' });
    expect(refused.status).toBe(403);
    expect(((await refused.json()) as { detail: string }).detail).toMatch(/operator role/);

    const op = await newOperator(stack);
    const dash = await DashboardClient.login(stack, op.email, op.password);
    const cases: [string, Record<string, string>, number][] = [
      ['/dashboard/teams', {}, 400],
      ['/dashboard/teams', { name: '   ' }, 400],
      ['/dashboard/teams', { name: 'x'.repeat(101) }, 400],
      ['/dashboard/partner-keys', { name: 'p', kind: 'drone' }, 400],
      [`/dashboard/teams/${randomUUID()}/rotate-key`, {}, 404],
      ['/dashboard/teams/not-a-uuid/rotate-key', {}, 400],
      [`/dashboard/partner-keys/${randomUUID()}/revoke`, {}, 404],
    ];
    for (const [path, fields, status] of cases) {
      const res = await dash.post(path, fields);
      expect([path, res.status]).toEqual([path, status]);
      expect(((await res.json()) as { detail: string }).detail).toBeTruthy();
    }
    expect((await dash.get(`/dashboard/teams/${randomUUID()}/confirm-rotate`, { accept: 'application/json' })).status).toBe(404);
    expect(await teamsNamed(...names)).toBe(before);
    for (const who of [viewer, op]) expect((await auditOf(who.id)).map((a) => a.action)).toEqual(['login']);
    expect((await fetch(`${stack.url}/dashboard/teams`)).status).toBe(401);
  });
});

describe('dashboard: overview charts', () => {
  it("draws today's orders by status and each endpoint's success rate from the database's numbers", async () => {
    const op = await newOperator(stack, 'viewer');
    const dash = await DashboardClient.login(stack, op.email, op.password);
    const { team, receiver } = await orderWithReceiver(stack, receivers);
    const res = await dash.get('/dashboard/overview?days=7');
    expect(res.status).toBe(200);
    const html = await res.text();
    for (const id of ['chart-orders', 'chart-webhook-success', 'chart-webhook-latency', 'chart-parsing']) expect(html).toContain(`id="${id}"`);

    // For one team (its orders do not move meanwhile): today's bars carry the database's count per status.
    const mine = await (await dash.get(`/dashboard/overview?days=7&team=${team.teamId}`)).text();
    const today = new Date().toISOString().slice(0, 10);
    const db = await stack.db.db.select({ status: orders.status, n: count() }).from(orders).where(eq(orders.teamId, team.teamId)).groupBy(orders.status);
    const drawn = [...mine.matchAll(/<rect [^>]*data-series="([^"]+)" data-day="([^"]+)" data-n="(\d+)"/g)].map((m) => [m[1], m[2], Number(m[3])]);
    expect(drawn).toEqual(db.map((r) => [r.status, today, r.n]));
    expect(drawn.length).toBeGreaterThan(0);
    expect([...mine.matchAll(/<g data-row="/g)].length).toBe(2); // this team's one endpoint, in the success and latency charts

    // The team's endpoint: every attempt got a 2xx, and the count drawn lies between the database's
    // counts before and after the page was drawn (more events may still be arriving).
    const attempts = async () =>
      (await stack.db.db.select({ n: count() }).from(webhookAttempts).innerJoin(webhookDeliveries, eq(webhookDeliveries.id, webhookAttempts.deliveryId)).where(and(eq(webhookDeliveries.teamId, team.teamId))))[0]!.n;
    // A second team of the same name with an endpoint at the same URL (as when a later test's receiver
    // reuses a port): its rows carry the same label, so the team's own row is found by the endpoint's id.
    const twin = await newTeam(stack);
    await createEndpoint(stack, twin.apiKey, receiver.url);
    const low = await attempts();
    const again = await (await dash.get('/dashboard/overview?days=7')).text();
    const high = await attempts();
    expect(low).toBeGreaterThan(0);
    const [endpoint] = await stack.db.db.select({ id: webhookEndpoints.id }).from(webhookEndpoints).where(eq(webhookEndpoints.teamId, team.teamId));
    const u = new URL(receiver.url);
    const label = `test team · ${u.host}${u.pathname === '/' ? '' : u.pathname}`;
    const row = new RegExp(`<g data-row="([^"]*)" data-id="${endpoint!.id}">[\\s\\S]*?</g>`).exec(again);
    expect(row?.[1]).toBe(label);
    expect(again.split(`<g data-row="${label}"`).length - 1).toBeGreaterThanOrEqual(4); // both endpoints, in both charts
    const [, rate, drawnText] = /([\d.]+)% of (\d+)/.exec(row?.[0] ?? '') ?? [];
    expect(rate).toBe('100.0');
    const drawnAttempts = Number(drawnText);
    expect(drawnAttempts).toBeGreaterThanOrEqual(low);
    expect(drawnAttempts).toBeLessThanOrEqual(high);

    for (const bad of ['days=0', 'days=91', 'days=abc', 'days=1.5', 'team=x']) expect((await dash.get(`/dashboard/overview?${bad}`, { accept: 'application/json' })).status).toBe(400);
  });
});

describe('dashboard: workflows by search attribute', () => {
  it('finds an order workflow by its team, method, user and status, and not by another team', async () => {
    const op = await newOperator(stack, 'viewer');
    const dash = await DashboardClient.login(stack, op.email, op.password);
    const { order, team, userId } = await orderWithReceiver(stack, receivers);
    const wf = `lab-order-${order.id}`;
    const status = (await stack.db.db.select({ s: orders.lowLevelStatus }).from(orders).where(eq(orders.id, order.id)))[0]!.s;
    const page = (q: string) => dash.get(`/dashboard/workflows?view=running&${q}`).then((r) => r.text());
    const found = await eventually(async () => ((await page(`team=${team.teamId}&method=testkit&user=${userId}&status=${status}`)).includes(wf) ? true : null), 20_000, 250);
    expect(found).toBe(true);
    expect(await page(`team=${randomUUID()}`)).not.toContain(wf);
    expect(await page(`team=${team.teamId}&status=completed`)).not.toContain(wf);
    for (const bad of ['team=x', "status=ordered'%20OR%20'1'='1", 'method=drone', 'user=1']) {
      const res = await dash.get(`/dashboard/workflows?${bad}`, { accept: 'application/json' });
      expect([bad, res.status]).toEqual([bad, 400]);
    }
  });
});

describe('dashboard: the codec endpoint answers the Temporal UI origin only', () => {
  it('allows the configured origin with credentials in the preflight, and no other', async () => {
    const preflight = (origin: string) =>
      fetch(`${stack.url}/dashboard/codec/decode`, {
        method: 'OPTIONS',
        headers: { origin, 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type,x-namespace' },
      });
    const ok = await preflight(UI_ORIGIN);
    expect(ok.headers.get('access-control-allow-origin')).toBe(UI_ORIGIN);
    expect(ok.headers.get('access-control-allow-credentials')).toBe('true');
    const other = await preflight('http://evil.example');
    expect(other.headers.get('access-control-allow-origin')).toBeNull();
  });
});
