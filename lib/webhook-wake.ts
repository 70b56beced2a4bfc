import type { Client } from '@temporalio/client';
import {
  taskQueue,
  wakeSignal,
  webhookEndpointWorkflowId,
  webhookEndpointWorkflowType,
  type WebhookEndpointInput,
} from '../workflows/webhooks/definitions.js';

/** How a writer learns, after its commit, that a delivery round of the endpoint is under way (db/queries/webhooks.ts `roundUnderWay`). */
export type RoundUnderWay = (endpointId: string) => Promise<boolean>;

/**
 * Wakes (starting if needed) the delivery workflow of each endpoint: it has new work. Resolves once a
 * wake-up signal sent after this call began has reached Temporal (rejects if that signal failed), or once
 * `roundUnderWay`, asked after this call began, found a round of the endpoint under way.
 *
 * A round deletes its row before it looks for due deliveries a last time, and the writer asks after its
 * commit: either the writer sees the row (the round's last look comes later and finds the new work) or it
 * does not and signals. So a round busy with a steady flow of events (100 a second) is not sent a signal
 * for them: each signal is a workflow task and four history events, and one arriving while the run
 * continues as new fails that task and makes the worker replay the whole run (bench:webhooks: 1.4–2 s
 * with a loaded machine, every run). Without `roundUnderWay`, or when asking fails, the signal is sent.
 *
 * Wakes of one endpoint are coalesced per client: while a signal to it is in flight, every further wake
 * joins a single follow-up signal, sent once the first one is answered and at least WAKE_GAP_MS after it
 * was sent. A round started by that follow-up sees everything committed before those wakes were asked
 * for, so none is lost, and an endpoint busy with many small transactions (orders at 100 events/s) gets
 * at most one signal per WAKE_GAP_MS from each process instead of one per event: fewer workflow tasks
 * (each costs the worker a task and the history four events), a history that grows slower
 * (bench:webhooks). A wake with none sent in the last WAKE_GAP_MS is sent at once; others wait at most that.
 */
export async function wakeEndpoints(client: Client, endpointIds: readonly string[], roundUnderWay?: RoundUnderWay): Promise<void> {
  let endpoints = wakes.get(client);
  if (!endpoints) {
    endpoints = new Map();
    wakes.set(client, endpoints);
  }
  const perClient = endpoints;
  await Promise.all([...new Set(endpointIds)].map((endpointId) => wakeOne(client, perClient, endpointId, roundUnderWay)));
}

interface Deferred {
  promise: Promise<void>;
  resolve: () => void;
  reject: (err: unknown) => void;
}

function deferred(): Deferred {
  let resolve!: () => void;
  let reject!: (err: unknown) => void;
  const promise = new Promise<void>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

/** Least time between the starts of two wake-up signals to one endpoint from one client. */
export const WAKE_GAP_MS = 50;

/** Per client, the endpoints with a wake-up signal in flight, each with the waiters of the follow-up (if any). */
const wakes = new WeakMap<Client, Map<string, { next: Deferred | null }>>();

function wakeOne(client: Client, inFlight: Map<string, { next: Deferred | null }>, endpointId: string, roundUnderWay?: RoundUnderWay): Promise<void> {
  const sending = inFlight.get(endpointId);
  if (sending) {
    // The signal in flight may have been handled before the caller's commit: join the one after it.
    sending.next ??= deferred();
    return sending.next.promise;
  }
  const state: { next: Deferred | null } = { next: null };
  inFlight.set(endpointId, state);
  const first = deferred();
  void (async () => {
    let current = first;
    for (;;) {
      const sentAt = Date.now();
      try {
        if (!(await underWay(roundUnderWay, endpointId))) await signal(client, endpointId);
        current.resolve();
      } catch (err) {
        current.reject(err);
      }
      // Wakes asked for until WAKE_GAP_MS after this signal's start join the next one.
      const gap = sentAt + WAKE_GAP_MS - Date.now();
      if (gap > 0) await new Promise((resolve) => setTimeout(resolve, gap));
      if (!state.next) break;
      current = state.next;
      state.next = null;
    }
    inFlight.delete(endpointId);
  })();
  return first.promise;
}

/** Is a round of the endpoint under way? No when there is no way to ask, or asking failed (a signal is then sent). */
async function underWay(roundUnderWay: RoundUnderWay | undefined, endpointId: string): Promise<boolean> {
  if (!roundUnderWay) return false;
  try {
    return await roundUnderWay(endpointId);
  } catch {
    return false;
  }
}

async function signal(client: Client, endpointId: string): Promise<void> {
  await client.workflow.signalWithStart(webhookEndpointWorkflowType, {
    workflowId: webhookEndpointWorkflowId(endpointId),
    taskQueue,
    args: [{ endpointId } satisfies WebhookEndpointInput],
    signal: wakeSignal,
    signalArgs: [],
  });
}
