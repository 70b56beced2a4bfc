import { randomUUID } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { createCanvas, loadImage } from '@napi-rs/canvas';
import { asc, count, eq } from 'drizzle-orm';
import PDFDocument from 'pdfkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../api/app.js';
import { outboxEvents, parsingJobs } from '../../db/schema/index.js';
import { blobStoreFor, sha256Hex } from '../../lib/blob-store.js';
import { loadConfig } from '../../lib/config.js';
import { createLogger } from '../../lib/logger.js';
import { labReportWorkflowId, stateQuery } from '../../workflows/lab-report/definitions.js';
import { SAMPLE_REPORT, samplePdf, scannedPdf } from '../fixtures/lab-reports/report.js';
import { eventually, http, newTeam, startTestStack, type TestStack } from '../support/harness.js';

const PNG = readFileSync(new URL('../fixtures/lab-reports/report.png', import.meta.url));
const blobs = blobStoreFor(loadConfig({}).DATA_DIR);
const MISSING = '00000000-0000-4000-8000-000000000000';
const MiB = 1024 * 1024;

let stack: TestStack;
beforeAll(async () => {
  stack = await startTestStack({ PARSER_REVIEW_DEADLINE_SECONDS: '600' });
});
afterAll(async () => {
  await stack?.close();
});

type Job = Record<string, unknown> & {
  id: string;
  status: string;
  data: { results: { test_name: string; value: string }[] } | null;
  failure_reason: string | null;
  failure_detail: string | null;
  review_status: string | null;
  is_reviewed: boolean;
};

async function setup() {
  const team = await newTeam(stack);
  const user = await http(stack, 'POST', '/v2/user', { apiKey: team.apiKey, body: { client_user_id: `p-${randomUUID()}` } });
  return { ...team, userId: user.json.user_id as string };
}

interface UploadParts {
  file?: { bytes: Uint8Array; name: string; type: string } | string;
  user_id?: string;
  needs_human_review?: string;
}

async function upload(apiKey: string | undefined, parts: UploadParts) {
  const form = new FormData();
  if (typeof parts.file === 'string') form.append('file', parts.file);
  else if (parts.file) form.append('file', new Blob([parts.file.bytes], { type: parts.file.type }), parts.file.name);
  if (parts.user_id !== undefined) form.append('user_id', parts.user_id);
  if (parts.needs_human_review !== undefined) form.append('needs_human_review', parts.needs_human_review);
  const res = await fetch(`${stack.url}/lab_report/v1/parser/job`, {
    method: 'POST',
    headers: apiKey ? { 'x-vital-api-key': apiKey } : {},
    body: form,
  });
  const text = await res.text();
  return { status: res.status, json: JSON.parse(text) as Job & { detail?: unknown } };
}

const getJob = async (apiKey: string, id: string) => (await http(stack, 'GET', `/lab_report/v1/parser/job/${id}`, { apiKey })).json as Job;

/** Polls until the job has left `upload_pending`/`started` (or `until` says it is what the test waits for). */
async function settled(apiKey: string, id: string, until: (j: Job) => boolean = (j) => j.status === 'completed' || j.status === 'failed') {
  return eventually(async () => {
    const job = await getJob(apiKey, id);
    return until(job) ? job : null;
  }, 120_000, 250);
}

async function jobCount(teamId: string) {
  const [row] = await stack.db.db.select({ n: count() }).from(parsingJobs).where(eq(parsingJobs.teamId, teamId));
  return row!.n;
}

const pdfFile = async () => ({ bytes: await samplePdf(), name: 'report.pdf', type: 'application/pdf' });

function expectSampleResults(job: Job) {
  const results = job.data?.results ?? [];
  for (const e of SAMPLE_REPORT.expected) {
    expect(results.some((r) => e.name.test(r.test_name) && r.value === e.value), `${String(e.name)} = ${e.value} in ${JSON.stringify(results)}`).toBe(true);
  }
}

