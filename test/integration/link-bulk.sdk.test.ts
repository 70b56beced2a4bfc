import { randomUUID } from 'node:crypto';
import { VitalClient } from '@tryvital/vital-node';
import { eq, inArray } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { linkBulkOps, linkTokens, providerConnections } from '../../db/schema/index.js';
import { hashLinkToken } from '../../domain/link/tokens.js';
import { ingestionWorkflowId } from '../../workflows/ingestion/definitions.js';
import { eventually, http, newTeam, sdkFor, startTestStack, type TestStack } from '../support/harness.js';
import { Receivers, createEndpoint } from '../support/webhooks.js';

/**
 * The SDK's bulk link calls (listBulkOps, bulkImport, bulkTriggerHistoricalPull, bulkExport, bulkPause)
 * and e-mail providers (connectEmailAuthProvider, deprecated emailAuth), on a real Postgres and Temporal.
 */
let stack: TestStack;
const receivers = new Receivers();
beforeAll(async () => {
  stack = await startTestStack({ WEARABLE_INGESTION_ENABLED: 'false' }); // the bulk tests below see connections without ingestion
});
afterEach(() => receivers.stopAll());
afterAll(async () => {
  await stack?.close();
});

async function team(s = stack) {
  const t = await newTeam(s);
  const client = sdkFor(s, t.apiKey);
  const user = async (extra: { ingestionStart?: string } = {}) => (await client.user.create({ clientUserId: `bulk-${randomUUID()}`, ...extra })).userId;
  return { ...t, client, user };
}

const recipe = (userId: string, n = 1) => ({
  userId,
  accessToken: `at-${n}-${randomUUID()}`,
  refreshToken: `rt-${n}-${randomUUID()}`,
  providerId: `FB${n}${randomUUID().slice(0, 6)}`,
  expiresAt: 1_900_000_000,
  oauthScopes: ['activity', 'sleep'],
});

const connectionsOf = (userIds: string[]) => stack.db.db.select().from(providerConnections).where(inArray(providerConnections.userId, userIds));
const widget = () => new VitalClient({ apiKey: '', baseUrl: stack.url, maxRetries: 0 });

