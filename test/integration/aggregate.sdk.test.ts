import { randomUUID } from 'node:crypto';
import { Vital, type VitalError } from '@tryvital/vital-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureSamplePartitions, upsertSamples, upsertSummaries } from '../../db/queries/wearables.js';
import type { SampleRecord, SummaryRecord } from '../../domain/wearables/adapter.js';
import { http, newTeam, sdkFor, startTestStack, type TestStack } from '../support/harness.js';

/**
 * The aggregation query language (SDK aggregate.*) over summaries written through the ingestion's own
 * upsert: each number the service answers is checked against the same number computed here from the
 * rows written.
 */

let stack: TestStack;
let team: { teamId: string; apiKey: string };
let client: ReturnType<typeof sdkFor>;
let userId: string;

/** 28 nights (calendar dates 2024-03-04, a Monday, … 2024-03-31) from oura, 5 of them also from fitbit. */
const DAYS = Array.from({ length: 28 }, (_, i) => new Date(Date.UTC(2024, 2, 4 + i)).toISOString().slice(0, 10));
const OFFSET = 3600; // the user sleeps in UTC+1: a 06:30Z wake-up is 07:30 local
const rand = (seed: number) => Math.abs(Math.sin(seed * 12.9898) * 43758.5453) % 1;

interface Night { day: string; provider: string; duration: number; deep: number; score: number; type: string }
const nights: Night[] = [];
interface Day { day: string; steps: number; high: number }
const activity: Day[] = [];
const heartRate: SampleRecord[] = [];
const steps: SampleRecord[] = [];
/** A sample's local calendar day. */
const localDay = (x: SampleRecord) => new Date(x.timestamp.getTime() + OFFSET * 1000).toISOString().slice(0, 10);

function sleepRecord(n: Night): SummaryRecord {
  const stop = new Date(`${n.day}T06:30:00Z`);
  const start = new Date(stop.getTime() - n.duration * 1000);
  return {
    id: randomUUID(), resource: 'sleep', calendarDate: n.day, sourceType: 'ring',
    data: {
      calendar_date: n.day, date: start.toISOString(), bedtime_start: start.toISOString(), bedtime_stop: stop.toISOString(),
      timezone_offset: OFFSET, type: n.type, duration: n.duration, total: n.duration - 1200, awake: 1200, light: n.duration - 1200 - n.deep - 3600,
      rem: 3600, deep: n.deep, score: n.score, efficiency: 90, latency: 600,
    },
  };
}

function activityRecord(d: Day): SummaryRecord {
  return {
    id: randomUUID(), resource: 'activity', calendarDate: d.day, sourceType: 'ring',
    data: { calendar_date: d.day, date: `${d.day}T00:00:00.000Z`, steps: d.steps, high: d.high, low: 30, medium: 20, timezone_offset: OFFSET, heart_rate: { avg_bpm: 70 } },
  };
}

const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
};
const stddev = (xs: number[]) => Math.sqrt(xs.reduce((a, x) => a + (x - mean(xs)) ** 2, 0) / (xs.length - 1));
/** The Monday of an ISO week, computed from the date alone. */
const monday = (day: string) => {
  const d = new Date(`${day}T00:00:00Z`);
  return new Date(d.getTime() - ((d.getUTCDay() + 6) % 7) * 86_400_000).toISOString().slice(0, 10);
};
const groupBy = <T>(xs: T[], key: (x: T) => string) => {
  const m = new Map<string, T[]>();
  for (const x of xs) m.set(key(x), [...(m.get(key(x)) ?? []), x]);
  return new Map([...m.entries()].sort(([a], [b]) => (a < b ? -1 : 1)));
};

const refused = (p: Promise<unknown>) => p.then(() => null, (e: unknown) => e as VitalError);
const relative = (anchor: string, value: number, unit: Vital.PeriodUnit): Vital.QueryBatchTimeframe => ({ type: 'relative', anchor, past: { value, unit } });
const MARCH: Vital.QueryBatchTimeframe = relative('2024-03-31', 28, 'day');
const path = (user = userId) => `/aggregate/v1/user/${user}/query`;
const sleepMean = { arg: { sleep: 'duration_second' }, func: 'mean' };