describe('POST /lab_report/v1/parser/job: refused uploads store nothing', () => {
  it('answers 422/400/413/404/401 with {detail} and leaves no job and no file behind', async () => {
    const { apiKey, teamId, userId } = await setup();
    const other = await setup();
    const unique = (text: string) => new TextEncoder().encode(`${text} ${randomUUID()}`);
    const textAsPdf = unique('plain text, named like a PDF');
    const big = new Uint8Array(30 * MiB + 1);
    big.set(new TextEncoder().encode(`%PDF-1.4\n%${randomUUID()}\n`));
    const pdf = await pdfFile();

    const cases: [string, UploadParts, number, string | null][] = [
      ['no file', { user_id: userId }, 422, 'file'],
      ['file sent as text', { file: 'not a file', user_id: userId }, 422, 'file'],
      ['no user_id', { file: pdf }, 422, 'user_id'],
      ['bad user_id', { file: pdf, user_id: 'nope' }, 422, 'user_id'],
      ['bad needs_human_review', { file: pdf, user_id: userId, needs_human_review: 'maybe' }, 422, 'needs_human_review'],
      ['empty file', { file: { bytes: new Uint8Array(0), name: 'empty.pdf', type: 'application/pdf' }, user_id: userId }, 400, null],
      ['text renamed .pdf', { file: { bytes: textAsPdf, name: 'report.pdf', type: 'application/pdf' }, user_id: userId }, 400, null],
      ['30 MiB + 1 byte', { file: { bytes: big, name: 'big.pdf', type: 'application/pdf' }, user_id: userId }, 413, null],
      ['unknown user', { file: pdf, user_id: MISSING }, 404, null],
      ["another team's user", { file: pdf, user_id: other.userId }, 404, null],
    ];
    for (const [name, parts, status, loc] of cases) {
      const res = await upload(apiKey, parts);
      expect(res.status, `${name}: ${JSON.stringify(res.json)}`).toBe(status);
      expect(res.json.detail, name).toBeDefined();
      if (loc) expect(JSON.stringify(res.json.detail), name).toContain(loc);
    }
    expect((await upload(apiKey, { file: pdf, user_id: userId })).status).toBe(200); // the same PDF is fine with a good user
    expect(await jobCount(teamId)).toBe(1);
    // Refused bytes were never written to the blob store.
    for (const bytes of [textAsPdf, big]) expect(existsSync(blobs.pathOf(sha256Hex(bytes)))).toBe(false);

    const notMultipart = await http(stack, 'POST', '/lab_report/v1/parser/job', { apiKey, body: { user_id: userId } });
    expect(notMultipart.status).toBe(422);
    expect((await upload(undefined, { file: pdf, user_id: userId })).status).toBe(401);
    expect(await jobCount(teamId)).toBe(1);
  });

  it('has its own 30 MiB body limit; other routes keep the 1 MB one', async () => {
    const { apiKey, teamId, userId } = await setup();
    const app = createApp({ db: stack.db, temporal: stack.temporal, logger: createLogger({ level: 'silent', pretty: false }), config: loadConfig({}) });
    const headers = { 'x-vital-api-key': apiKey };
    const form = new FormData();
    form.append('file', new Blob([new Uint8Array(31 * MiB)], { type: 'application/pdf' }), 'huge.pdf');
    form.append('user_id', userId);
    const huge = await app.request('/lab_report/v1/parser/job', { method: 'POST', headers, body: form });
    expect(huge.status).toBe(413);
    expect(((await huge.json()) as { detail: string }).detail).toMatch(/larger than/);
    // A 2 MB upload is within this route's limit (refused only for its type), though over the global one.
    const mid = new FormData();
    mid.append('file', new Blob([new Uint8Array(2 * MiB)]), 'zeros.bin');
    mid.append('user_id', userId);
    expect((await app.request('/lab_report/v1/parser/job', { method: 'POST', headers, body: mid })).status).toBe(400);
    const body = JSON.stringify({ client_user_id: 'x'.repeat(2 * MiB) });
    const user = await app.request('/v2/user', { method: 'POST', headers: { ...headers, 'content-type': 'application/json' }, body });
    expect(user.status).toBe(413);
    expect(await jobCount(teamId)).toBe(0);
  });

  it('refuses an unknown type with a message naming the accepted ones', async () => {
    const { apiKey, userId } = await setup();
    const res = await upload(apiKey, { file: { bytes: new TextEncoder().encode('GIF89a not really'), name: 'x.png', type: 'image/png' }, user_id: userId });
    expect(res.status).toBe(400);
    expect(res.json.detail).toMatch(/PDF, JPEG or PNG/);
  });
});

