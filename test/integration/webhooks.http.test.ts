import { randomUUID } from 'node:crypto';
import { VitalError } from '@tryvital/vital-node';
import { eq } from 'drizzle-orm';
import { Webhook } from 'standardwebhooks';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { outboxEvents, webhookEndpoints } from '../../db/schema/index.js';
import { testkitLabTest } from '../support/catalog-fixture.js';
import { eventually, http, newTeam, sdkFor, startTestStack, type TestStack } from '../support/harness.js';
import type { Behaviour, Received } from '../support/receiver.js';
import { Receivers, createEndpoint, emitEvents, type EndpointJson } from '../support/webhooks.js';

let stack: TestStack;
const receivers = new Receivers();
beforeAll(async () => {
  stack = await startTestStack();
});
afterEach(() => receivers.stopAll());
afterAll(async () => {
  await stack?.close();
});

const receiver = (behaviour?: Behaviour) => receivers.start(behaviour);

const endpoint = (apiKey: string, url: string, extra: Record<string, unknown> = {}) => createEndpoint(stack, apiKey, url, extra);

const emit = (teamId: string, count: number, eventType = 'labtest.order.updated', subjectId: string | null = null) =>
  emitEvents(stack, teamId, count, { eventType, subjectId });

const ids = (rs: Received[]) => rs.map((r) => String(r.headers['webhook-id']));

