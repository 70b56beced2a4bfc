import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureSamplePartitions } from '../../db/queries/wearables.js';
import { wearableSamples } from '../../db/schema/index.js';
import { userDeletionWorkflowId } from '../../workflows/user-deletion/definitions.js';
import { http, newTeam, startTestStack, type TestStack } from '../support/harness.js';

/** Wearable samples have no foreign key to their user (partitioned table): erasure must delete them itself. */

let stack: TestStack;
beforeAll(async () => {
  stack = await startTestStack({ USER_DELETION_GRACE_SECONDS: '2' });
});
afterAll(async () => {
  await stack?.close();
});

async function userWithSamples(apiKey: string) {
  const res = await http(stack, 'POST', '/v2/user', { apiKey, body: { client_user_id: `erase-${randomUUID()}` } });
  const userId = res.json.user_id as string;
  const now = new Date();
  await ensureSamplePartitions(stack.db.db, now, now);
  await stack.db.db.insert(wearableSamples).values(
    [0, 1, 2].map((m) => ({ userId, resource: 'heartrate', timestamp: new Date(now.getTime() - m * 60_000), provider: 'fitbit', sourceType: 'watch', value: 60 + m, unit: 'bpm' })),
  );
  return userId;
}

const samplesOf = async (userId: string) => (await stack.db.db.select().from(wearableSamples).where(eq(wearableSamples.userId, userId))).length;

describe('erasing a user', () => {
  it("deletes the user's wearable samples and no one else's", async () => {
    const team = await newTeam(stack);
    const gone = await userWithSamples(team.apiKey);
    const kept = await userWithSamples(team.apiKey);
    expect(await samplesOf(gone)).toBe(3);
    expect((await http(stack, 'DELETE', `/v2/user/${gone}`, { apiKey: team.apiKey })).status).toBe(200);
    await expect(stack.temporal.workflow.getHandle(userDeletionWorkflowId(gone)).result()).resolves.toBe('erased');
    expect(await samplesOf(gone)).toBe(0);
    expect(await samplesOf(kept)).toBe(3);
  });
});