describe('bulk import, list, export', () => {
  it('imports the team’s users’ connections (webhook, same connection model), refuses other teams’ users, and lists the op', async () => {
    const a = await team();
    const b = await team();
    const [u1, u2] = [await a.user(), await a.user()];
    const foreign = await b.user();
    const unknown = randomUUID();
    const receiver = await receivers.start();
    await createEndpoint(stack, a.apiKey, receiver.url, { event_types: ['provider.connection.created'] });
    const r1 = recipe(u1, 1);
    const r2 = { ...recipe(u2, 2), oauthScopes: undefined };

    const res = await a.client.link.bulkImport({ provider: 'fitbit', connections: [r1, r2, recipe(foreign, 3), recipe(unknown, 4)], waitForCompletion: true }).withRawResponse();
    expect(res.rawResponse.status).toBe(200);
    expect(res.data.userIdsImported.sort()).toEqual([u1, u2].sort());
    expect(res.data.userIdsFailed.sort()).toEqual([foreign, unknown].sort());

    const conns = await connectionsOf([u1, u2, foreign]);
    expect(conns).toHaveLength(2);
    const c1 = conns.find((c) => c.userId === u1)!;
    expect(c1).toMatchObject({ provider: 'fitbit', status: 'connected', method: 'oauth', externalUserId: r1.providerId });
    expect(c1.sealedCredentials).toMatch(/^v1\./);
    expect(c1.sealedCredentials).not.toContain(r1.accessToken);
    expect((await a.client.user.get(u1)).connectedSources.map((s) => s.provider.slug)).toEqual(['fitbit']);
    expect((await b.client.user.get(foreign)).connectedSources).toEqual([]);

    await eventually(() => Promise.resolve(receiver.accepted.length >= 2 ? true : null), 20_000);
    const events = receiver.accepted.map((d) => d.json as { event_type: string; user_id: string; data: Record<string, unknown> });
    expect(events.map((e) => e.user_id).sort()).toEqual([u1, u2].sort());
    expect(events[0]).toMatchObject({ event_type: 'provider.connection.created', data: { provider: { slug: 'fitbit' } } });
    expect(receiver.accepted.map((d) => d.body).join()).not.toContain(r1.accessToken);

    const ops = await a.client.link.listBulkOps();
    expect(ops.data).toHaveLength(1);
    expect(ops.data[0]).toMatchObject({ type: 'link_bulk_import', status: 'success', provider: 'fitbit', pending: 0, processed: 4 });
    expect(ops.data[0]!.endedAt).toBeInstanceOf(Date);
    expect(ops.data[0]!.startedAt.getTime()).toBeLessThanOrEqual(ops.data[0]!.endedAt!.getTime());
    expect(ops.nextCursor).toBeUndefined();
    expect((await b.client.link.listBulkOps()).data).toEqual([]);

    // export gives back what was imported (a bulk_import body), and only the team's
    const exported = await a.client.link.bulkExport({ provider: 'fitbit' });
    expect(exported.nextToken).toBeUndefined();
    expect(exported.data).toHaveLength(2);
    expect(exported.data.find((x) => x.userId === u1)).toMatchObject({
      accessToken: r1.accessToken, refreshToken: r1.refreshToken, providerId: r1.providerId, expiresAt: r1.expiresAt, oauthScopes: ['activity', 'sleep'],
    });
    expect(exported.data.find((x) => x.userId === u2)?.oauthScopes).toBeUndefined();
    expect((await a.client.link.bulkExport({ provider: 'fitbit', userIds: [u2] })).data.map((x) => x.userId)).toEqual([u2]);
    expect((await a.client.link.bulkExport({ provider: 'oura' })).data).toEqual([]);
    expect((await b.client.link.bulkExport({ provider: 'fitbit' })).data).toEqual([]);
    expect((await b.client.link.bulkExport({ provider: 'fitbit', userIds: [u1] })).data).toEqual([]);
    // team_id: the SDK sends infer_from_context; the key's own team id is the same, another team's is not found
    expect((await a.client.link.bulkExport({ provider: 'fitbit', teamId: 'infer_from_context' })).data).toHaveLength(2);
    const own = await http(stack, 'POST', `/v2/link/bulk_export?team_id=${a.teamId}`, { apiKey: a.apiKey, body: { provider: 'fitbit' } });
    expect((own.json as { data: unknown[] }).data).toHaveLength(2);
    expect((await http(stack, 'POST', `/v2/link/bulk_export?team_id=${b.teamId}`, { apiKey: a.apiKey, body: { provider: 'fitbit' } })).status).toBe(404);
  });

  it('without wait_for_completion answers 202 at once; the op is listed in progress, then done', async () => {
    const a = await team();
    const users = [await a.user(), await a.user(), await a.user()];
    const res = await a.client.link.bulkImport({ provider: 'oura', connections: users.map((u, i) => recipe(u, i)) }).withRawResponse();
    expect(res.rawResponse.status).toBe(202);
    expect(res.data.userIdsFailed).toEqual([]);
    const body = res.data as unknown as { bulk_op_id: string };
    expect(body.bulk_op_id).toMatch(/^[0-9a-f-]{36}$/);
    const done = await eventually(async () => {
      const [op] = (await a.client.link.listBulkOps()).data;
      return op?.status === 'success' ? op : null;
    }, 30_000, 200);
    expect(done).toMatchObject({ pending: 0, processed: 3, type: 'link_bulk_import', provider: 'oura' });
    expect((await connectionsOf(users)).map((c) => c.status)).toEqual(['connected', 'connected', 'connected']);
  });

  it('a connection already linked to another user is a failed import when the team rejects duplicates; re-import of the same user re-links', async () => {
    const a = await team();
    const [u1, u2] = [await a.user(), await a.user()];
    const r = recipe(u1);
    expect((await a.client.link.bulkImport({ provider: 'polar', connections: [r], waitForCompletion: true })).userIdsImported).toEqual([u1]);
    const again = await a.client.link.bulkImport({ provider: 'polar', connections: [{ ...r, accessToken: 'newer-token' }], waitForCompletion: true });
    expect(again.userIdsImported).toEqual([u1]);
    expect((await a.client.link.bulkExport({ provider: 'polar' })).data[0]).toMatchObject({ accessToken: 'newer-token' });
    const { setTeamLinkSettings } = await import('../../db/queries/link.js');
    await setTeamLinkSettings(stack.db.db, a.teamId, { rejectDuplicateConnection: true }, new Date());
    const dup = await a.client.link.bulkImport({ provider: 'polar', connections: [{ ...recipe(u2), providerId: r.providerId }], waitForCompletion: true });
    expect(dup).toMatchObject({ userIdsImported: [], userIdsFailed: [u2] });
    expect(await connectionsOf([u2])).toEqual([]);
    const [latest] = (await a.client.link.listBulkOps()).data;
    expect(latest).toMatchObject({ status: 'failure', processed: 1 });
  });

  it('pages the ops list with next_cursor and page_size, newest first', async () => {
    const a = await team();
    const u = await a.user();
    for (let i = 0; i < 3; i++) await a.client.link.bulkTriggerHistoricalPull({ provider: 'oura', userIds: [u], waitForCompletion: true });
    const first = await a.client.link.listBulkOps({ pageSize: 2 });
    expect(first.data).toHaveLength(2);
    expect(first.nextCursor).toBeTruthy();
    const second = await a.client.link.listBulkOps({ pageSize: 2, nextCursor: first.nextCursor! });
    expect(second.data).toHaveLength(1);
    expect(second.nextCursor).toBeUndefined();
    const all = [...first.data, ...second.data];
    const ids = all.map((op) => (op as unknown as { id: string }).id);
    expect(new Set(ids).size).toBe(3);
    const starts = all.map((op) => op.startedAt.getTime());
    expect([...starts].sort((x, y) => y - x)).toEqual(starts);
  });
});

