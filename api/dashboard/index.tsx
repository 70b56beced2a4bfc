import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { Hono, type Context } from 'hono';
import type { AppEnv } from '../env.js';
import { onError } from '../errors.js';
import { DashboardError, type DashEnv, type DashboardDeps } from './env.js';
import { listAudit } from '../../db/queries/dashboard/operators.js';
import { Layout, fmt } from './layout.js';
import { codecRoutes } from './codec.js';
import { loginRoutes } from './login.js';
import { orderRoutes } from './orders.js';
import { overviewRoutes } from './overview.js';
import { teamRoutes } from './teams.js';
import { parsingRoutes } from './parsing.js';
import { workflowRoutes } from './workflows.js';
import { webhookRoutes } from './webhooks.js';
import { BASE, requireSession } from './session.js';

/** htmx, pinned in package.json and served from node_modules: no front-end build, no CDN. */
const htmxSource = (() => {
  let cached: string | null = null;
  return () => (cached ??= readFileSync(createRequire(import.meta.url).resolve('htmx.org/dist/htmx.min.js'), 'utf8'));
})();

async function renderError(err: Error, c: Context<DashEnv>): Promise<Response> {
  if (!(err instanceof DashboardError)) return onError(err, c as unknown as Context<AppEnv>); // the service's mapping: {detail}, 500 logged
  const html = (c.req.header('accept') ?? '').includes('text/html') && !c.req.header('hx-request');
  if (!html) return c.json({ detail: err.detail }, err.status);
  return c.html(
    <Layout title={`Error ${err.status}`}>
      <p class="err">{err.detail}</p>
      <p>
        <a href={`${BASE}/orders`}>Back to the dashboard</a>
      </p>
    </Layout>,
    err.status,
  );
}

/**
 * The operations dashboard (issue 12): server-rendered Hono JSX with htmx partial updates, for the
 * deployment's operators (accounts from `npm run admin -- create-operator`), mounted at /dashboard.
 */
export function dashboardRoutes(deps: DashboardDeps) {
  const app = new Hono<DashEnv>({ strict: false });
  app.onError(renderError);
  app.get('/static/htmx.min.js', (c) => {
    c.header('content-type', 'text/javascript; charset=utf-8');
    c.header('cache-control', 'public, max-age=86400');
    return c.body(htmxSource());
  });
  app.route('/', loginRoutes(deps));
  app.route('/', codecRoutes(deps)); // its own auth: session cookie, CORS, no CSRF (it only decodes)
  app.use('*', requireSession(deps));
  app.get('/', (c) => c.redirect(`${BASE}/orders`, 303));
  app.route('/', orderRoutes(deps));
  app.route('/', parsingRoutes(deps));
  app.route('/', workflowRoutes(deps));
  app.route('/', webhookRoutes(deps));
  app.route('/', overviewRoutes(deps));
  app.route('/', teamRoutes(deps));
  app.get('/audit', async (c) => {
    const rows = await listAudit(deps.db, { limit: 200 });
    return c.html(
      <Layout title="Audit log" operator={c.get('operator')} section="audit">
        <table id="audit">
          <thead>
            <tr><th>When</th><th>Who</th><th>What</th><th>Target</th><th>Detail</th></tr>
          </thead>
          <tbody>
            {rows.map((a) => (
              <tr>
                <td class="mono">{fmt(a.at)}</td>
                <td>{a.operatorEmail}</td>
                <td>{a.action}</td>
                <td class="mono">{a.targetType ? `${a.targetType} ${a.targetId ?? ''}` : ''}</td>
                <td class="mono">{a.detail ? JSON.stringify(a.detail) : ''}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </Layout>,
    );
  });
  return app;
}
