import { Hono, type Context } from 'hono';
import { z } from 'zod';
import type { Db } from '../../../db/client.js';
import { connectionsOfUser } from '../../../db/queries/connections.js';
import { readPulls, readStream, readSummaries, type SummaryRow } from '../../../db/queries/wearable-reads.js';
import { clientFacingSource, sourceIdOf } from '../../../domain/wearables/events.js';
import { SUMMARY_RESOURCES, SUMMARY_RESPONSE_KEY, type SummaryResource } from '../../../domain/wearables/metrics.js';
import type { AppEnv } from '../../env.js';
import { HttpError } from '../../errors.js';
import { parse, parseQuery } from '../../validation.js';
import { dateRange, decodeCursor, rangeQuery, requireTeamUser, userIdParam } from '../vitals/query.js';

const RAW: ReadonlySet<SummaryResource> = new Set(['activity', 'sleep', 'workouts', 'body', 'profile']);

function clientFacing(r: SummaryRow) {
  const extra = r.id && r.data.sport ? { sport: (r.data.sport as { slug?: string }).slug, workout_id: r.id } : {};
  return {
    ...r.data,
    id: r.id,
    user_id: r.user_id,
    source: clientFacingSource(r.provider, r.source_type, extra),
    created_at: new Date(r.created_at).toISOString(),
    updated_at: new Date(r.updated_at).toISOString(),
  };
}

function raw(r: SummaryRow) {
  const source = clientFacingSource(r.provider, r.source_type);
  return {
    id: r.id,
    user_id: r.user_id,
    timestamp: new Date(`${r.calendar_date}T00:00:00Z`).toISOString(),
    data: r.data,
    provider_id: r.id,
    source_id: sourceIdOf(r.provider),
    priority_id: 1,
    source: { name: source.name, slug: source.slug, logo: source.logo },
    created_at: new Date(r.created_at).toISOString(),
    updated_at: new Date(r.updated_at).toISOString(),
  };
}

export const providerOnly = z.object({ provider: z.string().regex(/^[a-z0-9_]{1,64}$/).optional() });
export const introspectQuery = z.object({
  user_id: z.string().uuid().optional(),
  provider: z.string().regex(/^[a-z0-9_]{1,64}$/).optional(),
  user_limit: z.coerce.number().int().min(1).max(1000).default(50),
  cursor: z.string().max(200).optional(),
  next_cursor: z.string().max(200).optional(),
});
export const streamId = z.string().uuid('id must be a UUID');

