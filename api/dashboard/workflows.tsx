import type { Client, WorkflowExecutionInfo } from '@temporalio/client';
import { Hono } from 'hono';
import { z } from 'zod';
import { SEARCH_ATTRIBUTES } from '../../domain/search-attributes.js';
import { COLLECTION_METHODS } from '../../domain/orders/status.js';
import { listTeams } from '../../db/queries/teams.js';
import { SA } from '../../workflows/shared/search-attributes.js';
import { labOrderWorkflowType } from '../../workflows/lab-order/definitions.js';
import { labReportWorkflowType } from '../../workflows/lab-report/definitions.js';
import { userDeletionWorkflowType } from '../../workflows/user-deletion/definitions.js';
import { webhookEndpointWorkflowType } from '../../workflows/webhooks/definitions.js';
import type { DashEnv, DashboardDeps } from './env.js';
import { Layout, Select, StatusBadge, fmt } from './layout.js';
import { parseOr400, uuid } from './params.js';
import { BASE } from './session.js';
import { historySteps, workflowNow, type PendingActivity } from './temporal.js';

/** A pending activity on this attempt or later makes a workflow "stuck" (a poison pill retrying). */
export const STUCK_ATTEMPTS = 5;
/** Running workflows described per look at the stuck view (bounded: one describe() each). */
export const STUCK_SCAN_LIMIT = 200;
const LIST_LIMIT = 100;

const WORKFLOW_TYPES = [labOrderWorkflowType, labReportWorkflowType, webhookEndpointWorkflowType, userDeletionWorkflowType] as const;
const empty = (v: unknown) => (v === '' ? undefined : v);
export const query = z.object({
  view: z.enum(['running', 'failed', 'stuck']).default('stuck'),
  type: z.preprocess(empty, z.enum(WORKFLOW_TYPES).optional()),
  // The service's search attributes (set by the order and parsing-job workflows). Each value is checked
  // here, so what reaches the visibility query is a UUID or a lowercase word: nothing to escape.
  team: z.preprocess(empty, uuid.optional()),
  status: z.preprocess(empty, z.string().max(60).regex(/^[a-z_]+$/, 'a status: lowercase letters and _').optional()),
  method: z.preprocess(empty, z.enum(COLLECTION_METHODS).optional()),
  user: z.preprocess(empty, uuid.optional()),
});
export type WorkflowFilter = Omit<z.infer<typeof query>, 'view'>;

/** The visibility clause of a filter: built-in WorkflowType plus the service's own attributes. */
export function filterClause(f: WorkflowFilter): string {
  const parts: string[] = [];
  if (f.type) parts.push(`WorkflowType = '${f.type}'`);
  if (f.team) parts.push(`${SEARCH_ATTRIBUTES.team.name} = '${f.team}'`);
  if (f.status) parts.push(`${SEARCH_ATTRIBUTES.status.name} = '${f.status}'`);
  if (f.method) parts.push(`${SEARCH_ATTRIBUTES.method.name} = '${f.method}'`);
  if (f.user) parts.push(`${SEARCH_ATTRIBUTES.user.name} = '${f.user}'`);
  return parts.map((p) => ` AND ${p}`).join('');
}

interface Row {
  info: WorkflowExecutionInfo;
  why: string;
  failure: string | null;
}

async function take<T>(it: AsyncIterable<T>, n: number): Promise<T[]> {
  const out: T[] = [];
  for await (const x of it) {
    out.push(x);
    if (out.length >= n) break;
  }
  return out;
}

/** Runs `fn` over items, at most `width` at a time. */
async function pool<T, R>(items: T[], width: number, fn: (t: T) => Promise<R>): Promise<R[]> {
  const out: R[] = new Array(items.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(width, items.length) }, async () => {
      while (next < items.length) {
        const i = next++;
        out[i] = await fn(items[i]!);
      }
    }),
  );
  return out;
}

const stuckReason = (pending: PendingActivity[], now: number): { why: string; failure: string | null } | null => {
  const retrying = pending.find((p) => p.attempt >= STUCK_ATTEMPTS);
  if (retrying) return { why: `${retrying.activityType} on attempt ${retrying.attempt}`, failure: retrying.lastFailure };
  const late = pending.find((p) => p.scheduledAt && now - p.scheduledAt.getTime() > 3600_000 && p.state === 'scheduled');
  if (late) return { why: `${late.activityType} scheduled over an hour ago and not picked up (no worker?)`, failure: late.lastFailure };
  return null;
};

