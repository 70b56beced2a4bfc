import type { FC } from 'hono/jsx';
import type { OrderDetail } from '../../../db/queries/dashboard/orders.js';
import type { SessionOperator } from '../../../db/queries/dashboard/operators.js';
import { StatusBadge, fmt } from '../layout.js';
import { BASE } from '../session.js';
import type { HistoryStep, WorkflowNow } from '../temporal.js';

export interface TimelineEntry {
  at: Date;
  source: 'event' | 'workflow' | 'webhook';
  title: string;
  detail: string;
  failure: string | null;
}

/** Order events (Postgres), workflow steps (Temporal) and webhook events and attempts, in one time order. */
export function mergeTimeline(detail: OrderDetail, steps: HistoryStep[] | null): TimelineEntry[] {
  const out: TimelineEntry[] = [];
  for (const e of detail.events) out.push({ at: e.createdAt, source: 'event', title: `order ${e.status}`, detail: e.statusDetail ?? '', failure: null });
  for (const s of steps ?? []) out.push({ at: s.at, source: 'workflow', title: s.title, detail: s.detail, failure: s.failure });
  for (const e of detail.outbox) out.push({ at: e.createdAt, source: 'webhook', title: `event ${e.eventType}`, detail: e.id, failure: null });
  for (const d of detail.deliveries) {
    for (const a of d.attemptRows) {
      out.push({
        at: a.attemptedAt,
        source: 'webhook',
        title: `delivery attempt → ${a.statusCode ?? 'no answer'}`,
        detail: `${d.trigger} delivery ${d.id.slice(0, 8)}, ${a.durationMs} ms`,
        failure: a.error,
      });
    }
  }
  return out.sort((a, b) => a.at.getTime() - b.at.getTime());
}

const Waiting: FC<{ now: WorkflowNow | null }> = ({ now }) => {
  if (!now) return <p class="muted">Temporal has no workflow for this order.</p>;
  const state = (now.state ?? null) as { waitingFor?: string } | null;
  return (
    <div>
      <p>
        Workflow <StatusBadge value={now.status.toLowerCase()} /> since {fmt(now.startTime)}
        {now.closeTime && <> · closed {fmt(now.closeTime)}</>}
      </p>
      {state?.waitingFor && (
        <p>
          <strong>Waiting for:</strong> <span id="waiting-for">{state.waitingFor}</span>
        </p>
      )}
      {now.stateError && <p class="err">State query failed: {now.stateError}</p>}
      {now.pending.length > 0 && (
        <table>
          <thead>
            <tr>
              <th>Pending activity</th>
              <th>State</th>
              <th>Attempt</th>
              <th>Last failure</th>
            </tr>
          </thead>
          <tbody>
            {now.pending.map((p) => (
              <tr>
                <td>{p.activityType}</td>
                <td>{p.state}</td>
                <td>{p.attempt}</td>
                <td class="err">{p.lastFailure ?? ''}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {state && (
        <details>
          <summary>state query</summary>
          <pre class="mono">{JSON.stringify(state, null, 2)}</pre>
        </details>
      )}
    </div>
  );
};

export const ORDER_ACTIONS = {
  resend: { label: 'Resend last event', question: 'Send the order’s latest webhook event again to every enabled endpoint of its team?' },
  cancel: { label: 'Cancel order', question: 'Cancel this order? Its workflow decides; a finished order refuses.' },
  simulate: { label: 'Simulate to completed (sandbox)', question: 'Walk this sandbox order along its real path to completed?' },
} as const;
export type OrderAction = keyof typeof ORDER_ACTIONS;

export const OrderPage: FC<{ d: OrderDetail; now: WorkflowNow | null; steps: HistoryStep[] | null; operator: SessionOperator; sandbox: boolean }> = ({
  d,
  now,
  steps,
  operator,
  sandbox,
}) => {
  const o = d.order;
  const timeline = mergeTimeline(d, steps);
  const patient = o.patientDetails as { first_name?: string; last_name?: string } | null;
  return (
    <div>
      <div class="grid">
        <div class="panel">
          <table>
            <tbody>
              <tr><th>Team</th><td>{d.teamName} <span class="mono muted">{o.teamId}</span></td></tr>
              <tr><th>User</th><td class="mono">{o.userId} · {d.clientUserId}</td></tr>
              <tr><th>Patient</th><td>{[patient?.first_name, patient?.last_name].filter(Boolean).join(' ') || '—'}</td></tr>
              <tr><th>Sample id</th><td class="mono">{o.sampleId ?? '—'}</td></tr>
              <tr><th>Method</th><td>{o.method}</td></tr>
              <tr><th>Status</th><td><StatusBadge value={o.status} /> {o.lowLevelStatus}</td></tr>
              <tr><th>Created</th><td>{fmt(o.createdAt)}</td></tr>
              <tr><th>Workflow</th><td class="mono">{o.workflowId}</td></tr>
            </tbody>
          </table>
        </div>
        <div class="panel">
          <h2 style="margin-top:0">Now</h2>
          <Waiting now={now} />
          {operator.role === 'operator' && (
            <p>
              {(Object.keys(ORDER_ACTIONS) as OrderAction[])
                .filter((a) => a !== 'simulate' || sandbox)
                .map((a) => (
                  <a
                    href={`${BASE}/orders/${o.id}/confirm/${a}`}
                    hx-get={`${BASE}/orders/${o.id}/confirm/${a}`}
                    hx-target="#confirm"
                    class={a === 'cancel' ? 'btn danger' : 'btn'}
                  >
                    {ORDER_ACTIONS[a].label}
                  </a>
                ))}
            </p>
          )}
          <div id="confirm"></div>
        </div>
      </div>

      <h2>Timeline</h2>
      <table id="timeline">
        <thead>
          <tr><th>When</th><th>Source</th><th>What</th><th>Detail</th></tr>
        </thead>
        <tbody>
          {timeline.map((t) => (
            <tr>
              <td class="mono">{fmt(t.at)}</td>
              <td class={`src-${t.source}`}>{t.source}</td>
              <td>{t.title}</td>
              <td class="mono">
                {t.detail}
                {t.failure && <div class="err">{t.failure}</div>}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      {steps === null && <p class="muted">No workflow history in Temporal.</p>}

      <h2>Webhook deliveries</h2>
      <table id="deliveries">
        <thead>
          <tr><th>Event</th><th>Endpoint</th><th>Trigger</th><th>Status</th><th>Attempts (status · duration · response)</th></tr>
        </thead>
        <tbody>
          {d.deliveries.map((del) => {
            const event = d.outbox.find((e) => e.id === del.eventId);
            return (
              <tr>
                <td>{event?.eventType}<div class="mono muted">{fmt(event?.createdAt)}</div></td>
                <td class="mono">{del.endpointId.slice(0, 8)}</td>
                <td>{del.trigger}</td>
                <td><StatusBadge value={del.status} /></td>
                <td>
                  {del.attemptRows.map((a) => (
                    <div class="mono">
                      {fmt(a.attemptedAt)} · {a.statusCode ?? 'no answer'} · {a.durationMs} ms · {(a.error ?? a.responseBody ?? '').slice(0, 120)}
                    </div>
                  ))}
                  {del.status === 'pending' && del.nextAttemptAt && <div class="muted">next attempt {fmt(del.nextAttemptAt)}</div>}
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
      {d.deliveries.length === 0 && <p class="muted">No deliveries (the team has no endpoint for these events).</p>}
    </div>
  );
};
