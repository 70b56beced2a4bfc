import { Client, Connection, WorkflowExecutionAlreadyStartedError, type ClientInterceptors, type DataConverter, type WorkflowClientInterceptor } from '@temporalio/client';
import { workflowStarts } from './metrics.js';
import { tracingClientInterceptors } from './tracing.js';

/** Counts workflow starts by type and outcome (`labflow_workflow_starts_total`). */
export const workflowStartsInterceptor: WorkflowClientInterceptor = {
  async start(input, next) {
    try {
      const runId = await next(input);
      workflowStarts.inc({ workflow_type: input.workflowType, outcome: 'started' });
      return runId;
    } catch (err) {
      workflowStarts.inc({ workflow_type: input.workflowType, outcome: err instanceof WorkflowExecutionAlreadyStartedError ? 'already_started' : 'failed' });
      throw err;
    }
  },
  // Update-with-start (an order's creation): counted as a start; with USE_EXISTING it may have found the run.
  async startUpdateWithStart(input, next) {
    try {
      const out = await next(input);
      workflowStarts.inc({ workflow_type: input.workflowType, outcome: 'started' });
      return out;
    } catch (err) {
      workflowStarts.inc({ workflow_type: input.workflowType, outcome: 'failed' });
      throw err;
    }
  },
  async signalWithStart(input, next) {
    const runId = await next(input);
    workflowStarts.inc({ workflow_type: input.workflowType, outcome: 'started' });
    return runId;
  },
};

/** The client interceptors of every service process: start counts, and trace propagation when tracing is on. */
export function serviceClientInterceptors(): ClientInterceptors {
  return { workflow: [workflowStartsInterceptor, ...tracingClientInterceptors()] };
}

/** A Temporal client with the service's data converter (payload encryption: lib/payload-codec.ts). */
export async function connectClient(address: string, namespace: string, dataConverter: DataConverter): Promise<Client> {
  const connection = await Connection.connect({ address });
  return new Client({ connection, namespace, dataConverter, interceptors: serviceClientInterceptors() });
}
