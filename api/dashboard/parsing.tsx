import { WorkflowNotFoundError, WorkflowUpdateFailedError } from '@temporalio/client';
import { Hono } from 'hono';
import { findParsingJobById } from '../../db/queries/lab-reports.js';
import { recentFailures, reviewQueue } from '../../db/queries/dashboard/parsing.js';
import { recordAudit } from '../../db/queries/dashboard/operators.js';
import { reviewUpdate, type ReviewDecision } from '../../workflows/lab-report/definitions.js';
import { reviewBody } from '../routes/lab-reports/schemas.js';
import { DashboardError, type DashEnv, type DashboardDeps } from './env.js';
import { Layout, PostForm, StatusBadge, fmt } from './layout.js';
import { parseOr400, uuid } from './params.js';
import { pdfPageCount, pdfPagePng } from './pdf-pages.js';
import { BASE, requireOperatorRole } from './session.js';

type JobRow = Awaited<ReturnType<typeof reviewQueue>>[number];

const JobTable = ({ rows, reasons }: { rows: JobRow[]; reasons?: boolean }) => (
  <table>
    <thead>
      <tr><th>Created</th><th>Job</th><th>Team</th><th>File</th><th>{reasons ? 'Reason' : 'Review deadline'}</th></tr>
    </thead>
    <tbody>
      {rows.map((j) => (
        <tr>
          <td class="mono">{fmt(j.createdAt)}</td>
          <td class="mono"><a href={`${BASE}/parsing/${j.id}`}>{j.id}</a></td>
          <td>{j.teamName}</td>
          <td>{j.fileName ?? j.fileMime}</td>
          <td>{reasons ? <span class="err">{j.failureReason}: {j.failureDetail}</span> : fmt(j.reviewDeadline)}</td>
        </tr>
      ))}
    </tbody>
  </table>
);

