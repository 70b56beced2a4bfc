import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { operatorAudit, parsingJobs } from '../../db/schema/index.js';
import { samplePdf } from '../fixtures/lab-reports/report.js';
import { newOperator } from '../browser/dashboard-client.js';
import { orderWithReceiver } from '../browser/fixtures.js';
import { launchChromium } from '../support/chromium.js';
import { eventually, http, newTeam, startTestStack, type TestStack } from '../support/harness.js';
import { Receivers } from '../support/webhooks.js';

/**
 * Screenshots of each main page, shown in the README (docs/dashboard/*.png): written there with
 * RECORD_SCREENSHOTS=1, else to a temp directory (taken all the same; a test run leaves the tree clean).
 */
const SHOTS =
  process.env.RECORD_SCREENSHOTS === '1' ? new URL('../../docs/dashboard/', import.meta.url) : pathToFileURL(`${mkdtempSync(join(tmpdir(), 'labflow-shots-'))}/`);

let stack: TestStack;
let browser: Awaited<ReturnType<typeof launchChromium>>;
const receivers = new Receivers();
beforeAll(async () => {
  mkdirSync(SHOTS, { recursive: true });
  stack = await startTestStack();
  browser = await launchChromium();
}, 900_000); // may install Debian's chromium first
afterEach(async () => receivers.stopAll());
afterAll(async () => {
  await browser?.close();
  await stack?.close();
  if (process.env.RECORD_SCREENSHOTS !== '1') rmSync(SHOTS, { recursive: true, force: true });
});

const shot = (page: Page, name: string) => page.screenshot({ path: new URL(`${name}.png`, SHOTS).pathname, fullPage: true });

async function loggedIn(context: BrowserContext, role: 'operator' | 'viewer' = 'operator') {
  const op = await newOperator(stack, role);
  await context.clearCookies(); // each test logs in afresh
  const page = await context.newPage();
  await page.goto(`${stack.url}/dashboard/orders`);
  expect(new URL(page.url()).pathname).toBe('/dashboard/login'); // no session yet
  await page.getByLabel('Email').fill(op.email);
  await page.getByLabel('Password').fill(op.password);
  await page.getByRole('button', { name: 'Log in' }).click();
  await page.waitForURL(/\/dashboard\/orders/);
  return { page, op };
}

