import { randomUUID } from 'node:crypto';
import { VitalClient } from '@tryvital/vital-node';
import { and, eq } from 'drizzle-orm';
import { Webhook } from 'standardwebhooks';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { setTeamLinkSettings } from '../../db/queries/link.js';
import { hashLinkToken } from '../../domain/link/tokens.js';
import { linkTokens, outboxEvents, providerConnections } from '../../db/schema/index.js';
import { eventually, http, newTeam, sdkFor, startTestStack, type TestStack } from '../support/harness.js';
import { Receivers, createEndpoint } from '../support/webhooks.js';

let stack: TestStack;
const receivers = new Receivers();
beforeAll(async () => {
  stack = await startTestStack();
});
afterEach(() => receivers.stopAll());
afterAll(async () => {
  await stack?.close();
});

async function linkTeam() {
  const team = await newTeam(stack);
  const client = sdkFor(stack, team.apiKey);
  const { userId } = await client.user.create({ clientUserId: `link-${randomUUID()}` });
  const { linkToken } = await client.link.token({ userId });
  return { ...team, client, userId, linkToken };
}

/** A client without any API key: what the Link widget has. */
const widget = () => new VitalClient({ apiKey: '', baseUrl: stack.url, maxRetries: 0 });

describe('link tokens', () => {
  it('mints a token bound to the user; state, validity and providers read through the SDK without an API key', async () => {
    const t = await linkTeam();
    expect(t.linkToken).toMatch(/^lt_/);
    const [stored] = await stack.db.db.select().from(linkTokens).where(eq(linkTokens.userId, t.userId));
    expect(stored!.tokenHash).toBe(hashLinkToken(t.linkToken));
    expect(JSON.stringify(stored)).not.toContain(t.linkToken);

    const state = await widget().link.tokenState({ vitalLinkToken: t.linkToken });
    expect(state).toMatchObject({ state: 'active', user_id: t.userId, team_id: t.teamId });
    expect(await t.client.link.isTokenValid({ token: t.linkToken })).toMatchObject({ valid: true, user_id: t.userId });
    const providers = await widget().link.getAllProviders({ vitalLinkToken: t.linkToken });
    expect(providers.map((p) => p.slug)).toContain('whoop');
    const config = await widget().team.getLinkConfig({ vitalLinkToken: t.linkToken });
    expect(config).toMatchObject({ reject_duplicate_connection: false });

    const started = await t.client.link.startConnect({ linkToken: t.linkToken, provider: 'whoop' });
    expect(started).toMatchObject({ provider: 'whoop', auth_type: 'password', user_id: t.userId });
    const code = await t.client.link.codeCreate({ userId: t.userId });
    expect(code.code).toMatch(/^lc_/);
    expect(code.expiresAt.getTime()).toBeGreaterThan(Date.now());
  });

  it('filters the providers list by the token', async () => {
    const t = await linkTeam();
    const { linkToken } = await t.client.link.token({ userId: t.userId, filterOnProviders: ['oura', 'whoop'] });
    const providers = await widget().link.getAllProviders({ vitalLinkToken: linkToken });
    expect(providers.map((p) => p.slug).sort()).toEqual(['oura', 'whoop']);
  });

  it('an API key alone cannot use link-token routes, and a token of team A is nothing to team B', async () => {
    const a = await linkTeam();
    const b = await linkTeam();
    const state = await http(stack, 'GET', '/v2/link/state', { apiKey: a.apiKey });
    expect(state.status).toBe(401);
    expect(state.json).toHaveProperty('detail');
    const pw = await http(stack, 'POST', '/v2/link/provider/password/whoop', { apiKey: a.apiKey, body: { username: 'sandbox_ok', password: 'x' } });
    expect(pw.status).toBe(200);
    expect(pw.json).toMatchObject({ state: 'error', error_type: 'invalid_token', connected: false, provider: 'whoop' });
    expect(await b.client.link.isTokenValid({ token: a.linkToken })).toMatchObject({ valid: false, error_type: 'invalid_token' });
    const start = await http(stack, 'POST', '/v2/link/start', { apiKey: b.apiKey, body: { link_token: a.linkToken, provider: 'whoop' } });
    expect(start.status).toBe(400);
    // Team A's token connects team A's user, whoever's key rides along.
    const res = await http(stack, 'POST', '/v2/link/provider/password/whoop', {
      apiKey: b.apiKey,
      headers: { 'x-service-link-token': a.linkToken },
      body: { username: 'sandbox_ok', password: 'pw' },
    });
    expect(res.json).toMatchObject({ state: 'success' });
    expect((await a.client.user.get(a.userId)).connectedSources.map((s) => s.provider.slug)).toEqual(['whoop']);
    expect((await b.client.user.get(b.userId)).connectedSources).toEqual([]);
  });

  it('refuses bad input with 422/404 and writes nothing', async () => {
    const t = await linkTeam();
    const cases: [string, string, unknown, number][] = [
      ['POST', '/v2/link/token', {}, 422],
      ['POST', '/v2/link/token', { user_id: 'nope' }, 422],
      ['POST', '/v2/link/token', { user_id: randomUUID() }, 404],
      ['POST', '/v2/link/token', { user_id: t.userId, provider: 'myspace' }, 422],
      ['POST', '/v2/link/token', { user_id: t.userId, redirect_url: 'javascript:alert(1)' }, 422],
      ['POST', '/v2/link/token/isValid', { token: 5 }, 422],
      ['POST', '/v2/link/start', { link_token: t.linkToken }, 422],
      ['POST', `/v2/link/code/create?user_id=${t.userId}&expires_at=yesterday`, undefined, 422],
      ['POST', `/v2/link/code/create?user_id=${t.userId}&expires_at=2001-01-01T00:00:00Z`, undefined, 400],
      ['POST', '/v2/link/code/create', undefined, 422],
      ['POST', '/v2/link/connect/demo', { user_id: t.userId, provider: 'whoop' }, 422],
      ['POST', '/v2/link/connect/demo', { user_id: randomUUID(), provider: 'oura' }, 404],
      ['POST', '/v2/link/provider/manual/whoop', { user_id: t.userId }, 422],
      ['POST', '/v2/link/provider/manual/manual', { user_id: 'x' }, 422],
      ['DELETE', `/v2/user/${t.userId}/myspace`, undefined, 422],
      ['DELETE', `/v2/user/${t.userId}/oura`, undefined, 404],
      ['GET', `/v2/user/${t.userId}/device/nope`, undefined, 422],
      ['GET', `/v2/user/${t.userId}/device/${randomUUID()}`, undefined, 404],
      ['POST', `/v2/user/refresh/${randomUUID()}`, undefined, 404],
      ['GET', '/v2/providers?source_type=spaceship', undefined, 422],
    ];
    for (const [method, path, body, status] of cases) {
      const res = await http(stack, method, path, { apiKey: t.apiKey, ...(body !== undefined ? { body } : {}) });
      expect({ path, body, status: res.status }).toEqual({ path, body, status });
      expect(res.json).toHaveProperty('detail');
    }
    const headers = { 'x-vital-link-token': t.linkToken };
    for (const body of [{}, { username: 'sandbox_ok' }, { username: 'sandbox_ok', password: 'x', region: 'mars' }]) {
      const res = await http(stack, 'POST', '/v2/link/provider/password/whoop', { headers, body });
      expect(res.status).toBe(422);
    }
    expect((await http(stack, 'POST', '/v2/link/provider/password/oura', { headers, body: { username: 'a', password: 'b' } })).status).toBe(422);
    expect((await http(stack, 'POST', '/v2/link/provider/password/whoop/complete_mfa', { headers, body: {} })).status).toBe(422);
    expect((await http(stack, 'POST', '/v2/link/provider/password/whoop', { headers, rawBody: '{' })).status).toBe(422);
    expect(await stack.db.db.select().from(providerConnections).where(eq(providerConnections.userId, t.userId))).toEqual([]);
  });
});

