import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { type Vital, type VitalClient, VitalError } from '@tryvital/vital-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { labReportWorkflowId } from '../../workflows/lab-report/definitions.js';
import { SAMPLE_REPORT, samplePdf } from '../fixtures/lab-reports/report.js';
import { eventually, http, newTeam, sdkFor, startTestStack, type TestStack } from '../support/harness.js';
import { recordHistory } from '../support/histories.js';

const PNG = readFileSync(new URL('../fixtures/lab-reports/report.png', import.meta.url));

let stack: TestStack;
beforeAll(async () => {
  stack = await startTestStack({ PARSER_REVIEW_DEADLINE_SECONDS: '600' });
});
afterAll(async () => {
  await stack?.close();
});

async function setup() {
  const team = await newTeam(stack);
  const client = sdkFor(stack, team.apiKey);
  const { userId } = await client.user.create({ clientUserId: `patient-${randomUUID()}` });
  return { ...team, client, userId };
}

async function until(client: VitalClient, jobId: string, done: (job: Vital.ParsingJob) => boolean) {
  return eventually(async () => {
    const job = await client.labReport.parserGetJob(jobId);
    return done(job) ? job : null;
  }, 120_000, 250);
}
const terminal = (job: Vital.ParsingJob) => job.status === 'completed' || job.status === 'failed';

function expectSampleResults(job: Vital.ParsingJob) {
  const results = job.data?.results ?? [];
  for (const e of SAMPLE_REPORT.expected) {
    const found = results.find((r) => e.name.test(r.testName) && r.value === e.value);
    expect(found, `${String(e.name)} = ${e.value} in ${JSON.stringify(results)}`).toBeDefined();
    expect(found!.loincMatches?.[0]?.loincCode, `LOINC of ${found!.testName}`).toBe(e.loinc);
  }
}

describe('lab report parsing through the SDK (labReport.parserCreateJob / parserGetJob)', () => {
  it('a PDF report comes back completed with its results', async () => {
    const { client, userId } = await setup();
    const created = await client.labReport.parserCreateJob({ data: await samplePdf(), filename: 'report.pdf', contentType: 'application/pdf' }, { userId });
    expect(created.jobId).toBe(created.id);
    expect(['upload_pending', 'started']).toContain(created.status);
    expect(created).toMatchObject({ needsHumanReview: false, isReviewed: false });
    expect(created.data ?? null).toBeNull();

    const job = await until(client, created.id, terminal);
    expect(job.status, JSON.stringify(job)).toBe('completed');
    expectSampleResults(job);
    const glucose = job.data!.results.find((r) => /glucose/i.test(r.testName))!;
    expect(glucose).toMatchObject({ units: 'mg/dL', minReferenceRange: 70, maxReferenceRange: 99, interpretation: 'abnormal', isAboveMaxRange: true });
    expect(job.data!.metadata).toMatchObject({
      patientFirstName: 'Jane',
      patientLastName: 'Doe',
      dob: '1985-04-12',
      labName: 'Northside Clinical Laboratory',
      dateCollected: '2026-10-01',
    });
    await recordHistory('lab-report-job-pdf-completed', stack.temporal.workflow.getHandle(labReportWorkflowId(created.id)));
  });

  it('a PNG report is read by OCR and comes back completed with its results', async () => {
    const { client, userId } = await setup();
    const created = await client.labReport.parserCreateJob({ data: PNG, filename: 'report.png', contentType: 'image/png' }, { userId });
    const job = await until(client, created.id, terminal);
    expect(job.status, JSON.stringify(job)).toBe('completed');
    expectSampleResults(job);
  });

  it('a job needing review waits for its reviewer, then completes reviewed', async () => {
    const { client, userId, apiKey } = await setup();
    const created = await client.labReport.parserCreateJob(
      { data: await samplePdf(), filename: 'report.pdf', contentType: 'application/pdf' },
      { userId, needsHumanReview: true },
    );
    expect(created).toMatchObject({ needsHumanReview: true, isReviewed: false });
    // Parsed and waiting: still `started`, results visible, review pending (an extra field the SDK passes through).
    const waiting = await until(client, created.id, (j) => (j as unknown as { review_status?: string }).review_status === 'pending');
    expect(waiting).toMatchObject({ status: 'started', isReviewed: false });
    expectSampleResults(waiting);
    // It keeps waiting: nothing completes it but a reviewer.
    await new Promise((r) => setTimeout(r, 1500));
    expect((await client.labReport.parserGetJob(created.id)).status).toBe('started');

    const review = await http(stack, 'POST', `/lab_report/v1/parser/job/${created.id}/review`, { apiKey, body: { approve: true } });
    expect(review.status, JSON.stringify(review.json)).toBe(200);
    const job = await client.labReport.parserGetJob(created.id);
    expect(job).toMatchObject({ status: 'completed', isReviewed: true, needsHumanReview: true });
    expectSampleResults(job);
    await recordHistory('lab-report-job-reviewed', stack.temporal.workflow.getHandle(labReportWorkflowId(created.id)));
  });

  it('bad uploads are refused: an unknown type with 400, an unknown user with 404, a bad user id with 422', async () => {
    const { client, userId } = await setup();
    const text = { data: Buffer.from('just some text'), filename: 'report.pdf', contentType: 'application/pdf' };
    const cases: [() => Promise<unknown>, number][] = [
      [() => client.labReport.parserCreateJob(text, { userId }), 400],
      [() => client.labReport.parserCreateJob({ data: PNG, filename: 'r.png' }, { userId: '00000000-0000-4000-8000-000000000000' }), 404],
      [() => client.labReport.parserCreateJob({ data: PNG, filename: 'r.png' }, { userId: 'not-a-uuid' }), 422],
      [() => client.labReport.parserGetJob('00000000-0000-4000-8000-000000000000'), 404],
    ];
    for (const [call, status] of cases) {
      const err = await call().then(
        () => null,
        (e: unknown) => e,
      );
      expect(err).toBeInstanceOf(VitalError);
      expect((err as VitalError).statusCode).toBe(status);
      expect((err as VitalError).body).toHaveProperty('detail');
    }
  });
});