/** Running, failed and stuck workflows through Temporal's visibility (built-in attributes: WorkflowType, ExecutionStatus, StartTime). */
export async function listWorkflows(client: Client, view: 'running' | 'failed' | 'stuck', filter: WorkflowFilter = {}): Promise<Row[]> {
  const typeClause = filterClause(filter);
  if (view === 'failed') {
    const infos = await take(
      client.workflow.list({ query: `ExecutionStatus IN ('Failed', 'TimedOut', 'Terminated')${typeClause}` }),
      LIST_LIMIT,
    );
    return pool(infos, 8, async (info) => {
      const steps = info.status.name === 'FAILED' ? await historySteps(client, info.workflowId) : null;
      const closed = steps?.filter((s) => s.kind === 'closed').at(-1);
      return { info, why: info.status.name.toLowerCase(), failure: closed?.failure ?? null };
    });
  }
  const running = await take(
    client.workflow.list({ query: `ExecutionStatus = 'Running'${typeClause}` }),
    view === 'stuck' ? STUCK_SCAN_LIMIT : LIST_LIMIT,
  );
  if (view === 'running') return running.map((info) => ({ info, why: 'running', failure: null }));
  const now = Date.now();
  const described = await pool(running, 8, async (info) => {
    const state = await workflowNow(client, info.workflowId, null).catch(() => null);
    const reason = state ? stuckReason(state.pending, now) : null;
    return reason ? { info, ...reason } : null;
  });
  return described.filter((r): r is Row => r !== null);
}

export function workflowRoutes(deps: DashboardDeps) {
  const app = new Hono<DashEnv>();
  app.get('/workflows', async (c) => {
    const q = parseOr400(query, c.req.query());
    const [rows, teams] = await Promise.all([listWorkflows(deps.temporal, q.view, q), listTeams(deps.db)]);
    return c.html(
      <Layout title="Workflows" operator={c.get('operator')} section="workflows">
        <form class="filters" method="get" action={`${BASE}/workflows`}>
          <label>
            View
            <select name="view">
              {(['stuck', 'running', 'failed'] as const).map((v) => (
                <option value={v} selected={q.view === v}>{v}</option>
              ))}
            </select>
          </label>
          <Select name="type" label="Workflow type" options={WORKFLOW_TYPES} value={q.type} />
          <Select name="team" label="Team" options={teams.map((t) => [t.id, t.name] as [string, string])} value={q.team} />
          <label>
            Status
            <input name="status" value={q.status ?? ''} placeholder="e.g. ordered, needs_review" size={14} />
          </label>
          <Select name="method" label="Collection method" options={COLLECTION_METHODS} value={q.method} />
          <label>
            User id
            <input name="user" value={q.user ?? ''} size={36} />
          </label>
          <button type="submit">Show</button>
        </form>
        <p class="muted">
          {q.view === 'stuck'
            ? `Running workflows (up to ${STUCK_SCAN_LIMIT} newest) with a pending activity on attempt ${STUCK_ATTEMPTS} or later, or one no worker picked up for an hour.`
            : `Up to ${LIST_LIMIT}, newest first.`}
        </p>
        <table id="workflows">
          <thead>
            <tr><th>Started</th><th>Workflow</th><th>Type</th><th>Status</th><th>Service status</th><th>Why listed</th><th>Last failure</th></tr>
          </thead>
          <tbody>
            {rows.map((r) => {
              const orderId = /^lab-order-(.+)$/.exec(r.info.workflowId)?.[1];
              return (
                <tr>
                  <td class="mono">{fmt(r.info.startTime)}</td>
                  <td class="mono">{orderId ? <a href={`${BASE}/orders/${orderId}`}>{r.info.workflowId}</a> : r.info.workflowId}</td>
                  <td>{r.info.type}</td>
                  <td><StatusBadge value={r.info.status.name.toLowerCase()} /></td>
                  <td>{r.info.typedSearchAttributes.get(SA.status) ?? ''}</td>
                  <td>{r.why}</td>
                  <td class="err">{r.failure ?? ''}</td>
                </tr>
              );
            })}
          </tbody>
        </table>
        {rows.length === 0 && <p class="muted">None.</p>}
      </Layout>,
    );
  });
  return app;
}
