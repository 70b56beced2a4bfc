import type { Client } from '@temporalio/client';
import { WorkflowNotFoundError } from '@temporalio/client';
import type { Context } from 'hono';
import { Hono } from 'hono';
import type { Db } from '../../../db/client.js';
import {
  teamProviderConnections,
  finishBulkOp,
  findBulkOp,
  insertBulkOp,
  listBulkOps,
  liveTeamUserIds,
  pauseTeamConnections,
  type BulkOpCursor,
  type BulkOpRow,
} from '../../../db/queries/link-bulk.js';
import type { ConnectionRow } from '../../../db/queries/connections.js';
import {
  BULK_EXPORT_PAGE,
  BULK_OPS_PAGE_DEFAULT,
  BULK_WAIT_SECONDS,
  type BulkItemResult,
  type BulkOpType,
  type OAuthTokens,
} from '../../../domain/link/bulk.js';
import type { SecretBox } from '../../../lib/secret-box.js';
import { ingestionWorkflowId, pullNowSignal } from '../../../workflows/ingestion/definitions.js';
import {
  linkBulkOpWorkflowId,
  linkBulkOpWorkflowType,
  taskQueue,
  type BulkImportItem,
  type LinkBulkOpInput,
  type LinkBulkOpResult,
} from '../../../workflows/link-bulk/definitions.js';
import type { AppEnv } from '../../env.js';
import { ValidationError, notFound } from '../../errors.js';
import { clipInput, parseJsonBody, parseQuery } from '../../validation.js';
import { bulkExportBody, bulkImportBody, bulkOpsQuery, bulkPauseBody, bulkTriggerBody, teamIdQuery } from './schemas.js';

