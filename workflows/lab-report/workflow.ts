import {
  ActivityFailure,
  ApplicationFailure,
  allHandlersFinished,
  condition,
  log,
  patched,
  proxyActivities,
  proxyLocalActivities,
  setHandler,
  upsertSearchAttributes,
  uuid4,
} from '@temporalio/workflow';
import { searchAttributePairs } from '../shared/search-attributes.js';
import type { JobChange, LabReportActivities } from '../../activities/lab-reports/index.js';
import type { FailureReason } from '../../domain/lab-report/types.js';
import { INVALID_DATA, failureMessage, isInvalidData } from '../../domain/failures.js';
import { workflowNow } from '../shared/time.js';
import {
  createdUpdate,
  labReportWorkflowId,
  reviewUpdate,
  stateQuery,
  type LabReportJobInput,
  type LabReportJobOutcome,
  type LabReportPhase,
  type ReviewDecision,
} from './definitions.js';

/**
 * Row writes: short Postgres transactions, retried with backoff (at most 10 s apart) while the database is
 * unavailable; refused data fails at once (InvalidData, the worker's activity interceptor) and the job fails.
 */
const record = proxyLocalActivities<LabReportActivities>({
  startToCloseTimeout: '10 seconds',
  retry: { initialInterval: '200 milliseconds', maximumInterval: '10 seconds' },
});

/** Text extraction: OCR of up to 30 pages takes minutes; a worker that died is noticed by its missing heartbeat. */
const extraction = proxyActivities<LabReportActivities>({
  startToCloseTimeout: '15 minutes',
  heartbeatTimeout: '1 minute',
  retry: { initialInterval: '5 seconds', maximumAttempts: 3 },
});

const parsing = proxyActivities<LabReportActivities>({
  startToCloseTimeout: '2 minutes',
  retry: { initialInterval: '2 seconds', maximumAttempts: 3 },
});

/** Jobs started on this code handle refused data (InvalidData) by failing the job visibly. */
const REFUSED_DATA = 'lab-report-refused-data';
/** Jobs started on this code carry the service's search attributes (team, user, status). */
const SEARCH_ATTRIBUTES_SET = 'lab-report-search-attributes';

/** What a job that met refused data says (its detail never quotes the refused value). */
const REFUSED_DETAIL = 'The upload holds data that cannot be stored (e.g. a NUL character in a file name).';

/**
 * One lab report parsing job: record it, mark it started, extract the text, parse it, and complete it —
 * after a reviewer's approval when the job asked for human review (waiting at most the review deadline).
 * Every status change is written with its `lab_report.parsing_job.*` webhook event in one transaction.
 */
