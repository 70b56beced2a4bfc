import { Hono } from 'hono';
import { z } from 'zod';
import type { Db } from '../../../db/client.js';
import { QueryTooLarge, runAggregateQuery } from '../../../db/queries/aggregate.js';
import type { AppEnv } from '../../env.js';
import { HttpError, ValidationError } from '../../errors.js';
import { parse, parseJsonBody, parseQuery as parseSearch, pathString, queryInt4, text } from '../../validation.js';
import { requireTeamUser, userIdParam } from '../vitals/query.js';
import { MAX_QUERIES, checkConfig, checkTimeseriesWindow, parseQuery, parseTimeframe } from './parse.js';

/**
 * /aggregate/v1 (SDK `aggregate.*`): the query language over the user's stored summaries
 * (README "Aggregation"), and the two continuous-query reads, which find nothing: this service has
 * no continuous queries.
 */

export const batchBody = z.object({
  timeframe: z.record(z.string(), z.unknown()),
  queries: z.array(z.unknown()).min(1).max(MAX_QUERIES),
  config: z.unknown().optional(),
});
export const queryIdOrSlug = pathString(255);
export const historyQuery = z.object({ next_cursor: text(500).optional(), limit: queryInt4(1).pipe(z.number().max(1000)).optional() });

export function aggregateRoutes({ db }: { db: Db }) {
  const app = new Hono<AppEnv>({ strict: false });

  app.post('/user/:user_id/query', async (c) => {
    const userId = parse(userIdParam, c.req.param('user_id'), 'path');
    const body = await parseJsonBody(c, batchBody);
    const window = parseTimeframe(body.timeframe);
    const queries = body.queries.map((q, i) => parseQuery(q, i));
    checkTimeseriesWindow(queries, window);
    checkConfig(body.config);
    const teamId = c.get('teamId');
    await requireTeamUser(db, teamId, userId);
    const results: { table: Record<string, unknown[]> }[] = [];
    for (const [i, q] of queries.entries()) {
      try {
        results.push({ table: await runAggregateQuery(db, q, { teamId, userId }, window) });
      } catch (err) {
        if (err instanceof QueryTooLarge) {
          throw new ValidationError([{ loc: ['body', 'queries', i], msg: `${err.message}: narrow the timeframe or group the rows`, type: 'value_error' }]);
        }
        throw err;
      }
    }
    return c.json({ results });
  });

  async function continuousQuery(userIdRaw: string, idOrSlug: string, teamId: string) {
    const userId = parse(userIdParam, userIdRaw, 'path');
    parse(queryIdOrSlug, idOrSlug, 'path');
    await requireTeamUser(db, teamId, userId);
    throw new HttpError(404, 'Continuous query not found: this service has no continuous queries');
  }

  app.get('/user/:user_id/continuous_query/:query_id_or_slug/result_table', async (c) => {
    return continuousQuery(c.req.param('user_id'), c.req.param('query_id_or_slug'), c.get('teamId'));
  });
  app.get('/user/:user_id/continuous_query/:query_id_or_slug/task_history', async (c) => {
    parseSearch(c, historyQuery);
    return continuousQuery(c.req.param('user_id'), c.req.param('query_id_or_slug'), c.get('teamId'));
  });
  return app;
}
