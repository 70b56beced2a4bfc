import { Hono, type Context } from 'hono';
import type { Child, FC } from 'hono/jsx';
import { z } from 'zod';
import { recordAudit } from '../../db/queries/dashboard/operators.js';
import { teamsOverview } from '../../db/queries/dashboard/teams.js';
import { PARTNER_KINDS, createPartnerKey, findLabBySlug, listPartnerKeys, revokePartnerKey } from '../../db/queries/partners.js';
import { createTeam, rotateTeamKey } from '../../db/queries/teams.js';
import { DashboardError, type DashEnv, type DashboardDeps } from './env.js';
import { Layout, PostForm, fmt } from './layout.js';
import { parseOr400, uuid } from './params.js';
import { BASE, requireOperatorRole } from './session.js';
import type { SessionOperator } from '../../db/queries/dashboard/operators.js';

const name = z.string().trim().min(1, 'is required').max(100, 'is at most 100 characters');
export const newTeamForm = z.object({ name });
const newPartnerKeyForm = z
  .object({
    name,
    kind: z.enum(PARTNER_KINDS),
    lab_slug: z.preprocess((v) => (v === '' ? undefined : v), z.string().trim().max(100).regex(/^[a-z0-9_-]+$/, 'lowercase letters, digits, - and _').optional()),
  })
  .refine((f) => (f.kind === 'lab') === (f.lab_slug !== undefined), { message: 'a lab key needs a lab slug, and only a lab key takes one', path: ['lab_slug'] });

/** The confirmation step of a destructive key action: a POST form (with the CSRF token) sent only when confirmed. */
const ConfirmPage: FC<{ title: string; action: string; label: string; operator: SessionOperator; children?: Child }> = (p) => (
  <Layout title={p.title} operator={p.operator} section="teams">
    <div class="panel" id="confirm-panel">
      <p>{p.children}</p>
      <PostForm action={p.action} operator={p.operator}>
        <button type="submit" class="danger">Confirm: {p.label}</button> <a href={`${BASE}/teams`}>Back</a>
      </PostForm>
    </div>
  </Layout>
);

/** The one page that ever shows a new key: never cached, never shown again. */
const KeyOnce: FC<{ what: string; keyText: string; operator: SessionOperator }> = ({ what, keyText, operator }) => (
  <Layout title={what} operator={operator} section="teams">
    <div class="panel">
      <p>
        <strong>Copy this key now: it is shown only this once.</strong> Only its hash is stored.
      </p>
      <p>
        <code id="new-key">{keyText}</code>
      </p>
      <p>
        <a href={`${BASE}/teams`}>Back to teams and keys</a>
      </p>
    </div>
  </Layout>
);

function keyOnce(c: Context<DashEnv>, what: string, keyText: string) {
  c.header('cache-control', 'no-store');
  return c.html(<KeyOnce what={what} keyText={keyText} operator={c.get('operator')} />);
}

