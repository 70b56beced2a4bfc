import type { Client } from '@temporalio/client';
import { WorkflowNotFoundError } from '@temporalio/client';
import { Hono } from 'hono';
import { z } from 'zod';
import type { Db } from '../../../db/client.js';
import { connectionsOfUser, deleteConnection, teamConnectionMetrics, type ConnectionRow } from '../../../db/queries/connections.js';
import { findUser } from '../../../db/queries/users.js';
import { ALL_PROVIDERS, MANUAL_PROVIDERS } from '../../../domain/link/catalog.js';
import { providerDisplay } from '../../../domain/providers.js';
import { ingestionRefreshSignal, ingestionWorkflowId } from '../../../workflows/connection/definitions.js';
import type { AppEnv } from '../../env.js';
import { notFound } from '../../errors.js';
import { parse, parseQuery, queryNumber } from '../../validation.js';
import { userIdParam } from './schemas.js';

export interface UserConnectionDeps {
  db: Db;
  temporal: Client;
  ingestionEnabled: boolean;
}

export const providerParam = z.object({ user_id: z.uuid({ message: 'must be a UUID' }), provider: z.enum(ALL_PROVIDERS as [string, ...string[]]) });
export const deviceParam = z.object({ user_id: z.uuid({ message: 'must be a UUID' }), device_id: z.uuid({ message: 'must be a UUID' }) });
export const refreshQuery = z.object({ timeout: queryNumber(0, 60).optional() });

/** A connection seen as the device it reads from (`ClientFacingDevice`). */
function toDevice(conn: ConnectionRow) {
  const slug = conn.provider;
  const sourceType = slug.endsWith('_ble') ? 'automatic' : (MANUAL_PROVIDERS as readonly string[]).includes(slug) ? 'phone' : 'app';
  return {
    id: conn.id,
    user_id: conn.userId,
    provider: slug,
    source_type: sourceType,
    device_manufacturer: providerDisplay(slug).name,
    device_id: conn.externalUserId,
  };
}

/**
 * The user's connections as the team key sees them (CONTRACT §1): deregister, refresh, devices, team
 * metrics. Mounted at `/v2/user` before the user routes, so `/metrics` is not read as a user id.
 */
export function userConnectionRoutes({ db, temporal, ingestionEnabled }: UserConnectionDeps) {
  const app = new Hono<AppEnv>({ strict: false });

  async function liveUser(teamId: string, userId: string) {
    const user = await findUser(db, teamId, userId);
    if (!user || user.deletedAt) throw notFound('User not found');
    return user;
  }

  app.get('/metrics', async (c) => {
    const teamId = c.get('teamId');
    const m = await teamConnectionMetrics(db, teamId);
    return c.json({
      team_id: teamId,
      number_of_connected_sources: m.connected,
      number_of_users: m.users,
      number_of_errored_connected_sources: m.errored,
    });
  });

  app.post('/refresh/:user_id', async (c) => {
    const { user_id } = parse(userIdParam, c.req.param(), 'path');
    parseQuery(c, refreshQuery);
    const user = await liveUser(c.get('teamId'), user_id);
    const connections = (await connectionsOfUser(db, user.teamId, user.id)).filter((conn) => conn.status === 'connected');
    const inProgress: string[] = [];
    const failed: string[] = [];
    if (ingestionEnabled) {
      for (const conn of connections) {
        try {
          await temporal.workflow.getHandle(ingestionWorkflowId(conn.id)).signal(ingestionRefreshSignal);
          inProgress.push(conn.provider);
        } catch (err) {
          if (!(err instanceof WorkflowNotFoundError)) throw err;
          failed.push(conn.provider);
        }
      }
    }
    return c.json({ success: true, user_id: user.id, refreshed_sources: [], in_progress_sources: inProgress, failed_sources: failed });
  });

  app.get('/:user_id/device', async (c) => {
    const { user_id } = parse(userIdParam, c.req.param(), 'path');
    const user = await liveUser(c.get('teamId'), user_id);
    return c.json((await connectionsOfUser(db, user.teamId, user.id)).map(toDevice));
  });

  app.get('/:user_id/device/:device_id', async (c) => {
    const { user_id, device_id } = parse(deviceParam, c.req.param(), 'path');
    const user = await liveUser(c.get('teamId'), user_id);
    const conn = (await connectionsOfUser(db, user.teamId, user.id)).find((x) => x.id === device_id);
    if (!conn) throw notFound('Device not found');
    return c.json(toDevice(conn));
  });

  /** Deregisters the user from a provider: the connection goes, and so does its ingestion. */
  app.delete('/:user_id/:provider', async (c) => {
    const { user_id, provider } = parse(providerParam, c.req.param(), 'path');
    const user = await liveUser(c.get('teamId'), user_id);
    const removed = await deleteConnection(db, user.teamId, user.id, provider);
    if (!removed) throw notFound('The user has no connection to this provider.');
    try {
      await temporal.workflow.getHandle(ingestionWorkflowId(removed)).cancel();
    } catch (err) {
      if (!(err instanceof WorkflowNotFoundError)) throw err;
    }
    return c.json({ success: true });
  });

  return app;
}
