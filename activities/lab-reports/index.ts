import { Context } from '@temporalio/activity';
import type { Db } from '../../db/client.js';
import { insertParsingJob, patchParsingJob, transitionParsingJob, type NewParsingJob, type ParsingJobRow } from '../../db/queries/lab-reports.js';
import { eventAnnouncer } from '../webhooks/announce.js';
import { parseLabReport } from '../../domain/lab-report/parse.js';
import type { ExtractedPage, FailureReason, ParsedResult, ReportMetadata } from '../../domain/lab-report/types.js';
import { BlobNotFoundError, type BlobStore } from '../../lib/blob-store.js';
import type { Logger } from '../../lib/logger.js';
import { ocrEngine } from './ocr.js';
import { missingScriptsNote } from './ocr-script.js';
import { PARSING_JOB_EVENT_TYPES, jobFiles, type LabReportJobInput, type ParsingJobFile, type ReviewStatus } from '../../workflows/lab-report/definitions.js';
import { extractFiles } from './extract.js';
import { looksNotEnglish } from './language.js';

interface Deps {
  db: Db;
  logger: Logger;
  blobs: BlobStore;
  /** Wakes the delivery workflows of endpoints that got new events. */
  wakeEndpoints: (endpointIds: string[]) => Promise<void>;
}

export type StepOutcome<T> = ({ ok: true } & T) | { ok: false; reason: FailureReason; detail: string };

/** A recorded, announced change of a job (each one `lab_report.parsing_job.*` event). */
export type JobChange =
  | { kind: 'started' }
  | { kind: 'awaiting_review'; deadline: string }
  | { kind: 'completed'; review: Exclude<ReviewStatus, 'pending'> | null; results?: ParsedResult[]; metadata?: Partial<ReportMetadata> }
  | { kind: 'failed'; reason: FailureReason; detail: string };

const HEARTBEAT_MS = 5_000;