describe('webhook endpoints API', () => {
  it('creates, lists, reads, patches and deletes endpoints, scoped to the team', async () => {
    const a = await newTeam(stack);
    const b = await newTeam(stack);
    const ep = await endpoint(a.apiKey, 'https://hooks.example.com/labs', { event_types: ['labtest.', 'lab_report.parsing_job.updated'], description: 'prod' });
    expect(ep.secret).toMatch(/^whsec_[A-Za-z0-9+/=]{32}$/);
    expect(ep).toMatchObject({ url: 'https://hooks.example.com/labs', event_types: ['labtest.', 'lab_report.parsing_job.updated'], enabled: true, description: 'prod' });

    const list = await http(stack, 'GET', '/v2/webhooks/endpoints', { apiKey: a.apiKey });
    expect((list.json.data as EndpointJson[]).map((e) => e.id)).toEqual([ep.id]);
    expect(JSON.stringify(list.json)).not.toContain(ep.secret); // secrets only on create, rotate and /secret
    expect((await http(stack, 'GET', '/v2/webhooks/endpoints', { apiKey: b.apiKey })).json.data).toEqual([]);
    expect((await http(stack, 'GET', `/v2/webhooks/endpoints/${ep.id}`, { apiKey: b.apiKey })).status).toBe(404);
    expect((await http(stack, 'GET', `/v2/webhooks/endpoints/${ep.id}/secret`, { apiKey: a.apiKey })).json.secret).toBe(ep.secret);
    expect((await http(stack, 'GET', `/v2/webhooks/endpoints/${ep.id}/secret`, { apiKey: b.apiKey })).status).toBe(404);
    const [stored] = await stack.db.db.select().from(webhookEndpoints).where(eq(webhookEndpoints.id, ep.id));
    expect(stored!.secretEnc).not.toContain(ep.secret.slice(6, 20)); // encrypted at rest

    const patched = await http(stack, 'PATCH', `/v2/webhooks/endpoints/${ep.id}`, { apiKey: a.apiKey, body: { enabled: false, event_types: [] } });
    expect(patched.json).toMatchObject({ enabled: false, event_types: [], disabled_reason: 'disabled by the team' });
    expect((await http(stack, 'PATCH', `/v2/webhooks/endpoints/${ep.id}`, { apiKey: b.apiKey, body: { enabled: true } })).status).toBe(404);
    expect((await http(stack, 'DELETE', `/v2/webhooks/endpoints/${ep.id}`, { apiKey: b.apiKey })).status).toBe(404);
    expect((await http(stack, 'DELETE', `/v2/webhooks/endpoints/${ep.id}`, { apiKey: a.apiKey })).json).toEqual({ id: ep.id, deleted: true });
    expect((await http(stack, 'GET', `/v2/webhooks/endpoints/${ep.id}`, { apiKey: a.apiKey })).status).toBe(404);
  });

  it('refuses bad endpoint input with 422 and stores nothing', async () => {
    const t = await newTeam(stack);
    const bad = [
      { url: 'ftp://example.com/x' },
      { url: 'http://example.com/hooks' }, // plain http only to loopback
      { url: 'not a url' },
      { url: 'https://user:pw@example.com/' },
      { url: 'https://example.com/', event_types: ['labtest.order.exploded'] },
      { url: 'https://example.com/', event_types: 'labtest.' },
      { url: 'https://example.com/', colour: 'blue' },
      {},
    ];
    for (const body of bad) {
      const res = await http(stack, 'POST', '/v2/webhooks/endpoints', { apiKey: t.apiKey, body });
      expect(res.status, JSON.stringify(body)).toBe(422);
      expect(Array.isArray(res.json.detail)).toBe(true);
    }
    expect((await http(stack, 'POST', '/v2/webhooks/endpoints', { apiKey: t.apiKey, rawBody: '{"url":', headers: { 'content-type': 'application/json' } })).status).toBe(422);
    expect((await http(stack, 'POST', '/v2/webhooks/endpoints', { body: { url: 'https://example.com/' } })).status).toBe(401);
    expect((await http(stack, 'GET', '/v2/webhooks/endpoints', { apiKey: t.apiKey })).json.data).toEqual([]);

    const ep = await endpoint(t.apiKey, 'http://127.0.0.1:9/hooks');
    expect((await http(stack, 'GET', '/v2/webhooks/endpoints/not-a-uuid', { apiKey: t.apiKey })).status).toBe(422);
    expect((await http(stack, 'GET', `/v2/webhooks/endpoints/${randomUUID()}`, { apiKey: t.apiKey })).status).toBe(404);
    expect((await http(stack, 'PATCH', `/v2/webhooks/endpoints/${ep.id}`, { apiKey: t.apiKey, body: {} })).status).toBe(422);
    expect((await http(stack, 'PATCH', `/v2/webhooks/endpoints/${ep.id}`, { apiKey: t.apiKey, body: { enabled: 'yes' } })).status).toBe(422);
    expect((await http(stack, 'PATCH', `/v2/webhooks/endpoints/${ep.id}`, { apiKey: t.apiKey, body: { url: 'http://example.com' } })).status).toBe(422);
    expect((await http(stack, 'GET', `/v2/webhooks/endpoints/${ep.id}`, { apiKey: t.apiKey })).json.url).toBe('http://127.0.0.1:9/hooks');
    expect((await http(stack, 'POST', `/v2/webhooks/endpoints/${ep.id}/recover`, { apiKey: t.apiKey, body: { since: 'yesterday' } })).status).toBe(422);
    expect((await http(stack, 'POST', `/v2/webhooks/endpoints/${ep.id}/recover`, { apiKey: t.apiKey, body: {} })).status).toBe(422);
    expect((await http(stack, 'POST', `/v2/webhooks/endpoints/${randomUUID()}/rotate_secret`, { apiKey: t.apiKey })).status).toBe(404);
  });

  it('filters events by type and prefix; a disabled endpoint gets nothing', async () => {
    const t = await newTeam(stack);
    const orders = await receiver();
    const reports = await receiver();
    const off = await receiver();
    await endpoint(t.apiKey, orders.url, { event_types: ['labtest.'] });
    await endpoint(t.apiKey, reports.url, { event_types: ['lab_report.parsing_job.updated'] });
    const disabled = await endpoint(t.apiKey, off.url);
    await http(stack, 'PATCH', `/v2/webhooks/endpoints/${disabled.id}`, { apiKey: t.apiKey, body: { enabled: false } });
    const orderEvents = await emit(t.teamId, 3, 'labtest.order.updated');
    const reportEvents = await emit(t.teamId, 2, 'lab_report.parsing_job.updated');
    await emit(t.teamId, 1, 'lab_report.parsing_job.created');
    await eventually(async () => orders.accepted.length === 3 && reports.accepted.length === 2);
    expect(ids(orders.accepted).sort()).toEqual([...orderEvents].sort());
    expect(ids(reports.accepted).sort()).toEqual([...reportEvents].sort());
    await new Promise((r) => setTimeout(r, 500));
    expect(orders.received).toHaveLength(3);
    expect(off.received).toHaveLength(0);
  });

  it('rotates a secret: for 24 h deliveries verify with the new and the old secret', async () => {
    const t = await newTeam(stack);
    const r = await receiver();
    const ep = await endpoint(t.apiKey, r.url);
    const rotated = await http(stack, 'POST', `/v2/webhooks/endpoints/${ep.id}/rotate_secret`, { apiKey: t.apiKey });
    expect(rotated.status).toBe(200);
    const secret = rotated.json.secret as string;
    expect(secret).not.toBe(ep.secret);
    const expires = new Date(rotated.json.previous_secret_expires_at as string).getTime();
    expect(Math.abs(expires - Date.now() - 24 * 3600 * 1000)).toBeLessThan(60_000);
    await emit(t.teamId, 1);
    const [got] = await eventually(async () => (r.accepted.length ? r.accepted : null));
    const headers = { 'webhook-id': String(got!.headers['webhook-id']), 'webhook-timestamp': String(got!.headers['webhook-timestamp']), 'webhook-signature': String(got!.headers['webhook-signature']) };
    expect(() => new Webhook(secret).verify(got!.body, headers)).not.toThrow();
    expect(() => new Webhook(ep.secret).verify(got!.body, headers)).not.toThrow();
    expect(headers['webhook-signature'].split(' ')).toHaveLength(2);
  });
});