describe('bulk pause and historical trigger (ingestion off)', () => {
  it('pauses the team’s connections only; the trigger records connections without ingestion as not running', async () => {
    const a = await team();
    const b = await team();
    const [u1, u2, u3] = [await a.user(), await a.user(), await a.user()];
    const foreign = await b.user();
    await a.client.link.bulkImport({ provider: 'garmin', connections: [recipe(u1), recipe(u2)], waitForCompletion: true });
    await b.client.link.bulkImport({ provider: 'garmin', connections: [recipe(foreign)], waitForCompletion: true });

    const trigger = (await a.client.link.bulkTriggerHistoricalPull({ provider: 'garmin', userIds: [u1, u3, foreign], waitForCompletion: true })) as Record<string, unknown>;
    expect(trigger).toMatchObject({ status: 'failure', user_ids_triggered: [], user_ids_not_running: [u1] });
    expect((trigger.user_ids_failed as string[]).sort()).toEqual([u3, foreign].sort());
    const [op] = (await a.client.link.listBulkOps()).data;
    expect(op).toMatchObject({ type: 'link_bulk_historical_trigger', status: 'failure', pending: 0, processed: 3 });

    const paused = (await a.client.link.bulkPause({ provider: 'garmin', userIds: [u1, u3, foreign] })) as Record<string, unknown>;
    expect(paused).toMatchObject({ success: true, user_ids_paused: [u1] });
    expect((paused.user_ids_without_connection as string[]).sort()).toEqual([u3, foreign].sort());
    const statuses = Object.fromEntries((await connectionsOf([u1, u2, foreign])).map((c) => [c.userId, c.status]));
    expect(statuses).toEqual({ [u1]: 'paused', [u2]: 'connected', [foreign]: 'connected' });
    // a paused connection is not refreshed, and a trigger finds it paused
    expect((await a.client.user.refresh(u1)).inProgressSources).toEqual([]);
    const again = (await a.client.link.bulkTriggerHistoricalPull({ provider: 'garmin', userIds: [u1], waitForCompletion: true })) as Record<string, unknown>;
    expect(again).toMatchObject({ user_ids_failed: [u1] });
    // pausing again is harmless
    expect(await a.client.link.bulkPause({ provider: 'garmin', userIds: [u1] })).toMatchObject({ user_ids_paused: [u1] });
  });
});

