import { ApplicationFailure } from '@temporalio/common';
import type { Db } from '../../db/client.js';
import { isBlobReferenced } from '../../db/queries/lab-reports.js';
import { dropBlobErasure, eraseUser, pendingBlobErasures, restoreUser } from '../../db/queries/users.js';
import type { BlobStore } from '../../lib/blob-store.js';
import type { Logger } from '../../lib/logger.js';

/**
 * A blob touched (stored, or stored again) this recently is never deleted: an upload stores its blob
 * before its job row exists, and this covers that gap with a wide margin.
 */
export const BLOB_TOUCH_WINDOW_MS = 3600_000;

interface Deps {
  db: Db;
  logger: Logger;
  /** Where uploaded files live. */
  blobs: BlobStore;
  /** Overrides BLOB_TOUCH_WINDOW_MS. */
  blobTouchWindowMs?: number;
}

export interface BlobErasureOutcome {
  deleted: string[];
  /** Named by a remaining job (the same bytes uploaded again): left to that job. */
  inUse: string[];
  /** Gone already (an earlier attempt deleted it). */
  missing: string[];
  /** Unnamed but touched within the window: still queued, to be looked at again. */
  recent: string[];
}

/**
 * Deals with each queued blob of an erased user: a blob some remaining job names stays (its queue entry
 * goes); any other is deleted unless touched after `cutoff` (then its entry stays). Each blob's entry is
 * dropped only after its blob was dealt with, so a crash at any point leaves the rest queued.
 */
export async function eraseQueuedBlobs(db: Db, blobs: BlobStore, userId: string, cutoff: Date): Promise<BlobErasureOutcome> {
  const outcome: BlobErasureOutcome = { deleted: [], inUse: [], missing: [], recent: [] };
  for (const sha256 of await pendingBlobErasures(db, userId)) {
    if (await isBlobReferenced(db, sha256)) {
      outcome.inUse.push(sha256);
    } else {
      // A job row written after the check above belongs to an upload that touched the blob within the
      // window (put, then the row): deleteUntouchedSince keeps it.
      const result = await blobs.deleteUntouchedSince(sha256, cutoff);
      if (result === 'recent') {
        outcome.recent.push(sha256);
        continue;
      }
      outcome[result].push(sha256);
    }
    await dropBlobErasure(db, userId, sha256);
  }
  return outcome;
}

/** Activities of the user-deletion workflow. Both are idempotent, so retries are safe. */
export function createUserActivities({ db, logger, blobs, blobTouchWindowMs = BLOB_TOUCH_WINDOW_MS }: Deps) {
  return {
    async restoreUser(input: { teamId: string; userId: string }): Promise<void> {
      await restoreUser(db, input.teamId, input.userId);
      logger.info({ team_id: input.teamId, user_id: input.userId }, 'user deletion undone');
    },
    /**
     * Deletes the user's row (jobs and connections go by cascade) and the stored files of its parsing
     * jobs, in two steps that survive a crash between them:
     * 1. one transaction deletes the user and queues the hashes of its jobs' blobs (blob_erasures);
     * 2. each queued blob is deleted, unless a remaining job names it (same bytes, another upload) or it
     *    was touched within the last hour (an upload of the same bytes whose job row may not exist yet).
     * A retry finds the user gone (step 1 does nothing) and finishes step 2 from the queue. While a
     * recently touched, unnamed blob remains, the activity fails and is retried (the workflow's policy:
     * at most a minute apart) until the blob is named by the new job or untouched for an hour, so the
     * workflow reports `erased` only once none of the user's files is left that no other job needs.
     */
    async eraseUser(input: { teamId: string; userId: string }): Promise<void> {
      const erased = await eraseUser(db, input.teamId, input.userId);
      const cutoff = new Date(Date.now() - blobTouchWindowMs);
      const blobOutcome = await eraseQueuedBlobs(db, blobs, input.userId, cutoff);
      const counts = Object.fromEntries(Object.entries(blobOutcome).map(([k, v]) => [k, v.length]));
      logger.info({ team_id: input.teamId, user_id: input.userId, erased, blobs: counts }, 'user erased after grace period');
      if (blobOutcome.recent.length > 0) {
        throw ApplicationFailure.retryable(
          `${blobOutcome.recent.length} stored file(s) of the erased user were touched within the last ${Math.round(blobTouchWindowMs / 60_000)} min and are not (yet) used by another job; retrying`,
          'BlobsRecentlyTouched',
        );
      }
    },
  };
}