export interface BulkLinkDeps {
  db: Db;
  temporal: Client;
  secretBox: () => Promise<SecretBox>;
  startIngestion: boolean;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const badCursor = (key: string, value: string) =>
  new ValidationError([{ loc: ['query', key], msg: `${key} is not one this API returned`, type: 'value_error', input: clipInput(value) }]);

function encodeOpsCursor(op: BulkOpRow): string {
  return Buffer.from(`${op.startedAt.toISOString()}|${op.id}`).toString('base64url');
}

function decodeOpsCursor(cursor: string): BulkOpCursor {
  const [at, id, ...rest] = Buffer.from(cursor, 'base64url').toString('utf8').split('|');
  const startedAt = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/.test(at ?? '') ? new Date(at!) : new Date(NaN);
  const year = startedAt.getUTCFullYear();
  if (rest.length || !id || !UUID.test(id) || Number.isNaN(startedAt.getTime()) || year < 1900 || year > 2200) throw badCursor('next_cursor', cursor);
  return { startedAt, id };
}

/** The export's `next_token`: the last connection id of the page and the provider it lists. */
const encodeExportToken = (provider: string, lastId: string) => Buffer.from(`export|${provider}|${lastId}`).toString('base64url');

function decodeExportToken(token: string, provider: string): string {
  const [tag, p, id, ...rest] = Buffer.from(token, 'base64url').toString('utf8').split('|');
  if (tag !== 'export' || rest.length || !id || !UUID.test(id)) {
    throw new ValidationError([{ loc: ['body', 'next_token'], msg: 'next_token is not one this API returned', type: 'value_error', input: clipInput(token) }]);
  }
  if (p !== provider) {
    throw new ValidationError([{ loc: ['body', 'next_token'], msg: 'next_token belongs to an export of another provider', type: 'value_error', input: clipInput(token) }]);
  }
  return id;
}

/** The SDK's BulkOp, with the op's id and each user's outcome besides. */
function toBulkOp(op: BulkOpRow) {
  const entries = Object.entries(op.results);
  const ok = new Set(['imported', 'triggered']);
  return {
    id: op.id,
    type: op.type,
    status: op.status,
    provider: op.provider,
    pending: Math.max(0, op.total - entries.length),
    processed: entries.length,
    started_at: op.startedAt.toISOString(),
    ended_at: op.endedAt?.toISOString() ?? null,
    user_ids_succeeded: entries.filter(([, r]) => ok.has(r.outcome)).map(([id]) => id),
    user_ids_failed: entries.filter(([, r]) => !ok.has(r.outcome)).map(([id]) => id),
  };
}

const withOutcome = (results: Record<string, BulkItemResult>, ...outcomes: BulkItemResult['outcome'][]) =>
  Object.entries(results)
    .filter(([, r]) => outcomes.includes(r.outcome))
    .map(([id]) => id);

/**
 * Bulk link operations with the team key (CONTRACT §2), mounted at `/v2/link`. Import and historical
 * trigger are bulk ops (a `link_bulk_ops` row, run by the bulk-op workflow, listed by `GET /bulk_op`);
 * pause and export act at once. Only the key's team's users and connections are ever touched: another
 * team's user id is an unknown user.
 */
export function bulkLinkRoutes({ db, temporal, secretBox, startIngestion }: BulkLinkDeps) {
  const app = new Hono<AppEnv>({ strict: false });

  /** The team the call acts on: `team_id` may only be `infer_from_context` or the key's own team. */
  function teamOf(c: Context<AppEnv>): string {
    const { team_id } = parseQuery(c, teamIdQuery);
    const teamId = c.get('teamId');
    if (team_id === undefined || team_id === 'infer_from_context' || team_id === teamId) return teamId;
    if (!UUID.test(team_id)) {
      throw new ValidationError([{ loc: ['query', 'team_id'], msg: 'must be infer_from_context or a team UUID', type: 'value_error', input: clipInput(team_id) }]);
    }
    throw notFound('Team not found');
  }

  /**
   * Records a bulk op and starts its workflow; with `wait`, waits up to BULK_WAIT_SECONDS for it. Users
   * not of the team fail at once (recorded before the workflow starts).
   */
  async function runBulkOp(
    teamId: string,
    type: BulkOpType,
    provider: string,
    total: number,
    unknown: string[],
    work: Pick<LinkBulkOpInput, 'imports' | 'userIds'>,
    wait: boolean,
  ): Promise<{ done: boolean; op: BulkOpRow; results: Record<string, BulkItemResult> }> {
    const refused = Object.fromEntries(unknown.map((id): [string, BulkItemResult] => [id, { outcome: 'failed', detail: 'User not found' }]));
    const op = await insertBulkOp(db, { teamId, type, provider, total, results: refused, startedAt: new Date() });
    let handle;
    try {
      handle = await temporal.workflow.start(linkBulkOpWorkflowType, {
        workflowId: linkBulkOpWorkflowId(op.id),
        taskQueue,
        args: [{ bulkOpId: op.id, teamId, type, provider, startIngestion, ...work } satisfies LinkBulkOpInput],
        workflowExecutionTimeout: '1 day',
      });
    } catch (err) {
      await finishBulkOp(db, op.id, new Date(), true);
      throw err;
    }
    if (wait) {
      let timer: NodeJS.Timeout | undefined;
      const timeout = new Promise<null>((resolve) => {
        timer = setTimeout(() => resolve(null), BULK_WAIT_SECONDS * 1000);
      });
      const result = await Promise.race([handle.result() as Promise<LinkBulkOpResult>, timeout]).finally(() => clearTimeout(timer));
      if (result) {
        const row = (await findBulkOp(db, teamId, op.id)) ?? op;
        return { done: true, op: row, results: { ...refused, ...result.results } };
      }
    }
    const row = (await findBulkOp(db, teamId, op.id)) ?? op;
    return { done: false, op: row, results: row.results };
  }

  app.get('/bulk_op', async (c) => {
    const teamId = teamOf(c);
    const q = parseQuery(c, bulkOpsQuery);
    const after = q.next_cursor === undefined ? null : decodeOpsCursor(q.next_cursor);
    const size = q.page_size ?? BULK_OPS_PAGE_DEFAULT;
    const rows = await listBulkOps(db, teamId, size + 1, after);
    const page = rows.slice(0, size);
    return c.json({ data: page.map(toBulkOp), next_cursor: rows.length > size ? encodeOpsCursor(page.at(-1)!) : null });
  });

  app.post('/bulk_import', async (c) => {
    const teamId = teamOf(c);
    const body = await parseJsonBody(c, bulkImportBody);
    const live = await liveTeamUserIds(db, teamId, body.connections.map((x) => x.user_id));
    const box = await secretBox();
    const imports: BulkImportItem[] = body.connections
      .filter((x) => live.has(x.user_id))
      .map((x) => {
        const tokens: OAuthTokens = {
          kind: 'oauth_tokens',
          access_token: x.access_token,
          refresh_token: x.refresh_token,
          expires_at: x.expires_at,
          oauth_scopes: x.oauth_scopes ?? null,
        };
        return { userId: x.user_id, providerId: x.provider_id, sealedTokens: box.seal(JSON.stringify(tokens)) };
      });
    const unknown = body.connections.map((x) => x.user_id).filter((id) => !live.has(id));
    const run = await runBulkOp(teamId, 'link_bulk_import', body.provider, body.connections.length, unknown, { imports }, body.wait_for_completion ?? false);
    return c.json(
      {
        user_ids_imported: withOutcome(run.results, 'imported'),
        user_ids_failed: withOutcome(run.results, 'failed'),
        bulk_op_id: run.op.id,
        status: run.op.status,
      },
      run.done ? 200 : 202,
    );
  });

  app.post('/bulk_trigger_historical_pull', async (c) => {
    const teamId = teamOf(c);
    const body = await parseJsonBody(c, bulkTriggerBody);
    const live = await liveTeamUserIds(db, teamId, body.user_ids);
    const unknown = body.user_ids.filter((id) => !live.has(id));
    const userIds = body.user_ids.filter((id) => live.has(id));
    const run = await runBulkOp(teamId, 'link_bulk_historical_trigger', body.provider, body.user_ids.length, unknown, { userIds }, body.wait_for_completion ?? false);
    return c.json(
      {
        bulk_op_id: run.op.id,
        status: run.op.status,
        user_ids_triggered: withOutcome(run.results, 'triggered'),
        user_ids_not_running: withOutcome(run.results, 'not_running'),
        user_ids_failed: withOutcome(run.results, 'failed'),
      },
      run.done ? 200 : 202,
    );
  });

  /**
   * Pauses the users' connections to the provider at once; each paused connection's ingestion is woken
   * (`pullNow`) so that it sees the pause and stops, as it does for any paused connection.
   */
  app.post('/bulk_pause', async (c) => {
    const teamId = teamOf(c);
    const body = await parseJsonBody(c, bulkPauseBody);
    const paused = await pauseTeamConnections(db, teamId, body.provider, body.user_ids, new Date());
    for (const conn of paused) {
      try {
        await temporal.workflow.getHandle(ingestionWorkflowId(conn.id)).signal(pullNowSignal);
      } catch (err) {
        if (!(err instanceof WorkflowNotFoundError)) throw err;
      }
    }
    const pausedUsers = new Set(paused.map((x) => x.userId));
    return c.json({
      success: true,
      provider: body.provider,
      user_ids_paused: body.user_ids.filter((id) => pausedUsers.has(id)),
      user_ids_without_connection: body.user_ids.filter((id) => !pausedUsers.has(id)),
    });
  });

  /**
   * The team's connections to the provider as ConnectionRecipes (what bulk_import takes), a page of
   * BULK_EXPORT_PAGE at a time. Imported connections give back their OAuth tokens; connections made
   * in the sandbox (consent page, demo) hold none and get sandbox tokens named after the connection.
   */
  app.post('/bulk_export', async (c) => {
    const teamId = teamOf(c);
    const body = await parseJsonBody(c, bulkExportBody);
    const afterId = body.next_token === undefined ? null : decodeExportToken(body.next_token, body.provider);
    const rows = await teamProviderConnections(db, teamId, body.provider, {
      ...(body.user_ids ? { userIds: body.user_ids } : {}),
      afterId,
      limit: BULK_EXPORT_PAGE + 1,
    });
    const page = rows.slice(0, BULK_EXPORT_PAGE);
    const box = await secretBox();
    return c.json({
      data: page.map((conn) => toRecipe(conn, box)),
      next_token: rows.length > BULK_EXPORT_PAGE ? encodeExportToken(body.provider, page.at(-1)!.id) : null,
    });
  });

  return app;
}

function storedTokens(conn: ConnectionRow, box: SecretBox): OAuthTokens | null {
  if (!conn.sealedCredentials) return null;
  try {
    const parsed = JSON.parse(box.open(conn.sealedCredentials)) as Partial<OAuthTokens> | null;
    return parsed?.kind === 'oauth_tokens' ? (parsed as OAuthTokens) : null;
  } catch {
    return null;
  }
}

/** The SDK's ConnectionRecipe of a connection. */
function toRecipe(conn: ConnectionRow, box: SecretBox) {
  const tokens = storedTokens(conn, box);
  return {
    user_id: conn.userId,
    access_token: tokens?.access_token ?? `sandbox_access_${conn.id}`,
    refresh_token: tokens?.refresh_token ?? `sandbox_refresh_${conn.id}`,
    provider_id: conn.externalUserId ?? conn.id,
    expires_at: tokens?.expires_at ?? 2_147_483_647,
    oauth_scopes: tokens?.oauth_scopes ?? null,
    status: conn.status,
  };
}
