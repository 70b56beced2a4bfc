import { WorkflowNotFoundError, type Client } from '@temporalio/client';
import type { temporal } from '@temporalio/proto';

type Payloads = temporal.api.common.v1.IPayloads | null | undefined;
type Failure = temporal.api.failure.v1.IFailure | null | undefined;

/** One readable step of a workflow's history (payloads decoded with the service's codec). */
export interface HistoryStep {
  at: Date;
  kind: 'started' | 'activity' | 'signal' | 'update' | 'timer' | 'child' | 'closed' | 'other';
  title: string;
  detail: string;
  failure: string | null;
}

/** Temporal has no such workflow: the client's error, or gRPC NOT_FOUND (5) from the history call. */
const notFound = (err: unknown) => err instanceof WorkflowNotFoundError || (err as { code?: unknown } | null)?.code === 5;

const ms = (t: { seconds?: unknown; nanos?: number | null } | null | undefined) =>
  t ? Number(t.seconds ?? 0) * 1000 + Math.round((t.nanos ?? 0) / 1e6) : 0;
const excerpt = (v: unknown, max = 240) => {
  const s = typeof v === 'string' ? v : JSON.stringify(v);
  return s === undefined ? '' : s.length > max ? `${s.slice(0, max)}…` : s;
};
const failureText = (f: Failure): string | null => (f ? [f.message, failureText(f.cause)].filter(Boolean).join(' ← ') : null);

/** Payloads through the service's codec (decryption), then the payload converter. */
async function decodedValues(client: Client, payloads: Payloads): Promise<unknown[]> {
  if (!payloads?.payloads?.length) return [];
  const { payloadCodecs, payloadConverter } = client.options.loadedDataConverter;
  let list = payloads.payloads;
  for (const codec of [...payloadCodecs].reverse()) list = await codec.decode(list);
  return list.map((p) => payloadConverter.fromPayload(p));
}

async function decoded(client: Client, payloads: Payloads): Promise<string> {
  if (!payloads?.payloads?.length) return '';
  try {
    const values = await decodedValues(client, payloads);
    return excerpt(values.length === 1 ? values[0] : values);
  } catch (err) {
    return `(undecodable: ${err instanceof Error ? err.message : String(err)})`;
  }
}

/**
 * The workflow's history as steps: started, each activity (attempts, last failure, outcome), signals and
 * updates received with their decoded arguments, timers, and how it closed. Null when Temporal has no such workflow.
 */
