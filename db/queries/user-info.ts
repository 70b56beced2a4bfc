import { and, eq, sql } from 'drizzle-orm';
import type { DbOrTx } from '../client.js';
import { userInfo, users } from '../schema/index.js';

/** Stores the user's sealed info (the user must be the team's); false when it is not. */
export async function upsertUserInfo(db: DbOrTx, teamId: string, userId: string, sealed: string, now: Date): Promise<boolean> {
  const rows = await db.execute(sql`
    insert into ${userInfo} (user_id, sealed, updated_at)
    select ${users.id}, ${sealed}, ${now.toISOString()}::timestamptz from ${users}
    where ${users.id} = ${userId} and ${users.teamId} = ${teamId} and ${users.deletedAt} is null
    on conflict (user_id) do update set sealed = excluded.sealed, updated_at = excluded.updated_at
    returning user_id`);
  return [...rows].length > 0;
}

export async function findUserInfo(db: DbOrTx, teamId: string, userId: string): Promise<string | null> {
  const [row] = await db
    .select({ sealed: userInfo.sealed })
    .from(userInfo)
    .innerJoin(users, eq(users.id, userInfo.userId))
    .where(and(eq(userInfo.userId, userId), eq(users.teamId, teamId)));
  return row?.sealed ?? null;
}