/** Activities of the lab-report parsing workflow; each is idempotent on retry. */
export function createLabReportActivities({ db, logger, blobs, wakeEndpoints }: Deps) {
  const announce = eventAnnouncer(db, wakeEndpoints);
  // Chosen once (OCR_ENGINE=native|wasm, tesseract.js by default): a bad OCR_ENGINE stops start-up here.
  logger.info({ ocr_engine: ocrEngine() }, 'OCR engine');
  // Once: a script whose model is not installed (e.g. no tesseract-ocr-rus) is read with the Latin models only.
  const missingModels = missingScriptsNote();
  if (missingModels) logger.warn(missingModels);

  return {
    /** The job row, `upload_pending`. */
    async createParsingJobRecord(input: LabReportJobInput & { workflowId: string }): Promise<void> {
      const now = new Date();
      await insertParsingJob(db, {
        id: input.jobId,
        teamId: input.teamId,
        userId: input.userId,
        status: 'upload_pending',
        needsHumanReview: input.needsHumanReview,
        fileSha256: input.file.sha256,
        // Every blob of the job is known from its row (a user's erasure deletes them).
        fileSha256s: jobFiles(input).map((f) => f.sha256),
        fileSize: input.file.size,
        fileMime: input.file.mime,
        fileName: input.file.name,
        workflowId: input.workflowId,
        createdAt: now,
        updatedAt: now,
      });
    },

    /** One transaction: the job's row changes and its webhook event is logged; endpoints are woken after commit. */
    async recordParsingJobChange(input: { jobId: string; outboxEventId: string; change: JobChange }): Promise<void> {
      const now = new Date();
      const { change } = input;
      const transition = changeToTransition(change, now);
      const { applied } = await transitionParsingJob(db, { jobId: input.jobId, ...transition, event: { id: input.outboxEventId, eventType: transition.eventType } });
      logger.info({ job_id: input.jobId, change: change.kind, applied }, 'parsing job change');
      await announce(input.outboxEventId);
    },

    /**
     * The file's text as pages of positioned lines, stored as a blob (its hash is returned, keeping the
     * workflow history small). OCR is slow: heartbeats every few seconds while it runs.
     */
    async extractParsingJobText(input: {
      jobId: string;
      file: ParsingJobFile;
      /** A multi-image job's images (its pages, in order); absent for one file. */
      files?: ParsingJobFile[];
    }): Promise<StepOutcome<{ pagesSha256: string; pageCount: number }>> {
      const ctx = Context.current();
      let progress = { page: 0, pages: 0 };
      const beat = setInterval(() => ctx.heartbeat(progress), HEARTBEAT_MS);
      try {
        const files: { bytes: Buffer; mime: ParsingJobFile['mime'] }[] = [];
        for (const file of jobFiles(input)) {
          try {
            files.push({ bytes: await blobs.get(file.sha256), mime: file.mime });
          } catch (err) {
            if (err instanceof BlobNotFoundError) return { ok: false, reason: 'processing_error', detail: 'The uploaded file is missing from storage.' };
            throw err;
          }
        }
        const started = Date.now();
        const result = await extractFiles(files, {
          onPage: (page, pages) => {
            progress = { page, pages };
            ctx.heartbeat(progress);
          },
        });
        if (!result.ok) return result;
        const { sha256 } = await blobs.put(Buffer.from(JSON.stringify(result.pages)));
        await patchParsingJob(db, input.jobId, { extraction: result.summary, pagesSha256: sha256 }, ['started']);
        logger.info({ job_id: input.jobId, ...result.summary, ms: Date.now() - started }, 'parsing job text extracted');
        return { ok: true, pagesSha256: sha256, pageCount: result.summary.page_count };
      } finally {
        clearInterval(beat);
      }
    },

    /** Parses the extracted pages (results and LOINC matches) and stores the report on the job, which stays `started`. */
    async parseParsingJobText(input: { jobId: string; pagesSha256: string }): Promise<StepOutcome<{ results: number }>> {
      const pages = JSON.parse((await blobs.get(input.pagesSha256)).toString('utf8')) as ExtractedPage[];
      const report = parseLabReport(pages);
      if (report.results.length === 0) {
        return looksNotEnglish(pages)
          ? { ok: false, reason: 'not_english', detail: 'The report does not appear to be in English.' }
          : { ok: false, reason: 'processing_error', detail: 'No lab results were found in the document.' };
      }
      await patchParsingJob(db, input.jobId, { data: report }, ['started']);
      return { ok: true, results: report.results.length };
    },
  };
}

function changeToTransition(change: JobChange, now: Date) {
  const { created, updated } = PARSING_JOB_EVENT_TYPES;
  switch (change.kind) {
    case 'started':
      return { eventType: created, from: { status: ['upload_pending'] }, patch: { status: 'started', updatedAt: now } };
    case 'awaiting_review':
      return {
        eventType: updated,
        from: { status: ['started'], reviewStatus: [null] },
        patch: { reviewStatus: 'pending', reviewDeadline: new Date(change.deadline), updatedAt: now },
      };
    case 'failed':
      return {
        eventType: updated,
        from: { status: ['upload_pending', 'started'] },
        patch: { status: 'failed', failureReason: change.reason, failureDetail: change.detail, updatedAt: now },
      };
    case 'completed': {
      const reviewed = change.review === 'approved' || change.review === 'corrected';
      return {
        eventType: updated,
        from: { status: ['started'] },
        patch: (row: ParsingJobRow): Partial<NewParsingJob> => ({
          status: 'completed',
          isReviewed: reviewed,
          reviewStatus: change.review,
          reviewedAt: reviewed ? now : null,
          updatedAt: now,
          ...(change.review === 'corrected' && row.data
            ? {
                parsedData: row.data,
                data: { metadata: { ...row.data.metadata, ...change.metadata }, results: change.results ?? row.data.results },
              }
            : {}),
        }),
      };
    }
  }
}

export type LabReportActivities = ReturnType<typeof createLabReportActivities>;
