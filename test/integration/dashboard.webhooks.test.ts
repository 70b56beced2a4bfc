import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { operatorAudit, webhookDeliveries } from '../../db/schema/index.js';
import { wakeEndpoints } from '../../lib/webhook-wake.js';
import { DashboardClient, newOperator } from '../browser/dashboard-client.js';
import { orderWithReceiver } from '../browser/fixtures.js';
import { eventually, newTeam, startTestStack, type TestStack } from '../support/harness.js';
import { Receivers, createEndpoint, emitEvents } from '../support/webhooks.js';

let stack: TestStack;
const receivers = new Receivers();
beforeAll(async () => {
  stack = await startTestStack();
});
afterEach(async () => receivers.stopAll());
afterAll(async () => {
  await stack?.close();
});

describe('dashboard: webhooks', () => {
  it('recover delivers at once a delivery waiting an hour for its retry; bulk replay previews its count, then sends', async () => {
    const op = await newOperator(stack);
    const dash = await DashboardClient.login(stack, op.email, op.password);
    const team = await newTeam(stack);
    const receiver = await receivers.start();
    const endpoint = await createEndpoint(stack, team.apiKey, receiver.url);
    const [eventId] = await emitEvents(stack, team.teamId, 2);
    await eventually(async () => receiver.accepted.length >= 2);

    // A delivery of the first event waiting for a retry an hour from now.
    await stack.db.db.insert(webhookDeliveries).values({
      eventId: eventId!,
      endpointId: endpoint.id,
      teamId: team.teamId,
      status: 'pending',
      attempts: 1,
      nextAttemptAt: new Date(Date.now() + 3600_000),
      createdAt: new Date(),
    });
    await wakeEndpoints(stack.temporal, [endpoint.id]);
    await new Promise((r) => setTimeout(r, 1500));
    expect(receiver.accepted).toHaveLength(2); // it waits for its hour

    const page = await (await dash.get('/dashboard/webhooks')).text();
    expect(page).toContain(receiver.url);
    const recovered = await dash.post(`/dashboard/webhooks/endpoints/${endpoint.id}/recover`, { since: new Date(Date.now() - 86_400_000).toISOString() });
    expect(recovered.status).toBe(303);
    await eventually(async () => receiver.accepted.length >= 3);
    expect(receiver.accepted[2]!.headers['webhook-id']).toBe(eventId);

    const since = new Date(Date.now() - 3600_000).toISOString();
    const preview = await (await dash.get(`/dashboard/webhooks/replay?team=${team.teamId}&since=${encodeURIComponent(since)}`, { 'hx-request': 'true' })).text();
    expect(/id="replay-count">(\d+)</.exec(preview)?.[1]).toBe('2');
    expect(receiver.accepted).toHaveLength(3); // a preview sends nothing
    const replay = await dash.post('/dashboard/webhooks/replay', { team: team.teamId, since, expected: '2' });
    expect(replay.status).toBe(303);
    await eventually(async () => receiver.accepted.length >= 5);
    const actions = (await stack.db.db.select().from(operatorAudit).where(eq(operatorAudit.operatorEmail, op.email))).map((a) => a.action);
    expect(actions).toEqual(expect.arrayContaining(['webhook.endpoint.recover', 'webhook.replay']));
  });

  it('refuses bad input and viewers', async () => {
    const op = await newOperator(stack);
    const dash = await DashboardClient.login(stack, op.email, op.password);
    const viewer = await newOperator(stack, 'viewer');
    const vdash = await DashboardClient.login(stack, viewer.email, viewer.password);
    const id = randomUUID();
    const json = { accept: 'application/json' };
    expect((await dash.get('/dashboard/webhooks?status=lost', json)).status).toBe(400);
    expect((await dash.get('/dashboard/webhooks?since=yesterday', json)).status).toBe(400);
    expect((await dash.get('/dashboard/webhooks/replay?since=2026-01-01T00:00:00Z', json)).status).toBe(400); // no team
    expect((await dash.post('/dashboard/webhooks/replay', { team: 'x', since: 'y' })).status).toBe(400);
    expect((await dash.post(`/dashboard/webhooks/endpoints/${id}/enable`)).status).toBe(404);
    expect((await dash.post(`/dashboard/webhooks/endpoints/${id}/recover`, { since: 'x' })).status).toBe(404);
    expect((await dash.post(`/dashboard/webhooks/events/${id}/resend`)).status).toBe(404);
    expect((await dash.post('/dashboard/webhooks/events/nope/resend')).status).toBe(400);
    expect((await dash.post(`/dashboard/webhooks/events/${id}/resend`, {}, null)).status).toBe(403);
    expect((await vdash.post(`/dashboard/webhooks/events/${id}/resend`)).status).toBe(403);
    expect((await vdash.get(`/dashboard/webhooks/replay?team=${id}&since=2026-01-01T00:00:00Z`, json)).status).toBe(403);
    expect((await fetch(`${stack.url}/dashboard/webhooks`)).status).toBe(401);
  });
});

