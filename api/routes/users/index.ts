import { WorkflowNotFoundError, WorkflowUpdateFailedError, type Client } from '@temporalio/client';
import { Hono } from 'hono';
import type postgres from 'postgres';
import type { Db } from '../../../db/client.js';
import {
  findUser,
  findUserWithConnections,
  findUserByClientUserId,
  insertUser,
  listConnections,
  listUsers,
  markUserDeleted,
  restoreUser,
  updateUser,
  type UserRow,
} from '../../../db/queries/users.js';
import {
  taskQueue,
  undoDeletionUpdate,
  userDeletionWorkflowId,
  userDeletionWorkflowType,
  type UserDeletionInput,
} from '../../../workflows/user-deletion/definitions.js';
import type { AppEnv } from '../../env.js';
import { HttpError, badRequest, notFound } from '../../errors.js';
import { parse, parseJsonBody, parseQuery } from '../../validation.js';
import {
  listUsersQuery,
  undoDeleteQuery,
  clientUserIdParam,
  userCreateBody,
  userIdParam,
  userPatchBody,
} from './schemas.js';
import { toClientFacingUser } from './serialize.js';
import { resourceAvailability } from '../../../domain/link/catalog.js';

export interface UsersDeps {
  db: Db;
  /** The postgres.js client under `db`, for the hottest read (findUserWithConnections). */
  sql: postgres.Sql;
  temporal: Client;
  deletionGraceSeconds: number;
}

/** What z.guid() accepts (api/validation.ts `uuid`): 8-4-4-4-12 hexadecimal digits. */
const GUID = /^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/;

const SCHEDULED_FOR_DELETION = 'You have scheduled this user for deletion.';

function duplicateClientUserId(existing: UserRow): HttpError {
  return badRequest({
    error_type: 'INVALID_REQUEST',
    error_message: 'Client user id already exists.',
    user_id: existing.id,
    created_on: existing.createdOn.toISOString(),
  });
}

/** A live user of the team, or the 404 the caller should see. */
function requireLive(user: UserRow | null): UserRow {
  if (!user) throw notFound('User not found');
  if (user.deletedAt) throw notFound(SCHEDULED_FOR_DELETION);
  return user;
}

