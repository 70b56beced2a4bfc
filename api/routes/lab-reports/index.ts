import { randomUUID } from 'node:crypto';
import {
  WithStartWorkflowOperation,
  WorkflowNotFoundError,
  WorkflowUpdateFailedError,
  type Client,
} from '@temporalio/client';
import { Hono, type Context } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import type { Db } from '../../../db/client.js';
import { countLiveParsingJobs, findParsingJob, parsingJobView } from '../../../db/queries/lab-reports.js';
import { findUser } from '../../../db/queries/users.js';
import type { BlobStore } from '../../../lib/blob-store.js';
import { isInvalidData } from '../../../domain/failures.js';
import {
  createdUpdate,
  labReportWorkflowId,
  labReportWorkflowType,
  reviewUpdate,
  taskQueue,
  type LabReportJobInput,
  type ParsingJobFile,
  type ReviewDecision,
} from '../../../workflows/lab-report/definitions.js';
import type { AppEnv } from '../../env.js';
import { HttpError, ValidationError, badRequest, notFound, type ValidationItem } from '../../errors.js';
import { parse, parseJsonBody } from '../../validation.js';
import { MAX_UPLOAD_BODY_BYTES, SANDBOX_PARSING_JOB_LIMIT, createJobFields, jobIdParam, reviewBody } from './schemas.js';
import { checkContents, checkFiles, tooLarge } from './uploads.js';

export interface LabReportsDeps {
  db: Db;
  temporal: Client;
  blobs: BlobStore;
  /** How long a job with needs_human_review waits for its reviewer. */
  reviewDeadlineSeconds: number;
  /** The service's environment: in `sandbox`, a team's jobs are limited (BEHAVIOUR §9). */
  environment: 'sandbox' | 'production';
  /** Jobs (not failed) a sandbox team may have; default SANDBOX_PARSING_JOB_LIMIT (tests lower it). */
  sandboxJobLimit?: number;
}

/** The upload route, which has its own body limit (the app's global one is 1 MB). */
export const PARSER_UPLOAD_PATH = '/lab_report/v1/parser/job';

type FormValue = string | File;

/** The multipart form; anything else (or a broken body) reads as an empty form, so missing fields are reported. */
async function readForm(c: Context<AppEnv>): Promise<Record<string, FormValue | FormValue[]>> {
  const type = c.req.header('content-type') ?? '';
  if (!/^multipart\/form-data/i.test(type) && !/^application\/x-www-form-urlencoded/i.test(type)) return {};
  try {
    return await c.req.parseBody({ all: true });
  } catch (err) {
    if (err instanceof HttpError) throw err; // the body limit
    throw new ValidationError([{ loc: ['body'], msg: 'The multipart body could not be read', type: 'value_error' }]);
  }
}

