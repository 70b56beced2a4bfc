import { WorkflowFailedError, WorkflowNotFoundError, WorkflowUpdateFailedError, type Client } from '@temporalio/client';
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
  try {
    return await handle.executeUpdate(linkOutcomeUpdate);
  } catch (err) {
    // A newer attempt for the same (user, provider) replaced this one's workflow while it waited: this
    // attempt ends as a provider error; the newer one carries on.
    if (err instanceof WorkflowNotFoundError || err instanceof WorkflowFailedError || (err instanceof WorkflowUpdateFailedError && /terminat|complet/i.test(err.cause?.message ?? err.message))) {
      return { state: 'error', errorType: 'provider_api_error', error: 'A newer link attempt for this provider replaced this one; use its answer.' };
    }
    throw err;
  }
}