describe('GET /lab_report/v1/parser/job/{job_id}', () => {
  it('answers 422 for a bad id and 404 for an unknown job or another team’s job', async () => {
    const { apiKey, userId } = await setup();
    const other = await setup();
    expect((await http(stack, 'GET', '/lab_report/v1/parser/job/not-a-uuid', { apiKey })).status).toBe(422);
    expect((await http(stack, 'GET', `/lab_report/v1/parser/job/${MISSING}`, { apiKey })).status).toBe(404);
    const created = await upload(apiKey, { file: await pdfFile(), user_id: userId });
    expect(created.status).toBe(200);
    const theirs = await http(stack, 'GET', `/lab_report/v1/parser/job/${created.json.id}`, { apiKey: other.apiKey });
    expect(theirs.status).toBe(404);
    expect(theirs.json.detail).toBe('Parsing job not found');
    const review = await http(stack, 'POST', `/lab_report/v1/parser/job/${created.json.id}/review`, { apiKey: other.apiKey, body: { approve: true } });
    expect(review.status).toBe(404);
  });
});

describe('documents that cannot be read end failed with a reason', () => {
  it('an encrypted and a blank PDF fail invalid_input, a Spanish letter not_english; no 500 (a truncated one is refused at upload)', async () => {
    const { apiKey, userId } = await setup();
    const encrypted = await samplePdf({ userPassword: 'secret' });
    const whole = await samplePdf();
    const truncated = whole.subarray(0, Math.floor(whole.length / 3));
    const refused = await upload(apiKey, { file: { bytes: truncated, name: 'truncated.pdf', type: 'application/pdf' }, user_id: userId });
    expect(refused.status).toBe(400);
    expect(refused.json.detail).toMatch(/not a readable PDF/);
    const blank = await scannedPdf(await blankPng());
    const spanish = await textPdf(
      'Laboratorio Clínico del Norte. Estimado paciente: los resultados del análisis de sangre de la muestra están disponibles en el laboratorio. ' +
        'Para más información sobre el informe y los valores de referencia, póngase en contacto con el laboratorio y con su médico.',
    );
    const cases: [string, Uint8Array, string, RegExp][] = [
      ['encrypted', encrypted, 'invalid_input', /encrypted/i],
      ['blank', blank, 'invalid_input', /no readable text/i],
      ['spanish', spanish, 'not_english', /not appear to be in English/i],
    ];
    for (const [name, bytes, reason, detail] of cases) {
      const created = await upload(apiKey, { file: { bytes, name: `${name}.pdf`, type: 'application/pdf' }, user_id: userId });
      expect(created.status, name).toBe(200);
      const job = await settled(apiKey, created.json.id);
      expect(job.status, name).toBe('failed');
      expect(job.failure_reason, name).toBe(reason);
      expect(job.failure_detail, name).toMatch(detail);
      expect(job.data, name).toBeNull();
      const events = await stack.db.db.select().from(outboxEvents).where(eq(outboxEvents.subjectId, job.id)).orderBy(asc(outboxEvents.createdAt));
      expect(events.map((e) => [e.eventType, e.data.status, e.data.failure_reason]), name).toEqual([
        ['lab_report.parsing_job.created', 'started', null],
        ['lab_report.parsing_job.updated', 'failed', reason],
      ]);
    }
  });
});

describe('file types are read from the bytes', () => {
  it('a JPEG named .png (sent as image/jpeg), and a scanned PDF without a text layer, are read by OCR', async () => {
    const { apiKey, userId } = await setup();
    const jpeg = await toJpeg(PNG);
    const a = await upload(apiKey, { file: { bytes: jpeg, name: 'report.png', type: 'image/jpeg' }, user_id: userId });
    const b = await upload(apiKey, { file: { bytes: await scannedPdf(PNG), name: 'scan.pdf', type: 'application/pdf' }, user_id: userId });
    expect(a.json.file).toMatchObject({ content_type: 'image/jpeg', name: 'report.png' });
    for (const created of [a, b]) {
      const job = await settled(apiKey, created.json.id);
      expect(job.status, JSON.stringify(job)).toBe('completed');
      expectSampleResults(job);
    }
  });
});