/** /lab_report/v1/parser/* — CONTRACT §7. Each job is a workflow; the API reads the jobs table. */
export function labReportRoutes(deps: LabReportsDeps) {
  const { db } = deps;
  const app = new Hono<AppEnv>({ strict: false });

  app.post(
    '/parser/job',
    bodyLimit({
      maxSize: MAX_UPLOAD_BODY_BYTES,
      onError: () => {
        throw tooLarge();
      },
    }),
    async (c) => {
      const teamId = c.get('teamId');
      const form = await readForm(c);
      const items: ValidationItem[] = [];
      const last = (v: FormValue | FormValue[] | undefined) => (Array.isArray(v) ? v.at(-1) : v);
      const textOf = (v: FormValue | undefined) => (v instanceof File ? undefined : v);
      let fields: ReturnType<typeof createJobFields.parse> | null = null;
      try {
        fields = parse(createJobFields, { user_id: textOf(last(form.user_id)), needs_human_review: textOf(last(form.needs_human_review)) }, 'body');
      } catch (err) {
        if (!(err instanceof ValidationError)) throw err;
        items.push(...err.items);
      }
      const files = form.file === undefined ? [] : Array.isArray(form.file) ? form.file : [form.file];
      if (files.length === 0) items.push({ loc: ['body', 'file'], msg: 'Field required', type: 'missing' });
      else if (files.some((f) => !(f instanceof File))) items.push({ loc: ['body', 'file'], msg: 'Expected an uploaded file', type: 'value_error' });
      if (items.length || !fields) throw new ValidationError(items);
      const checked = await checkFiles(files as File[]);

      const user = await findUser(db, teamId, fields.user_id);
      if (!user || user.deletedAt) throw notFound('User does not exist on this team');
      if (deps.environment === 'sandbox') {
        const limit = deps.sandboxJobLimit ?? SANDBOX_PARSING_JOB_LIMIT;
        // Choice: a soft limit — two uploads racing for the last place may both be accepted.
        if ((await countLiveParsingJobs(db, teamId)) >= limit) {
          throw badRequest(
            `Sandbox lab report parsing is limited to ${limit} reports. Failed jobs do not count; parse further reports with a production API key.`,
          );
        }
      }
      await checkContents(checked);

      // Only now, with everything checked, are the files kept; the workflow gets their hashes.
      const stored: ParsingJobFile[] = [];
      for (const { file, bytes, mime } of checked) {
        const blob = await deps.blobs.put(bytes);
        stored.push({ sha256: blob.sha256, size: blob.size, mime, name: file.name ? file.name.slice(0, 255) : null });
      }
      const jobId = randomUUID();
      const input: LabReportJobInput = {
        jobId,
        teamId,
        userId: user.id,
        file: stored[0]!,
        ...(stored.length > 1 ? { files: stored } : {}),
        needsHumanReview: fields.needs_human_review,
        reviewDeadlineSeconds: deps.reviewDeadlineSeconds,
      };
      // The job row and its workflow come into being together: the update completes once the row exists.
      try {
        await deps.temporal.workflow.executeUpdateWithStart(createdUpdate, {
          startWorkflowOperation: new WithStartWorkflowOperation(labReportWorkflowType, {
            workflowId: labReportWorkflowId(jobId),
            taskQueue,
            args: [input],
            workflowIdConflictPolicy: 'FAIL',
            workflowIdReusePolicy: 'REJECT_DUPLICATE',
          }),
        });
      } catch (err) {
        // Data the database refuses (it slipped past validation): the job was recorded `failed`; say why.
        if (err instanceof WorkflowUpdateFailedError && isInvalidData(err.cause)) throw new HttpError(422, err.cause!.message);
        throw err;
      }
      const job = await findParsingJob(db, teamId, jobId);
      if (!job) throw new Error(`parsing job ${jobId} was not recorded by its workflow`);
      return c.json(parsingJobView(job));
    },
  );

  app.get('/parser/job/:job_id', async (c) => {
    const { job_id } = parse(jobIdParam, c.req.param(), 'path');
    const job = await findParsingJob(db, c.get('teamId'), job_id);
    if (!job) throw notFound('Parsing job not found');
    return c.json(parsingJobView(job));
  });

  // For reviewers of jobs created with needs_human_review: approve the results, or approve corrected ones.
  app.post('/parser/job/:job_id/review', async (c) => {
    const { job_id } = parse(jobIdParam, c.req.param(), 'path');
    const body = await parseJsonBody(c, reviewBody);
    const teamId = c.get('teamId');
    const job = await findParsingJob(db, teamId, job_id);
    if (!job) throw notFound('Parsing job not found');
    const notWaiting = () => new HttpError(409, `The job is not waiting for review (status: ${job.status}, review: ${job.reviewStatus ?? 'none'}).`);
    if (job.status !== 'started' || job.reviewStatus !== 'pending') throw notWaiting();
    const decision: ReviewDecision = {
      approve: true,
      ...(body.results ? { results: body.results } : {}),
      ...(body.metadata ? { metadata: body.metadata } : {}),
    };
    try {
      await deps.temporal.workflow.getHandle(job.workflowId).executeUpdate(reviewUpdate, { args: [decision] });
    } catch (err) {
      // Refused by the workflow (the deadline passed meanwhile), or the workflow is already closed.
      if (err instanceof WorkflowUpdateFailedError || err instanceof WorkflowNotFoundError) throw notWaiting();
      throw err;
    }
    const updated = await findParsingJob(db, teamId, job_id);
    return c.json(parsingJobView(updated!));
  });

  return app;
}