describe('bad input', () => {
  it('is a 4xx with a JSON {detail}, and changes nothing', async () => {
    const a = await team();
    const b = await team();
    const u = await a.user();
    const good = { user_id: u, access_token: 'a', refresh_token: 'r', provider_id: 'p', expires_at: 1 };
    const cases: [string, string, unknown, number][] = [
      ['POST', '/v2/link/bulk_import', {}, 422],
      ['POST', '/v2/link/bulk_import', { provider: 'fitbit', connections: [] }, 422],
      ['POST', '/v2/link/bulk_import', { provider: 'whoop', connections: [good] }, 422],
      ['POST', '/v2/link/bulk_import', { provider: 'fitbit', connections: [good, good] }, 422],
      ['POST', '/v2/link/bulk_import', { provider: 'fitbit', connections: [{ ...good, user_id: 'nope' }] }, 422],
      ['POST', '/v2/link/bulk_import', { provider: 'fitbit', connections: [{ ...good, access_token: '' }] }, 422],
      ['POST', '/v2/link/bulk_import', { provider: 'fitbit', connections: [{ ...good, expires_at: -1 }] }, 422],
      ['POST', '/v2/link/bulk_import', { provider: 'fitbit', connections: [{ ...good, expires_at: 1.5 }] }, 422],
      ['POST', '/v2/link/bulk_import', { provider: 'fitbit', connections: [{ ...good, oauth_scopes: 'activity' }] }, 422],
      ['POST', '/v2/link/bulk_import', { provider: 'fitbit', connections: [good], wait_for_completion: 'yes' }, 422],
      ['POST', '/v2/link/bulk_import', { provider: 'fitbit', connections: Array.from({ length: 501 }, () => ({ ...good, user_id: randomUUID() })) }, 422],
      ['POST', `/v2/link/bulk_import?team_id=${b.teamId}`, { provider: 'fitbit', connections: [good] }, 404],
      ['POST', '/v2/link/bulk_import?team_id=someone', { provider: 'fitbit', connections: [good] }, 422],
      ['POST', '/v2/link/bulk_trigger_historical_pull', { provider: 'fitbit', user_ids: [] }, 422],
      ['POST', '/v2/link/bulk_trigger_historical_pull', { provider: 'fitbit', user_ids: [u, u] }, 422],
      ['POST', '/v2/link/bulk_trigger_historical_pull', { provider: 'fitbit' }, 422],
      ['POST', '/v2/link/bulk_trigger_historical_pull', { provider: 'manual', user_ids: [u] }, 422],
      ['POST', '/v2/link/bulk_pause', { provider: 'fitbit', user_ids: ['x'] }, 422],
      ['POST', '/v2/link/bulk_pause', { user_ids: [u] }, 422],
      ['POST', `/v2/link/bulk_pause?team_id=${b.teamId}`, { provider: 'fitbit', user_ids: [u] }, 404],
      ['POST', '/v2/link/bulk_export', { provider: 'fitbit', next_token: 'garbage' }, 422],
      ['POST', '/v2/link/bulk_export', { provider: 'fitbit', next_token: Buffer.from(`export|oura|${randomUUID()}`).toString('base64url') }, 422],
      ['POST', '/v2/link/bulk_export', { provider: 'fitbit', user_ids: 'all' }, 422],
      ['POST', '/v2/link/bulk_export', { provider: 'freestyle_libre' }, 422],
      ['GET', '/v2/link/bulk_op?page_size=0', undefined, 422],
      ['GET', '/v2/link/bulk_op?page_size=101', undefined, 422],
      ['GET', '/v2/link/bulk_op?page_size=abc', undefined, 422],
      ['GET', '/v2/link/bulk_op?next_cursor=nope', undefined, 422],
      ['GET', `/v2/link/bulk_op?next_cursor=${Buffer.from(`0000-01-01T00:00:00.000Z|${randomUUID()}`).toString('base64url')}`, undefined, 422],
      ['GET', `/v2/link/bulk_op?team_id=${b.teamId}`, undefined, 404],
    ];
    for (const [method, path, body, status] of cases) {
      const res = await http(stack, method, path, { apiKey: a.apiKey, ...(body !== undefined ? { body } : {}) });
      expect({ path, body: JSON.stringify(body)?.slice(0, 200), status: res.status }).toEqual({ path, body: JSON.stringify(body)?.slice(0, 200), status });
      expect(res.json).toHaveProperty('detail');
    }
    expect((await http(stack, 'POST', '/v2/link/bulk_import', { apiKey: a.apiKey, rawBody: '{' })).status).toBe(422);
    // without a key, or with a link token instead: refused
    expect((await http(stack, 'GET', '/v2/link/bulk_op')).status).toBe(401);
    const { linkToken } = await a.client.link.token({ userId: u });
    expect((await http(stack, 'POST', '/v2/link/bulk_pause', { headers: { 'x-vital-link-token': linkToken }, body: { provider: 'fitbit', user_ids: [u] } })).status).toBe(401);
    expect(await stack.db.db.select().from(linkBulkOps).where(eq(linkBulkOps.teamId, a.teamId))).toEqual([]);
    expect(await connectionsOf([u])).toEqual([]);
  });
});

