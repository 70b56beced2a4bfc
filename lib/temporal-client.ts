import { Client, Connection, WorkflowExecutionAlreadyStartedError, type ClientInterceptors, type DataConverter, type WorkflowClientInterceptor } from '@temporalio/client';
import { workflowStarts } from './metrics.js';
import { tracingClientInterceptors } from './tracing.js';

/** Runs one start call and counts it by workflow type and outcome. */
async function counted<T>(workflowType: string, start: () => Promise<T>): Promise<T> {
  try {
    const out = await start();
    workflowStarts.inc({ workflow_type: workflowType, outcome: 'started' });
    return out;
  } catch (err) {
    workflowStarts.inc({ workflow_type: workflowType, outcome: err instanceof WorkflowExecutionAlreadyStartedError ? 'already_started' : 'failed' });
    throw err;
  }
}

/**
 * Counts workflow starts by type and outcome (`labflow_workflow_starts_total`). Update-with-start (an
 * order's creation) counts as a start; with USE_EXISTING it may have joined the running one.
 */
export const workflowStartsInterceptor: WorkflowClientInterceptor = {
  start: (input, next) => counted(input.workflowType, () => next(input)),
  startUpdateWithStart: (input, next) => counted(input.workflowType, () => next(input)),
  signalWithStart: (input, next) => counted(input.workflowType, () => next(input)),
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
