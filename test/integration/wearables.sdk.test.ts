import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { Webhook as StandardWebhook } from 'standardwebhooks';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { providerConnections } from '../../db/schema/index.js';
import { ingestionWorkflowId, ingestionWorkflowType, pullNowSignal, taskQueue, type IngestionInput } from '../../workflows/ingestion/definitions.js';
import { eventually, http, newTeam, sdkFor, startTestStack, type TestStack } from '../support/harness.js';
import type { Received } from '../support/receiver.js';
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

async function connect(teamId: string, userId: string, provider: string): Promise<IngestionInput> {
  const [row] = await stack.db.db.insert(providerConnections).values({ userId, provider, status: 'connected' }).returning();
  const input: IngestionInput = { teamId, userId, connectionId: row!.id, provider, demo: true, pullIntervalSeconds: 3600 };
  await stack.temporal.workflow.start(ingestionWorkflowType, { taskQueue, workflowId: ingestionWorkflowId(row!.id), args: [input] });
  return input;
}

const historicalDone = (received: Received[], resource: string) =>
  received.some((x) => x.json.event_type === `historical.data.${resource}.created`);

async function sampleCount(userId: string, resource: string): Promise<number> {
  const [row] = await stack.db.db.execute<{ n: number }>(sql`select count(*)::int as n from wearable_samples where user_id = ${userId}::uuid and resource = ${resource}`);
  return row!.n;
}

describe('wearable data through the SDK', () => {
  it('backfills a demo connection, reads it back, announces it, and dedupes a re-sent batch', async () => {
    const team = await newTeam(stack);
    const client = sdkFor(stack, team.apiKey);
    const { userId } = await client.user.create({ clientUserId: `wear-${randomUUID()}`, fallbackTimeZone: 'Europe/Berlin' });
    const r = await receivers.start();
    const ep = await createEndpoint(stack, team.apiKey, r.url, { event_types: ['daily.data.', 'historical.data.'] });
    const fitbit = await connect(team.teamId, userId, 'fitbit');
    const libre = await connect(team.teamId, userId, 'freestyle_libre');
    await eventually(async () => historicalDone(r.accepted, 'heartrate') && historicalDone(r.accepted, 'glucose'), 120_000, 500);

    const today = new Date().toISOString().slice(0, 10);
    const start = new Date(Date.now() - 3 * 86_400_000).toISOString().slice(0, 10);
    const hr = await client.vitals.heartrate(userId, { startDate: start, endDate: today });
    expect(hr.length).toBeGreaterThan(2 * 1440);
    expect(hr.every((s) => s.unit === 'bpm' && s.value > 30 && s.value < 200)).toBe(true);
    const glucose = await client.vitals.glucose(userId, { startDate: start, endDate: today });
    expect(glucose.length).toBeGreaterThan(2 * 96);
    expect(glucose.every((s) => s.value > 3 && s.value < 15)).toBe(true);
    const { activity } = await client.activity.get(userId, { startDate: start, endDate: today });
    expect(activity.length).toBeGreaterThanOrEqual(3);
    expect(activity[0]!.source.provider).toBe('fitbit');
    expect(activity[0]!.steps).toBeGreaterThan(0);
    const { sleep } = await client.sleep.get(userId, { startDate: start, endDate: today });
    expect(sleep.length).toBeGreaterThanOrEqual(3);
    expect(sleep[0]!.deep + sleep[0]!.light + sleep[0]!.rem).toBe(sleep[0]!.total);
    const stream = await client.sleep.getStreamBySleepId(sleep[0]!.id);
    expect(stream.hypnogram?.length).toBeGreaterThan(50);
    const grouped = await client.vitals.heartrateGrouped(userId, { startDate: start, endDate: today });
    expect(grouped.groups.fitbit?.[0]?.data.length).toBeGreaterThan(0);
    if (grouped.nextCursor) {
      const page2 = await client.vitals.heartrateGrouped(userId, { startDate: start, endDate: today, cursor: grouped.nextCursor });
      expect(page2.groups.fitbit?.[0]?.data[0]!.timestamp.getTime()).toBeGreaterThan(grouped.groups.fitbit![0]!.data.at(-1)!.timestamp.getTime());
    }

    // The backfill announced itself only by the data-less historical.data events (BEHAVIOUR §7): no
    // daily.data event was recorded for it.
    const hist = r.accepted.find((x) => x.json.event_type === 'historical.data.heartrate.created')!;
    expect(hist.json.data).toMatchObject({ user_id: userId, provider: 'fitbit', is_final: true });
    expect(hist.json.data.data).toBeUndefined();
    const dailyRecorded = async () => {
      const [row] = await stack.db.db.execute<{ n: number }>(sql`
        select count(*)::int as n from outbox_events where user_id = ${userId}::uuid and event_type like 'daily.data.%'`);
      return row!.n;
    };
    expect(await dailyRecorded()).toBe(0);

    // Data the provider had not delivered at backfill time (the last ten minutes of heart rate, today's
    // activity summary): the next pull discovers it and announces it as .created; what it re-sends
    // unchanged comes as .updated, never as a duplicate sample.
    await stack.db.db.execute(sql`
      delete from wearable_samples where (user_id, resource, provider, "timestamp") in (
        select user_id, resource, provider, "timestamp" from wearable_samples
        where user_id = ${userId}::uuid and resource = 'heartrate' and provider = 'fitbit' order by "timestamp" desc limit 10)`);
    await stack.db.db.execute(sql`
      delete from wearable_summaries where id = (
        select id from wearable_summaries where user_id = ${userId}::uuid and resource = 'activity' and provider = 'fitbit'
        order by calendar_date desc limit 1)`);
    const before = await sampleCount(userId, 'heartrate');
    await stack.temporal.workflow.getHandle(ingestionWorkflowId(fitbit.connectionId)).signal(pullNowSignal);

    // Verified daily.data events: samples at $.data.data with source_id; summaries at $.data.
    const daily = await eventually(async () => {
      const got = r.accepted.filter((x) => x.json.event_type === 'daily.data.heartrate.created');
      return got.length > 0 ? got : null;
    }, 60_000, 250);
    expect(daily.length).toBeGreaterThan(0);
    for (const d of daily.slice(0, 3)) {
      new StandardWebhook(ep.secret).verify(d.body, {
        'webhook-id': String(d.headers['webhook-id']),
        'webhook-timestamp': String(d.headers['webhook-timestamp']),
        'webhook-signature': String(d.headers['webhook-signature']),
      });
      expect(d.body.length).toBeLessThan(256 * 1024);
      expect(d.json.data.source_id).toBe(2);
      expect((d.json.data.data as unknown[]).length).toBeGreaterThanOrEqual(10);
    }
    expect(await eventually(async () => r.accepted.some((x) => x.json.event_type === 'daily.data.activity.created' && x.json.data.id), 60_000, 250)).toBe(true);
    await eventually(async () => r.accepted.some((x) => x.json.event_type === 'daily.data.heartrate.updated'), 60_000, 300);
    const [dupes] = await stack.db.db.execute<{ n: number }>(sql`
      select count(*)::int as n from (select 1 from wearable_samples where user_id = ${userId}::uuid
      group by resource, provider, source_type, "timestamp" having count(*) > 1) d`);
    expect(dupes!.n).toBe(0);
    const after = await sampleCount(userId, 'heartrate');
    // The ten removed come back; only minutes that passed since the backfill can be new besides them.
    expect(after - before).toBeGreaterThanOrEqual(10);
    expect(after - before).toBeLessThan(40);
    await stack.temporal.workflow.getHandle(ingestionWorkflowId(libre.connectionId)).terminate('test done');
    await stack.temporal.workflow.getHandle(ingestionWorkflowId(fitbit.connectionId)).terminate('test done');

    const introspect = await client.introspect.getUserResources({ userId });
    expect(Object.keys(introspect.data[0]!.provider).sort()).toEqual(['fitbit', 'freestyle_libre']);
  }, 180_000);
});