beforeAll(async () => {
  stack = await startTestStack();
  team = await newTeam(stack);
  client = sdkFor(stack, team.apiKey);
  ({ userId } = await client.user.create({ clientUserId: `agg-${randomUUID()}` }));
  DAYS.forEach((day, i) => {
    nights.push({ day, provider: 'oura', duration: 21_600 + Math.round(rand(i) * 7200), deep: 3000 + Math.round(rand(i + 100) * 2400), score: 60 + (i % 30), type: i % 7 === 6 ? 'nap' : 'long_sleep' });
    if (i % 6 === 0) nights.push({ day, provider: 'fitbit', duration: 20_000 + i * 100, deep: 4000, score: 70, type: 'long_sleep' });
    activity.push({ day, steps: 4000 + Math.round(rand(i + 200) * 9000), high: i % 4 === 0 ? 0 : 10 + i });
  });
  for (const provider of ['oura', 'fitbit']) {
    const owner = { teamId: team.teamId, userId, connectionId: null, provider };
    await upsertSummaries(stack.db.db, owner, nights.filter((n) => n.provider === provider).map(sleepRecord));
  }
  await upsertSummaries(stack.db.db, { teamId: team.teamId, userId, connectionId: null, provider: 'oura' }, activity.map(activityRecord));
  // Heart rate every 10 minutes and hourly steps, 2024-03-04 00:00Z … 2024-03-07 00:00Z (local time is an hour on).
  await ensureSamplePartitions(stack.db.db, new Date('2024-03-01T00:00:00Z'), new Date('2024-03-31T00:00:00Z'));
  for (let t = Date.parse('2024-03-04T00:00:00Z'); t < Date.parse('2024-03-07T00:00:00Z'); t += 600_000) {
    heartRate.push({ resource: 'heartrate', timestamp: new Date(t), value: 50 + Math.round(rand(t / 600_000) * 60), unit: 'bpm', sourceType: 'ring', timezoneOffset: OFFSET });
    if (t % 3_600_000 === 0) {
      steps.push({ resource: 'steps', timestamp: new Date(t), end: new Date(t + 3_600_000), value: Math.round(rand(t / 3_600_000 + 7) * 900), unit: 'count', sourceType: 'ring', timezoneOffset: OFFSET });
    }
  }
  await upsertSamples(stack.db.db, userId, 'oura', [...heartRate, ...steps]);
  // An activity day in February and one in April: outside March, they must not count.
  await upsertSummaries(stack.db.db, { teamId: team.teamId, userId, connectionId: null, provider: 'oura' }, [
    activityRecord({ day: '2024-02-29', steps: 99_999, high: 0 }), activityRecord({ day: '2024-04-01', steps: 99_999, high: 0 }),
  ]);
}, 60_000);

afterAll(async () => {
  await stack?.close();
});

