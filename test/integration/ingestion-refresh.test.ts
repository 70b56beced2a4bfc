import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { providerConnections } from '../../db/schema/index.js';
import { ingestionWorkflowId } from '../../workflows/connection/definitions.js';
import { eventually, newTeam, sdkFor, startTestStack, type TestStack } from '../support/harness.js';

/**
 * With ingestion on (WEARABLE_INGESTION_ENABLED): a connection backfills and then pulls on its own; `user.refresh` reaches the
 * ingestion workflow (one signal definition for both sides) and a deregistered connection stops it.
 */
let stack: TestStack;
beforeAll(async () => {
  stack = await startTestStack({ WEARABLE_INGESTION_ENABLED: 'true' });
});
afterAll(async () => {
  await stack?.close();
});

/** How many times the ingestion workflow has planned a pull (once at start, once per pull). */
async function plans(workflowId: string): Promise<number> {
  const history = await stack.temporal.workflow.getHandle(workflowId).fetchHistory();
  return (history.events ?? []).filter((e) => e.activityTaskScheduledEventAttributes?.activityType?.name === 'planIngestion').length;
}

describe('wearable ingestion', () => {
  it('a demo connection backfills; refresh pulls at once; deregistering stops the workflow', async () => {
    const team = await newTeam(stack);
    const client = sdkFor(stack, team.apiKey);
    const { userId } = await client.user.create({ clientUserId: `ing-${randomUUID()}` });
    await client.link.connectDemoProvider({ userId, provider: 'fitbit' });
    const [conn] = await stack.db.db.select().from(providerConnections).where(eq(providerConnections.userId, userId));
    const workflowId = ingestionWorkflowId(conn!.id);

    // the backfill lands: heart rate reads back through the SDK
    const end = new Date().toISOString().slice(0, 10);
    const start = new Date(Date.now() - 3 * 86400_000).toISOString().slice(0, 10);
    const samples = await eventually(async () => {
      const hr = await client.vitals.heartrate(userId, { startDate: start, endDate: end });
      return hr.length > 0 ? hr : null;
    }, 60_000, 500);
    expect(samples[0]).toMatchObject({ unit: 'bpm' });

    // after the backfill the workflow waits hours for its next pull; refresh makes it pull now
    const before = await plans(workflowId);
    expect(before).toBeGreaterThanOrEqual(1);
    const refreshed = await client.user.refresh(userId);
    expect(refreshed.inProgressSources).toEqual(['fitbit']);
    await eventually(async () => ((await plans(workflowId)) > before ? true : null), 30_000, 250);

    // deregistered: the connection's ingestion is cancelled at once and pulls nothing more
    await client.user.deregisterProvider(userId, 'fitbit');
    const handle = stack.temporal.workflow.getHandle(workflowId);
    await expect(handle.result()).rejects.toThrow();
    expect((await handle.describe()).status.name).toBe('CANCELLED');
    const after = await plans(workflowId);
    // a refresh now finds no connected source and signals nothing
    const again = await client.user.refresh(userId);
    expect(again.inProgressSources).toEqual([]);
    expect(await plans(workflowId)).toBe(after);
  });
});