describe('e-mail providers', () => {
  async function linked() {
    const a = await team();
    const userId = await a.user();
    const { linkToken } = await a.client.link.token({ userId, redirectUrl: 'https://app.example.com/done' });
    return { ...a, userId, linkToken };
  }

  it('connects FreeStyle Libre with a sandbox_ok e-mail: connection, webhook, token consumed', async () => {
    const t = await linked();
    const receiver = await receivers.start();
    await createEndpoint(stack, t.apiKey, receiver.url, { event_types: ['provider.connection.created'] });
    const res = (await widget().link.connectEmailAuthProvider('freestyle_libre', { vitalLinkToken: t.linkToken, email: 'Sandbox_OK+1@example.com', region: 'us' })) as Record<string, unknown>;
    expect(res).toMatchObject({ state: 'success', provider: 'freestyle_libre', connected: true, redirect_url: 'https://app.example.com/done', error_type: null });
    const [conn] = await connectionsOf([t.userId]);
    expect(conn).toMatchObject({ provider: 'freestyle_libre', status: 'connected', method: 'email', id: res.provider_id });
    expect(conn!.sealedCredentials).toMatch(/^v1\./);
    expect(conn!.sealedCredentials).not.toContain('example.com');
    const delivered = await eventually(() => Promise.resolve(receiver.accepted[0]), 20_000);
    expect(delivered.json).toMatchObject({ event_type: 'provider.connection.created', user_id: t.userId, data: { provider: { slug: 'freestyle_libre' } } });
    expect(delivered.body).not.toContain('example.com');
    const again = (await widget().link.connectEmailAuthProvider('freestyle_libre', { vitalLinkToken: t.linkToken, email: 'sandbox_ok@example.com' })) as Record<string, unknown>;
    expect(again).toMatchObject({ state: 'error', error_type: 'token_consumed', connected: false });
  });

  it('the deprecated emailAuth does the same through its body', async () => {
    const t = await linked();
    const res = (await widget().link.emailAuth({ vitalLinkToken: t.linkToken, email: 'sandbox_ok@example.com', provider: 'freestyle_libre', authType: 'email' })) as Record<string, unknown>;
    expect(res).toMatchObject({ state: 'success', provider: 'freestyle_libre' });
    expect((await connectionsOf([t.userId])).map((c) => c.method)).toEqual(['email']);
  });

  it('sandbox rules: unknown account, provider error, unsupported region; the token stays usable', async () => {
    const t = await linked();
    const w = widget();
    const attempt = async (email: string, region?: 'kr' | 'us') =>
      (await w.link.connectEmailAuthProvider('freestyle_libre', { vitalLinkToken: t.linkToken, email, ...(region ? { region } : {}) })) as Record<string, unknown>;
    expect(await attempt('nobody@example.com')).toMatchObject({ state: 'error', error_type: 'provider_credential_error', connected: false });
    expect(await attempt('sandbox_api_error@example.com')).toMatchObject({ state: 'error', error_type: 'provider_api_error' });
    expect(await attempt('sandbox_ok@example.com', 'kr')).toMatchObject({ state: 'error', error_type: 'unsupported_region' });
    expect(await connectionsOf([t.userId])).toEqual([]);
    expect(await attempt('sandbox_ok@example.com')).toMatchObject({ state: 'success' });
  });

  it('bad, expired and other tokens are state errors; bad input is a 422; nothing is connected', async () => {
    const t = await linked();
    const w = widget();
    const email = 'sandbox_ok@example.com';
    expect(await w.link.connectEmailAuthProvider('freestyle_libre', { vitalLinkToken: 'lt_garbage', email })).toMatchObject({ state: 'error', error_type: 'invalid_token' });
    const noToken = await http(stack, 'POST', '/v2/link/provider/email/freestyle_libre', { apiKey: t.apiKey, body: { email } });
    expect(noToken.status).toBe(200);
    expect(noToken.json).toMatchObject({ state: 'error', error_type: 'invalid_token' });
    const headers = { 'x-service-link-token': t.linkToken };
    const bad: [string, unknown][] = [
      ['/v2/link/provider/email/freestyle_libre', {}],
      ['/v2/link/provider/email/freestyle_libre', { email: 'not an email' }],
      ['/v2/link/provider/email/freestyle_libre', { email, region: 'mars' }],
      ['/v2/link/provider/email/freestyle_libre', { email, provider: 'oura' }],
      ['/v2/link/provider/email/whoop', { email }],
      ['/v2/link/auth/email', { email, provider: 'freestyle_libre', auth_type: 'password' }],
      ['/v2/link/auth/email', { email, provider: 'whoop', auth_type: 'email' }],
      ['/v2/link/auth/email', { email: `${'a'.repeat(400)}@example.com`, provider: 'freestyle_libre', auth_type: 'email' }],
    ];
    for (const [path, body] of bad) {
      const res = await http(stack, 'POST', path, { headers, body });
      expect({ path, body, status: res.status }).toEqual({ path, body, status: 422 });
      expect(res.json).toHaveProperty('detail');
    }
    await stack.db.db.update(linkTokens).set({ expiresAt: new Date(Date.now() - 1000) }).where(eq(linkTokens.tokenHash, hashLinkToken(t.linkToken)));
    const expired = await http(stack, 'POST', '/v2/link/provider/email/freestyle_libre', { headers, body: { email } });
    expect(expired.json).toMatchObject({ state: 'error', error_type: 'token_expired', redirect_url: 'https://app.example.com/done' });
    expect(await connectionsOf([t.userId])).toEqual([]);
  });
});