describe('aggregate.queryOne through the SDK', () => {
  it('weekly mean, min, max, sum, count, median and stddev of sleep durations, per ISO week', async () => {
    const funcs = ['mean', 'min', 'max', 'sum', 'count', 'median', 'stddev'] as const;
    const res = await client.aggregate.queryOne(userId, {
      timeframe: MARCH,
      queries: [{
        select: [{ groupKey: '*' }, ...funcs.map((func) => ({ arg: { sleep: 'duration_second' as const }, func }))],
        groupBy: [{ dateTrunc: { value: 1, unit: 'week' }, arg: { index: 'sleep' } }],
      }],
    });
    expect(res.results).toHaveLength(1);
    const table = res.results[0]!.table;
    const weeks = groupBy(nights, (n) => monday(n.day));
    expect(Object.keys(table)).toEqual(['group_key.0', ...funcs.map((f) => `${f}.duration_second`)]);
    expect(table['group_key.0']).toEqual([...weeks.keys()].map((d) => `${d}T00:00:00`));
    [...weeks.values()].forEach((ns, w) => {
      const xs = ns.map((n) => n.duration);
      expect(table['mean.duration_second']![w]).toBeCloseTo(mean(xs), 6);
      expect(table['min.duration_second']![w]).toBe(Math.min(...xs));
      expect(table['max.duration_second']![w]).toBe(Math.max(...xs));
      expect(table['sum.duration_second']![w]).toBe(xs.reduce((a, b) => a + b, 0));
      expect(table['count.duration_second']![w]).toBe(xs.length);
      expect(table['median.duration_second']![w]).toBeCloseTo(median(xs), 6);
      expect(table['stddev.duration_second']![w]).toBeCloseTo(stddev(xs), 6);
    });
  });

  it('daily buckets, split by provider, and the timeframe bounds (a date anchor includes its day)', async () => {
    const res = await client.aggregate.queryOne(userId, {
      timeframe: relative('2024-03-17', 7, 'day'),
      queries: [
        {
          select: [{ groupKey: 0 }, { groupKey: 1 }, { arg: { sleep: 'stage_deep_second' }, func: 'mean' }, { arg: { sleep: 'score' }, func: 'max' }],
          groupBy: [{ dateTrunc: { unit: 'day' }, arg: { index: 'sleep' } }, { source: 'source_provider' }],
        },
        { select: [sleepMean as Vital.AggregateExpr, { arg: { index: 'sleep' }, func: 'count' }] },
      ],
    });
    const inWeek = nights.filter((n) => n.day >= '2024-03-11' && n.day <= '2024-03-17');
    const sorted = [...inWeek].sort((a, b) => (a.day === b.day ? (a.provider < b.provider ? -1 : 1) : a.day < b.day ? -1 : 1));
    const [daily, overall] = res.results.map((r) => r.table);
    expect(daily!['group_key.0']).toEqual(sorted.map((n) => `${n.day}T00:00:00`));
    expect(daily!['group_key.1']).toEqual(sorted.map((n) => n.provider));
    expect(daily!['mean.stage_deep_second']).toEqual(sorted.map((n) => n.deep));
    expect(daily!['max.score']).toEqual(sorted.map((n) => n.score));
    expect(overall!['mean.duration_second']![0]).toBeCloseTo(mean(inWeek.map((n) => n.duration)), 6);
    expect(overall!['count.index']).toEqual([inWeek.length]);
  });

  it('plain columns: one row per summary, oldest first, with local times', async () => {
    const res = await client.aggregate.queryOne(userId, {
      timeframe: relative('2024-03-10', 7, 'day'),
      queries: [{ select: [{ index: 'sleep' }, { sleep: 'session_end' }, { sleep: 'duration_second' }, { sleep: 'type' }, { source: 'source_provider' }] }],
    });
    const rows = nights.filter((n) => n.day <= '2024-03-10').sort((a, b) => (a.day === b.day ? (a.provider < b.provider ? -1 : 1) : a.day < b.day ? -1 : 1));
    const table = res.results[0]!.table;
    expect(table.index).toEqual(rows.map((n) => `${n.day}T07:30:00`));
    expect(table.session_end).toEqual(rows.map((n) => `${n.day}T07:30:00`));
    expect([...table.duration_second!].sort()).toEqual(rows.map((n) => n.duration).sort());
    expect(new Set(table.type)).toEqual(new Set(rows.map((n) => n.type)));
    expect(table.source_provider!.filter((p) => p === 'fitbit')).toHaveLength(rows.filter((n) => n.provider === 'fitbit').length);
  });

  it('activity: monthly sums and minutes as seconds; oldest and newest; weekday parts; group by a column', async () => {
    const res = await client.aggregate.queryOne(userId, {
      timeframe: relative('2024-04-30', 3, 'month'),
      queries: [
        {
          select: [{ groupKey: '*' }, { arg: { activity: 'steps' }, func: 'sum' }, { arg: { activity: 'intensity_high_second' }, func: 'sum' }, { arg: { activity: 'steps' }, func: 'oldest' }, { arg: { activity: 'steps' }, func: 'newest' }],
          groupBy: [{ dateTrunc: { unit: 'month' }, arg: { index: 'activity' } }],
        },
        { select: [{ groupKey: 0 }, { arg: { activity: 'date' }, func: 'count' }], groupBy: [{ datePart: 'weekday', arg: { index: 'activity' } }] },
        { select: [{ groupKey: 0 }, { arg: { sleep: 'duration_second' }, func: 'count' }], groupBy: [{ sleep: 'type' }] },
      ],
    });
    const [monthly, weekdays, types] = res.results.map((r) => r.table);
    expect(monthly!['group_key.0']).toEqual(['2024-02-01T00:00:00', '2024-03-01T00:00:00', '2024-04-01T00:00:00']);
    expect(monthly!['sum.steps']).toEqual([99_999, activity.reduce((a, d) => a + d.steps, 0), 99_999]);
    expect(monthly!['sum.intensity_high_second']).toEqual([0, activity.reduce((a, d) => a + d.high * 60, 0), 0]);
    expect(monthly!['oldest.steps']![1]).toBe(activity[0]!.steps);
    expect(monthly!['newest.steps']![1]).toBe(activity.at(-1)!.steps);
    // 28 March days are 4 of each weekday; 29 Feb 2024 is a Thursday (4), 1 Apr a Monday (1): ISO weekday numbers.
    expect(weekdays!['group_key.0']).toEqual([1, 2, 3, 4, 5, 6, 7]);
    expect(weekdays!['count.date']).toEqual([5, 4, 4, 5, 4, 4, 4]);
    const byType = groupBy(nights, (n) => n.type);
    expect(types!['group_key.0']).toEqual([...byType.keys()]);
    expect(types!['count.duration_second']).toEqual([...byType.values()].map((ns) => ns.length));
  });

  it('where: filters rows before grouping (numbers, strings, timestamps, NOT/AND/OR, null)', async () => {
    const res = await client.aggregate.queryOne(userId, {
      timeframe: MARCH,
      queries: [
        { select: [{ arg: { sleep: 'duration_second' }, func: 'sum' }, { arg: { sleep: 'id' }, func: 'count' }], where: "type = 'long_sleep' and duration_second >= 25000" },
        { select: [{ arg: { sleep: 'id' }, func: 'count' }], where: "sleep.session_end < '2024-03-11' AND NOT (source_provider = 'fitbit' or score > 80)" },
        { select: [{ arg: { sleep: 'id' }, func: 'count' }], where: 'skin_temperature = null or latency_second != 600' },
      ],
    });
    const [long, early, nulls] = res.results.map((r) => r.table);
    const longOnes = nights.filter((n) => n.type === 'long_sleep' && n.duration >= 25000);
    expect(long!['sum.duration_second']).toEqual([longOnes.reduce((a, n) => a + n.duration, 0)]);
    expect(long!['count.id']).toEqual([longOnes.length]);
    expect(early!['count.id']).toEqual([nights.filter((n) => n.day < '2024-03-11' && !(n.provider === 'fitbit' || n.score > 80)).length]);
    expect(nulls!['count.id']).toEqual([nights.length]); // no night has a skin temperature
  });

  it('timeseries: daily heart rate and steps by local day, sample durations, raw samples', async () => {
    const res = await client.aggregate.queryOne(userId, {
      timeframe: relative('2024-03-06', 2, 'day'),
      queries: [
        {
          select: [{ groupKey: 0 }, { arg: { timeseries: 'heartrate', field: 'value' }, func: 'mean' }, { arg: { timeseries: 'heartrate', field: 'value' }, func: 'max' }, { arg: { index: 'timeseries' }, func: 'count' }],
          groupBy: [{ dateTrunc: { unit: 'day' }, arg: { index: 'timeseries' } }],
        },
        {
          select: [{ groupKey: 0 }, { arg: { timeseries: 'steps', field: 'value' }, func: 'sum' }, { arg: { timeseries: 'steps', field: 'duration' }, func: 'sum' }],
          groupBy: [{ dateTrunc: { unit: 'day' }, arg: { index: 'timeseries' } }],
        },
        { select: [{ index: 'timeseries' }, { timeseries: 'steps', field: 'value' }, { source: 'source_provider' }] },
      ],
    });
    const [hr, daily, raw] = res.results.map((r) => r.table);
    const days = ['2024-03-05', '2024-03-06'];
    const hrByDay = days.map((d) => heartRate.filter((x) => localDay(x) === d).map((x) => x.value));
    expect(hr!['group_key.0']).toEqual(days.map((d) => `${d}T00:00:00`));
    hrByDay.forEach((xs, i) => {
      expect(hr!['mean.value']![i]).toBeCloseTo(mean(xs), 6);
      expect(hr!['max.value']![i]).toBe(Math.max(...xs));
      expect(hr!['count.index']![i]).toBe(xs.length);
    });
    expect(daily!['sum.value']).toEqual(days.map((d) => steps.filter((x) => localDay(x) === d).reduce((a, x) => a + x.value, 0)));
    expect(daily!['sum.duration']).toEqual(days.map((d) => steps.filter((x) => localDay(x) === d).length * 3600));
    const inWindow = steps.filter((x) => days.includes(localDay(x)));
    expect(raw!.index).toEqual(inWindow.map((x) => new Date(x.timestamp.getTime() + OFFSET * 1000).toISOString().slice(0, 19)));
    expect(raw!.value).toEqual(inWindow.map((x) => x.value));
    expect(new Set(raw!.source_provider)).toEqual(new Set(['oura']));
  });

  it('answers empty tables where nothing was stored, and an absolute timeframe over plain HTTP', async () => {
    const empty = await client.aggregate.queryOne(userId, {
      timeframe: relative('2023-06-30', 1, 'month'),
      queries: [{ select: [sleepMean as Vital.AggregateExpr] }, { select: [{ body: 'weight_kilogram' }] }],
    });
    expect(empty.results.map((r) => r.table)).toEqual([{ 'mean.duration_second': [] }, { weight_kilogram: [] }]);
    const abs = await http(stack, 'POST', path(), {
      apiKey: team.apiKey,
      body: { timeframe: { type: 'absolute', start: '2024-03-04', end: '2024-03-10' }, queries: [{ select: [{ arg: { sleep: 'duration_second' }, func: 'count' }] }] },
    });
    expect(abs.status).toBe(200);
    expect(abs.json).toEqual({ results: [{ table: { 'count.duration_second': [nights.filter((n) => n.day <= '2024-03-10').length] } }] });
  });

  it("refuses another team's user and an unknown user with 404", async () => {
    const other = await newTeam(stack);
    const otherClient = sdkFor(stack, other.apiKey);
    const { userId: otherUser } = await otherClient.user.create({ clientUserId: `agg-other-${randomUUID()}` });
    for (const [c, user] of [[client, otherUser], [otherClient, userId], [client, randomUUID()]] as const) {
      const err = await refused(c.aggregate.queryOne(user, { timeframe: MARCH, queries: [{ select: [sleepMean as Vital.AggregateExpr] }] }));
      expect(err?.statusCode).toBe(404);
      expect(err?.body).toEqual({ detail: 'User not found' });
    }
    // The other team's key reads nothing of ours even through its own user: its user has no data.
    const own = await otherClient.aggregate.queryOne(otherUser, { timeframe: MARCH, queries: [{ select: [sleepMean as Vital.AggregateExpr] }] });
    expect(own.results[0]!.table).toEqual({ 'mean.duration_second': [] });
  });

  it('refuses unsupported columns through the SDK with a 422 naming the column', async () => {
    const err = await refused(client.aggregate.queryOne(userId, { timeframe: MARCH, queries: [{ select: [{ arg: { sleep: 'heart_rate_maximum' }, func: 'max' }] }] }));
    expect(err).toBeInstanceOf(Vital.UnprocessableEntityError);
    expect(JSON.stringify(err?.body)).toContain('sleep.heart_rate_maximum is not supported');
  });

  it('refuses bad bodies with 4xx and a {detail}, never 5xx', async () => {
    const tf = { type: 'relative', anchor: '2024-03-31', past: { value: 28, unit: 'day' } };
    const q = (query: unknown) => ({ timeframe: tf, queries: [query] });
    const cases: [string, unknown, RegExp][] = [
      ['unknown column', q({ select: [{ arg: { sleep: 'snoring' }, func: 'mean' }] }), /unknown column sleep\.snoring/],
      ['unsupported column', q({ select: [{ activity: 'duration_active_second' }] }), /activity\.duration_active_second is not supported/],
      ['unknown function', q({ select: [{ arg: { sleep: 'score' }, func: 'average' }] }), /func must be one of/],
      ['mean of text', q({ select: [{ arg: { sleep: 'type' }, func: 'mean' }] }), /mean does not apply to a text column/],
      ['two tables', q({ select: [{ arg: { sleep: 'score' }, func: 'mean' }, { arg: { activity: 'steps' }, func: 'sum' }] }), /one table/],
      ['no table', q({ select: [{ source: 'source_provider' }] }), /names no table/],
      ['plain column with group_by', q({ select: [{ sleep: 'score' }], group_by: [{ source: 'source_provider' }] }), /with group_by/],
      ['plain column with aggregates', q({ select: [{ sleep: 'score' }, sleepMean] }), /either aggregates or plain columns/],
      ['group key out of range', q({ select: [{ group_key: 1 }, sleepMean], group_by: [{ source: 'source_type' }] }), /names no group_by/],
      ['group key without group_by', q({ select: [{ group_key: '*' }, sleepMean] }), /needs a group_by/],
      ['two date_truncs', q({ select: [sleepMean], group_by: [{ date_trunc: { unit: 'day' }, arg: { index: 'sleep' } }, { date_trunc: { unit: 'week' }, arg: { index: 'sleep' } }] }), /at most one date_trunc/],
      ['huge bucket', q({ select: [sleepMean], group_by: [{ date_trunc: { value: 1e9, unit: 'day' }, arg: { index: 'sleep' } }] }), /1 to 1000/],
      ['blood pressure', q({ select: [{ arg: { timeseries: 'blood_pressure', field: 'systolic' }, func: 'mean' }] }), /blood_pressure is not supported/],
      ['unstored field', q({ select: [{ arg: { timeseries: 'heartrate', field: 'source_sport' }, func: 'count' }] }), /heartrate\.source_sport is not supported/],
      ['duration of an instant', q({ select: [{ arg: { timeseries: 'heartrate', field: 'duration' }, func: 'sum' }] }), /heartrate\.duration is not supported/],
      ['timeseries and sleep', q({ select: [{ arg: { timeseries: 'heartrate', field: 'value' }, func: 'mean' }, sleepMean] }), /one table/],
      ['timeseries index alone', q({ select: [{ index: 'timeseries' }] }), /needs a \{/],
      ['timeseries over a year', { timeframe: { ...tf, past: { value: 2, unit: 'year' } }, queries: [{ select: [{ timeseries: 'steps', field: 'value' }] }] }, /at most 400 days/],
      ['value macro', q({ select: [{ arg: { value_macro: 'sleep_score', version: 'automatic' }, func: 'mean' }] }), /value macros \(sleep_score\)/],
      ['where: text against a number', q({ select: [sleepMean], where: "score > 'high'" }), /cannot compare a number with a text/],
      ['where: unknown column', q({ select: [sleepMean], where: 'snoring = 1' }), /unknown column sleep\.snoring/],
      ['where: another table', q({ select: [sleepMean], where: 'activity.steps > 1' }), /not a column of the query's table sleep/],
      ['where: unfinished', q({ select: [sleepMean], where: 'score >' }), /expected a column or a value at the end/],
      ['where: junk', q({ select: [sleepMean], where: 'score > 1; drop table users' }), /cannot read the where clause/],
      ['where: bad date', q({ select: [sleepMean], where: "session_end < '2024-02-30'" }), /must be a date/],
      ['where: null ordering', q({ select: [sleepMean], where: 'score < null' }), /null compares only with = or !=/],
      ['where: too deep', q({ select: [sleepMean], where: `${'('.repeat(40)}score > 1${')'.repeat(40)}` }), /nested deeper than 32/],
      ['duplicate column', q({ select: [sleepMean, sleepMean] }), /already has a column mean\.duration_second/],
      ['empty select', q({ select: [] }), /1 to 64/],
      ['select not a list', q({ select: 'duration' }), /1 to 64/],
      ['unexpected key', q({ select: [{ arg: { sleep: 'score' }, func: 'mean', alias: 'x' }] }), /unexpected key \W+alias/],
      ['bad anchor', { timeframe: { ...tf, anchor: '2024-02-30' }, queries: [{ select: [sleepMean] }] }, /must be a date/],
      ['anchor before 1900', { timeframe: { ...tf, anchor: '1899-12-31' }, queries: [{ select: [sleepMean] }] }, /must be a date/],
      ['bad unit', { timeframe: { ...tf, past: { unit: 'fortnight' } }, queries: [{ select: [sleepMean] }] }, /unit must be one of/],
      ['too long a timeframe', { timeframe: { ...tf, past: { value: 20, unit: 'year' } }, queries: [{ select: [sleepMean] }] }, /at most 3700 days/],
      ['placeholder timeframe', { timeframe: { placeholder: true }, queries: [{ select: [sleepMean] }] }, /placeholder/],
      ['absolute end before start', { timeframe: { type: 'absolute', start: '2024-03-10', end: '2024-03-01' }, queries: [{ select: [sleepMean] }] }, /after start/],
      ['no queries', { timeframe: tf, queries: [] }, /at least 1|>=1|too small/i],
      ['17 queries', { timeframe: tf, queries: Array(17).fill({ select: [sleepMean] }) }, /at most 16|<=16|too big/i],
      ['provider priority', { timeframe: tf, queries: [{ select: [sleepMean] }], config: { provider_priority_overrides: ['oura'] } }, /prioritisation is not supported/],
    ];
    for (const [what, body, msg] of cases) {
      const res = await http(stack, 'POST', path(), { apiKey: team.apiKey, body });
      expect(res.status, what).toBe(422);
      expect(JSON.stringify(res.json.detail), what).toMatch(msg);
    }
    for (const raw of ['{', 'null', '[]', '']) {
      const res = await http(stack, 'POST', path(), { apiKey: team.apiKey, rawBody: raw, headers: { 'content-type': 'application/json' } });
      expect(res.status, raw).toBe(422);
      expect(res.json.detail).toBeTruthy();
    }
    const badUser = await http(stack, 'POST', '/aggregate/v1/user/not-a-uuid/query', { apiKey: team.apiKey, body: q({ select: [sleepMean] }) });
    expect(badUser.status).toBe(422);
    const noKey = await http(stack, 'POST', path(), { body: q({ select: [sleepMean] }) });
    expect(noKey.status).toBe(401);
    const vitalHeader = await http(stack, 'POST', path(), { headers: { 'x-vital-api-key': team.apiKey }, body: q({ select: [sleepMean] }) });
    expect(vitalHeader.status).toBe(200);
  });
});

describe('continuous queries: the service has none', () => {
  it('answers 404 to the result table and the task history, 404 for another team, 422 for bad input', async () => {
    const table = await refused(client.aggregate.getResultTableForContinuousQuery(userId, 'weekly-sleep'));
    expect(table?.statusCode).toBe(404);
    expect((table?.body as { detail: string }).detail).toMatch(/Continuous query not found/);
    const history = await refused(client.aggregate.getTaskHistoryForContinuousQuery(userId, randomUUID(), { limit: 10, nextCursor: 'abc' }));
    expect(history?.statusCode).toBe(404);
    expect((history?.body as { detail: string }).detail).toMatch(/Continuous query not found/);
    const other = await newTeam(stack);
    const cross = await refused(sdkFor(stack, other.apiKey).aggregate.getResultTableForContinuousQuery(userId, 'weekly-sleep'));
    expect(cross?.body).toEqual({ detail: 'User not found' });
    const badLimit = await http(stack, 'GET', `/aggregate/v1/user/${userId}/continuous_query/x/task_history?limit=0`, { apiKey: team.apiKey });
    expect(badLimit.status).toBe(422);
    const noKey = await http(stack, 'GET', `/aggregate/v1/user/${userId}/continuous_query/x/result_table`);
    expect(noKey.status).toBe(401);
  });
});
