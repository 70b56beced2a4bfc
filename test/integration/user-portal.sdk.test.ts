import { randomUUID } from 'node:crypto';
import { VitalError } from '@tryvital/vital-node';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { linkTokens } from '../../db/schema/index.js';
import { loadUrlSigner } from '../../db/queries/secrets.js';
import { SHIPPING } from '../browser/fixtures.js';
import { testkitLabTest } from '../support/catalog-fixture.js';
import { http, newTeam, sdkFor, startTestStack, type TestStack } from '../support/harness.js';

/** user.getUserSignInToken, user.createPortalUrl (the user portal) and devices.getRaw, through the SDK. */
let stack: TestStack;
beforeAll(async () => {
  stack = await startTestStack();
});
afterAll(async () => {
  await stack?.close();
});

/** A link the service handed out, on the test server (the link's host is PUBLIC_URL's). */
const local = (url: string) => {
  const u = new URL(url);
  return `${stack.url}${u.pathname}${u.search}`;
};
const statusOf = async (p: Promise<unknown>) => {
  try {
    await p;
    return 200;
  } catch (err) {
    if (err instanceof VitalError) return err.statusCode;
    throw err;
  }
};

async function userWithOrderAndDevice() {
  const team = await newTeam(stack);
  const client = sdkFor(stack, team.apiKey);
  const { userId } = await client.user.create({ clientUserId: `portal-${randomUUID()}` });
  const { labTestId } = await testkitLabTest(stack.db.db, team.teamId);
  const { order } = await client.testkit.createOrder({ userId, labTestId, shippingDetails: SHIPPING });
  await client.link.connectManualProvider('beurer_ble', { userId });
  return { team, client, userId, order };
}

describe('the user portal', () => {
  it('a portal URL opens a page with the user’s sources and orders; one for an order shows that order only', async () => {
    const { client, userId, order } = await userWithOrderAndDevice();
    const portal = await client.user.createPortalUrl(userId, { context: 'launch' });
    expect(portal.expiresIn).toBe(900);
    const page = await fetch(local(portal.url));
    expect(page.status).toBe(200);
    expect(page.headers.get('cache-control')).toBe('private, no-store');
    const html = await page.text();
    expect(html).toContain('Connected sources');
    expect(html).toContain(`data-order="${order.id}"`);
    expect(html).toMatch(/Beurer/i);

    const long = await client.user.createPortalUrl(userId, { context: 'communications', orderId: order.id });
    expect(long.expiresIn).toBe(7 * 24 * 3600);
    const one = await (await fetch(local(long.url))).text();
    expect(one).toContain(`data-order="${order.id}"`);
    expect(one).not.toContain('Connected sources');

    // The link is the credential: another path, signature or expiry is refused.
    const u = new URL(local(portal.url));
    const other = new URL(u);
    other.pathname = `/portal/users/${randomUUID()}`;
    expect((await fetch(other)).status).toBe(403);
    const forged = new URL(u);
    forged.searchParams.set('signature', 'A'.repeat(43));
    expect((await fetch(forged)).status).toBe(403);
    const later = new URL(u);
    later.searchParams.set('expires', String(Number(u.searchParams.get('expires')) + 3600));
    expect((await fetch(later)).status).toBe(403);
    const signer = await loadUrlSigner(stack.db.db, {});
    const expired = await fetch(local(signer.sign(`/portal/users/${userId}`, new Date(Date.now() - 1000))));
    expect(expired.status).toBe(403);
    expect(((await expired.json()) as { detail: string }).detail).toMatch(/expired/);
  });

  it('a sign-in token is stored hashed, opens the portal once, and then never again', async () => {
    const { client, userId, order } = await userWithOrderAndDevice();
    const { signInToken, userId: echoed } = await client.user.getUserSignInToken(userId);
    expect(echoed).toBe(userId);
    expect(signInToken).toMatch(/^st_/);
    const rows = await stack.db.db.select().from(linkTokens).where(eq(linkTokens.userId, userId));
    expect(rows.map((r) => r.kind)).toEqual(['sign_in']);
    expect(JSON.stringify(rows)).not.toContain(signInToken);

    const first = await fetch(`${stack.url}/portal/sign-in?token=${signInToken}`, { redirect: 'manual' });
    expect(first.status).toBe(303);
    const to = first.headers.get('location')!;
    expect(to).toMatch(new RegExp(`^/portal/users/${userId}\\?expires=\\d+&signature=`));
    expect(await (await fetch(`${stack.url}${to}`)).text()).toContain(`data-order="${order.id}"`);
    const again = await fetch(`${stack.url}/portal/sign-in?token=${signInToken}`, { redirect: 'manual' });
    expect(again.status).toBe(403);
    // A sign-in token is no link token.
    const asLink = await http(stack, 'GET', '/v2/link/state', { headers: { 'x-vital-link-token': signInToken } });
    expect(asLink.status).not.toBe(200);
  });

  it('refuses another team’s user or order, and bad input, with a {detail}', async () => {
    const { client, userId, team: mine } = await userWithOrderAndDevice();
    const other = await userWithOrderAndDevice();
    expect(await statusOf(client.user.getUserSignInToken(other.userId))).toBe(404);
    expect(await statusOf(client.user.createPortalUrl(other.userId, { context: 'launch' }))).toBe(404);
    expect(await statusOf(client.user.createPortalUrl(userId, { context: 'launch', orderId: other.order.id }))).toBe(404);
    const tokensBefore = (await stack.db.db.select().from(linkTokens).where(eq(linkTokens.userId, userId))).length;
    for (const body of [{}, { context: 'later' }, { context: 'launch', order_id: 'x' }, { context: 'launch', extra: 1 }]) {
      const res = await http(stack, 'POST', `/v2/user/${userId}/create_portal_url`, { apiKey: mine.apiKey, body });
      expect([JSON.stringify(body), res.status]).toEqual([JSON.stringify(body), 422]);
      expect(res.json.detail).toBeTruthy();
    }
    expect((await http(stack, 'POST', '/v2/user/not-a-uuid/sign_in_token', { apiKey: mine.apiKey })).status).toBe(422);
    for (const token of ['', 'nope', `st_${'a'.repeat(31)}`]) {
      const res = await http(stack, 'GET', `/portal/sign-in?token=${token}`);
      expect(res.status).toBe(422);
    }
    expect((await http(stack, 'GET', `/portal/sign-in?token=st_${'a'.repeat(32)}`)).status).toBe(403);
    expect((await http(stack, 'GET', '/portal/users/not-a-uuid?expires=1&signature=x')).status).toBe(422);
    expect((await stack.db.db.select().from(linkTokens).where(eq(linkTokens.userId, userId))).length).toBe(tokensBefore);
  });
});

describe('devices.getRaw', () => {
  it('lists the user’s devices as stored, filtered by provider, for the team’s own users only', async () => {
    const { client, userId } = await userWithOrderAndDevice();
    const raw = await client.devices.getRaw(userId);
    expect(raw.devices).toHaveLength(1);
    const [device] = raw.devices;
    expect(device!.userId).toBe(userId);
    expect(device!.source.slug).toBe('beurer_ble');
    expect(device!.data).toMatchObject({ provider: 'beurer_ble', status: 'connected' });
    expect((await client.devices.getRaw(userId, { provider: 'oura' })).devices).toEqual([]);
    const other = await userWithOrderAndDevice();
    expect(await statusOf(client.devices.getRaw(other.userId))).toBe(404);
  });
});
