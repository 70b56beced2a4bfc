import type { Client } from '@temporalio/client';
import type { LinkOutcome } from '../../../domain/link/outcomes.js';
import {
  connectionWorkflowId,
  connectionWorkflowType,
  linkOutcomeUpdate,
  taskQueue,
  type ConnectionInput,
} from '../../../workflows/connection/definitions.js';

/**
 * Starts the (user, provider) connection workflow for one link attempt and waits for its outcome. A
 * pending attempt of the same pair (an MFA challenge never answered) is replaced by the new one.
 */
export async function runLinkAttempt(temporal: Client, input: ConnectionInput): Promise<LinkOutcome> {
  const handle = await temporal.workflow.start(connectionWorkflowType, {
    workflowId: connectionWorkflowId(input.userId, input.provider),
    taskQueue,
    args: [input],
    workflowIdConflictPolicy: 'TERMINATE_EXISTING',
    workflowExecutionTimeout: '1 day',
  });
  return handle.executeUpdate(linkOutcomeUpdate);
}
