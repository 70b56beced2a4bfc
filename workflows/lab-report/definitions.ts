import { defineQuery, defineUpdate } from '@temporalio/workflow';
import type { FailureReason, ParsedResult, ReportMetadata } from '../../domain/lab-report/types.js';
import { SERVICE_TASK_QUEUE, TASK_QUEUES } from '../../domain/temporal.js';

/** The queue new runs start on (their activities run there too). */
export const taskQueue = TASK_QUEUES.parsing;
/** The queue of runs started before per-workload queues (children of such runs start there). */
export const legacyTaskQueue = SERVICE_TASK_QUEUE;
export const labReportWorkflowType = 'labReportParsingWorkflow';

/** One workflow per parsing job. */
export const labReportWorkflowId = (jobId: string): string => `lab-report-job-${jobId}`;

/** CONTRACT §7 ParsingJobStatus. A job waiting for review stays `started` (review_status `pending`). */
export const PARSING_JOB_STATUSES = ['upload_pending', 'started', 'completed', 'failed'] as const;
export type ParsingJobStatus = (typeof PARSING_JOB_STATUSES)[number];

export const REVIEW_STATUSES = ['pending', 'approved', 'corrected', 'expired'] as const;
export type ReviewStatus = (typeof REVIEW_STATUSES)[number];

export const PARSING_JOB_EVENT_TYPES = {
  created: 'lab_report.parsing_job.created',
  updated: 'lab_report.parsing_job.updated',
} as const;

/** Accepted uploads, recognised by their bytes. */
export const PARSING_JOB_MIME_TYPES = ['application/pdf', 'image/png', 'image/jpeg'] as const;
export type ParsingJobMime = (typeof PARSING_JOB_MIME_TYPES)[number];

export const DEFAULT_REVIEW_DEADLINE_SECONDS = 7 * 24 * 3600;

export interface ParsingJobFile {
  sha256: string;
  size: number;
  mime: ParsingJobMime;
  name: string | null;
}

/** Small by design: the file travels as its hash (the bytes are in the blob store). */
export interface LabReportJobInput {
  jobId: string;
  teamId: string;
  userId: string;
  /** The uploaded file; for a report uploaded as several images, the first of them. */
  file: ParsingJobFile;
  /**
   * A report uploaded as several JPEG/PNG images: all of them (`file` first), its pages in upload
   * order. Absent for a single file (and in jobs started before multi-image uploads existed).
   */
  files?: ParsingJobFile[];
  needsHumanReview: boolean;
  /** How long a review is waited for; on expiry the job completes unreviewed (review_status `expired`). */
  reviewDeadlineSeconds: number;
}

/** Every file of a job, in upload order: `files` of a multi-image job, else its one `file`. */
export const jobFiles = (job: { file: ParsingJobFile; files?: ParsingJobFile[] }): ParsingJobFile[] => (job.files?.length ? job.files : [job.file]);

/** A reviewer's decision: approve the parsed results as they are, or with corrections that replace them. */
export interface ReviewDecision {
  approve: true;
  results?: ParsedResult[];
  metadata?: Partial<ReportMetadata>;
}

export type LabReportJobOutcome =
  | { status: 'completed'; review: ReviewStatus | null }
  | { status: 'failed'; reason: FailureReason; detail: string };

export type LabReportPhase = 'recording' | 'extracting' | 'parsing' | 'awaiting_review' | 'completing' | 'completed' | 'failed';

export interface LabReportJobState {
  jobId: string;
  phase: LabReportPhase;
  /** ISO time the pending review stops being waited for. */
  reviewDeadline: string | null;
}

/** Completes once the job row exists (used with update-with-start by POST /lab_report/v1/parser/job). */
export const createdUpdate = defineUpdate<{ jobId: string }>('created');
/** Refused (validator) unless the job is waiting for review; completes once the job is recorded completed. */
export const reviewUpdate = defineUpdate<LabReportJobOutcome, [ReviewDecision]>('review');
export const stateQuery = defineQuery<LabReportJobState>('state');
