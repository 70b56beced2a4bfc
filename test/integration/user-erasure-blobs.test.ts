import { randomUUID } from 'node:crypto';
import { existsSync, utimesSync } from 'node:fs';
import { asc, eq } from 'drizzle-orm';
import PDFDocument from 'pdfkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findUser, pendingBlobErasures } from '../../db/queries/users.js';
import { parsingJobs } from '../../db/schema/index.js';
import { blobStoreFor, sha256Hex } from '../../lib/blob-store.js';
import { loadConfig } from '../../lib/config.js';
import { deletionStateQuery, userDeletionWorkflowId } from '../../workflows/user-deletion/definitions.js';
import { eventually, http, newTeam, startTestStack, type TestStack } from '../support/harness.js';
import { uniquePngBytes } from '../support/report-images.js';

/**
 * Erasing a user (after the grace period) deletes the stored files of its parsing jobs — uploads and
 * extracted text — except blobs another job still names, and blobs touched within the last hour.
 */

// Same store as the API and the worker of the test run.
const blobs = blobStoreFor(loadConfig({}).DATA_DIR);
const HOUR = 3600_000;

let stack: TestStack;
beforeAll(async () => {
  stack = await startTestStack({ USER_DELETION_GRACE_SECONDS: '2' });
});
afterAll(async () => {
  await stack?.close();
});

interface Part {
  bytes: Uint8Array;
  name: string;
  type: string;
}

async function userOfNewTeam() {
  const team = await newTeam(stack);
  const res = await http(stack, 'POST', '/v2/user', { apiKey: team.apiKey, body: { client_user_id: `erase-${randomUUID()}` } });
  return { ...team, userId: res.json.user_id as string };
}

/** Uploads a report and waits until its job has finished (failing is fine: its files are stored either way). */
async function uploadSettled(apiKey: string, userId: string, files: Part[]): Promise<string> {
  const form = new FormData();
  for (const f of files) form.append('file', new Blob([f.bytes], { type: f.type }), f.name);
  form.append('user_id', userId);
  const res = await fetch(`${stack.url}/lab_report/v1/parser/job`, { method: 'POST', headers: { 'x-vital-api-key': apiKey }, body: form });
  const job = (await res.json()) as { id: string };
  expect(res.status).toBe(200);
  await eventually(async () => {
    const got = (await http(stack, 'GET', `/lab_report/v1/parser/job/${job.id}`, { apiKey })).json as { status: string };
    return got.status === 'completed' || got.status === 'failed';
  }, 120_000, 250);
  return job.id;
}

/** A one-page PDF with a text layer no other test has. */
async function uniquePdf(): Promise<Part> {
  const doc = new PDFDocument({ size: 'A4', margin: 50 });
  const chunks: Buffer[] = [];
  doc.on('data', (c: Buffer) => chunks.push(c));
  const done = new Promise<Buffer>((resolve) => doc.on('end', () => resolve(Buffer.concat(chunks))));
  doc.fontSize(11).text(`Report ${randomUUID()}`);
  doc.end();
  return { bytes: await done, name: 'report.pdf', type: 'application/pdf' };
}

function uniquePng(): Part {
  return { bytes: uniquePngBytes(), name: 'page.png', type: 'image/png' };
}

async function jobsOf(userId: string) {
  return stack.db.db.select().from(parsingJobs).where(eq(parsingJobs.userId, userId)).orderBy(asc(parsingJobs.createdAt));
}
const blobsOfRow = (row: { fileSha256s: string[]; pagesSha256: string | null }) => [...row.fileSha256s, ...(row.pagesSha256 ? [row.pagesSha256] : [])];
const stored = (sha256: string) => existsSync(blobs.pathOf(sha256));
/** As if stored long ago (the real grace period is days; here it is 2 seconds). */
const age = (sha256: string) => {
  const t = new Date(Date.now() - 2 * HOUR);
  utimesSync(blobs.pathOf(sha256), t, t);
};