describe('with ingestion on', () => {
  let live: TestStack;
  beforeAll(async () => {
    live = await startTestStack({ WEARABLE_INGESTION_ENABLED: 'true' });
  });
  afterAll(async () => {
    await live?.close();
  });

  async function plans(workflowId: string): Promise<number> {
    const history = await live.temporal.workflow.getHandle(workflowId).fetchHistory();
    return (history.events ?? []).filter((e) => e.activityTaskScheduledEventAttributes?.activityType?.name === 'planIngestion').length;
  }

  it('imported connections ingest; the trigger makes them pull now; pause stops their ingestion', async () => {
    const a = await team(live);
    const yesterday = new Date(Date.now() - 86_400_000).toISOString().slice(0, 10);
    const u = await a.user({ ingestionStart: yesterday });
    expect((await a.client.link.bulkImport({ provider: 'oura', connections: [recipe(u)], waitForCompletion: true })).userIdsImported).toEqual([u]);
    const [conn] = await live.db.db.select().from(providerConnections).where(eq(providerConnections.userId, u));
    const workflowId = ingestionWorkflowId(conn!.id);
    const handle = live.temporal.workflow.getHandle(workflowId);
    await eventually(async () => ((await handle.describe()).status.name === 'RUNNING' && (await plans(workflowId)) >= 1 ? true : null), 30_000, 250);
    // wait for the backfill to finish (the workflow then waits for its next pull)
    await eventually(async () => {
      const events = (await handle.fetchHistory()).events ?? [];
      return events.some((e) => e.activityTaskScheduledEventAttributes?.activityType?.name === 'completeHistoricalPull') ? true : null;
    }, 60_000, 250);
    const before = await plans(workflowId);

    const trigger = (await a.client.link.bulkTriggerHistoricalPull({ provider: 'oura', userIds: [u], waitForCompletion: true })) as Record<string, unknown>;
    expect(trigger).toMatchObject({ status: 'success', user_ids_triggered: [u], user_ids_not_running: [], user_ids_failed: [] });
    await eventually(async () => ((await plans(workflowId)) > before ? true : null), 30_000, 250);
    expect((await a.client.link.listBulkOps()).data[0]).toMatchObject({ type: 'link_bulk_historical_trigger', status: 'success' });

    expect(await a.client.link.bulkPause({ provider: 'oura', userIds: [u] })).toMatchObject({ user_ids_paused: [u] });
    expect(await handle.result()).toBe('stopped');
  });
});
