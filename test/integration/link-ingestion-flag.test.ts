import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { providerConnections } from '../../db/schema/index.js';
import { ingestionWorkflowId, ingestionWorkflowType } from '../../workflows/connection/definitions.js';
import { newTeam, sdkFor, startTestStack, type TestStack } from '../support/harness.js';

let stack: TestStack;
beforeAll(async () => {
  stack = await startTestStack({ WEARABLE_INGESTION_ENABLED: 'true' });
});
afterAll(async () => {
  await stack?.close();
});

describe('WEARABLE_INGESTION_ENABLED', () => {
  it('a new connection starts ingestion-<connection_id> by type name, abandoned by its parent', async () => {
    const team = await newTeam(stack);
    const client = sdkFor(stack, team.apiKey);
    const { userId } = await client.user.create({ clientUserId: `ingest-${randomUUID()}` });
    await client.link.connectDemoProvider({ userId, provider: 'fitbit' });
    const [conn] = await stack.db.db.select().from(providerConnections).where(eq(providerConnections.userId, userId));
    const handle = stack.temporal.workflow.getHandle(ingestionWorkflowId(conn!.id));
    const described = await handle.describe();
    expect(described.type).toBe(ingestionWorkflowType);
    expect(described.parentExecution?.workflowId).toBe(`connection-${userId}-fitbit`);
    // This branch registers no ingestion workflow: the child never runs, so it is ended here.
    await handle.terminate('test over');
  });
});