describe('event log, resend and recovery', () => {
  it('lists events with filters and cursor pages, shows each attempt, and hides other teams', async () => {
    const t = await newTeam(stack);
    const other = await newTeam(stack);
    const r = await receiver(({ n }) => (n === 1 ? 503 : 200));
    await endpoint(t.apiKey, r.url);
    const orderId = randomUUID();
    const [first] = await emit(t.teamId, 1, 'labtest.order.created', orderId);
    const rest = await emit(t.teamId, 4, 'labtest.order.updated');
    await emit(other.teamId, 2);
    await eventually(async () => r.accepted.length === 5);

    const page1 = await http(stack, 'GET', '/v2/webhooks/events?limit=3', { apiKey: t.apiKey });
    const data1 = page1.json.data as { id: string }[];
    expect(data1).toHaveLength(3);
    const page2 = await http(stack, 'GET', `/v2/webhooks/events?limit=3&cursor=${String(page1.json.next_cursor)}`, { apiKey: t.apiKey });
    const data2 = page2.json.data as { id: string }[];
    expect(data2).toHaveLength(2);
    expect(page2.json.next_cursor).toBeNull();
    expect(new Set([...data1, ...data2].map((e) => e.id))).toEqual(new Set([first!, ...rest]));

    const byType = await http(stack, 'GET', '/v2/webhooks/events?event_type=labtest.order.created', { apiKey: t.apiKey });
    expect((byType.json.data as { id: string }[]).map((e) => e.id)).toEqual([first]);
    const byPrefix = await http(stack, 'GET', '/v2/webhooks/events?event_type=labtest.', { apiKey: t.apiKey });
    expect(byPrefix.json.data).toHaveLength(5);
    const byOrder = await http(stack, 'GET', `/v2/webhooks/events?order_id=${orderId}`, { apiKey: t.apiKey });
    expect((byOrder.json.data as { id: string }[]).map((e) => e.id)).toEqual([first]);
    const delivered = await http(stack, 'GET', '/v2/webhooks/events?delivery_status=delivered', { apiKey: t.apiKey });
    expect(delivered.json.data).toHaveLength(5);
    const future = await http(stack, 'GET', `/v2/webhooks/events?since=${encodeURIComponent(new Date(Date.now() + 60_000).toISOString())}`, { apiKey: t.apiKey });
    expect(future.json.data).toEqual([]);

    // the event that was refused once shows both attempts
    const refusedId = String(r.received[0]!.headers['webhook-id']);
    const detail = await http(stack, 'GET', `/v2/webhooks/events/${refusedId}`, { apiKey: t.apiKey });
    const [delivery] = detail.json.deliveries as { status: string; attempts: number; attempt_log: { status_code: number; response_body: string; duration_ms: number }[] }[];
    expect(delivery).toMatchObject({ status: 'delivered', attempts: 2 });
    expect(delivery!.attempt_log.map((a) => a.status_code)).toEqual([503, 200]);
    expect(delivery!.attempt_log[0]!.response_body).toBe('no (503)');
    expect((await http(stack, 'GET', `/v2/webhooks/events/${refusedId}`, { apiKey: other.apiKey })).status).toBe(404);

    for (const q of ['limit=0', 'limit=abc', 'delivery_status=lost', 'since=monday', 'order_id=42', 'cursor=bm9wZQ']) {
      const res = await http(stack, 'GET', `/v2/webhooks/events?${q}`, { apiKey: t.apiKey });
      expect(res.status, q).toBe(422);
    }
    expect((await http(stack, 'GET', '/v2/webhooks/events/nope', { apiKey: t.apiKey })).status).toBe(422);
  });

  it('resends one event with its original id, and recovers failed deliveries of an endpoint', async () => {
    const t = await newTeam(stack);
    let up = false;
    const r = await receiver(() => (up ? 200 : 500));
    const ep = await endpoint(t.apiKey, r.url);
    const [eventId] = await emit(t.teamId, 1);
    // every scheduled attempt fails: the delivery ends failed
    await eventually(async () => {
      const res = await http(stack, 'GET', `/v2/webhooks/events?delivery_status=failed`, { apiKey: t.apiKey });
      return (res.json.data as unknown[]).length === 1;
    }, 30_000);
    up = true;
    const since = new Date(Date.now() - 3600_000).toISOString();
    const recovered = await http(stack, 'POST', `/v2/webhooks/endpoints/${ep.id}/recover`, { apiKey: t.apiKey, body: { since } });
    expect(recovered.json).toMatchObject({ endpoint_id: ep.id, requeued: 1 });
    await eventually(async () => r.accepted.length === 1);
    expect(ids(r.accepted)).toEqual([eventId]);

    const resent = await http(stack, 'POST', `/v2/webhooks/events/${eventId}/resend`, { apiKey: t.apiKey });
    expect(resent.status).toBe(202);
    expect(resent.json.endpoint_ids).toEqual([ep.id]);
    await eventually(async () => r.accepted.length === 2);
    expect(ids(r.accepted)).toEqual([eventId, eventId]);
    expect(r.accepted[1]!.body).toBe(r.accepted[0]!.body);

    const other = await newTeam(stack);
    expect((await http(stack, 'POST', `/v2/webhooks/events/${eventId}/resend`, { apiKey: other.apiKey })).status).toBe(404);
    expect((await http(stack, 'POST', `/v2/webhooks/events/${eventId}/resend`, { apiKey: t.apiKey, body: { endpoint_id: 'x' } })).status).toBe(422);
    expect((await http(stack, 'POST', `/v2/webhooks/events/${eventId}/resend`, { apiKey: t.apiKey, body: { endpoint_id: randomUUID() } })).status).toBe(404);
  });

  it('POST /v3/order/resend_events replays the latest event of each order, through the SDK, under the 60-day rule', async () => {
    const t = await newTeam(stack);
    const client = sdkFor(stack, t.apiKey);
    const { userId } = await client.user.create({ clientUserId: `resend-${randomUUID()}` });
    const { labTestId } = await testkitLabTest(stack.db.db, t.teamId);
    const shipping = { receiverName: 'Jane Doe', firstLine: '1 Main St', city: 'Austin', state: 'TX', zip: '78701', country: 'US', phoneNumber: '+14155552671' };
    const a = (await client.testkit.createOrder({ userId, labTestId, shippingDetails: shipping })).order;
    const b = (await client.testkit.createOrder({ userId, labTestId, shippingDetails: shipping })).order;
    const latestOf = async (orderId: string) => {
      const rows = await stack.db.db.select().from(outboxEvents).where(eq(outboxEvents.subjectId, orderId));
      return rows.sort((x, y) => x.createdAt.getTime() - y.createdAt.getTime()).at(-1)!.id;
    };
    await eventually(async () => (await stack.db.db.select().from(outboxEvents).where(eq(outboxEvents.subjectId, b.id))).length === 2);
    const r = await receiver();
    await endpoint(t.apiKey, r.url); // registered after the orders: it saw none of their events

    const byId = await client.order.resendEvents({ orderIds: [a.id] });
    expect(byId.orderIds).toEqual([a.id]);
    await eventually(async () => r.accepted.length === 1);
    expect(ids(r.accepted)).toEqual([await latestOf(a.id)]);

    const byWindow = await client.order.resendEvents({ startAt: new Date(Date.now() - 3600_000) });
    expect([...byWindow.orderIds].sort()).toEqual([a.id, b.id].sort());
    await eventually(async () => r.accepted.length === 3);

    const other = await newTeam(stack);
    expect((await sdkFor(stack, other.apiKey).order.resendEvents({ orderIds: [a.id] })).orderIds).toEqual([]);
    const refused = await client.order.resendEvents({ startAt: new Date(Date.now() - 61 * 24 * 3600_000) }).then(() => null, (e: unknown) => e);
    expect(refused).toBeInstanceOf(VitalError);
    expect((refused as VitalError).statusCode).toBe(422);
    for (const body of [
      {},
      { order_ids: [] },
      { order_ids: ['nope'] },
      { start_at: 'last week' },
      { start_at: new Date().toISOString(), end_at: new Date(Date.now() - 3600_000).toISOString() },
      { end_at: new Date().toISOString() },
    ]) {
      const res = await http(stack, 'POST', '/v3/order/resend_events', { apiKey: t.apiKey, body });
      expect(res.status, JSON.stringify(body)).toBe(422);
    }
    expect(r.accepted).toHaveLength(3);
    const svix = await client.team.getSvixUrl();
    expect(String(svix.url)).toMatch(/\/dashboard\/webhooks$/);
  });
});
