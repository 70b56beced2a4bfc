import { Context } from '@temporalio/activity';
import { WorkflowNotFoundError } from '@temporalio/client';
import type { Db } from '../../db/client.js';
import { connectionsOfUser } from '../../db/queries/connections.js';
import { finishBulkOp, recordBulkItem } from '../../db/queries/link-bulk.js';
import type { BulkItemResult } from '../../domain/link/bulk.js';
import type { Logger } from '../../lib/logger.js';
import { ingestionWorkflowId, pullNowSignal } from '../../workflows/ingestion/definitions.js';

interface Deps {
  db: Db;
  logger: Logger;
  /** Signals `pullNow` to a workflow; false when it does not run (default: the activity's Temporal client). */
  signalPullNow?: (workflowId: string) => Promise<boolean>;
}

async function signalWithActivityClient(workflowId: string): Promise<boolean> {
  try {
    await Context.current().client.workflow.getHandle(workflowId).signal(pullNowSignal);
    return true;
  } catch (err) {
    if (err instanceof WorkflowNotFoundError) return false;
    throw err;
  }
}

/** The bulk link op workflow's I/O (workflows/link-bulk). */
export function createLinkBulkActivities({ db, logger, signalPullNow = signalWithActivityClient }: Deps) {
  return {
    async recordBulkItem(input: { bulkOpId: string; userId: string; result: BulkItemResult }): Promise<void> {
      await recordBulkItem(db, input.bulkOpId, input.userId, input.result);
    },

    async finishBulkOp(input: { bulkOpId: string }): Promise<string> {
      const row = await finishBulkOp(db, input.bulkOpId, new Date());
      logger.info({ bulk_op_id: input.bulkOpId, status: row?.status }, 'bulk link op finished');
      return row?.status ?? 'success';
    },

    /** Asks the user's connection to the provider to pull now: its ingestion workflow gets `pullNow` if it runs. */
    async triggerHistoricalPull(input: { teamId: string; userId: string; provider: string }): Promise<BulkItemResult> {
      const conn = (await connectionsOfUser(db, input.teamId, input.userId)).find((c) => c.provider === input.provider);
      if (!conn) return { outcome: 'failed', detail: 'The user has no connection to this provider.' };
      if (conn.status !== 'connected') return { outcome: 'failed', detail: `The connection is ${conn.status}.` };
      if (await signalPullNow(ingestionWorkflowId(conn.id))) return { outcome: 'triggered' };
      return { outcome: 'not_running', detail: 'No ingestion runs for this connection; nothing was pulled.' };
    },
  };
}