describe('password providers', () => {
  it('connects with SMS MFA, announces a verified provider.connection.created, and consumes the token', async () => {
    const t = await linkTeam();
    const receiver = await receivers.start();
    const endpoint = await createEndpoint(stack, t.apiKey, receiver.url, { event_types: ['provider.connection.created'] });
    const w = widget();

    const first = await w.link.connectPasswordProvider('whoop', { vitalLinkToken: t.linkToken, username: 'sandbox_mfa_sms', password: 'hunter2' });
    expect(first).toMatchObject({ state: 'pending_provider_mfa', provider: 'whoop', connected: false });
    expect(first.providerMfa?.method).toBe('sms');
    expect(first.providerMfa?.hint).toMatch(/^\+1 ••• ••• \d{4}$/);

    const wrong = await w.link.completePasswordProviderMfa('whoop', { vitalLinkToken: t.linkToken, mfaCode: '123456' });
    expect(wrong).toMatchObject({ state: 'error', errorType: 'incorrect_mfa_code' });
    const ok = await w.link.completePasswordProviderMfa('whoop', { vitalLinkToken: t.linkToken, mfaCode: '000000' });
    expect(ok).toMatchObject({ state: 'success', connected: true, provider: 'whoop' });
    expect(ok.providerId).toBeTruthy();

    const [conn] = await stack.db.db.select().from(providerConnections).where(eq(providerConnections.userId, t.userId));
    expect(conn).toMatchObject({ provider: 'whoop', status: 'connected', method: 'password' });
    expect(conn!.sealedCredentials).toMatch(/^v1\./);
    expect(conn!.sealedCredentials).not.toContain('hunter2');

    const user = await t.client.user.get(t.userId);
    expect(user.connectedSources.map((s) => s.provider.slug)).toEqual(['whoop']);
    const providers = await t.client.user.getConnectedProviders(t.userId);
    expect(Object.values(providers).flat()[0]).toMatchObject({ slug: 'whoop', status: 'connected' });

    const delivered = await eventually(() => Promise.resolve(receiver.accepted[0]), 20_000);
    const h = (name: string) => String(delivered.headers[name]);
    new Webhook(endpoint.secret).verify(delivered.body, {
      'webhook-id': h('webhook-id'),
      'webhook-timestamp': h('webhook-timestamp'),
      'webhook-signature': h('webhook-signature'),
    });
    expect(delivered.json).toMatchObject({ event_type: 'provider.connection.created', user_id: t.userId, team_id: t.teamId });
    expect(delivered.json.data).toMatchObject({ user_id: t.userId, provider: { slug: 'whoop' }, source: { slug: 'whoop' } });
    expect(delivered.body).not.toContain('hunter2');

    const again = await w.link.connectPasswordProvider('whoop', { vitalLinkToken: t.linkToken, username: 'sandbox_ok', password: 'x' });
    expect(again).toMatchObject({ state: 'error', errorType: 'token_consumed' });
    expect(await t.client.link.isTokenValid({ token: t.linkToken })).toMatchObject({ valid: false, error_type: 'token_consumed' });

    expect(await t.client.user.deregisterProvider(t.userId, 'whoop')).toEqual({ success: true });
    expect((await t.client.user.get(t.userId)).connectedSources).toEqual([]);
  });

  it('email MFA, and complete_mfa without a pending challenge', async () => {
    const t = await linkTeam();
    const w = widget();
    const none = await w.link.completePasswordProviderMfa('dexcom', { vitalLinkToken: t.linkToken, mfaCode: '000000' });
    expect(none).toMatchObject({ state: 'error' });
    const first = await w.link.connectPasswordProvider('dexcom', { vitalLinkToken: t.linkToken, username: 'sandbox_mfa_email', password: 'p' });
    expect(first.providerMfa).toEqual({ method: 'email', hint: 's•••@example.com' });
    expect(await w.link.completePasswordProviderMfa('dexcom', { vitalLinkToken: t.linkToken, mfaCode: '000000' })).toMatchObject({ state: 'success' });
  });

  it.each([
    ['sandbox_bad_password', undefined, 'provider_credential_error'],
    ['sandbox_password_expired', undefined, 'provider_password_expired'],
    ['sandbox_api_error', undefined, 'provider_api_error'],
    ['sandbox_ok', 'kr', 'unsupported_region'],
  ] as const)('%s (region %s) → %s', async (username, region, errorType) => {
    const t = await linkTeam();
    const res = await widget().link.connectPasswordProvider('abbott_libreview', {
      vitalLinkToken: t.linkToken,
      username,
      password: 'p',
      ...(region ? { region } : {}),
    });
    expect(res).toMatchObject({ state: 'error', errorType, connected: false, provider: 'abbott_libreview' });
    expect(res.error).toBeTruthy();
    expect((await t.client.user.get(t.userId)).connectedSources).toEqual([]);
    expect(await t.client.link.isTokenValid({ token: t.linkToken })).toMatchObject({ valid: true });
    const events = () =>
      stack.db.db.select().from(outboxEvents).where(and(eq(outboxEvents.teamId, t.teamId), eq(outboxEvents.eventType, 'provider.connection.error')));
    if (errorType === 'unsupported_region') {
      expect(await events()).toEqual([]);
    } else {
      const [event] = await events();
      expect(event!.data).toMatchObject({ provider: 'abbott_libreview', user_id: t.userId });
    }
  });

  it('the deprecated passwordAuth takes the provider in the body', async () => {
    const t = await linkTeam();
    const res = await widget().link.passwordAuth({ vitalLinkToken: t.linkToken, username: 'sandbox_ok', password: 'p', provider: 'renpho', authType: 'password' });
    expect(res).toMatchObject({ state: 'success', provider: 'renpho', connected: true });
    const headers = { 'x-vital-link-token': t.linkToken };
    const oauth = await http(stack, 'POST', '/v2/link/auth', { headers, body: { username: 'a', password: 'b', provider: 'oura', auth_type: 'oauth' } });
    expect(oauth.status).toBe(422);
  });

  it('expired and unknown tokens', async () => {
    const t = await linkTeam();
    await stack.db.db.update(linkTokens).set({ expiresAt: new Date(Date.now() - 1000) }).where(eq(linkTokens.userId, t.userId));
    const expired = await widget().link.connectPasswordProvider('whoop', { vitalLinkToken: t.linkToken, username: 'sandbox_ok', password: 'p' });
    expect(expired).toMatchObject({ state: 'error', errorType: 'token_expired' });
    const unknown = await widget().link.connectPasswordProvider('whoop', { vitalLinkToken: 'lt_notarealtokenatallreally', username: 'sandbox_ok', password: 'p' });
    expect(unknown).toMatchObject({ state: 'error', errorType: 'invalid_token' });
  });

  it('duplicate_connection when the team rejects duplicates', async () => {
    const t = await linkTeam();
    await setTeamLinkSettings(stack.db.db, t.teamId, { rejectDuplicateConnection: true }, new Date());
    const first = await widget().link.connectPasswordProvider('peloton', { vitalLinkToken: t.linkToken, username: 'sandbox_ok', password: 'p' });
    expect(first.state).toBe('success');
    const { userId } = await t.client.user.create({ clientUserId: `second-${randomUUID()}` });
    const { linkToken } = await t.client.link.token({ userId });
    const second = await widget().link.connectPasswordProvider('peloton', { vitalLinkToken: linkToken, username: 'sandbox_ok', password: 'p' });
    expect(second).toMatchObject({ state: 'error', errorType: 'duplicate_connection' });
    const other = await widget().link.connectPasswordProvider('peloton', { vitalLinkToken: linkToken, username: 'sandbox_ok+2', password: 'p' });
    expect(other.state).toBe('success');
  });
});

