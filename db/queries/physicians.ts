import { and, eq, isNotNull, sql } from 'drizzle-orm';
import type { Physician } from '../../domain/lab-accounts/physicians.js';
import type { DbOrTx } from '../client.js';
import { orders, teams } from '../schema/index.js';

/**
 * The physicians who ordered for a team: every distinct NPI on the team's orders (the client's own on
 * delegated accounts, the service's otherwise), with the name of its latest order. Never another team's.
 */
export async function listTeamPhysicians(db: DbOrTx, teamId: string): Promise<Physician[]> {
  const rows = await db
    .selectDistinctOn([sql`${orders.physician}->>'npi'`], { physician: orders.physician })
    .from(orders)
    .where(and(eq(orders.teamId, teamId), isNotNull(orders.physician), sql`${orders.physician}->>'npi' is not null`))
    .orderBy(sql`${orders.physician}->>'npi'`, sql`${orders.createdAt} desc`);
  return rows.flatMap(({ physician: p }) =>
    p && typeof p.npi === 'string' && typeof p.first_name === 'string' && typeof p.last_name === 'string'
      ? [{ first_name: p.first_name, last_name: p.last_name, npi: p.npi }]
      : [],
  );
}

export async function findTeam(db: DbOrTx, teamId: string) {
  const [row] = await db.select().from(teams).where(eq(teams.id, teamId)).limit(1);
  return row ?? null;
}