export async function historySteps(client: Client, workflowId: string): Promise<HistoryStep[] | null> {
  let history: temporal.api.history.v1.IHistory;
  try {
    history = await client.workflow.getHandle(workflowId).fetchHistory();
  } catch (err) {
    if (notFound(err)) return null;
    throw err;
  }
  const steps: HistoryStep[] = [];
  const activities = new Map<string, HistoryStep & { attempts: number }>();
  const timers = new Map<string, HistoryStep>();
  const updates = new Map<string, HistoryStep>();
  for (const e of history.events ?? []) {
    const at = new Date(ms(e.eventTime));
    const id = String(e.eventId);
    if (e.workflowExecutionStartedEventAttributes) {
      const a = e.workflowExecutionStartedEventAttributes;
      steps.push({ at, kind: 'started', title: `started ${a.workflowType?.name ?? ''}`, detail: await decoded(client, a.input), failure: null });
    } else if (e.activityTaskScheduledEventAttributes) {
      const a = e.activityTaskScheduledEventAttributes;
      const step = { at, kind: 'activity' as const, title: `activity ${a.activityType?.name ?? '?'}`, detail: 'scheduled', failure: null, attempts: 0 };
      activities.set(id, step);
      steps.push(step);
    } else if (e.activityTaskStartedEventAttributes) {
      const a = e.activityTaskStartedEventAttributes;
      const step = activities.get(String(a.scheduledEventId));
      if (step) {
        step.attempts = a.attempt ?? 1;
        step.failure = failureText(a.lastFailure) ?? step.failure;
        step.detail = `running (attempt ${step.attempts})`;
      }
    } else if (e.activityTaskCompletedEventAttributes) {
      const step = activities.get(String(e.activityTaskCompletedEventAttributes.scheduledEventId));
      if (step) step.detail = `completed after ${step.attempts || 1} attempt(s)${step.failure ? ' (earlier attempts failed)' : ''}`;
    } else if (e.activityTaskFailedEventAttributes) {
      const step = activities.get(String(e.activityTaskFailedEventAttributes.scheduledEventId));
      if (step) {
        step.detail = `failed after ${step.attempts || 1} attempt(s)`;
        step.failure = failureText(e.activityTaskFailedEventAttributes.failure);
      }
    } else if (e.activityTaskTimedOutEventAttributes) {
      const step = activities.get(String(e.activityTaskTimedOutEventAttributes.scheduledEventId));
      if (step) {
        step.detail = `timed out after ${step.attempts || 1} attempt(s)`;
        step.failure = failureText(e.activityTaskTimedOutEventAttributes.failure);
      }
    } else if (e.workflowExecutionSignaledEventAttributes) {
      const a = e.workflowExecutionSignaledEventAttributes;
      steps.push({ at, kind: 'signal', title: `signal ${a.signalName ?? ''}`, detail: await decoded(client, a.input), failure: null });
    } else if (e.workflowExecutionUpdateAcceptedEventAttributes) {
      const a = e.workflowExecutionUpdateAcceptedEventAttributes;
      const input = a.acceptedRequest?.input;
      const step: HistoryStep = { at, kind: 'update', title: `update ${input?.name ?? ''}`, detail: await decoded(client, input?.args), failure: null };
      updates.set(a.protocolInstanceId ?? id, step);
      steps.push(step);
    } else if (e.workflowExecutionUpdateCompletedEventAttributes) {
      const a = e.workflowExecutionUpdateCompletedEventAttributes;
      const step = updates.get(a.meta?.updateId ?? '');
      if (step && a.outcome?.failure) step.failure = failureText(a.outcome.failure);
    } else if (e.timerStartedEventAttributes) {
      const a = e.timerStartedEventAttributes;
      const seconds = Math.round(ms(a.startToFireTimeout) / 1000);
      const step: HistoryStep = { at, kind: 'timer', title: `timer ${seconds}s`, detail: `fires at ${new Date(at.getTime() + seconds * 1000).toISOString()}`, failure: null };
      timers.set(a.timerId ?? id, step);
      steps.push(step);
    } else if (e.timerFiredEventAttributes) {
      const step = timers.get(e.timerFiredEventAttributes.timerId ?? '');
      if (step) step.detail = `fired ${at.toISOString()}`;
    } else if (e.timerCanceledEventAttributes) {
      const step = timers.get(e.timerCanceledEventAttributes.timerId ?? '');
      if (step) step.detail = `cancelled ${at.toISOString()} (the wait ended first)`;
    } else if (e.markerRecordedEventAttributes?.markerName === 'core_local_activity') {
      // A local activity: its marker names the activity and the attempt it completed on.
      const a = e.markerRecordedEventAttributes;
      const data = (await decodedValues(client, a.details?.data))[0] as { activity_type?: string; attempt?: number } | undefined;
      const attempts = data?.attempt ?? 1;
      const failure = failureText(a.failure);
      steps.push({
        at,
        kind: 'activity',
        title: `activity ${data?.activity_type ?? '?'} (local)`,
        detail: `${failure ? 'failed' : 'completed'} after ${attempts} attempt(s)`,
        failure,
      });
    } else if (e.startChildWorkflowExecutionInitiatedEventAttributes) {
      const a = e.startChildWorkflowExecutionInitiatedEventAttributes;
      steps.push({ at, kind: 'child', title: `child ${a.workflowType?.name ?? ''}`, detail: a.workflowId ?? '', failure: null });
    } else if (e.workflowExecutionCompletedEventAttributes) {
      steps.push({ at, kind: 'closed', title: 'completed', detail: await decoded(client, e.workflowExecutionCompletedEventAttributes.result), failure: null });
    } else if (e.workflowExecutionFailedEventAttributes) {
      steps.push({ at, kind: 'closed', title: 'failed', detail: '', failure: failureText(e.workflowExecutionFailedEventAttributes.failure) });
    } else if (e.workflowExecutionTerminatedEventAttributes) {
      steps.push({ at, kind: 'closed', title: 'terminated', detail: e.workflowExecutionTerminatedEventAttributes.reason ?? '', failure: null });
    } else if (e.workflowExecutionCanceledEventAttributes) {
      steps.push({ at, kind: 'closed', title: 'cancelled', detail: '', failure: null });
    } else if (e.workflowExecutionContinuedAsNewEventAttributes) {
      steps.push({ at, kind: 'closed', title: 'continued as new', detail: e.workflowExecutionContinuedAsNewEventAttributes.newExecutionRunId ?? '', failure: null });
    } else if (e.workflowExecutionTimedOutEventAttributes) {
      steps.push({ at, kind: 'closed', title: 'timed out', detail: '', failure: null });
    }
  }
  return steps;
}

export interface PendingActivity {
  activityType: string;
  attempt: number;
  state: string;
  lastFailure: string | null;
  scheduledAt: Date | null;
}

export interface WorkflowNow {
  status: string;
  startTime: Date;
  closeTime: Date | null;
  pending: PendingActivity[];
  /** The answer of the workflow's `state` query (if it has one and answered). */
  state: unknown;
  stateError: string | null;
}

const ACTIVITY_STATES: Record<number, string> = { 1: 'scheduled', 2: 'started', 3: 'cancel requested', 4: 'paused', 5: 'pause requested' };

/** What the workflow is doing now: describe() (pending activities with their last failure) and its state query. */
export async function workflowNow(client: Client, workflowId: string, stateQueryName: string | null = 'state'): Promise<WorkflowNow | null> {
  const handle = client.workflow.getHandle(workflowId);
  let d;
  try {
    d = await handle.describe();
  } catch (err) {
    if (notFound(err)) return null;
    throw err;
  }
  const pending = (d.raw.pendingActivities ?? []).map((p) => ({
    activityType: p.activityType?.name ?? '?',
    attempt: p.attempt ?? 1,
    state: ACTIVITY_STATES[p.state ?? 0] ?? 'unknown',
    lastFailure: failureText(p.lastFailure),
    scheduledAt: p.scheduledTime ? new Date(ms(p.scheduledTime)) : null,
  }));
  let state: unknown = null;
  let stateError: string | null = null;
  if (stateQueryName && d.status.name === 'RUNNING') {
    try {
      state = await client.withDeadline(Date.now() + 5000, () => handle.query(stateQueryName));
    } catch (err) {
      stateError = err instanceof Error ? err.message : String(err);
    }
  }
  return { status: d.status.name, startTime: d.startTime, closeTime: d.closeTime ?? null, pending, state, stateError };
}