describe('OAuth providers (sandbox consent page)', () => {
  /** The oauth_url on this test server (PUBLIC_URL is not set in tests). */
  const local = (url: string) => `${stack.url}${new URL(url).pathname}${new URL(url).search}`;

  it('links through the consent page and redirects with the outcome', async () => {
    const t = await linkTeam();
    const { linkToken } = await t.client.link.token({ userId: t.userId, redirectUrl: 'https://app.example.com/done' });
    const source = await widget().link.generateOauthLink('oura', { vitalLinkToken: linkToken });
    expect(source).toMatchObject({ slug: 'oura', authType: 'oauth' });
    const page = await fetch(local(source.oauthUrl!));
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('Oura sandbox');

    const approve = await fetch(`${local(source.oauthUrl!)}&decision=approve`, { method: 'POST', redirect: 'manual' });
    expect(approve.status).toBe(307);
    const back = new URL(approve.headers.get('location')!);
    expect(back.origin + back.pathname).toBe('https://app.example.com/done');
    expect(Object.fromEntries(back.searchParams)).toMatchObject({ state: 'success', provider: 'oura' });
    expect((await t.client.user.get(t.userId)).connectedSources.map((x) => x.provider.slug)).toEqual(['oura']);

    const reused = await fetch(`${local(source.oauthUrl!)}&decision=approve`, { method: 'POST', redirect: 'manual' });
    expect(new URL(reused.headers.get('location')!).searchParams.get('error_type')).toBe('token_consumed');
  });

  it('deny is user_cancelled; bad provider, state or decision are refused', async () => {
    const t = await linkTeam();
    const source = await widget().link.generateOauthLink('fitbit', { vitalLinkToken: t.linkToken });
    const deny = await fetch(`${local(source.oauthUrl!)}&decision=deny`, { method: 'POST' });
    expect(await deny.json()).toMatchObject({ state: 'error', error_type: 'user_cancelled' });
    expect((await t.client.user.get(t.userId)).connectedSources).toEqual([]);
    expect((await http(stack, 'GET', '/link/oauth/sandbox/whoop?state=x')).status).toBe(422);
    expect((await http(stack, 'GET', '/link/oauth/sandbox/fitbit?state=lt_notarealtokenatallreally')).status).toBe(400);
    expect((await http(stack, 'POST', `/link/oauth/sandbox/fitbit?state=${t.linkToken}&decision=maybe`)).status).toBe(422);
    expect((await http(stack, 'GET', '/v2/link/provider/oauth/fitbit')).status).toBe(401);
    expect((await http(stack, 'GET', '/v2/link/provider/oauth/whoop', { headers: { 'x-vital-link-token': t.linkToken } })).status).toBe(422);
  });
});