export async function labReportParsingWorkflow(input: LabReportJobInput): Promise<LabReportJobOutcome> {
  let phase: LabReportPhase = 'recording';
  let created = false;
  let review: ReviewDecision | null = null;
  let reviewDeadline: string | null = null;
  let outcome: LabReportJobOutcome | null = null;
  /** Why the job row could not be recorded as uploaded (refused data): the creating call gets this error. */
  let refused: string | null = null;

  setHandler(createdUpdate, async () => {
    await condition(() => created || refused !== null);
    if (refused !== null) {
      throw ApplicationFailure.create({ message: `Parsing job ${input.jobId} failed: ${refused}`, type: INVALID_DATA, nonRetryable: true });
    }
    return { jobId: input.jobId };
  });
  setHandler(
    reviewUpdate,
    async (decision) => {
      review = decision;
      await condition(() => outcome !== null);
      return outcome!;
    },
    {
      validator: (_decision: ReviewDecision) => {
        if (phase !== 'awaiting_review' || review !== null) {
          throw ApplicationFailure.nonRetryable(`the job is not waiting for review (${phase})`, 'NotAwaitingReview');
        }
      },
    },
  );
  setHandler(stateQuery, () => ({ jobId: input.jobId, phase, reviewDeadline }));

  /** Set once the job exists: each recorded change is upserted as the `LabflowStatus` search attribute. */
  let searchable = false;
  const write = async (c: JobChange) => {
    await record.recordParsingJobChange({ jobId: input.jobId, outboxEventId: uuid4(), change: c });
    if (searchable) upsertSearchAttributes(searchAttributePairs({ status: c.kind }));
  };
  /** A change the database refuses (e.g. reviewer corrections holding a NUL) fails the job instead. */
  const change = async (c: JobChange): Promise<boolean> => {
    try {
      await write(c);
      return true;
    } catch (err) {
      // A local activity's failure reaches the workflow as the ApplicationFailure itself (no ActivityFailure).
      if (!isInvalidData(err) || !patched(REFUSED_DATA)) throw err;
      log.warn('parsing job change refused by the database', { jobId: input.jobId, change: c.kind, cause: failureMessage(err) });
      return false;
    }
  };
  const finish = async (result: LabReportJobOutcome) => {
    if (result.status === 'failed') await write({ kind: 'failed', reason: result.reason, detail: result.detail });
    phase = result.status;
    outcome = result;
    await condition(allHandlersFinished);
    return result;
  };
  const fail = (reason: FailureReason, detail: string) => finish({ status: 'failed', reason, detail });

  try {
    await record.createParsingJobRecord({ ...input, workflowId: labReportWorkflowId(input.jobId) });
  } catch (err) {
    if (!isInvalidData(err) || !patched(REFUSED_DATA)) throw err;
    // The job is still recorded, without the file names (the only free text of the upload), and fails.
    const unnamed = { ...input, file: { ...input.file, name: null }, ...(input.files ? { files: input.files.map((f) => ({ ...f, name: null })) } : {}) };
    await record.createParsingJobRecord({ ...unnamed, workflowId: labReportWorkflowId(input.jobId) });
    refused = failureMessage(err) ?? REFUSED_DETAIL;
    return await fail('invalid_input', REFUSED_DETAIL);
  }
  created = true;
  // Histories from before set no search attributes.
  searchable = patched(SEARCH_ATTRIBUTES_SET);
  if (searchable) upsertSearchAttributes(searchAttributePairs({ team: input.teamId, user: input.userId, status: 'uploaded' }));
  if (!(await change({ kind: 'started' }))) return await fail('invalid_input', REFUSED_DETAIL);

  phase = 'extracting';
  let pagesSha256: string;
  try {
    // Same activity, same command: only its input gains the image list of a multi-image job (replay-safe).
    const extracted = await extraction.extractParsingJobText({ jobId: input.jobId, file: input.file, ...(input.files ? { files: input.files } : {}) });
    if (!extracted.ok) return await fail(extracted.reason, extracted.detail);
    pagesSha256 = extracted.pagesSha256;
  } catch (err) {
    if (!(err instanceof ActivityFailure)) throw err;
    log.warn('text extraction failed', { jobId: input.jobId, cause: err.cause?.message });
    return await fail('processing_error', 'The text of the document could not be extracted.');
  }

  phase = 'parsing';
  try {
    const parsed = await parsing.parseParsingJobText({ jobId: input.jobId, pagesSha256 });
    if (!parsed.ok) return await fail(parsed.reason, parsed.detail);
  } catch (err) {
    if (!(err instanceof ActivityFailure)) throw err;
    log.warn('parsing failed', { jobId: input.jobId, cause: err.cause?.message });
    return await fail('processing_error', 'The report could not be parsed.');
  }

  const refusedResults = () => fail('processing_error', 'The results read from the document could not be stored.');
  if (!input.needsHumanReview) {
    if (!(await change({ kind: 'completed', review: null }))) return await refusedResults();
    return await finish({ status: 'completed', review: null });
  }

  // Results are saved and visible; the job stays `started` until a reviewer approves (or the deadline passes).
  reviewDeadline = new Date(workflowNow() + input.reviewDeadlineSeconds * 1000).toISOString();
  if (!(await change({ kind: 'awaiting_review', deadline: reviewDeadline }))) return await refusedResults();
  phase = 'awaiting_review';
  const decided = await condition(() => review !== null, input.reviewDeadlineSeconds * 1000);
  phase = 'completing';
  const decision = review as ReviewDecision | null;
  if (!decided || !decision) {
    // Choice: the parsed results stand, unreviewed (is_reviewed false, review_status `expired`).
    if (!(await change({ kind: 'completed', review: 'expired' }))) return await refusedResults();
    return await finish({ status: 'completed', review: 'expired' });
  }
  const corrected = decision.results !== undefined || decision.metadata !== undefined;
  const status = corrected ? 'corrected' : 'approved';
  const stored = await change({
    kind: 'completed',
    review: status,
    ...(decision.results ? { results: decision.results } : {}),
    ...(decision.metadata ? { metadata: decision.metadata } : {}),
  });
  if (!stored) return await fail('invalid_input', "The reviewer's corrections hold data that cannot be stored.");
  return await finish({ status: 'completed', review: status });
}