/** Parsing jobs: the review queue, a job's document beside its parsed table (approve or correct inline), recent failures. */
export function parsingRoutes(deps: DashboardDeps) {
  const app = new Hono<DashEnv>();
  const { db } = deps;

  async function loadJob(raw: string | undefined) {
    const job = await findParsingJobById(db, parseOr400(uuid, raw ?? ''));
    if (!job) throw new DashboardError(404, 'Parsing job not found.');
    return job;
  }

  app.get('/parsing', async (c) => {
    const [queue, failures] = await Promise.all([reviewQueue(db), recentFailures(db)]);
    return c.html(
      <Layout title="Parsing jobs" operator={c.get('operator')} section="parsing">
        <h2>Waiting for review ({queue.length})</h2>
        <JobTable rows={queue} />
        <h2>Recent failures</h2>
        <JobTable rows={failures} reasons />
      </Layout>,
    );
  });

  app.get('/parsing/:id/file/:n', async (c) => {
    const job = await loadJob(c.req.param('id'));
    const n = Number(c.req.param('n'));
    const sha = Number.isInteger(n) && n >= 0 ? job.fileSha256s[n] : undefined;
    if (!sha) throw new DashboardError(404, 'The job has no such file.');
    const bytes = await deps.blobs.get(sha);
    // The stored upload, shown inline; never sniffed as something else, never framed by other sites.
    c.header('content-type', n === 0 ? job.fileMime : job.fileMime.startsWith('image/') ? job.fileMime : 'application/octet-stream');
    c.header('x-content-type-options', 'nosniff');
    c.header('content-security-policy', "frame-ancestors 'self'");
    c.header('cache-control', 'private, max-age=300');
    return c.body(new Uint8Array(bytes));
  });

  // A page of an uploaded PDF, drawn as PNG on the server.
  app.get('/parsing/:id/pdf-page/:page', async (c) => {
    const job = await loadJob(c.req.param('id'));
    const page = Number(c.req.param('page'));
    if (job.fileMime !== 'application/pdf' || !Number.isInteger(page) || page < 1) throw new DashboardError(404, 'The job has no such PDF page.');
    const png = await pdfPagePng(await deps.blobs.get(job.fileSha256), page);
    if (!png) throw new DashboardError(404, 'The job has no such PDF page.');
    c.header('content-type', 'image/png');
    c.header('cache-control', 'private, max-age=300');
    return c.body(new Uint8Array(png));
  });

  app.get('/parsing/:id', async (c) => {
    const job = await loadJob(c.req.param('id'));
    const pages = job.fileMime === 'application/pdf' ? ((await pdfPageCount(await deps.blobs.get(job.fileSha256))) ?? 0) : 0;
    const operator = c.get('operator');
    const waiting = job.status === 'started' && job.reviewStatus === 'pending';
    const results = job.data?.results ?? [];
    return c.html(
      <Layout title={`Parsing job ${job.id}`} operator={operator} section="parsing">
        <p>
          <StatusBadge value={job.status} /> review: <StatusBadge value={job.reviewStatus ?? 'none'} /> · created {fmt(job.createdAt)}
          {job.failureReason && <span class="err"> · {job.failureReason}: {job.failureDetail}</span>}
        </p>
        <div class="grid">
          <div class="panel" id="document">
            {job.fileMime === 'application/pdf' ? (
              <>
                {Array.from({ length: pages }, (_, i) => (
                  <img src={`${BASE}/parsing/${job.id}/pdf-page/${i + 1}`} alt={`PDF page ${i + 1}`} style="max-width:100%;border:1px solid #e3e6eb" />
                ))}
                <p><a href={`${BASE}/parsing/${job.id}/file/0`}>the uploaded PDF</a></p>
              </>
            ) : (
              job.fileSha256s.map((_, i) => <img src={`${BASE}/parsing/${job.id}/file/${i}`} alt={`uploaded page ${i + 1}`} style="max-width:100%" />)
            )}
          </div>
          <div class="panel">
            {job.data && (
              <p class="muted">
                {job.data.metadata.patient_first_name} {job.data.metadata.patient_last_name} · {job.data.metadata.lab_name}
              </p>
            )}
            <PostForm action={`${BASE}/parsing/${job.id}/review`} operator={operator}>
              <table id="parsed">
                <thead>
                  <tr><th>Test</th><th>Value</th><th>Units</th><th>Reference</th></tr>
                </thead>
                <tbody>
                  {results.map((r, i) => (
                    <tr>
                      <td>{r.test_name}</td>
                      <td>{waiting && operator.role === 'operator' ? <input name={`value_${i}`} value={r.value} size={8} aria-label={`value of ${r.test_name}`} /> : r.value}</td>
                      <td>{r.units ?? ''}</td>
                      <td>{r.reference_range_text ?? [r.min_reference_range, r.max_reference_range].filter((x) => x !== undefined).join('–')}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
              {waiting && operator.role === 'operator' && (
                <p>
                  <button type="submit" name="decision" value="approve">Approve</button>{' '}
                  <button type="submit" name="decision" value="correct">Approve with my corrections</button>
                </p>
              )}
            </PostForm>
          </div>
        </div>
      </Layout>,
    );
  });

  // The review path of POST /lab_report/v1/parser/job/{id}/review: the job's workflow takes the decision (reviewUpdate).
  app.post('/parsing/:id/review', requireOperatorRole, async (c) => {
    const job = await loadJob(c.req.param('id'));
    const form = await c.req.parseBody();
    const decisionKind = form.decision;
    if (decisionKind !== 'approve' && decisionKind !== 'correct') throw new DashboardError(400, 'decision: approve or correct');
    if (job.status !== 'started' || job.reviewStatus !== 'pending') {
      throw new DashboardError(409, `The job is not waiting for review (status: ${job.status}, review: ${job.reviewStatus ?? 'none'}).`);
    }
    let decision: ReviewDecision = { approve: true };
    let changed = 0;
    if (decisionKind === 'correct') {
      const results = (job.data?.results ?? []).map((r, i) => {
        const v = form[`value_${i}`];
        if (typeof v === 'string' && v.trim() !== r.value) {
          changed++;
          return { ...r, value: v.trim() };
        }
        return r;
      });
      const body = parseOr400(reviewBody, { approve: true, results });
      decision = { approve: true, ...(body.results ? { results: body.results } : {}) };
    }
    try {
      await deps.temporal.workflow.getHandle(job.workflowId).executeUpdate(reviewUpdate, { args: [decision] });
    } catch (err) {
      if (err instanceof WorkflowUpdateFailedError || err instanceof WorkflowNotFoundError) throw new DashboardError(409, 'The job is not waiting for review any more.');
      throw err;
    }
    const operator = c.get('operator');
    await recordAudit(db, {
      operator: { id: operator.id, email: operator.email },
      action: `parsing.${decisionKind}`,
      targetType: 'parsing_job',
      targetId: job.id,
      detail: { changed_values: changed },
    });
    return c.redirect(`${BASE}/parsing/${job.id}`, 303);
  });

  return app;
}