/** /v2/user — CONTRACT §1. Every query is scoped to the caller's team. */
export function usersRoutes({ db, sql, temporal, deletionGraceSeconds }: UsersDeps) {
  const app = new Hono<AppEnv>({ strict: false });

  async function withConnections(user: UserRow) {
    const connections = await listConnections(db, [user.id]);
    return toClientFacingUser(user, connections.get(user.id));
  }

  app.post('/', async (c) => {
    const body = await parseJsonBody(c, userCreateBody);
    const result = await insertUser(
      db,
      c.get('teamId'),
      {
        clientUserId: body.client_user_id,
        fallbackTimeZone: body.fallback_time_zone,
        fallbackBirthDate: body.fallback_birth_date,
        ingestionStart: body.ingestion_start,
        ingestionEnd: body.ingestion_end,
      },
      new Date(),
    );
    if ('duplicateOf' in result) throw duplicateClientUserId(result.duplicateOf);
    const user = result.created;
    return c.json({
      user_id: user.id,
      client_user_id: user.clientUserId,
      team_id: user.teamId,
      created_on: user.createdOn.toISOString(),
    });
  });

  app.get('/', async (c) => {
    const page = parseQuery(c, listUsersQuery);
    const { rows, total } = await listUsers(db, c.get('teamId'), page);
    const connections = await listConnections(db, rows.map((u) => u.id));
    return c.json({
      users: rows.map((u) => toClientFacingUser(u, connections.get(u.id))),
      total,
      offset: page.offset,
      limit: page.limit,
    });
  });

  app.get('/resolve/:client_user_id', async (c) => {
    const user = requireLive(await findUserByClientUserId(db, c.get('teamId'), parse(clientUserIdParam, c.req.param(), 'path').client_user_id));
    return c.json(await withConnections(user));
  });

  app.get('/providers/:user_id', async (c) => {
    const { user_id } = parse(userIdParam, c.req.param(), 'path');
    const user = requireLive(await findUser(db, c.get('teamId'), user_id));
    const connections = (await listConnections(db, [user.id])).get(user.id) ?? [];
    return c.json({
      providers: connections.map((conn) => ({
        ...toClientFacingUser(user, [conn]).connected_sources[0]!.provider,
        created_on: conn.createdAt.toISOString(),
        status: conn.status,
        external_user_id: conn.externalUserId,
        ...(conn.status === 'error' && conn.erroredAt
          ? { error_details: { error_type: conn.errorType ?? 'unknown', error_message: conn.errorMessage ?? '', errored_at: conn.erroredAt.toISOString() } }
          : {}),
        resource_availability: resourceAvailability(conn.provider),
      })),
    });
  });

  app.post('/undo_delete', async (c) => {
    const q = parseQuery(c, undoDeleteQuery);
    const teamId = c.get('teamId');
    const user = q.user_id ? await findUser(db, teamId, q.user_id) : await findUserByClientUserId(db, teamId, q.client_user_id!);
    if (!user) throw notFound('User not found');
    if (!user.deletedAt) throw badRequest('User is not scheduled for deletion.');
    try {
      await temporal.workflow.getHandle(userDeletionWorkflowId(user.id)).executeUpdate(undoDeletionUpdate);
    } catch (err) {
      if (err instanceof WorkflowUpdateFailedError) throw new HttpError(409, 'The deletion of this user can no longer be undone.');
      if (!(err instanceof WorkflowNotFoundError)) throw err;
      // No deletion workflow exists (its start failed after the mark): nothing can erase the user, restore directly.
      await restoreUser(db, teamId, user.id);
    }
    return c.json({ success: true });
  });

  app.get('/:user_id', async (c) => {
    // The hottest read (bench:api): a well-formed id skips the schema (which accepts exactly these), and
    // user and connections come in one round trip.
    const param = c.req.param('user_id');
    const userId = GUID.test(param) ? param : parse(userIdParam, c.req.param(), 'path').user_id;
    const found = await findUserWithConnections(sql, c.get('teamId'), userId);
    const user = requireLive(found?.user ?? null);
    return c.json(toClientFacingUser(user, found!.connections));
  });

  app.patch('/:user_id', async (c) => {
    const { user_id } = parse(userIdParam, c.req.param(), 'path');
    const body = await parseJsonBody(c, userPatchBody);
    const teamId = c.get('teamId');
    const current = requireLive(await findUser(db, teamId, user_id));
    const start = body.ingestion_start ?? current.ingestionStart;
    const end = body.ingestion_end ?? current.ingestionEnd;
    if (start && end && end < start) {
      parse(userPatchBody, { ingestion_start: start, ingestion_end: end }, 'body'); // throws the usual 422
    }
    const result = await updateUser(
      db,
      teamId,
      user_id,
      {
        clientUserId: body.client_user_id,
        fallbackTimeZone: body.fallback_time_zone,
        fallbackBirthDate: body.fallback_birth_date,
        ingestionStart: body.ingestion_start,
        ingestionEnd: body.ingestion_end,
      },
      new Date(),
    );
    if ('duplicateOf' in result) throw duplicateClientUserId(result.duplicateOf);
    if ('notFound' in result) throw notFound(SCHEDULED_FOR_DELETION);
    return c.json(await withConnections(result.updated));
  });

  /**
   * Schedules the user's erasure: marks the row (so reads answer 404 at once) and starts the
   * user-deletion workflow, which erases it after the grace period unless undone. Idempotent.
   */
  app.delete('/:user_id', async (c) => {
    const { user_id } = parse(userIdParam, c.req.param(), 'path');
    const teamId = c.get('teamId');
    const marked = await markUserDeleted(db, teamId, user_id, new Date());
    if (!marked) throw notFound('User not found');
    const input: UserDeletionInput = { teamId, userId: user_id, graceSeconds: deletionGraceSeconds };
    await temporal.workflow.start(userDeletionWorkflowType, {
      workflowId: userDeletionWorkflowId(user_id),
      taskQueue,
      args: [input],
      // A second DELETE while the first is pending joins it; after an undo a new deletion may start.
      workflowIdConflictPolicy: 'USE_EXISTING',
    });
    return c.json({ success: true });
  });

  return app;
}
