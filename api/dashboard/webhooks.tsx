import { Hono } from 'hono';
import { fanOutEvent, findEndpointById, findEvent, requeueFailed, updateEndpoint } from '../../db/queries/webhooks.js';
import {
  MAX_REPLAY_EVENTS,
  countReplayEvents,
  deliveryLog,
  endpointHealth,
  eventTeam,
  pullPendingForward,
  replayEvents,
} from '../../db/queries/dashboard/webhooks.js';
import { recordAudit } from '../../db/queries/dashboard/operators.js';
import { wakeEndpoints } from '../../lib/webhook-wake.js';
import { DashboardError, type DashEnv, type DashboardDeps } from './env.js';
import { Layout, PostForm, StatusBadge, fmt } from './layout.js';
import { deliveryLogQuery, parseOr400, replayFilter, uuid } from './params.js';
import { BASE, requireOperatorRole } from './session.js';
import { z } from 'zod';

const isoTime = z.string().max(40).refine((s) => !Number.isNaN(Date.parse(s)), 'must be a date-time');
const pct = (ok: number, bad: number) => (ok + bad === 0 ? '—' : `${Math.round((100 * ok) / (ok + bad))}%`);

/** Webhook endpoints of every team with their health, the delivery log, re-enable, recover and replay. */
export function webhookRoutes(deps: DashboardDeps) {
  const app = new Hono<DashEnv>();
  const { db } = deps;
  const audit = (c: { get(k: 'operator'): { id: string; email: string } }, action: string, targetType: string, targetId: string, detail: Record<string, unknown>) =>
    recordAudit(db, { operator: { id: c.get('operator').id, email: c.get('operator').email }, action, targetType, targetId, detail });

  app.get('/webhooks', async (c) => {
    const f = parseOr400(deliveryLogQuery, c.req.query());
    const operator = c.get('operator');
    const [endpoints, log] = await Promise.all([
      endpointHealth(db, f.team),
      deliveryLog(db, {
        teamId: f.team,
        endpointId: f.endpoint,
        orderId: f.order,
        status: f.status,
        eventType: f.event_type,
        since: f.since ? new Date(f.since) : undefined,
        until: f.until ? new Date(f.until) : undefined,
      }),
    ]);
    const acts = operator.role === 'operator';
    return c.html(
      <Layout title="Webhooks" operator={operator} section="webhooks">
        <h2>Endpoints</h2>
        <table id="endpoints">
          <thead>
            <tr><th>Team</th><th>URL</th><th>State</th><th>Success (7 d)</th><th>Avg latency</th><th>Failure streak</th><th>Last error</th><th></th></tr>
          </thead>
          <tbody>
            {endpoints.map((e) => (
              <tr>
                <td>{e.team_name}</td>
                <td class="mono">{e.url}</td>
                <td>{e.enabled ? <StatusBadge value="enabled" /> : <><StatusBadge value="disabled" /> <span class="muted">{e.disabled_reason}</span></>}</td>
                <td>{pct(e.delivered, e.failed)} <span class="muted">({e.delivered}/{e.delivered + e.failed}, {e.pending} pending)</span></td>
                <td>{e.avg_ms === null ? '—' : `${e.avg_ms} ms`}</td>
                <td>{e.streak}{e.failing_since && <div class="muted">since {fmt(new Date(e.failing_since))}</div>}</td>
                <td class="err mono">{e.streak ? e.last_error : ''}</td>
                <td>
                  {acts && !e.enabled && (
                    <PostForm action={`${BASE}/webhooks/endpoints/${e.id}/enable`} operator={operator} class="inline">
                      <button type="submit" onclick="return confirm('Re-enable this endpoint?')">Re-enable</button>
                    </PostForm>
                  )}
                  {acts && (
                    <PostForm action={`${BASE}/webhooks/endpoints/${e.id}/recover`} operator={operator} class="inline">
                      <input name="since" type="hidden" value={new Date(Date.now() - 7 * 86_400_000).toISOString()} />
                      <button type="submit" onclick="return confirm('Deliver again everything of the last 7 days that failed or waits for a retry?')">Recover 7 d</button>
                    </PostForm>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>

        <h2>Bulk replay</h2>
        {acts ? (
          <form class="filters" method="get" action={`${BASE}/webhooks/replay`} hx-get={`${BASE}/webhooks/replay`} hx-target="#replay-preview">
            <label>Team id<input name="team" required size={36} /></label>
            <label>Event type<input name="event_type" placeholder="labtest.order.updated" /></label>
            <label>Order id<input name="order" size={36} /></label>
            <label>Since (ISO)<input name="since" required placeholder="2026-01-01T00:00:00Z" /></label>
            <label>Until (ISO)<input name="until" /></label>
            <button type="submit">Preview</button>
          </form>
        ) : <p class="muted">Operators only.</p>}
        <div id="replay-preview"></div>

        <h2>Delivery log</h2>
        <form class="filters" method="get" action={`${BASE}/webhooks`}>
          <label>Team id<input name="team" value={f.team ?? ''} size={36} /></label>
          <label>Order id<input name="order" value={f.order ?? ''} size={36} /></label>
          <label>Status<select name="status"><option value="">any</option>{(['pending', 'delivered', 'failed'] as const).map((s) => <option selected={f.status === s}>{s}</option>)}</select></label>
          <label>Event type<input name="event_type" value={f.event_type ?? ''} /></label>
          <button type="submit">Filter</button>
        </form>
        <table id="delivery-log">
          <thead><tr><th>Created</th><th>Event</th><th>Order</th><th>Endpoint</th><th>Trigger</th><th>Status</th><th>Attempts</th><th></th></tr></thead>
          <tbody>
            {log.map((r) => (
              <tr>
                <td class="mono">{fmt(r.delivery.createdAt)}</td>
                <td>{r.eventType}</td>
                <td class="mono">{r.subjectId ? <a href={`${BASE}/orders/${r.subjectId}`}>{r.subjectId.slice(0, 8)}</a> : ''}</td>
                <td class="mono">{r.url}</td>
                <td>{r.delivery.trigger}</td>
                <td><StatusBadge value={r.delivery.status} /></td>
                <td>{r.delivery.attempts}</td>
                <td>
                  {acts && (
                    <PostForm action={`${BASE}/webhooks/events/${r.delivery.eventId}/resend`} operator={operator} class="inline">
                      <button type="submit" onclick="return confirm('Send this event again to its team’s endpoints?')">Replay</button>
                    </PostForm>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </Layout>,
    );
  });

  app.post('/webhooks/endpoints/:id/enable', requireOperatorRole, async (c) => {
    const endpoint = await findEndpointById(db, parseOr400(uuid, c.req.param('id')));
    if (!endpoint) throw new DashboardError(404, 'Webhook endpoint not found.');
    await updateEndpoint(db, endpoint.teamId, endpoint.id, { enabled: true, disabledReason: null, failingSince: null });
    await wakeEndpoints(deps.temporal, [endpoint.id]);
    await audit(c, 'webhook.endpoint.enable', 'webhook_endpoint', endpoint.id, {});
    return c.redirect(`${BASE}/webhooks`, 303);
  });

  // Recover: failed deliveries since `since` requeued (requeueFailed), and those waiting for a later retry due now.
  app.post('/webhooks/endpoints/:id/recover', requireOperatorRole, async (c) => {
    const endpoint = await findEndpointById(db, parseOr400(uuid, c.req.param('id')));
    if (!endpoint) throw new DashboardError(404, 'Webhook endpoint not found.');
    const since = new Date(parseOr400(isoTime, (await c.req.parseBody()).since ?? ''));
    const { requeued, pulled } = await db.transaction(async (tx) => ({
      requeued: await requeueFailed(tx, endpoint.teamId, endpoint.id, since),
      pulled: await pullPendingForward(tx, endpoint.teamId, endpoint.id, since),
    }));
    if (endpoint.enabled && requeued + pulled > 0) await wakeEndpoints(deps.temporal, [endpoint.id]);
    await audit(c, 'webhook.endpoint.recover', 'webhook_endpoint', endpoint.id, { since: since.toISOString(), requeued, pulled_forward: pulled });
    return c.redirect(`${BASE}/webhooks`, 303);
  });

  app.post('/webhooks/events/:id/resend', requireOperatorRole, async (c) => {
    const id = parseOr400(uuid, c.req.param('id'));
    const teamId = await eventTeam(db, id);
    const event = teamId ? await findEvent(db, teamId, id) : null;
    if (!event) throw new DashboardError(404, 'Event not found.');
    const endpoints = await fanOutEvent(db, { id: event.id, teamId: event.teamId, eventType: event.eventType }, 'resend');
    if (endpoints.length) await wakeEndpoints(deps.temporal, endpoints);
    await audit(c, 'webhook.event.resend', 'webhook_event', event.id, { endpoints: endpoints.length });
    return c.redirect(`${BASE}/webhooks`, 303);
  });

  // Bulk replay, step 1: how many events the filter picks (nothing is sent).
  app.get('/webhooks/replay', requireOperatorRole, async (c) => {
    const f = parseOr400(replayFilter, c.req.query());
    const filter = { teamId: f.team, eventType: f.event_type, orderId: f.order, since: new Date(f.since), until: f.until ? new Date(f.until) : undefined };
    const n = await countReplayEvents(db, filter);
    const panel = (
      <div class="panel" id="replay-confirm">
        <p>
          <strong id="replay-count">{n}</strong> event(s) match{n > MAX_REPLAY_EVENTS ? ` (only the first ${MAX_REPLAY_EVENTS} would be sent: narrow the window)` : ''}.
        </p>
        {n > 0 && (
          <PostForm action={`${BASE}/webhooks/replay`} operator={c.get('operator')}>
            {Object.entries(c.req.query()).filter(([k]) => ['team', 'event_type', 'order', 'since', 'until'].includes(k)).map(([k, v]) => <input type="hidden" name={k} value={v} />)}
            <input type="hidden" name="expected" value={String(n)} />
            <button type="submit" class="danger">Confirm: replay {Math.min(n, MAX_REPLAY_EVENTS)} event(s)</button>
          </PostForm>
        )}
      </div>
    );
    if (c.req.header('hx-request')) return c.html(panel);
    return c.html(<Layout title="Bulk replay" operator={c.get('operator')} section="webhooks">{panel}</Layout>);
  });

  // Bulk replay, step 2: each chosen event fanned out again as a resend, endpoints woken once.
  app.post('/webhooks/replay', requireOperatorRole, async (c) => {
    const body = await c.req.parseBody();
    const f = parseOr400(replayFilter, body);
    const filter = { teamId: f.team, eventType: f.event_type, orderId: f.order, since: new Date(f.since), until: f.until ? new Date(f.until) : undefined };
    const woken = new Set<string>();
    const events = await db.transaction(async (tx) => {
      const list = await replayEvents(tx, filter);
      for (const e of list) for (const ep of await fanOutEvent(tx, e, 'resend')) woken.add(ep);
      return list;
    });
    if (woken.size) await wakeEndpoints(deps.temporal, [...woken]);
    await audit(c, 'webhook.replay', 'team', f.team, { ...f, events: events.length, previewed: body.expected ?? null });
    return c.redirect(`${BASE}/webhooks?team=${f.team}`, 303);
  });

  return app;
}
