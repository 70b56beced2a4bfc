import { boolean, index, integer, jsonb, pgTable, primaryKey, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import type { ParsedReport } from '../../domain/lab-report/types.js';
import { teams } from './teams.js';
import { users } from './users.js';

export interface ExtractionSummary {
  page_count: number;
  /** 1-based numbers of the pages read by OCR (images, and PDF pages without a text layer). */
  ocr_pages: number[];
  /** Mean OCR confidence (0–100) over those pages, when any. */
  ocr_confidence?: number;
}

const tz = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

/**
 * The read model of a lab report parsing job (`POST /lab_report/v1/parser/job`). The job's workflow
 * (`lab-report-job-<id>`) owns every change after creation; the API reads this table. The uploaded
 * files themselves live in the content-addressed blob store: `file_sha256s` names every one of them
 * (`file_sha256` is the first), `pages_sha256` the extracted text. Erasing a user deletes these blobs
 * unless another job still names them (activities/users).
 */
export const parsingJobs = pgTable(
  'parsing_jobs',
  {
    id: uuid('id').primaryKey(),
    teamId: uuid('team_id')
      .notNull()
      .references(() => teams.id, { onDelete: 'cascade' }),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** upload_pending → started → completed | failed (CONTRACT §7 ParsingJobStatus). */
    status: text('status').notNull(),
    /** invalid_input | not_english | processing_error, with a human-readable detail. */
    failureReason: text('failure_reason'),
    failureDetail: text('failure_detail'),
    needsHumanReview: boolean('needs_human_review').notNull(),
    isReviewed: boolean('is_reviewed').notNull().default(false),
    /** null (no review asked) | pending | approved | corrected | expired. */
    reviewStatus: text('review_status'),
    /** When a pending review stops being waited for. */
    reviewDeadline: tz('review_deadline'),
    reviewedAt: tz('reviewed_at'),
    /** The uploaded file; for a report uploaded as several images, the first of them. */
    fileSha256: text('file_sha256').notNull(),
    /**
     * Every uploaded file of the job, in upload order (one for a single file). Jobs recorded before this
     * column existed have only `file_sha256` here (migration 0006), even when uploaded as several images.
     */
    fileSha256s: text('file_sha256s').array().notNull(),
    fileSize: integer('file_size').notNull(),
    /** application/pdf, image/png or image/jpeg, from the file's bytes. */
    fileMime: text('file_mime').notNull(),
    fileName: text('file_name'),
    /** What extraction saw: pages, which were read by OCR and how confidently. */
    extraction: jsonb('extraction').$type<ExtractionSummary>(),
    /** The blob of the extracted text (pages of positioned lines), once extracted. */
    pagesSha256: text('pages_sha256'),
    /** The parsed report (after a reviewer's corrections, if any). */
    data: jsonb('data').$type<ParsedReport>(),
    /** The parser's own output, kept when a reviewer corrected it. */
    parsedData: jsonb('parsed_data').$type<ParsedReport>(),
    workflowId: text('workflow_id').notNull(),
    createdAt: tz('created_at').notNull(),
    updatedAt: tz('updated_at').notNull(),
  },
  (t) => [
    index('parsing_jobs_team_created_idx').on(t.teamId, t.createdAt),
    index('parsing_jobs_team_user_idx').on(t.teamId, t.userId),
    // "Does any job still name this blob?" (asked per blob when a user is erased).
    index('parsing_jobs_file_sha256s_idx').using('gin', t.fileSha256s),
    index('parsing_jobs_pages_sha256_idx').on(t.pagesSha256),
  ],
);

/**
 * Blobs of an erased user's parsing jobs still to be deleted (or found still in use by another job).
 * Written in the transaction that deletes the user, so the hashes outlive the job rows until the erase
 * activity has dealt with each blob; a row per (user, blob), deleted once done. No foreign key: the user is gone.
 */
export const blobErasures = pgTable(
  'blob_erasures',
  {
    userId: uuid('user_id').notNull(),
    sha256: text('sha256').notNull(),
    queuedAt: tz('queued_at').notNull(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.sha256] })],
);