describe('a declared content type that contradicts the bytes', () => {
  it('is refused with 400 and nothing stored; a generic type (octet-stream) lets the bytes decide', async () => {
    const { apiKey, teamId, userId } = await setup();
    const jpeg = await toJpeg(PNG);
    const before = await jobCount(teamId);
    const refused = await upload(apiKey, { file: { bytes: jpeg, name: 'report.jpg', type: 'image/png' }, user_id: userId });
    expect(refused.status).toBe(400);
    expect(refused.json).toEqual({ detail: 'The file is sent as image/png but its contents are a JPEG image.' });
    const pdfAsPng = await upload(apiKey, { file: { bytes: await scannedPdf(PNG), name: 'scan.png', type: 'image/png' }, user_id: userId });
    expect(pdfAsPng.status).toBe(400);
    expect(pdfAsPng.json.detail).toMatch(/contents are a PDF/);
    expect(await jobCount(teamId)).toBe(before);
    const generic = await upload(apiKey, { file: { bytes: jpeg, name: 'report', type: 'application/octet-stream' }, user_id: userId });
    expect(generic.status).toBe(200);
    expect(generic.json.file).toMatchObject({ content_type: 'image/jpeg' });
  });
});

describe('human review', () => {
  it('corrections replace the results; reviewing again, bad review bodies and unknown jobs are refused', async () => {
    const { apiKey, userId } = await setup();
    const created = await upload(apiKey, { file: await pdfFile(), user_id: userId, needs_human_review: 'true' });
    expect(created.json).toMatchObject({ needs_human_review: true, is_reviewed: false });
    const id = created.json.id;
    const waiting = await settled(apiKey, id, (j) => j.review_status === 'pending');
    expect(waiting).toMatchObject({ status: 'started', is_reviewed: false });
    expectSampleResults(waiting); // the parsed results are visible to the reviewer
    expect(typeof waiting.review_deadline).toBe('string');
    const state = await stack.temporal.workflow.getHandle(labReportWorkflowId(id)).query(stateQuery);
    expect(state).toMatchObject({ jobId: id, phase: 'awaiting_review', reviewDeadline: waiting.review_deadline });

    const path = `/lab_report/v1/parser/job/${id}/review`;
    for (const body of [{ approve: false }, {}, { approve: true, results: [{ value: '1' }] }, { approve: true, results: 'x' }, { approve: true, metadata: { shoe_size: 9 } }]) {
      const res = await http(stack, 'POST', path, { apiKey, body });
      expect(res.status, JSON.stringify(body)).toBe(422);
    }
    expect((await http(stack, 'POST', `/lab_report/v1/parser/job/${MISSING}/review`, { apiKey, body: { approve: true } })).status).toBe(404);
    expect((await getJob(apiKey, id)).review_status).toBe('pending'); // refused reviews changed nothing

    const corrected = [{ test_name: 'Glucose', value: '101', type: 'numeric', units: 'mg/dL', min_reference_range: 70, max_reference_range: 99, interpretation: 'abnormal' }];
    const res = await http(stack, 'POST', path, { apiKey, body: { approve: true, results: corrected, metadata: { patient_first_name: 'Janet' } } });
    expect(res.status, JSON.stringify(res.json)).toBe(200);
    expect(res.json).toMatchObject({ status: 'completed', is_reviewed: true, review_status: 'corrected' });
    const job = await getJob(apiKey, id);
    expect(job.data?.results).toEqual([expect.objectContaining(corrected[0])]);
    expect((job.data as unknown as { metadata: { patient_first_name: string } }).metadata.patient_first_name).toBe('Janet');
    const [row] = await stack.db.db.select().from(parsingJobs).where(eq(parsingJobs.id, id));
    expect(row!.parsedData?.results.length).toBeGreaterThan(1); // the parser's own output is kept

    const again = await http(stack, 'POST', path, { apiKey, body: { approve: true } });
    expect(again.status).toBe(409);
    expect(again.json.detail).toMatch(/not waiting for review/);

    // Events: created (started), updated (pending review), updated (completed).
    const events = await stack.db.db
      .select()
      .from(outboxEvents)
      .where(eq(outboxEvents.subjectId, id))
      .orderBy(asc(outboxEvents.createdAt));
    expect(events.map((e) => [e.eventType, e.data.status, e.data.review_status])).toEqual([
      ['lab_report.parsing_job.created', 'started', null],
      ['lab_report.parsing_job.updated', 'started', 'pending'],
      ['lab_report.parsing_job.updated', 'completed', 'corrected'],
    ]);
    expect(events.every((e) => e.userId === userId)).toBe(true);
    expect(events.at(-1)!.data).toEqual(job);
  });

  it('a job without review refuses a review with 409; its events are created and updated', async () => {
    const { apiKey, userId } = await setup();
    const created = await upload(apiKey, { file: await pdfFile(), user_id: userId, needs_human_review: 'false' });
    const job = await settled(apiKey, created.json.id);
    expect(job).toMatchObject({ status: 'completed', needs_human_review: false, is_reviewed: false, review_status: null });
    const res = await http(stack, 'POST', `/lab_report/v1/parser/job/${job.id}/review`, { apiKey, body: { approve: true } });
    expect(res.status).toBe(409);
    const events = await stack.db.db.select().from(outboxEvents).where(eq(outboxEvents.subjectId, job.id)).orderBy(asc(outboxEvents.createdAt));
    expect(events.map((e) => [e.eventType, e.data.status])).toEqual([
      ['lab_report.parsing_job.created', 'started'],
      ['lab_report.parsing_job.updated', 'completed'],
    ]);
  });

  it('past the review deadline the job completes unreviewed (review_status expired)', async () => {
    const short = await startTestStack({ PARSER_REVIEW_DEADLINE_SECONDS: '2' });
    try {
      const team = await newTeam(short);
      const user = await http(short, 'POST', '/v2/user', { apiKey: team.apiKey, body: { client_user_id: `p-${randomUUID()}` } });
      const form = new FormData();
      form.append('file', new Blob([await samplePdf()], { type: 'application/pdf' }), 'report.pdf');
      form.append('user_id', user.json.user_id as string);
      form.append('needs_human_review', 'true');
      const res = await fetch(`${short.url}/lab_report/v1/parser/job`, { method: 'POST', headers: { 'x-vital-api-key': team.apiKey }, body: form });
      const { id } = (await res.json()) as Job;
      const job = await eventually(async () => {
        const j = (await http(short, 'GET', `/lab_report/v1/parser/job/${id}`, { apiKey: team.apiKey })).json as Job;
        return j.status === 'completed' ? j : null;
      }, 60_000, 250);
      expect(job).toMatchObject({ is_reviewed: false, review_status: 'expired' });
      expectSampleResults(job);
      const late = await http(short, 'POST', `/lab_report/v1/parser/job/${id}/review`, { apiKey: team.apiKey, body: { approve: true } });
      expect(late.status).toBe(409);
    } finally {
      await short.close();
    }
  });
});

async function textPdf(text: string): Promise<Buffer> {
  const doc = new PDFDocument({ size: 'A4', margin: 50 });
  const chunks: Buffer[] = [];
  doc.on('data', (c: Buffer) => chunks.push(c));
  const done = new Promise<Buffer>((resolve) => doc.on('end', () => resolve(Buffer.concat(chunks))));
  doc.fontSize(11).text(text);
  doc.end();
  return done;
}

async function blankPng(): Promise<Buffer> {
  const canvas = createCanvas(850, 1100);
  const ctx = canvas.getContext('2d');
  ctx.fillStyle = '#ffffff';
  ctx.fillRect(0, 0, 850, 1100);
  return canvas.toBuffer('image/png');
}

async function toJpeg(png: Buffer): Promise<Buffer> {
  const image = await loadImage(png);
  const canvas = createCanvas(image.width, image.height);
  canvas.getContext('2d').drawImage(image, 0, 0);
  return canvas.toBuffer('image/jpeg', 90);
}
