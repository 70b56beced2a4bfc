import { Hono } from 'hono';
import { z } from 'zod';
import type { Db } from '../../../db/client.js';
import { findTeam, teamLinkSettings } from '../../../db/queries/link.js';
import { findUser, findUserByClientUserId, listConnections } from '../../../db/queries/users.js';
import { ALL_PROVIDERS, resourcesOf } from '../../../domain/link/catalog.js';
import type { AppEnv } from '../../env.js';
import { notFound } from '../../errors.js';
import { parse, parseQuery } from '../../validation.js';
import { toClientFacingUser } from '../users/serialize.js';

const teamIdParam = z.object({ team_id: z.uuid({ message: 'must be a UUID' }) });
const searchQuery = z.object({ query_id: z.string().trim().min(1).max(255).optional() });
const PRIORITY_RESOURCES = ['workouts', 'activity', 'sleep', 'body', 'timeseries'] as const;
const prioritiesQuery = z.object({ data_type: z.enum(PRIORITY_RESOURCES).optional() });
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

/** The caller's team as the SDK's `team.*` calls see it (CONTRACT §10), mounted at `/v2/team`. */
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

  app.get('/:team_id', async (c) => {
    const { team_id } = parse(teamIdParam, c.req.param(), 'path');
    if (team_id !== c.get('teamId')) throw notFound('Team not found');
    const team = await findTeam(db, team_id);
    if (!team) throw notFound('Team not found');
    const link = await teamLinkSettings(db, team_id);
    return c.json({
      id: team.id,
      org_id: team.id,
      name: team.name,
      configuration: {
        libreview: { practice_id: {} },
        reject_duplicate_connection: link.rejectDuplicateConnection,
        partial_webhooks_enabled: team.partialWebhooksEnabled,
      },
      testkits_texts_enabled: false,
      lab_tests_patient_communication_enabled: false,
      lab_tests_patient_sms_communication_enabled: false,
      lab_tests_patient_email_communication_enabled: false,
      delegated_flow: 'order_with_vital_physician_network',
    });
  });

  return app;
}