describe('dashboard: workflows', () => {
  it('lists running workflows through visibility, with links to their orders; refuses a bad view', async () => {
    const op = await newOperator(stack, 'viewer');
    const dash = await DashboardClient.login(stack, op.email, op.password);
    const { order } = await orderWithReceiver(stack, receivers);
    const html = await eventually(async () => {
      const page = await (await dash.get('/dashboard/workflows?view=running&type=labOrderWorkflow')).text();
      return page.includes(`lab-order-${order.id}`) ? page : null;
    });
    expect(html).toContain(`href="/dashboard/orders/${order.id}"`);
    expect((await dash.get('/dashboard/workflows?view=stuck')).status).toBe(200);
    expect((await dash.get('/dashboard/workflows?view=failed')).status).toBe(200);
    expect((await dash.get('/dashboard/workflows?view=bogus', { accept: 'application/json' })).status).toBe(400);
    expect((await dash.get('/dashboard/workflows?type=x', { accept: 'application/json' })).status).toBe(400);
    expect((await fetch(`${stack.url}/dashboard/workflows`)).status).toBe(401);
  });
});

describe('dashboard: remote codec for the Temporal UI', () => {
  it('decodes a sealed payload for a logged-in operator; refuses without a session and bad bodies', async () => {
    const op = await newOperator(stack, 'viewer');
    const dash = await DashboardClient.login(stack, op.email, op.password);
    const { payloadCodecs } = stack.temporal.options.loadedDataConverter;
    const plain = { metadata: { encoding: new TextEncoder().encode('json/plain') }, data: new TextEncoder().encode('{"hello":"operator"}') };
    const [sealed] = await payloadCodecs[0]!.encode([plain]);
    const wire = { payloads: [{ metadata: Object.fromEntries(Object.entries(sealed!.metadata!).map(([k, v]) => [k, Buffer.from(v!).toString('base64')])), data: Buffer.from(sealed!.data!).toString('base64') }] };
    const post = (body: string, cookie: string | null = dash.cookie) =>
      fetch(`${stack.url}/dashboard/codec/decode`, { method: 'POST', headers: { 'content-type': 'application/json', ...(cookie ? { cookie } : {}) }, body });
    const res = await post(JSON.stringify(wire));
    expect(res.status).toBe(200);
    const out = (await res.json()) as { payloads: { metadata: Record<string, string>; data: string }[] };
    expect(Buffer.from(out.payloads[0]!.data, 'base64').toString()).toBe('{"hello":"operator"}');
    expect(Buffer.from(out.payloads[0]!.metadata.encoding!, 'base64').toString()).toBe('json/plain');
    expect((await post(JSON.stringify(wire), null)).status).toBe(401);
    expect((await post('{not json')).status).toBe(400);
    expect((await post(JSON.stringify({ payloads: [{ data: '***' }] }))).status).toBe(400);
  });
});
