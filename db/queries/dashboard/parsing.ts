import { and, desc, eq, gte, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../client.js';
import { parsingJobs, teams } from '../../schema/index.js';

const listColumns = {
  id: parsingJobs.id,
  teamId: parsingJobs.teamId,
  teamName: teams.name,
  userId: parsingJobs.userId,
  status: parsingJobs.status,
  reviewStatus: parsingJobs.reviewStatus,
  reviewDeadline: parsingJobs.reviewDeadline,
  failureReason: parsingJobs.failureReason,
  failureDetail: parsingJobs.failureDetail,
  fileName: parsingJobs.fileName,
  fileMime: parsingJobs.fileMime,
  createdAt: parsingJobs.createdAt,
  updatedAt: parsingJobs.updatedAt,
};

/** Jobs waiting for a reviewer (every team), the oldest first. */
export async function reviewQueue(db: DbOrTx, limit = 100) {
  return db
    .select(listColumns)
    .from(parsingJobs)
    .innerJoin(teams, eq(teams.id, parsingJobs.teamId))
    .where(and(eq(parsingJobs.status, 'started'), eq(parsingJobs.reviewStatus, 'pending')))
    .orderBy(parsingJobs.createdAt)
    .limit(limit);
}

/** Failed jobs, the newest first, with their reasons. */
export async function recentFailures(db: DbOrTx, limit = 50) {
  return db
    .select(listColumns)
    .from(parsingJobs)
    .innerJoin(teams, eq(teams.id, parsingJobs.teamId))
    .where(eq(parsingJobs.status, 'failed'))
    .orderBy(desc(parsingJobs.updatedAt))
    .limit(limit);
}

/** Jobs per day and outcome (failed ones by reason) over the last `days` days, for the chart. */
export async function parsingJobsPerDay(db: DbOrTx, days: number, teamId?: string) {
  const since = new Date(Date.now() - days * 86_400_000);
  return db
    .select({
      day: sql<string>`to_char(date_trunc('day', ${parsingJobs.createdAt}), 'YYYY-MM-DD')`,
      outcome: sql<string>`case when ${parsingJobs.status} = 'failed' then 'failed: ' || coalesce(${parsingJobs.failureReason}, '?') else ${parsingJobs.status} end`,
      n: sql<number>`count(*)::int`,
    })
    .from(parsingJobs)
    .where(and(gte(parsingJobs.createdAt, since), teamId ? eq(parsingJobs.teamId, teamId) : undefined))
    .groupBy(sql`1`, sql`2`)
    .orderBy(sql`1`);
}