describe('wearable reads: bad input', () => {
  it('answers 422 for bad dates and cursors, 404 for unknown or other teams\' users', async () => {
    const team = await newTeam(stack);
    const other = await newTeam(stack);
    const client = sdkFor(stack, team.apiKey);
    const { userId } = await client.user.create({ clientUserId: `wear-${randomUUID()}` });
    const get = (path: string, apiKey = team.apiKey) => http(stack, 'GET', path, { apiKey });
    expect((await get(`/v2/timeseries/${userId}/heartrate?start_date=yesterday`)).status).toBe(422);
    expect((await get(`/v2/timeseries/${userId}/heartrate`)).status).toBe(422);
    expect((await get(`/v2/timeseries/${userId}/heartrate?start_date=2026-02-30x`)).status).toBe(422);
    expect((await get(`/v2/timeseries/${userId}/steps?start_date=2026-01-10&end_date=2026-01-01`)).status).toBe(422);
    expect((await get(`/v2/timeseries/${userId}/glucose/grouped?start_date=2026-01-01&cursor=garbage`)).status).toBe(422);
    expect((await get(`/v2/timeseries/not-a-uuid/heartrate?start_date=2026-01-01`)).status).toBe(422);
    expect((await get(`/v2/timeseries/${randomUUID()}/heartrate?start_date=2026-01-01`)).status).toBe(404);
    expect((await get(`/v2/timeseries/${userId}/heartrate?start_date=2026-01-01`, other.apiKey)).status).toBe(404);
    expect((await get(`/v2/summary/activity/${userId}?start_date=nope`)).status).toBe(422);
    expect((await get(`/v2/summary/sleep/${randomUUID()}?start_date=2026-01-01`)).status).toBe(404);
    expect((await get(`/v2/summary/activity/${userId}/raw?start_date=2026-01-01`, other.apiKey)).status).toBe(404);
    expect((await get(`/v2/summary/profile/${userId}`)).status).toBe(404);
    expect((await get(`/v2/timeseries/workouts/${randomUUID()}/stream`)).status).toBe(404);
    expect((await get(`/v2/timeseries/sleep/not-a-uuid/stream`)).status).toBe(422);
    expect((await get(`/v2/introspect/resources?user_limit=0`)).status).toBe(422);
    expect((await get(`/v2/introspect/historical_pull?cursor=%%%`)).status).toBe(422);
    expect((await get(`/v2/introspect/resources?user_id=${userId}`, other.apiKey)).status).toBe(404);
    // empty but well-formed reads
    expect(await client.vitals.steps(userId, { startDate: '2026-01-01', endDate: '2026-01-02' })).toEqual([]);
    expect((await client.meal.get(userId, { startDate: '2026-01-01' })).meals).toEqual([]);
  });
});
