import { sql } from 'drizzle-orm';
import type { DbOrTx } from '../../client.js';
import { apiKeys, orders, teams, users, webhookEndpoints } from '../../schema/index.js';

/**
 * Every team with what an operator needs at a glance: its live key's hint (never the key), when that key
 * was issued, and how many users, orders and webhook endpoints it has. `teamId`: that team only.
 */
export async function teamsOverview(db: DbOrTx, teamId?: string) {
  const rows = await db.execute<{
    id: string;
    name: string;
    environment: string;
    region: string;
    created_at: Date;
    key_hint: string | null;
    key_created_at: Date | null;
    live_keys: number;
    users: number;
    orders: number;
    endpoints: number;
  }>(sql`
    select t.id, t.name, t.environment, t.region, t.created_at,
      k.hint as key_hint, k.created_at as key_created_at, coalesce(k.live, 0)::int as live_keys,
      (select count(*) from ${users} u where u.team_id = t.id)::int as users,
      (select count(*) from ${orders} o where o.team_id = t.id)::int as orders,
      (select count(*) from ${webhookEndpoints} e where e.team_id = t.id)::int as endpoints
    from ${teams} t
    left join lateral (
      select (array_agg(a.hint order by a.created_at desc))[1] as hint, max(a.created_at) as created_at, count(*) as live
      from ${apiKeys} a where a.team_id = t.id and a.revoked_at is null
    ) k on true
    ${teamId ? sql`where t.id = ${teamId}` : sql``}
    order by t.created_at, t.id`);
  return [...rows].map((r) => ({ ...r, created_at: new Date(r.created_at), key_created_at: r.key_created_at ? new Date(r.key_created_at) : null }));
}

export type TeamOverview = Awaited<ReturnType<typeof teamsOverview>>[number];