/** /v2/summary/*, the workout and sleep streams, and /v2/introspect/* (team-scoped). */
export function summariesRoutes({ db }: { db: Db }) {
  const app = new Hono<AppEnv>({ strict: false });

  async function load(c: Context<AppEnv>, resource: SummaryResource, profile: boolean) {
    const userId = parse(userIdParam, c.req.param('user_id'), 'path');
    const q = profile ? { ...parseQuery(c, providerOnly), start_date: '0001-01-01', end_date: '9999-12-31' } : parseQuery(c, rangeQuery);
    const { from, to } = dateRange(q);
    await requireTeamUser(db, c.get('teamId'), userId);
    return readSummaries(db, { teamId: c.get('teamId'), userId, resource, from, to, provider: q.provider });
  }

  for (const resource of SUMMARY_RESOURCES) {
    const profile = resource === 'profile';
    app.get(`/v2/summary/${resource}/:user_id`, async (c) => {
      const rows = await load(c, resource, profile);
      if (profile) {
        const latest = rows.at(-1);
        if (!latest) throw new HttpError(404, 'No profile data for this user');
        return c.json(clientFacing(latest));
      }
      return c.json({ [SUMMARY_RESPONSE_KEY[resource]]: rows.map(clientFacing) });
    });
    if (RAW.has(resource)) {
      app.get(`/v2/summary/${resource}/:user_id/raw`, async (c) => {
        const rows = await load(c, resource, profile);
        if (profile) {
          const latest = rows.at(-1);
          if (!latest) throw new HttpError(404, 'No profile data for this user');
          return c.json({ profile: raw(latest) });
        }
        return c.json({ [resource]: rows.map(raw) });
      });
    }
  }

  // devices.getRaw: the user's devices as stored, one per connection (the provider's own device id when known).
  app.get('/v2/summary/devices/:user_id/raw', async (c) => {
    const userId = parse(userIdParam, c.req.param('user_id'), 'path');
    const q = parseQuery(c, providerOnly);
    await requireTeamUser(db, c.get('teamId'), userId);
    const connections = (await connectionsOfUser(db, c.get('teamId'), userId)).filter((conn) => !q.provider || conn.provider === q.provider);
    return c.json({
      devices: connections.map((conn) => {
        const source = clientFacingSource(conn.provider, conn.method);
        return {
          id: conn.id,
          user_id: conn.userId,
          provider_id: conn.externalUserId ?? conn.id,
          source_id: sourceIdOf(conn.provider),
          source: { name: source.name, slug: source.slug, logo: source.logo },
          data: {
            provider: conn.provider,
            connection_method: conn.method,
            status: conn.status,
            connected_at: conn.createdAt.toISOString(),
            updated_at: conn.updatedAt.toISOString(),
            ...(conn.errorType ? { error_type: conn.errorType, errored_at: conn.erroredAt?.toISOString() ?? null } : {}),
          },
        };
      }),
    });
  });

  app.get('/v2/timeseries/workouts/:id/stream', async (c) => {
    const stream = await readStream(db, c.get('teamId'), 'workouts', parse(streamId, c.req.param('id'), 'path'));
    if (!stream) throw new HttpError(404, 'Workout not found');
    return c.json(stream);
  });
  app.get('/v2/timeseries/sleep/:id/stream', async (c) => {
    const stream = await readStream(db, c.get('teamId'), 'sleep', parse(streamId, c.req.param('id'), 'path'));
    if (!stream) throw new HttpError(404, 'Sleep not found');
    return c.json(stream);
  });

  async function pulls(c: Context<AppEnv>) {
    const q = parseQuery(c, introspectQuery);
    const token = q.next_cursor ?? q.cursor;
    let afterUser: string | undefined;
    if (token !== undefined) { // an empty cursor is a bad cursor (422), not the first page
      const decoded = z.string().uuid().safeParse(Buffer.from(token, 'base64url').toString('utf8'));
      if (!decoded.success) decodeCursor('!'); // throws the 422 of a bad cursor
      afterUser = decoded.data;
    }
    if (q.user_id) await requireTeamUser(db, c.get('teamId'), q.user_id);
    const rows = await readPulls(db, { teamId: c.get('teamId'), userId: q.user_id, provider: q.provider, afterUser, userLimit: q.user_limit });
    const users = [...new Set(rows.map((r) => r.user_id))];
    const next = users.length === q.user_limit ? Buffer.from(users.at(-1)!).toString('base64url') : null;
    return { rows, users, next };
  }
  const iso = (v: string | null) => (v ? new Date(v).toISOString() : null);

  app.get('/v2/introspect/resources', async (c) => {
    const { rows, users, next } = await pulls(c);
    const data = users.map((userId) => {
      const provider: Record<string, Record<string, unknown>> = {};
      for (const r of rows.filter((x) => x.user_id === userId)) {
        (provider[r.provider] ??= {})[r.resource] = {
          last_attempt: r.last_pull_at ? { timestamp: iso(r.last_pull_at), status: 'success' } : null,
          oldest_data: iso(r.oldest_data),
          newest_data: iso(r.newest_data),
          sent_count: r.sample_count,
        };
      }
      return { user_id: userId, provider };
    });
    return c.json({ data, next, next_cursor: next });
  });

  app.get('/v2/introspect/historical_pull', async (c) => {
    const { rows, users, next } = await pulls(c);
    const data = users.map((userId) => {
      const provider: Record<string, { pulled: Record<string, unknown>; not_pulled: string[] }> = {};
      for (const r of rows.filter((x) => x.user_id === userId)) {
        (provider[r.provider] ??= { pulled: {}, not_pulled: [] }).pulled[r.resource] = {
          status: r.historical_status,
          range_start: iso(r.historical_start),
          range_end: iso(r.historical_end),
          timeline: { scheduled_at: iso(r.historical_start) ?? iso(r.last_pull_at), started_at: iso(r.historical_start), ended_at: iso(r.historical_end) },
          release: 'sandbox',
        };
      }
      return { user_id: userId, provider };
    });
    return c.json({ data, next, next_cursor: next });
  });
  return app;
}