describe('demo and manual connections, devices, metrics', () => {
  it('connects a demo provider and a manual one, lists devices and metrics, refreshes', async () => {
    const t = await linkTeam();
    expect(await t.client.link.connectDemoProvider({ userId: t.userId, provider: 'oura' })).toMatchObject({ success: true });
    expect(await t.client.link.connectManualProvider('apple_health_kit', { userId: t.userId })).toEqual({ success: true });
    const user = await t.client.user.get(t.userId);
    expect(user.connectedSources.map((s) => s.provider.slug).sort()).toEqual(['apple_health_kit', 'oura']);
    const devices = await t.client.user.getDevices(t.userId);
    expect(devices).toHaveLength(2);
    expect(await t.client.user.getDevice(t.userId, devices[0]!.id)).toMatchObject({ id: devices[0]!.id, userId: t.userId });
    const metrics = await t.client.user.getTeamMetrics();
    expect(metrics).toMatchObject({ teamId: t.teamId, numberOfUsers: 1, numberOfConnectedSources: 2, numberOfErroredConnectedSources: 0 });
    const refreshed = await t.client.user.refresh(t.userId);
    expect(refreshed).toMatchObject({ success: true, userId: t.userId });
    const all = await t.client.providers.getAll();
    expect(all.find((p) => p.slug === 'whoop')).toMatchObject({ authType: 'password', name: 'WHOOP' });
  });
});
