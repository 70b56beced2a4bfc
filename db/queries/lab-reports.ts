import { and, arrayContains, count, eq, inArray, ne, or } from 'drizzle-orm';
import type { DbOrTx } from '../client.js';
import { parsingJobs, users } from '../schema/index.js';
import { recordTeamEvent } from './events.js';

export type ParsingJobRow = typeof parsingJobs.$inferSelect;
export type NewParsingJob = typeof parsingJobs.$inferInsert;

/**
 * A job as GET /lab_report/v1/parser/job/{id} answers it (CONTRACT §7 ParsingJob, plus a few fields
 * the SDK passes through: failure_reason/detail, review_status/deadline, user_id, timestamps).
 */
export function parsingJobView(row: ParsingJobRow) {
  return {
    id: row.id,
    job_id: row.id,
    status: row.status,
    data: row.data ? { metadata: row.data.metadata, results: row.data.results } : null,
    needs_human_review: row.needsHumanReview,
    is_reviewed: row.isReviewed,
    failure_reason: row.failureReason,
    failure_detail: row.failureDetail,
    review_status: row.reviewStatus,
    review_deadline: row.reviewDeadline?.toISOString() ?? null,
    user_id: row.userId,
    file: { name: row.fileName, content_type: row.fileMime, size: row.fileSize },
    page_count: row.extraction?.page_count ?? null,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}
export type ParsingJobView = ReturnType<typeof parsingJobView>;

/** Creates the job row; a retried insert of the same job is a no-op. Returns the row as stored. */
export async function insertParsingJob(db: DbOrTx, job: NewParsingJob): Promise<ParsingJobRow> {
  await db.insert(parsingJobs).values(job).onConflictDoNothing();
  const [row] = await db.select().from(parsingJobs).where(eq(parsingJobs.id, job.id));
  if (!row) throw new Error(`parsing job ${job.id} missing right after its insert`);
  return row;
}

export async function findParsingJob(db: DbOrTx, teamId: string, jobId: string): Promise<ParsingJobRow | null> {
  const [row] = await db
    .select()
    .from(parsingJobs)
    .where(and(eq(parsingJobs.teamId, teamId), eq(parsingJobs.id, jobId)))
    .limit(1);
  return row ?? null;
}

/** How many of a team's jobs have not failed (the sandbox limit counts these). */
export async function countLiveParsingJobs(db: DbOrTx, teamId: string): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(parsingJobs)
    .where(and(eq(parsingJobs.teamId, teamId), ne(parsingJobs.status, 'failed')));
  return row?.n ?? 0;
}

export async function findParsingJobById(db: DbOrTx, jobId: string): Promise<ParsingJobRow | null> {
  const [row] = await db.select().from(parsingJobs).where(eq(parsingJobs.id, jobId)).limit(1);
  return row ?? null;
}

/** Changes a job without announcing it (e.g. storing parsed data while the job stays `started`). */
export async function patchParsingJob(db: DbOrTx, jobId: string, patch: Partial<NewParsingJob>, onlyIfStatus: string[]): Promise<boolean> {
  const changed = await db
    .update(parsingJobs)
    .set(patch)
    .where(and(eq(parsingJobs.id, jobId), inArray(parsingJobs.status, onlyIfStatus)))
    .returning({ id: parsingJobs.id });
  return changed.length > 0;
}

export interface ParsingJobTransition {
  jobId: string;
  /** The change, or a function of the current row giving it. */
  patch: Partial<NewParsingJob> | ((row: ParsingJobRow) => Partial<NewParsingJob>);
  /** Applies only while the job is in one of these statuses (and review state, when given). */
  from: { status: string[]; reviewStatus?: (string | null)[] };
  event: { id: string; eventType: string };
}

/**
 * One transaction: the job row changes and its webhook event (payload: the job as GET returns it) is
 * written to the event log. If the job is no longer in a `from` state, nothing happens: that is a retry
 * after this very transaction committed (its event then exists already), or the job was erased.
 */
export async function transitionParsingJob(db: DbOrTx, t: ParsingJobTransition): Promise<{ applied: boolean }> {
  return db.transaction(async (tx) => {
    const [row] = await tx.select().from(parsingJobs).where(eq(parsingJobs.id, t.jobId)).for('update');
    // Gone with its user or team (erasure cascades): nothing left to change or announce.
    if (!row) return { applied: false };
    const inState = t.from.status.includes(row.status) && (!t.from.reviewStatus || t.from.reviewStatus.includes(row.reviewStatus));
    if (!inState) return { applied: false };
    const patch = typeof t.patch === 'function' ? t.patch(row) : t.patch;
    const [updated] = await tx.update(parsingJobs).set(patch).where(eq(parsingJobs.id, t.jobId)).returning();
    const [user] = await tx.select({ clientUserId: users.clientUserId }).from(users).where(eq(users.id, row.userId));
    await recordTeamEvent(tx, {
      id: t.event.id,
      teamId: row.teamId,
      eventType: t.event.eventType,
      data: parsingJobView(updated!),
      userId: row.userId,
      clientUserId: user?.clientUserId ?? null,
      subjectId: row.id,
      createdAt: updated!.updatedAt,
    });
    return { applied: true };
  });
}

/** Whether any parsing job names the blob (as one of its uploaded files or as its extracted text). */
export async function isBlobReferenced(db: DbOrTx, sha256: string): Promise<boolean> {
  const [row] = await db
    .select({ id: parsingJobs.id })
    .from(parsingJobs)
    .where(or(arrayContains(parsingJobs.fileSha256s, [sha256]), eq(parsingJobs.pagesSha256, sha256)))
    .limit(1);
  return row !== undefined;
}
