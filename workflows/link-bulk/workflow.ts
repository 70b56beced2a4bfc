import { ChildWorkflowFailure, WorkflowExecutionAlreadyStartedError } from '@temporalio/common';
import { executeChild, proxyActivities } from '@temporalio/workflow';
import type { createLinkBulkActivities } from '../../activities/link-bulk/index.js';
import type { BulkItemResult } from '../../domain/link/bulk.js';
import { connectionWorkflowId, connectionWorkflowType, type ConnectionInput, type ConnectionPhase } from '../connection/definitions.js';
import { type BulkImportItem, type LinkBulkOpInput, type LinkBulkOpResult } from './definitions.js';
import { childTaskQueue } from '../shared/task-queues.js';

const acts = proxyActivities<ReturnType<typeof createLinkBulkActivities>>({
  startToCloseTimeout: '60 seconds',
  retry: { initialInterval: '1 second', maximumInterval: '30 seconds' },
});

/**
 * One bulk link op (`link-bulk-op-<id>`), user by user, each outcome recorded as it is known (the op's
 * `pending`/`processed` in `GET /v2/link/bulk_op`):
 * - import: each connection is made by the connection workflow (as a child, so the same record,
 *   `provider.connection.created` and ingestion as a link attempt), with the imported OAuth tokens;
 * - historical trigger: each user's connection to the provider is asked to pull now.
 */
export async function linkBulkOpWorkflow(input: LinkBulkOpInput): Promise<LinkBulkOpResult> {
  const results: Record<string, BulkItemResult> = {};

  async function importOne(item: BulkImportItem): Promise<BulkItemResult> {
    const args: ConnectionInput = {
      teamId: input.teamId,
      userId: item.userId,
      provider: input.provider,
      method: 'oauth',
      externalUserId: item.providerId,
      sealedCredentials: item.sealedTokens,
      startIngestion: input.startIngestion,
    };
    try {
      const phase = await executeChild<(a: ConnectionInput) => Promise<ConnectionPhase>>(connectionWorkflowType, {
        workflowId: connectionWorkflowId(item.userId, input.provider),
        taskQueue: childTaskQueue('users'),
        args: [args],
        workflowExecutionTimeout: '10 minutes',
      });
      if (phase === 'connected') return { outcome: 'imported' };
      return { outcome: 'failed', detail: 'duplicate_connection: this provider account is already connected to another user of the team.' };
    } catch (err) {
      if (err instanceof WorkflowExecutionAlreadyStartedError) {
        return { outcome: 'failed', detail: 'A link attempt of this user to this provider is in progress.' };
      }
      if (err instanceof ChildWorkflowFailure) return { outcome: 'failed', detail: 'The connection could not be made (the user may be gone).' };
      throw err;
    }
  }

  for (const item of input.imports ?? []) {
    const result = await importOne(item);
    results[item.userId] = result;
    await acts.recordBulkItem({ bulkOpId: input.bulkOpId, userId: item.userId, result });
  }
  for (const userId of input.userIds ?? []) {
    const result = await acts.triggerHistoricalPull({ teamId: input.teamId, userId, provider: input.provider });
    results[userId] = result;
    await acts.recordBulkItem({ bulkOpId: input.bulkOpId, userId, result });
  }
  const status = await acts.finishBulkOp({ bulkOpId: input.bulkOpId });
  return { status, results };
}