/** Teams and keys (issue 12 item 6): teams, create a team, rotate its key (shown once), partner keys. */
export function teamRoutes(deps: DashboardDeps) {
  const app = new Hono<DashEnv>();
  const { db } = deps;
  const region = deps.region ?? 'us';
  const audit = (c: Context<DashEnv>, action: string, targetType: string, targetId: string, detail?: Record<string, unknown>) =>
    recordAudit(db, { operator: { id: c.get('operator').id, email: c.get('operator').email }, action, targetType, targetId, detail });

  app.get('/teams', async (c) => {
    const operator = c.get('operator');
    const canAct = operator.role === 'operator';
    const [teams, partnerKeys] = await Promise.all([teamsOverview(db), listPartnerKeys(db)]);
    return c.html(
      <Layout title="Teams and keys" operator={operator} section="teams">
        <p class="muted">
          New keys are minted for this deployment ({deps.environment} / {region}). A key is shown once, when it is made;
          only its hash is stored, so a lost key is replaced by rotating it.
        </p>
        <table id="teams">
          <thead>
            <tr><th>Team</th><th>Id</th><th>Environment</th><th>Live key</th><th>Users</th><th>Orders</th><th>Webhook endpoints</th><th>Created</th><th></th></tr>
          </thead>
          <tbody>
            {teams.map((t) => (
              <tr data-team={t.id}>
                <td>{t.name}</td>
                <td class="mono">{t.id}</td>
                <td>{t.environment} / {t.region}</td>
                <td class="mono">{t.key_hint ? `${t.key_hint} (${fmt(t.key_created_at)})` : <span class="err">none</span>}</td>
                <td>{t.users}</td>
                <td><a href={`${BASE}/orders?team=${t.id}`}>{t.orders}</a></td>
                <td><a href={`${BASE}/webhooks?team=${t.id}`}>{t.endpoints}</a></td>
                <td class="mono">{fmt(t.created_at)}</td>
                <td>{canAct && <a class="btn danger" href={`${BASE}/teams/${t.id}/confirm-rotate`}>Rotate key</a>}</td>
              </tr>
            ))}
          </tbody>
        </table>
        {canAct && (
          <PostForm action={`${BASE}/teams`} operator={operator} class="filters">
            <label>
              Team name
              <input name="name" required maxlength={100} />
            </label>
            <button type="submit">Create team</button>
          </PostForm>
        )}
        <h2>Partner keys</h2>
        <p class="muted">Couriers, labs and appointment providers reporting on orders through the partner API (docs/partner-api.md).</p>
        <table id="partner-keys">
          <thead>
            <tr><th>Name</th><th>Kind</th><th>Lab</th><th>Key</th><th>Created</th><th>Revoked</th><th></th></tr>
          </thead>
          <tbody>
            {partnerKeys.map((k) => (
              <tr data-partner-key={k.id}>
                <td>{k.name}</td>
                <td>{k.kind}</td>
                <td>{k.labSlug ?? ''}</td>
                <td class="mono">{k.hint}</td>
                <td class="mono">{fmt(k.createdAt)}</td>
                <td class="mono">{k.revokedAt ? fmt(k.revokedAt) : ''}</td>
                <td>
                  {canAct && !k.revokedAt && (
                    <a class="btn danger" href={`${BASE}/partner-keys/${k.id}/confirm-revoke`}>Revoke</a>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
        {partnerKeys.length === 0 && <p class="muted">None yet.</p>}
        {canAct && (
          <PostForm action={`${BASE}/partner-keys`} operator={operator} class="filters">
            <label>
              Partner name
              <input name="name" required maxlength={100} />
            </label>
            <label>
              Kind
              <select name="kind">
                {PARTNER_KINDS.map((k) => (
                  <option value={k}>{k}</option>
                ))}
              </select>
            </label>
            <label>
              Lab slug (lab keys only)
              <input name="lab_slug" maxlength={100} />
            </label>
            <button type="submit">Create partner key</button>
          </PostForm>
        )}
      </Layout>,
    );
  });

  app.post('/teams', requireOperatorRole, async (c) => {
    const form = parseOr400(newTeamForm, await c.req.parseBody());
    const created = await createTeam(db, { name: form.name, environment: deps.environment, region });
    await audit(c, 'team.create', 'team', created.teamId, { name: form.name });
    return keyOnce(c, `Team ${form.name} created`, created.apiKey);
  });

  // Rotating revokes the live key at once: a confirmation step first, as for every destructive action.
  app.get('/teams/:id/confirm-rotate', requireOperatorRole, async (c) => {
    const id = parseOr400(uuid, c.req.param('id'));
    const [team] = await teamsOverview(db, id);
    if (!team) throw new DashboardError(404, 'Team not found.');
    return c.html(
      <ConfirmPage title={`Rotate the key of ${team.name}`} action={`${BASE}/teams/${id}/rotate-key`} label="rotate key" operator={c.get('operator')}>
        Rotate the key of <strong>{team.name}</strong>? Its live key ({team.key_hint ?? 'none'}) stops working at once; the new one
        is shown on the next page, only once.
      </ConfirmPage>,
    );
  });

  app.post('/teams/:id/rotate-key', requireOperatorRole, async (c) => {
    const id = parseOr400(uuid, c.req.param('id'));
    const rotated = await rotateTeamKey(db, id);
    if (!rotated) throw new DashboardError(404, 'Team not found.');
    await audit(c, 'team.rotate_key', 'team', id);
    return keyOnce(c, 'New team key', rotated.apiKey);
  });

  app.post('/partner-keys', requireOperatorRole, async (c) => {
    const form = parseOr400(newPartnerKeyForm, await c.req.parseBody());
    const lab = form.lab_slug ? await findLabBySlug(db, form.lab_slug) : null;
    if (form.lab_slug && !lab) throw new DashboardError(422, `No lab with slug ${form.lab_slug}.`);
    const created = await createPartnerKey(db, { name: form.name, kind: form.kind, labId: lab?.id ?? null, environment: deps.environment, region });
    await audit(c, 'partner_key.create', 'partner_key', created.partnerKeyId, { name: form.name, kind: form.kind, lab_slug: form.lab_slug ?? null });
    return keyOnce(c, `Partner key for ${form.name}`, created.apiKey);
  });

  app.get('/partner-keys/:id/confirm-revoke', requireOperatorRole, async (c) => {
    const id = parseOr400(uuid, c.req.param('id'));
    const key = (await listPartnerKeys(db)).find((k) => k.id === id);
    if (!key) throw new DashboardError(404, 'Partner key not found.');
    return c.html(
      <ConfirmPage title={`Revoke the key of ${key.name}`} action={`${BASE}/partner-keys/${id}/revoke`} label="revoke key" operator={c.get('operator')}>
        Revoke the {key.kind} key of <strong>{key.name}</strong> ({key.hint})? Calls with it are refused at once.
      </ConfirmPage>,
    );
  });

  app.post('/partner-keys/:id/revoke', requireOperatorRole, async (c) => {
    const id = parseOr400(uuid, c.req.param('id'));
    if (!(await revokePartnerKey(db, id))) throw new DashboardError(404, 'Partner key not found.');
    await audit(c, 'partner_key.revoke', 'partner_key', id);
    return c.redirect(`${BASE}/teams`, 303);
  });

  return app;
}
