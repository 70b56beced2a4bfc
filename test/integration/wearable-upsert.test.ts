import { randomUUID } from 'node:crypto';
import { asc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureSamplePartitions, upsertSamples } from '../../db/queries/wearables.js';
import { wearableSamples } from '../../db/schema/index.js';
import type { SampleRecord } from '../../domain/wearables/adapter.js';
import { startTestStack, type TestStack } from '../support/harness.js';

/** The batch upsert on real Postgres: which samples are new, which values win, what is not rewritten. */
let stack: TestStack;
beforeAll(async () => {
  stack = await startTestStack();
  await ensureSamplePartitions(stack.db.db, new Date(Date.UTC(2025, 0, 1)), new Date(Date.UTC(2025, 1, 1)));
});
afterAll(async () => {
  await stack?.close();
});

const at = (minute: number) => new Date(Date.UTC(2025, 0, 10, 8, minute));
const hr = (minute: number, value: number): SampleRecord => ({ resource: 'heartrate', timestamp: at(minute), value, unit: 'bpm', sourceType: 'watch', timezoneOffset: 0 });
const stored = async (userId: string) =>
  stack.db.db.select().from(wearableSamples).where(eq(wearableSamples.userId, userId)).orderBy(asc(wearableSamples.timestamp));

describe('upsertSamples', () => {
  it('marks each sample new or not, keeps the latest value, and rewrites nothing that did not change', async () => {
    const userId = randomUUID();
    const first = await upsertSamples(stack.db.db, userId, 'fitbit', [hr(0, 60), hr(1, 61), hr(2, 62)]);
    expect(first.map((s) => s.created)).toEqual([true, true, true]);
    const before = await stored(userId);

    // minute 1 unchanged, minute 2 changed, minute 3 new, minute 4 twice in the batch (the last wins)
    const second = await upsertSamples(stack.db.db, userId, 'fitbit', [hr(1, 61), hr(2, 99), hr(3, 63), hr(4, 10), hr(4, 64)]);
    expect(second.map((s) => [s.timestamp.getUTCMinutes(), s.value, s.created])).toEqual([
      [1, 61, false],
      [2, 99, false],
      [3, 63, true],
      [4, 64, true],
    ]);
    const after = await stored(userId);
    expect(after.map((r) => [r.timestamp.getUTCMinutes(), r.value])).toEqual([[0, 60], [1, 61], [2, 99], [3, 63], [4, 64]]);
    const updatedAt = (rows: typeof after, minute: number) => rows.find((r) => r.timestamp.getUTCMinutes() === minute)!.updatedAt.getTime();
    expect(updatedAt(after, 1)).toBe(updatedAt(before, 1)); // same value: the row was not rewritten
    expect(updatedAt(after, 2)).toBeGreaterThan(updatedAt(before, 2));

    // another provider's sample at the same minute is another sample; another user's rows are untouched
    const other = await upsertSamples(stack.db.db, userId, 'oura', [hr(1, 70)]);
    expect(other.map((s) => s.created)).toEqual([true]);
    const stranger = randomUUID();
    expect((await upsertSamples(stack.db.db, stranger, 'fitbit', [hr(1, 1)])).map((s) => s.created)).toEqual([true]);
    expect((await stored(userId)).filter((r) => r.provider === 'fitbit').map((r) => r.value)).toEqual([60, 61, 99, 63, 64]);
  });

  it('re-sending the same batch creates nothing and changes nothing', async () => {
    const userId = randomUUID();
    const batch = [hr(10, 70), { ...hr(11, 71), end: at(12) }, { ...hr(12, 72), type: 'resting' }];
    await upsertSamples(stack.db.db, userId, 'fitbit', batch);
    const before = await stored(userId);
    const again = await upsertSamples(stack.db.db, userId, 'fitbit', batch);
    expect(again.map((s) => s.created)).toEqual([false, false, false]);
    expect(await stored(userId)).toEqual(before);
  });
});
