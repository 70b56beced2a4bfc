import { Hono } from 'hono';
import { z } from 'zod';
import type { Db } from '../../../db/client.js';
import { findUser, findUserByClientUserId, listConnections } from '../../../db/queries/users.js';
import { ALL_PROVIDERS, resourcesOf } from '../../../domain/link/catalog.js';
import type { AppEnv } from '../../env.js';
import { parseQuery } from '../../validation.js';
import { toClientFacingUser } from '../users/serialize.js';

export const searchQuery = z.object({ query_id: z.string().trim().min(1).max(255).optional() });
const PRIORITY_RESOURCES = ['workouts', 'activity', 'sleep', 'body', 'timeseries'] as const;
export const prioritiesQuery = z.object({ data_type: z.enum(PRIORITY_RESOURCES).optional() });
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * The default order in which sources win when several report the same data (catalogue order among the
 * providers offering it). Teams cannot change it yet: PATCH answers the same list.
 */
function sourcePriorities(dataType?: (typeof PRIORITY_RESOURCES)[number]) {
  const types = dataType ? [dataType] : PRIORITY_RESOURCES;
  return types.map((type) => ({
    data_type: type,
    priorities: ALL_PROVIDERS.filter((slug) => type === 'timeseries' || resourcesOf(slug).includes(type)).map((slug, i) => ({
      priority: i + 1,
      source: { slug },
    })),
  }));
}

/**
 * `team.getUserById` and the source priorities (CONTRACT §10), mounted at `/v2/team`. (`team.get` is
 * h7's `api/routes/team/index.ts`; `team.getLinkConfig` is a link-token route.)
 */
export function teamSurfaceRoutes({ db }: { db: Db }) {
  const app = new Hono<AppEnv>({ strict: false });

  app.get('/users/search', async (c) => {
    const { query_id } = parseQuery(c, searchQuery);
    if (!query_id) return c.json([]);
    const teamId = c.get('teamId');
    const found = [UUID.test(query_id) ? await findUser(db, teamId, query_id) : null, await findUserByClientUserId(db, teamId, query_id)]
      .filter((u) => u !== null && !u.deletedAt)
      .filter((u, i, all) => all.findIndex((x) => x!.id === u!.id) === i);
    const connections = await listConnections(db, found.map((u) => u!.id));
    return c.json(found.map((u) => toClientFacingUser(u!, connections.get(u!.id))));
  });

  app.get('/source/priorities', (c) => c.json(sourcePriorities(parseQuery(c, prioritiesQuery).data_type)));
  app.patch('/source/priorities', (c) => c.json(sourcePriorities()));

  return app;
}
