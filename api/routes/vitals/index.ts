import type { Context } from 'hono';
import { Hono } from 'hono';
import type { Db } from '../../../db/client.js';
import { readSamples, type SampleRow } from '../../../db/queries/wearable-reads.js';
import { clientFacingSource } from '../../../domain/wearables/events.js';
import { METRICS, type Metric } from '../../../domain/wearables/metrics.js';
import type { AppEnv } from '../../env.js';
import { parse, parseQuery } from '../../validation.js';
import { decodeCursor, encodeCursor, groupedQuery, instantRange, rangeQuery, requireTeamUser, userIdParam } from './query.js';

/** Samples per grouped page; a plain read returns at most MAX_PLAIN (a year of minute data is more: use grouped). */
export const GROUPED_PAGE = 10_000;
export const MAX_PLAIN = 100_000;

function sampleJson(r: SampleRow, interval: boolean) {
  const ts = new Date(r.timestamp).toISOString();
  return {
    timestamp: ts,
    ...(interval || r.end ? { start: ts, end: new Date(r.end ?? r.timestamp).toISOString() } : {}),
    value: r.value,
    unit: r.unit,
    type: r.type,
    timezone_offset: r.timezone_offset,
  };
}

/** GET /v2/timeseries/{user_id}/{metric}[/grouped] for every metric of the table (78 routes, one handler each kind). */
export function vitalsRoutes({ db }: { db: Db }) {
  const app = new Hono<AppEnv>({ strict: false });

  const plain = (metric: Metric) => async (c: Context<AppEnv>) => {
    const userId = parse(userIdParam, c.req.param('user_id'), 'path');
    const q = parseQuery(c, rangeQuery);
    const { from, to } = instantRange(q);
    await requireTeamUser(db, c.get('teamId'), userId);
    const rows = await readSamples(db, { userId, resource: metric.resource, from, to, provider: q.provider, type: metric.type, limit: MAX_PLAIN });
    return c.json(rows.map((r) => sampleJson(r, metric.interval)));
  };

  const grouped = (metric: Metric) => async (c: Context<AppEnv>) => {
    const userId = parse(userIdParam, c.req.param('user_id'), 'path');
    const q = parseQuery(c, groupedQuery);
    const { from, to } = instantRange(q);
    const token = q.next_cursor ?? q.cursor;
    const after = token !== undefined ? decodeCursor(token) : undefined; // an empty cursor is a bad cursor (422), not the first page
    await requireTeamUser(db, c.get('teamId'), userId);
    const rows = await readSamples(db, { userId, resource: metric.resource, from, to, provider: q.provider, type: metric.type, after, limit: GROUPED_PAGE + 1 });
    const page = rows.slice(0, GROUPED_PAGE);
    // A page ends between timestamps, so no sample is split off from its cursor position.
    const more = rows.length > GROUPED_PAGE;
    const groups: Record<string, { source: ReturnType<typeof clientFacingSource>; data: ReturnType<typeof sampleJson>[] }[]> = {};
    for (const r of page) {
      const list = (groups[r.provider] ??= []);
      let group = list.find((g) => g.source.type === r.source_type);
      if (!group) list.push((group = { source: clientFacingSource(r.provider, r.source_type), data: [] }));
      group.data.push(sampleJson(r, metric.interval));
    }
    const next = more ? encodeCursor(new Date(page.at(-1)!.timestamp).toISOString()) : null;
    return c.json({ groups, next, next_cursor: next });
  };

  for (const metric of METRICS) {
    app.get(`/:user_id/${metric.path}/grouped`, grouped(metric));
    if (metric.plain) app.get(`/:user_id/${metric.path}`, plain(metric));
  }
  return app;
}
