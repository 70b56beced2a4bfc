import { randomUUID } from 'node:crypto';
import type { Vital } from '@tryvital/vital-node';
import { eq } from 'drizzle-orm';
import { Webhook as StandardWebhook } from 'standardwebhooks';
import { Webhook as SvixWebhook } from 'svix';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { outboxEvents, teams, webhookEndpoints } from '../../db/schema/index.js';
import { testkitLabTest } from '../support/catalog-fixture.js';
import { eventually, http, newTeam, sdkFor, startTestStack, type TestStack } from '../support/harness.js';
import { unusedPort, type Behaviour, type Received } from '../support/receiver.js';
import { Receivers, createEndpoint, emitEvents } from '../support/webhooks.js';

let stack: TestStack;
const receivers = new Receivers();
beforeAll(async () => {
  stack = await startTestStack();
});
afterEach(() => receivers.stopAll());
afterAll(async () => {
  await stack?.close();
});

const receiver = (behaviour?: Behaviour, port?: number) => receivers.start(behaviour, port);

const endpoint = (apiKey: string, url: string, extra: Record<string, unknown> = {}) => createEndpoint(stack, apiKey, url, extra);

/** Verifies a delivery with both the Standard Webhooks and the Svix verifiers, and returns its envelope. */
function verified(r: Received, secret: string) {
  const h = (name: string) => String(r.headers[name]);
  new StandardWebhook(secret).verify(r.body, {
    'webhook-id': h('webhook-id'),
    'webhook-timestamp': h('webhook-timestamp'),
    'webhook-signature': h('webhook-signature'),
  });
  new SvixWebhook(secret).verify(r.body, { 'svix-id': h('svix-id'), 'svix-timestamp': h('svix-timestamp'), 'svix-signature': h('svix-signature') });
  return r.json;
}

const emit = (teamId: string, count: number, eventType?: string) => emitEvents(stack, teamId, count, eventType ? { eventType } : {});

async function orderTeam() {
  const team = await newTeam(stack);
  const client = sdkFor(stack, team.apiKey);
  const { userId } = await client.user.create({ clientUserId: `hooks-${randomUUID()}` });
  const { labTestId } = await testkitLabTest(stack.db.db, team.teamId);
  return { ...team, client, userId, labTestId };
}

/** A registered testkit order simulated to `completed`; resolves with the order's outbox event ids. */
async function completedOrder(t: Awaited<ReturnType<typeof orderTeam>>, flags: { interpretation?: 'normal' | 'critical'; via?: string } = {}) {
  const { order } = await t.client.labTests.createOrder({
    userId: t.userId,
    orderSet: { labTestIds: [t.labTestId] },
    collectionMethod: 'testkit',
    patientDetails: { firstName: 'Jane', lastName: 'Doe', dob: '1990-05-17', gender: 'female', phoneNumber: '+14155552671', email: 'jane@example.com' },
    patientAddress: { firstLine: '123 Main St', city: 'San Francisco', state: 'CA', zip: '94105', country: 'US' },
  } as Vital.CreateOrderRequestCompatible);
  if (flags.via) {
    // the SDK's OrderStatus enum has no testkit partial_results: plain HTTP for this step
    const res = await http(stack, 'POST', `/v3/order/${order.id}/test?final_status=${flags.via}`, { apiKey: t.apiKey, body: {} });
    expect(res.status).toBe(200);
    await eventually(async () => (await t.client.labTests.getOrder(order.id)).events.at(-1)?.status === flags.via, 30_000);
  }
  await t.client.labTests.simulateOrderProcess(order.id, {
    finalStatus: 'completed.testkit.completed',
    body: flags.interpretation ? { interpretation: flags.interpretation } : undefined,
  });
  await eventually(async () => (await t.client.labTests.getOrder(order.id)).status === 'completed', 30_000);
  const events = await stack.db.db.select().from(outboxEvents).where(eq(outboxEvents.subjectId, order.id));
  return { orderId: order.id, eventIds: events.map((e) => e.id) };
}