describe('the dashboard in chromium', () => {
  it('logs in, finds an order by sample id, shows its events, history and deliveries, and resends an event to the receiver', async () => {
    const { order, receiver } = await orderWithReceiver(stack, receivers);
    const { page, op } = await loggedIn(browser.context);
    await shot(page, 'login-then-orders');

    await page.getByLabel('Search orders').fill(order.sampleId!);
    await page.getByRole('button', { name: 'Search' }).click();
    const link = page.locator(`#results a[href="/dashboard/orders/${order.id}"]`);
    await link.waitFor(); // (the unfiltered first page may hold it too: wait for the search's own results)
    await page.waitForURL((u) => u.searchParams.get('q') === order.sampleId); // htmx pushed the search into the address bar
    await eventually(async () => (await page.locator('#results tbody tr').count()) === 1, 10_000, 100);
    expect(await page.locator('#results tbody tr').count()).toBe(1); // htmx swapped the results in place
    await shot(page, 'orders');

    await link.click();
    await page.waitForURL(new RegExp(`/dashboard/orders/${order.id}$`));
    const timeline = page.locator('#timeline');
    await timeline.getByText('order received.testkit.requisition_created').first().waitFor();
    expect(await timeline.textContent()).toContain('started labOrderWorkflow');
    expect(await timeline.textContent()).toContain('update register');
    expect(await page.locator('#deliveries tbody tr').count()).toBeGreaterThanOrEqual(4);
    expect(await page.locator('#waiting-for').textContent()).toBe('kit shipment to the customer');
    await shot(page, 'order');

    const before = receiver.accepted.length;
    await page.getByRole('link', { name: 'Resend last event' }).click();
    const confirm = page.getByRole('button', { name: 'Confirm: Resend last event' });
    await confirm.waitFor(); // the confirmation step, loaded into the page by htmx
    await shot(page, 'order-confirm-resend');
    await confirm.click();
    await page.waitForURL(new RegExp(`/dashboard/orders/${order.id}$`));
    await eventually(async () => receiver.accepted.length > before);
    expect(receiver.accepted.at(-1)!.json.event_type).toBe('labtest.order.updated');
    const audit = await stack.db.db.select().from(operatorAudit).where(eq(operatorAudit.targetId, order.id));
    expect(audit.map((a) => [a.action, a.operatorEmail])).toEqual([['order.resend', op.email]]);
    await page.close();
  });

  it('approves a parsing job waiting for review beside its document', async () => {
    const team = await newTeam(stack);
    const user = await http(stack, 'POST', '/v2/user', { apiKey: team.apiKey, body: { client_user_id: `p-${randomUUID()}` } });
    const form = new FormData();
    form.append('file', new Blob([new Uint8Array(await samplePdf())], { type: 'application/pdf' }), 'report.pdf');
    form.append('user_id', user.json.user_id as string);
    form.append('needs_human_review', 'true');
    const res = await fetch(`${stack.url}/lab_report/v1/parser/job`, { method: 'POST', headers: { 'x-vital-api-key': team.apiKey }, body: form });
    const jobId = ((await res.json()) as { id: string }).id;
    const pending = async () => (await stack.db.db.select().from(parsingJobs).where(eq(parsingJobs.id, jobId)))[0];
    await eventually(async () => (await pending())?.reviewStatus === 'pending', 120_000, 250);

    const { page } = await loggedIn(browser.context);
    await page.goto(`${stack.url}/dashboard/parsing`);
    await shot(page, 'parsing-queue');
    await page.locator(`a[href="/dashboard/parsing/${jobId}"]`).click();
    await page.locator('#parsed tbody tr').first().waitFor();
    const pdfPage = page.getByAltText('PDF page 1');
    await pdfPage.waitFor();
    // Drawn on the server as PNG (1000 px wide): the browser needs no PDF viewer.
    await eventually(async () => (await pdfPage.evaluate((i) => (i as unknown as { naturalWidth: number }).naturalWidth)) === 1000);
    await shot(page, 'parsing-job');
    await page.getByRole('button', { name: 'Approve', exact: true }).click();
    await page.waitForURL(new RegExp(`/dashboard/parsing/${jobId}$`));
    const job = await eventually(async () => {
      const j = await pending();
      return j?.status === 'completed' ? j : null;
    });
    expect(job.reviewStatus).toBe('approved');
    await page.close();
  });

  it('creates a team and shows its key once, draws the overview charts, and lists the order workflow by team', async () => {
    const { order, team } = await orderWithReceiver(stack, receivers);
    const { page, op } = await loggedIn(browser.context);

    await page.getByRole('link', { name: 'Teams and keys' }).click();
    await page.waitForURL(/\/dashboard\/teams$/);
    const name = `Browser team ${randomUUID().slice(0, 6)}`;
    await page.getByLabel('Team name').fill(name);
    await page.getByRole('button', { name: 'Create team' }).click();
    const key = (await page.locator('#new-key').textContent())!;
    expect(key).toMatch(/^sk_us_/);
    expect((await http(stack, 'GET', '/v2/user/', { apiKey: key })).status).toBe(200); // the key shown works
    await page.getByRole('link', { name: 'Back to teams and keys' }).click();
    await page.locator('#teams tbody tr', { hasText: name }).waitFor();
    expect(await page.content()).not.toContain(key); // shown once: the list has its hint only
    await shot(page, 'teams');
    const audit = await stack.db.db.select().from(operatorAudit).where(eq(operatorAudit.operatorEmail, op.email));
    expect(audit.map((a) => a.action).sort()).toEqual(['login', 'team.create']);

    await page.getByRole('link', { name: 'Overview' }).click();
    await page.waitForURL(/\/dashboard\/overview/);
    for (const id of ['chart-orders', 'chart-webhook-success', 'chart-webhook-latency', 'chart-parsing']) {
      const box = await page.locator(`#${id} svg`).boundingBox();
      expect(box?.width, id).toBeGreaterThan(300); // drawn, not empty
    }
    expect(await page.locator('#chart-orders rect[data-series]').count()).toBeGreaterThan(0);
    await shot(page, 'overview');

    await page.goto(`${stack.url}/dashboard/workflows?view=running`);
    await page.getByLabel('Team').selectOption(team.teamId);
    await page.getByRole('button', { name: 'Show' }).click();
    await eventually(async () => {
      if (await page.locator(`#workflows a[href="/dashboard/orders/${order.id}"]`).count()) return true;
      await page.reload();
      return false;
    }, 20_000, 500);
    expect(await page.locator('#workflows tbody tr').count()).toBe(1); // only this team's running order
    await shot(page, 'workflows');
    await page.close();
  });

  it('is refused without a session (login page) and without the CSRF token (403)', async () => {
    const { order } = await orderWithReceiver(stack, receivers);
    const fresh = await launchChromium();
    try {
      const anon = await fresh.context.newPage();
      await anon.goto(`${stack.url}/dashboard/orders/${order.id}`);
      expect(new URL(anon.url()).pathname).toBe('/dashboard/login');
      expect(await anon.getByLabel('Email').count()).toBe(1);
    } finally {
      await fresh.close();
    }
    const { page } = await loggedIn(browser.context);
    await page.goto(`${stack.url}/dashboard/orders/${order.id}`);
    // The page's own cookie but no token: a forged cross-site form would look like this.
    const statuses = await page.evaluate(async (id) => {
      const noToken = await fetch(`/dashboard/orders/${id}/cancel`, { method: 'POST', body: new URLSearchParams({}) });
      const wrong = await fetch(`/dashboard/orders/${id}/cancel`, { method: 'POST', body: new URLSearchParams({ _csrf: 'guess' }) });
      return [noToken.status, wrong.status];
    }, order.id);
    expect(statuses).toEqual([403, 403]);
    await page.close();
  });
});
