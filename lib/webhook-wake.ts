import type { Client } from '@temporalio/client';
import {
  taskQueue,
  wakeSignal,
  webhookEndpointWorkflowId,
  webhookEndpointWorkflowType,
  type WebhookEndpointInput,
} from '../workflows/webhooks/definitions.js';

/** Wakes (starting if needed) the delivery workflow of each endpoint: it has new work. */
export async function wakeEndpoints(client: Client, endpointIds: readonly string[]): Promise<void> {
  await Promise.all(
    [...new Set(endpointIds)].map((endpointId) =>
      client.workflow.signalWithStart(webhookEndpointWorkflowType, {
        workflowId: webhookEndpointWorkflowId(endpointId),
        taskQueue,
        args: [{ endpointId } satisfies WebhookEndpointInput],
        signal: wakeSignal,
        signalArgs: [],
      }),
    ),
  );
}