describe('webhook delivery', () => {
  it("delivers a simulated order's whole life, signed for both the Standard Webhooks and the Svix verifiers", async () => {
    const t = await orderTeam();
    const r = await receiver();
    const ep = await endpoint(t.apiKey, r.url, { event_types: ['labtest.'] });
    const { orderId, eventIds } = await completedOrder(t);
    expect(eventIds.length).toBeGreaterThanOrEqual(8);
    await eventually(async () => r.accepted.length >= eventIds.length, 20_000);
    const envelopes = r.accepted.map((x) => verified(x, ep.secret));
    expect(new Set(r.accepted.map((x) => x.headers['webhook-id']))).toEqual(new Set(eventIds));
    expect(r.accepted).toHaveLength(eventIds.length); // each once: nothing was refused
    for (const e of envelopes) {
      expect(Object.keys(e).sort()).toEqual(['client_user_id', 'data', 'event_type', 'team_id', 'user_id']);
      expect(e.team_id).toBe(t.teamId);
      expect(e.user_id).toBe(t.userId);
      expect(e.data.id).toBe(orderId);
    }
    expect(envelopes.filter((e) => e.event_type === 'labtest.order.created')).toHaveLength(1);
    expect(envelopes.some((e) => e.event_type === 'labtest.order.updated' && e.data.status === 'completed')).toBe(true);
    // a tampered body or a wrong secret does not verify
    const first = r.accepted[0]!;
    expect(() => verified({ ...first, body: first.body.replace('"team_id"', '"team_iD"') }, ep.secret)).toThrow();
    expect(() => verified(first, 'whsec_' + Buffer.alloc(24, 7).toString('base64'))).toThrow();
  });

  it('a receiver that is down while the order runs gets every event once it is up', async () => {
    const t = await orderTeam();
    const port = await unusedPort();
    const ep = await endpoint(t.apiKey, `http://127.0.0.1:${port}/hooks`);
    const { eventIds } = await completedOrder(t);
    // attempts so far were refused (connection refused) and are on record
    const log = await eventually(async () => {
      const res = await http(stack, 'GET', `/v2/webhooks/events/${eventIds[0]}`, { apiKey: t.apiKey });
      const deliveries = res.json.deliveries as { attempt_log: { error: string | null }[] }[];
      return deliveries[0]?.attempt_log.length ? deliveries[0] : null;
    });
    expect(log.attempt_log[0]!.error).toBeTruthy();
    const r = await receiver(undefined, port);
    await eventually(async () => new Set(r.accepted.map((x) => x.headers['webhook-id'])).size === eventIds.length, 30_000);
    r.accepted.forEach((x) => verified(x, ep.secret));
  });

  it('a receiver failing 30% of requests at random still gets every event', async () => {
    const t = await newTeam(stack);
    const r = await receiver(() => (Math.random() < 0.3 ? 500 : 200));
    const ep = await endpoint(t.apiKey, r.url);
    const ids = await emit(t.teamId, 60);
    await eventually(async () => new Set(r.accepted.map((x) => x.headers['webhook-id'])).size === ids.length, 40_000);
    expect(r.received.length).toBeGreaterThan(ids.length); // some were refused and retried
    r.accepted.forEach((x) => verified(x, ep.secret));
    const failedFirst = r.received.find((x) => x.status === 500)!;
    const retried = r.accepted.find((x) => x.headers['webhook-id'] === failedFirst.headers['webhook-id'])!;
    expect(retried.body).toBe(failedFirst.body); // the same event, byte for byte, on every attempt
  });

  it('honours Retry-After on 429, and 410 Gone disables the endpoint and says so in the event log', async () => {
    const t = await newTeam(stack);
    const slow = await receiver(({ n }) => (n === 1 ? { status: 429, headers: { 'retry-after': '2' } } : 200));
    await endpoint(t.apiKey, slow.url);
    await emit(t.teamId, 1);
    await eventually(async () => slow.accepted.length === 1, 20_000);
    expect(slow.received[1]!.at - slow.received[0]!.at).toBeGreaterThanOrEqual(1900);

    const t2 = await newTeam(stack);
    const gone = await receiver(() => 410);
    const ep = await endpoint(t2.apiKey, gone.url);
    await emit(t2.teamId, 1);
    const disabled = await eventually(async () => {
      const res = await http(stack, 'GET', `/v2/webhooks/endpoints/${ep.id}`, { apiKey: t2.apiKey });
      return res.json.enabled === false ? res.json : null;
    });
    expect(disabled.disabled_reason).toMatch(/410/);
    const log = await http(stack, 'GET', '/v2/webhooks/events?event_type=webhook.endpoint.disabled', { apiKey: t2.apiKey });
    expect((log.json.data as { data: { endpoint_id: string } }[]).map((e) => e.data.endpoint_id)).toEqual([ep.id]);
    await emit(t2.teamId, 2);
    await new Promise((res) => setTimeout(res, 1000));
    expect(gone.received).toHaveLength(1); // a disabled endpoint gets nothing more
  });

  it('disables an endpoint that has failed for the whole disable window', async () => {
    const t = await newTeam(stack);
    const r = await receiver(() => 500);
    const ep = await endpoint(t.apiKey, r.url);
    await stack.db.db
      .update(webhookEndpoints)
      .set({ failingSince: new Date(Date.now() - 6 * 24 * 3600 * 1000) })
      .where(eq(webhookEndpoints.id, ep.id));
    await emit(t.teamId, 1);
    const res = await eventually(async () => {
      const got = await http(stack, 'GET', `/v2/webhooks/endpoints/${ep.id}`, { apiKey: t.apiKey });
      return got.json.enabled === false ? got : null;
    });
    expect(res.json.disabled_reason).toMatch(/no successful delivery since/);
  });

  it('announces critical results, and partial results only to teams that enabled them', async () => {
    const t = await orderTeam();
    const r = await receiver();
    await endpoint(t.apiKey, r.url, { event_types: ['labtest.result.critical', 'labtest.order.updated'] });
    const { orderId, eventIds } = await completedOrder(t, { interpretation: 'critical', via: 'sample_with_lab.testkit.partial_results' });
    const critical = await eventually(async () => r.accepted.find((x) => x.json.event_type === 'labtest.result.critical'), 20_000);
    expect(critical.json.data).toMatchObject({ order_id: orderId, interpretation: 'critical', team_id: t.teamId, user_id: t.userId });
    // partial results were recorded as an order event but not announced (the team did not enable it)
    const order = await t.client.labTests.getOrder(orderId);
    expect(order.events.map((e) => e.status)).toContain('sample_with_lab.testkit.partial_results');
    await eventually(async () => r.accepted.filter((x) => x.json.event_type === 'labtest.order.updated').length === eventIds.length - 2, 20_000);
    const announced = r.accepted.map((x) => (x.json.data.events as { status: string }[] | undefined)?.at(-1)?.status);
    expect(announced).not.toContain('sample_with_lab.testkit.partial_results');

    const enabled = await orderTeam();
    await stack.db.db.update(teams).set({ partialWebhooksEnabled: true }).where(eq(teams.id, enabled.teamId));
    const r2 = await receiver();
    await endpoint(enabled.apiKey, r2.url, { event_types: ['labtest.order.updated'] });
    await completedOrder(enabled, { via: 'sample_with_lab.testkit.partial_results' });
    await eventually(async () =>
      r2.accepted.some((x) => (x.json.data.events as { status: string }[]).at(-1)?.status === 'sample_with_lab.testkit.partial_results'),
    );
  });
});