async function deleteAndAwait(apiKey: string, userId: string) {
  expect((await http(stack, 'DELETE', `/v2/user/${userId}`, { apiKey })).status).toBe(200);
  return stack.temporal.workflow.getHandle(userDeletionWorkflowId(userId));
}

describe('erasing a user deletes the files of its parsing jobs', () => {
  it('deletes blobs no other job names (every image of a multi-image job, the extracted text) and keeps shared ones', async () => {
    const a = await userOfNewTeam();
    const b = await userOfNewTeam();
    const own = await uniquePdf();
    const images = [uniquePng(), uniquePng()];
    const shared = await uniquePdf();
    await uploadSettled(a.apiKey, a.userId, [own]);
    await uploadSettled(a.apiKey, a.userId, images);
    await uploadSettled(a.apiKey, a.userId, [shared]);
    // the same bytes, uploaded by a user of another team
    await uploadSettled(b.apiKey, b.userId, [shared]);

    const jobsOfA = await jobsOf(a.userId);
    const [jobOfB] = await jobsOf(b.userId);
    expect(jobsOfA.map((j) => j.fileSha256s)).toEqual([[sha256Hex(own.bytes)], images.map((i) => sha256Hex(i.bytes)), [sha256Hex(shared.bytes)]]);
    for (const job of [...jobsOfA, jobOfB!]) expect(job.pagesSha256).toMatch(/^[0-9a-f]{64}$/);
    const ofA = jobsOfA.flatMap(blobsOfRow);
    const ofB = blobsOfRow(jobOfB!);
    for (const sha of [...ofA, ...ofB]) {
      expect(stored(sha)).toBe(true);
      age(sha);
    }

    const handle = await deleteAndAwait(a.apiKey, a.userId);
    await expect(handle.result()).resolves.toBe('erased');
    expect(await findUser(stack.db.db, a.teamId, a.userId)).toBeNull();
    for (const sha of ofA.filter((s) => !ofB.includes(s))) expect(stored(sha), `blob ${sha} of the erased user`).toBe(false);
    // the shared upload (and its extracted text, the same bytes) stays while B's job names it
    expect(ofB).toContain(sha256Hex(shared.bytes));
    for (const sha of ofB) expect(stored(sha)).toBe(true);
    expect(await pendingBlobErasures(stack.db.db, a.userId)).toEqual([]);

    // once the last job naming them goes, so do they
    const handleB = await deleteAndAwait(b.apiKey, b.userId);
    await expect(handleB.result()).resolves.toBe('erased');
    for (const sha of ofB) expect(stored(sha)).toBe(false);
    expect(await pendingBlobErasures(stack.db.db, b.userId)).toEqual([]);
  });

  it('keeps a blob touched within the last hour (an upload of the same bytes in flight) until a new job names it', async () => {
    const c = await userOfNewTeam();
    const d = await userOfNewTeam();
    const report = await uniquePdf();
    await uploadSettled(c.apiKey, c.userId, [report]);
    const [job] = await jobsOf(c.userId);
    const sha = sha256Hex(report.bytes);
    for (const s of blobsOfRow(job!)) age(s);
    // Another upload of the same bytes has stored its blob (touching it), but its job row does not exist yet.
    await blobs.put(report.bytes);

    const handle = await deleteAndAwait(c.apiKey, c.userId);
    // The user is gone, its extracted text too; the touched upload stays queued and the erasure retries.
    await eventually(async () => (await findUser(stack.db.db, c.teamId, c.userId)) === null && !stored(job!.pagesSha256!), 20_000, 100);
    expect(stored(sha)).toBe(true);
    expect(await pendingBlobErasures(stack.db.db, c.userId)).toEqual([sha]);
    expect((await handle.query(deletionStateQuery)).phase).toBe('erasing');

    // The in-flight upload's job appears (here: a user of another team uploads those bytes).
    await uploadSettled(d.apiKey, d.userId, [report]);
    await expect(handle.result()).resolves.toBe('erased');
    expect(stored(sha)).toBe(true);
    expect(await pendingBlobErasures(stack.db.db, c.userId)).toEqual([]);
  });
});
