import { Hono } from 'hono';
import { z } from 'zod';
import { ordersByStatusPerDay } from '../../db/queries/dashboard/orders.js';
import { parsingJobsPerDay } from '../../db/queries/dashboard/parsing.js';
import { endpointAttemptStats } from '../../db/queries/dashboard/webhooks.js';
import { BAD, BarRowsChart, GOOD, StackedDayChart, lastDays, toDaySeries, type BarRow } from './charts.js';
import type { DashEnv, DashboardDeps } from './env.js';
import { Layout, Select } from './layout.js';
import { listTeams } from '../../db/queries/teams.js';
import { parseOr400, uuid } from './params.js';
import { BASE } from './session.js';

const empty = (v: unknown) => (v === '' ? undefined : v);
export const query = z.object({
  days: z.preprocess(empty, z.coerce.number().int().min(1).max(90).default(14)),
  team: z.preprocess(empty, uuid.optional()),
});
const WINDOWS = [7, 14, 30, 90] as const;

const host = (url: string) => {
  try {
    const u = new URL(url);
    return u.host + (u.pathname === '/' ? '' : u.pathname);
  } catch {
    return url;
  }
};

/** Issue 12 item 7: orders by status over time, webhook success and latency per endpoint, parser jobs and failures per day. */
export function overviewRoutes(deps: DashboardDeps) {
  const app = new Hono<DashEnv>();
  app.get('/overview', async (c) => {
    const { days, team } = parseOr400(query, c.req.query());
    const window = lastDays(days);
    const [orderRows, parsingRows, endpoints, teams] = await Promise.all([
      ordersByStatusPerDay(deps.db, days, team),
      parsingJobsPerDay(deps.db, days, team),
      endpointAttemptStats(deps.db, days, team),
      listTeams(deps.db),
    ]);
    const teamQuery = team ? `&team=${team}` : '';
    const orders = toDaySeries(orderRows.map((r) => ({ day: r.day, key: r.status, n: r.n })), window);
    const parsing = toDaySeries(parsingRows.map((r) => ({ day: r.day, key: r.outcome, n: r.n })), window);
    const label = (e: (typeof endpoints)[number]) => `${e.team_name} · ${host(e.url)}${e.enabled ? '' : ' (disabled)'}`;
    const success: BarRow[] = endpoints.map((e) => {
      const rate = e.attempts ? e.ok / e.attempts : null;
      return {
        id: e.id,
        label: label(e),
        value: rate === null ? null : rate * 100,
        text: rate === null ? 'no attempts' : `${(rate * 100).toFixed(1)}% of ${e.attempts}`,
        color: rate === null ? GOOD : rate >= 0.99 ? GOOD : rate >= 0.9 ? '#ef6c00' : BAD,
      };
    });
    const latencyMax = Math.max(1, ...endpoints.map((e) => e.p95_ms ?? 0));
    const latency: BarRow[] = endpoints.map((e) => ({
      id: e.id,
      label: label(e),
      value: e.p50_ms,
      mark: e.p95_ms,
      text: e.p50_ms === null ? 'no attempts' : `p50 ${e.p50_ms} ms · p95 ${e.p95_ms} ms`,
      color: '#1565c0',
    }));
    return c.html(
      <Layout title="Overview" operator={c.get('operator')} section="overview">
        <form class="filters" method="get" action={`${BASE}/overview`}>
          <Select name="team" label="Team" options={teams.map((t) => [t.id, t.name] as [string, string])} value={team} />
          <input type="hidden" name="days" value={String(days)} />
          <button type="submit">Show</button>
        </form>
        <p>
          Window:{' '}
          {WINDOWS.map((d) => (
            <a class={d === days ? 'btn on' : 'btn'} href={`${BASE}/overview?days=${d}${teamQuery}`}>
              {d} days
            </a>
          ))}
        </p>
        <h2>Orders by status, per day created</h2>
        <StackedDayChart id="chart-orders" label={`Orders created per day over ${days} days, by current status`} data={orders} unit="orders" />
        <h2>Webhook success rate per endpoint</h2>
        <p class="muted">Share of delivery attempts that got a 2xx, last {days} days.</p>
        {endpoints.length ? (
          <BarRowsChart id="chart-webhook-success" label="Webhook success rate per endpoint" rows={success} max={100} />
        ) : (
          <p class="muted">No webhook endpoints yet.</p>
        )}
        <h2>Webhook latency per endpoint</h2>
        <p class="muted">Bar: median attempt duration; mark: 95th percentile.</p>
        {endpoints.length ? (
          <BarRowsChart id="chart-webhook-latency" label="Webhook attempt latency per endpoint" rows={latency} max={latencyMax} />
        ) : (
          <p class="muted">No webhook endpoints yet.</p>
        )}
        <h2>Parsing jobs per day, failures by reason</h2>
        <StackedDayChart id="chart-parsing" label={`Lab report parsing jobs per day over ${days} days, by outcome`} data={parsing} unit="jobs" />
      </Layout>,
    );
  });
  return app;
}
