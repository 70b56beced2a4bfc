import { WorkflowUpdateFailedError } from '@temporalio/client';
import { Hono, type Context } from 'hono';
import { findEvent, fanOutEvent } from '../../db/queries/webhooks.js';
import { orderDetail, searchOrders } from '../../db/queries/dashboard/orders.js';
import { listAudit, recordAudit } from '../../db/queries/dashboard/operators.js';
import { listTeams } from '../../db/queries/teams.js';
import { wakeEndpoints } from '../../lib/webhook-wake.js';
import { isTerminalStatus } from '../../domain/orders/testkit-lifecycle.js';
import { cancelUpdate, simulateUpdate } from '../../workflows/lab-order/definitions.js';
import { DashboardError, type DashEnv, type DashboardDeps } from './env.js';
import { Layout, PostForm, fmt } from './layout.js';
import { OrderPage, ORDER_ACTIONS, type OrderAction } from './pages/order.js';
import { OrderResults, OrderSearchForm } from './pages/orders.js';
import { orderSearchQuery, parseOr400, uuid } from './params.js';
import { BASE, formField, requireOperatorRole } from './session.js';
import { historySteps, workflowNow } from './temporal.js';

export const isHtmx = (c: Context) => c.req.header('hx-request') === 'true';

const orderIdOf = (c: Context) => parseOr400(uuid, c.req.param('id'));
function actionOf(c: Context): OrderAction {
  const a = c.req.param('action') ?? '';
  if (!(a in ORDER_ACTIONS)) throw new DashboardError(404, `No order action ${a}.`);
  return a as OrderAction;
}

/** Why a workflow refused an update, in its own words. */
const refusal = (err: unknown) => (err instanceof WorkflowUpdateFailedError ? (err.cause?.message ?? err.message) : null);

export function orderRoutes(deps: DashboardDeps) {
  const app = new Hono<DashEnv>();
  const { db } = deps;

  app.get('/orders', async (c) => {
    const f = parseOr400(orderSearchQuery, c.req.query());
    const rows = await searchOrders(db, {
      q: f.q,
      teamId: f.team,
      status: f.status,
      method: f.method,
      from: f.from ? new Date(`${f.from}T00:00:00Z`) : undefined,
      to: f.to ? new Date(`${f.to}T23:59:59.999Z`) : undefined,
      before: f.before,
      limit: f.limit,
    });
    const filters = { q: f.q, team: f.team, status: f.status, method: f.method, from: f.from, to: f.to, limit: f.limit === 50 ? undefined : String(f.limit) };
    if (isHtmx(c)) return c.html(<OrderResults rows={rows} f={filters} pageSize={f.limit} />);
    const teams = await listTeams(db);
    return c.html(
      <Layout title="Orders" operator={c.get('operator')} section="orders">
        <OrderSearchForm f={filters} teams={teams} />
        <OrderResults rows={rows} f={filters} pageSize={f.limit} />
      </Layout>,
    );
  });

  async function loadOrder(id: string) {
    const d = await orderDetail(db, id);
    if (!d) throw new DashboardError(404, 'Order not found.');
    return d;
  }

  app.get('/orders/:id', async (c) => {
    const d = await loadOrder(orderIdOf(c));
    const [now, steps, audit] = await Promise.all([
      workflowNow(deps.temporal, d.order.workflowId),
      historySteps(deps.temporal, d.order.workflowId),
      listAudit(db, { targetType: 'order', targetId: d.order.id, limit: 20 }),
    ]);
    return c.html(
      <Layout title={`Order ${d.order.id}`} operator={c.get('operator')} section="orders">
        <OrderPage d={d} now={now} steps={steps} operator={c.get('operator')} sandbox={deps.environment === 'sandbox'} />
        <h2>Operator actions on this order</h2>
        <ul>
          {audit.map((a) => (
            <li>
              {fmt(a.at)} · {a.operatorEmail} · {a.action} {a.detail ? <code>{JSON.stringify(a.detail)}</code> : ''}
            </li>
          ))}
        </ul>
      </Layout>,
    );
  });

  // The confirmation step of every action: a form that POSTs (with the CSRF token) only when confirmed.
  app.get('/orders/:id/confirm/:action', requireOperatorRole, async (c) => {
    const id = orderIdOf(c);
    const action = actionOf(c);
    const d = await loadOrder(id);
    const latest = d.outbox[d.outbox.length - 1];
    const form = (
      <div class="panel" id="confirm-panel">
        <p>{ORDER_ACTIONS[action].question}</p>
        {action === 'resend' && <p class="muted">Event: {latest ? `${latest.eventType} of ${fmt(latest.createdAt)}` : 'none yet'}</p>}
        <PostForm action={`${BASE}/orders/${id}/${action}`} operator={c.get('operator')}>
          {action === 'resend' && latest && <input type="hidden" name="event_id" value={latest.id} />}
          <button type="submit" class="danger">Confirm: {ORDER_ACTIONS[action].label}</button>{' '}
          <a href={`${BASE}/orders/${id}`}>Back</a>
        </PostForm>
      </div>
    );
    if (isHtmx(c)) return c.html(form);
    return c.html(<Layout title={`Confirm: ${ORDER_ACTIONS[action].label}`} operator={c.get('operator')} section="orders">{form}</Layout>);
  });

  app.post('/orders/:id/:action', requireOperatorRole, async (c) => {
    const id = orderIdOf(c);
    const action = actionOf(c);
    const d = await loadOrder(id);
    const operator = c.get('operator');
    const handle = deps.temporal.workflow.getHandle(d.order.workflowId);
    let detail: Record<string, unknown> = {};
    if (action === 'resend') {
      const eventId = parseOr400(uuid, (await formField(c, 'event_id')) ?? '');
      const event = await findEvent(db, d.order.teamId, eventId);
      if (!event || event.subjectId !== id) throw new DashboardError(404, 'No such event of this order.');
      const endpoints = await fanOutEvent(db, { id: event.id, teamId: event.teamId, eventType: event.eventType }, 'resend');
      if (endpoints.length) await wakeEndpoints(deps.temporal, endpoints);
      detail = { event_id: event.id, event_type: event.eventType, endpoints: endpoints.length };
    } else if (action === 'cancel') {
      if (isTerminalStatus(d.order.lowLevelStatus)) throw new DashboardError(409, `The order is already ${d.order.lowLevelStatus}.`);
      try {
        await handle.executeUpdate(cancelUpdate, { args: [{ as: 'cancelled' }] });
      } catch (err) {
        const why = refusal(err);
        if (why) throw new DashboardError(409, `The order refused: ${why}`);
        throw err;
      }
    } else {
      if (deps.environment !== 'sandbox') throw new DashboardError(403, 'Simulation is only available in the sandbox environment.');
      if (isTerminalStatus(d.order.lowLevelStatus)) throw new DashboardError(409, `The order is already ${d.order.lowLevelStatus}.`);
      try {
        await handle.executeUpdate(simulateUpdate, {
          args: [{ target: 'completed', delaySeconds: 0, interpretation: 'normal', resultTypes: null, hasMissingResults: false }],
        });
      } catch (err) {
        const why = refusal(err);
        if (why) throw new DashboardError(409, `The order refused: ${why}`);
        throw err;
      }
    }
    await recordAudit(db, { operator: { id: operator.id, email: operator.email }, action: `order.${action}`, targetType: 'order', targetId: id, detail });
    return c.redirect(`${BASE}/orders/${id}`, 303);
  });

  return app;
}
