import { randomUUID } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import * as zlib from 'node:zlib';
import { createCanvas, loadImage } from '@napi-rs/canvas';
import { asc, count, eq } from 'drizzle-orm';
import PDFDocument from 'pdfkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApi, type RunningApi } from '../../api/server.js';
import { outboxEvents, parsingJobs } from '../../db/schema/index.js';
import { blobStoreFor, sha256Hex } from '../../lib/blob-store.js';
import { loadConfig } from '../../lib/config.js';
import { createLogger } from '../../lib/logger.js';
import { samplePdf } from '../fixtures/lab-reports/report.js';
import { TEST_SECRET_ENCRYPTION_KEY } from '../support/constants.js';
import { eventually, http, newTeam, startTestStack, type TestStack } from '../support/harness.js';
import { uniquePngBytes } from '../support/report-images.js';

/**
 * Upload rules of POST /lab_report/v1/parser/job (BEHAVIOUR §9): one PDF/JPEG/PNG ≤ 30 MiB, or up to 8
 * JPEG/PNG images (≤ 30 MiB together) merged in order into one report; refused uploads (400/413) store
 * nothing; a sandbox team has at most 300 jobs that did not fail.
 */

const REPORT_PNG = readFileSync(new URL('../fixtures/lab-reports/report.png', import.meta.url));
const blobs = blobStoreFor(loadConfig({}).DATA_DIR);
const MiB = 1024 * 1024;

let stack: TestStack;
beforeAll(async () => {
  stack = await startTestStack();
});
afterAll(async () => {
  await stack?.close();
});

type Job = Record<string, unknown> & {
  id: string;
  status: string;
  data: { results: { test_name: string; value: string; page?: number }[] } | null;
  failure_reason: string | null;
  failure_detail: string | null;
  page_count: number | null;
};
interface Part {
  bytes: Uint8Array;
  name: string;
  type?: string;
}

async function setup(target: { url: string } = stack) {
  const team = await newTeam(stack);
  const res = await fetch(`${target.url}/v2/user`, {
    method: 'POST',
    headers: { 'x-vital-api-key': team.apiKey, 'content-type': 'application/json' },
    body: JSON.stringify({ client_user_id: `p-${randomUUID()}` }),
  });
  const user = (await res.json()) as { user_id: string };
  return { ...team, userId: user.user_id };
}

async function upload(apiKey: string, userId: string, files: Part[], target: { url: string } = stack) {
  const form = new FormData();
  for (const f of files) form.append('file', new Blob([f.bytes], { type: f.type ?? 'application/octet-stream' }), f.name);
  form.append('user_id', userId);
  const res = await fetch(`${target.url}/lab_report/v1/parser/job`, { method: 'POST', headers: { 'x-vital-api-key': apiKey }, body: form });
  return { status: res.status, json: (await res.json()) as Job & { detail?: string } };
}

async function settled(apiKey: string, id: string): Promise<Job> {
  return eventually(async () => {
    const job = (await http(stack, 'GET', `/lab_report/v1/parser/job/${id}`, { apiKey })).json as Job;
    return job.status === 'completed' || job.status === 'failed' ? job : null;
  }, 120_000, 250);
}

async function jobCount(teamId: string) {
  const [row] = await stack.db.db.select({ n: count() }).from(parsingJobs).where(eq(parsingJobs.teamId, teamId));
  return row!.n;
}

const stored = (bytes: Uint8Array) => existsSync(blobs.pathOf(sha256Hex(bytes)));

/** A small PNG no other test has (a random word on it), optionally padded to `size` bytes with a private ancillary chunk. */
function uniquePng(size = 0): Buffer {
  const png = uniquePngBytes();
  if (size <= png.length) return png;
  const iend = png.length - 12;
  const data = Buffer.alloc(size - png.length - 12, 0x20);
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 0);
  head.write('prVt', 4, 'latin1');
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE((zlib as unknown as { crc32: (b: Uint8Array) => number }).crc32(Buffer.concat([head.subarray(4), data])) >>> 0);
  return Buffer.concat([png.subarray(0, iend), head, data, crc, png.subarray(iend)]);
}

async function pdfOfPages(pages: number, text = randomUUID()): Promise<Buffer> {
  const doc = new PDFDocument({ size: 'A4', margin: 50 });
  const chunks: Buffer[] = [];
  doc.on('data', (c: Buffer) => chunks.push(c));
  const done = new Promise<Buffer>((resolve) => doc.on('end', () => resolve(Buffer.concat(chunks))));
  for (let n = 1; n <= pages; n++) {
    if (n > 1) doc.addPage();
    doc.fontSize(11).text(`${text} — page ${n}`);
  }
  doc.end();
  return done;
}

/**
 * The sample report (test/fixtures/lab-reports/report.png) as two photos of its pages: page 1 the
 * letterhead and the metabolic panel, page 2 the letterhead again and the lipid panel.
 */
async function twoPages(): Promise<[Buffer, Buffer]> {
  const report = await loadImage(REPORT_PNG);
  const page = (strips: [number, number][]) => {
    const canvas = createCanvas(report.width, 1100);
    const ctx = canvas.getContext('2d');
    ctx.fillStyle = '#ffffff';
    ctx.fillRect(0, 0, canvas.width, canvas.height);
    let y = 0;
    for (const [from, to] of strips) {
      ctx.drawImage(report, 0, from, report.width, to - from, 0, y, report.width, to - from);
      y += to - from;
    }
    return canvas.toBuffer('image/png');
  };
  // Letterhead and column headings end above y=480; the metabolic panel ends at ~710, the lipid one at ~900.
  return [page([[0, 740]]), page([[0, 480], [735, 960]])];
}

describe('upload rules (BEHAVIOUR §9)', () => {
  it('refuses bad uploads with 400/413 {detail}, storing no file and no job; good uploads beside them are accepted', async () => {
    const { apiKey, teamId, userId } = await setup();
    const png = (name = 'page.png'): Part => ({ bytes: uniquePng(), name, type: 'image/png' });
    const jpegHeaderOnly = (await (async () => {
      const c = createCanvas(100, 100);
      c.getContext('2d').fillText(randomUUID(), 2, 50);
      const jpeg = c.toBuffer('image/jpeg', 90);
      return jpeg.subarray(0, 300); // cut inside its headers
    })()) as Buffer;
    const damagedPng = Buffer.from(uniquePng());
    damagedPng[20] = damagedPng[20]! ^ 0xff; // the IHDR checksum no longer matches
    const wholePdf = await pdfOfPages(1);
    const truncatedPdf = wholePdf.subarray(0, Math.floor(wholePdf.length / 3));
    const longPdf = await pdfOfPages(31);
    const half = (15 * MiB) | 0;

    const cases: [string, Part[], number, RegExp][] = [
      ['9 images', Array.from({ length: 9 }, (_, k) => png(`p${k + 1}.png`)), 400, /Too many files \(9\).*at most 8/],
      ['a PDF among images', [png(), { bytes: await pdfOfPages(1), name: 'r.pdf', type: 'application/pdf' }], 400, /PDF must be uploaded on its own/],
      ['an empty image among several', [png('a.png'), { bytes: new Uint8Array(0), name: 'b.png', type: 'image/png' }], 400, /File 2 \(b\.png\) is empty/],
      ['an empty file', [{ bytes: new Uint8Array(0), name: 'x.pdf' }], 400, /The file is empty/],
      ['a text file among images', [png(), { bytes: new TextEncoder().encode(`notes ${randomUUID()}`), name: 'n.png' }], 400, /Unsupported file type.*File 2/],
      ['a JPEG cut inside its headers', [{ bytes: jpegHeaderOnly, name: 'photo.jpg', type: 'image/jpeg' }], 400, /not a readable JPEG image: it ends before its image data/],
      ['a damaged PNG among several', [png(), { bytes: damagedPng, name: 'bad.png' }], 400, /File 2 \(bad\.png\) is not a readable PNG image: .*checksum/],
      ['a truncated PDF', [{ bytes: truncatedPdf, name: 't.pdf' }], 400, /not a readable PDF/],
      ['a PDF of 31 pages', [{ bytes: longPdf, name: 'long.pdf' }], 400, /31 pages; at most 30/],
      ['two images of 30 MiB + 1 byte together', [{ bytes: uniquePng(half), name: 'a.png' }, { bytes: uniquePng(30 * MiB + 1 - half), name: 'b.png' }], 413, /larger than/],
      ['one image of 30 MiB + 1 byte', [{ bytes: uniquePng(30 * MiB + 1), name: 'big.png' }], 413, /larger than/],
    ];
    for (const [name, files, status, detail] of cases) {
      const res = await upload(apiKey, userId, files);
      expect(res.status, `${name}: ${JSON.stringify(res.json).slice(0, 300)}`).toBe(status);
      expect(typeof res.json.detail, name).toBe('string');
      expect(res.json.detail, name).toMatch(detail);
      for (const f of files) if (f.bytes.length) expect(stored(f.bytes), `${name}: ${f.name} stored`).toBe(false);
    }
    expect(await jobCount(teamId)).toBe(0);

    // Beside them: 12 MiB (over the old 10 MiB limit), 8 images, two images of 29 MiB together.
    const accepted: [string, Part[]][] = [
      ['one 12 MiB image', [{ bytes: uniquePng(12 * MiB), name: 'big.png' }]],
      ['8 images', Array.from({ length: 8 }, (_, k) => png(`p${k + 1}.png`))],
      ['two images of 29 MiB', [{ bytes: uniquePng(15 * MiB), name: 'a.png' }, { bytes: uniquePng(14 * MiB), name: 'b.png' }]],
      ['a PDF of 30 pages', [{ bytes: await pdfOfPages(30), name: 'thirty.pdf' }]],
    ];
    for (const [name, files] of accepted) {
      const res = await upload(apiKey, userId, files);
      expect(res.status, `${name}: ${JSON.stringify(res.json).slice(0, 300)}`).toBe(200);
      expect(['upload_pending', 'started']).toContain(res.json.status); // the workflow may already have started it
      for (const f of files) expect(stored(f.bytes), `${name}: ${f.name} stored`).toBe(true);
    }
    expect(await jobCount(teamId)).toBe(accepted.length);
  }, 120_000);
});

describe('a report uploaded as several images', () => {
  it('is parsed as one report whose pages are the images in upload order', async () => {
    const { apiKey, userId } = await setup();
    const [page1, page2] = await twoPages();
    const created = await upload(apiKey, userId, [
      { bytes: page1, name: 'page-1.png', type: 'image/png' },
      { bytes: page2, name: 'page-2.png', type: 'image/png' },
    ]);
    expect(created.status, JSON.stringify(created.json)).toBe(200);
    expect(created.json.file).toMatchObject({ name: 'page-1.png', content_type: 'image/png' });
    const job = await settled(apiKey, created.json.id);
    expect(job.status, JSON.stringify(job)).toBe('completed');
    expect(job.page_count).toBe(2);
    const results = job.data?.results ?? [];
    const find = (name: RegExp) => results.find((r) => name.test(r.test_name));
    expect(find(/glucose/i), JSON.stringify(results)).toMatchObject({ value: '105' });
    expect(find(/potassium/i)).toMatchObject({ value: '4.2' });
    expect(find(/cholesterol/i), JSON.stringify(results)).toMatchObject({ value: '180' });
    expect(find(/triglycerides/i)).toMatchObject({ value: '210' });
    // Results say which page (image) they were read from, when the parser records it.
    if (find(/glucose/i)?.page !== undefined) {
      expect(find(/glucose/i)!.page).toBe(1);
      expect(find(/cholesterol/i)!.page).toBe(2);
    }
    const events = await stack.db.db.select().from(outboxEvents).where(eq(outboxEvents.subjectId, job.id)).orderBy(asc(outboxEvents.createdAt));
    expect(events.map((e) => [e.eventType, e.data.status])).toEqual([
      ['lab_report.parsing_job.created', 'started'],
      ['lab_report.parsing_job.updated', 'completed'],
    ]);
  }, 150_000);
});

describe('sandbox limit', () => {
  let api: RunningApi;
  beforeAll(async () => {
    // The same database and Temporal, served with the limit lowered from 300 to 2.
    const config = loadConfig({ API_KEY_CACHE_TTL_SECONDS: '0', SECRET_ENCRYPTION_KEY: TEST_SECRET_ENCRYPTION_KEY });
    expect(config.SERVICE_ENVIRONMENT).toBe('sandbox');
    const logger = createLogger({ level: 'silent', pretty: false });
    api = await startApi({ db: stack.db, temporal: stack.temporal, logger, config, parserSandboxJobLimit: 2 }, 0, '127.0.0.1');
  });
  afterAll(async () => {
    await api?.close();
  });

  it('a sandbox team has at most the limit of jobs that did not fail; the next is refused with 400, storing nothing', async () => {
    const { apiKey, teamId, userId } = await setup(api);
    // The sample report: these jobs complete (they count).
    const pdf = async (): Promise<Part> => ({ bytes: await samplePdf(), name: 'r.pdf', type: 'application/pdf' });
    // A blank page: the job fails (no readable text) and does not count.
    const blank = await upload(apiKey, userId, [{ bytes: uniquePng(), name: 'blank.png' }], api);
    expect(blank.status).toBe(200);
    expect((await settled(apiKey, blank.json.id)).status).toBe('failed');
    for (let k = 0; k < 2; k++) expect((await upload(apiKey, userId, [await pdf()], api)).status).toBe(200);

    const third = { bytes: await pdfOfPages(1), name: 'third.pdf' }; // bytes no other upload has
    const refused = await upload(apiKey, userId, [third], api);
    expect(refused.status).toBe(400);
    expect(refused.json).toEqual({
      detail: 'Sandbox lab report parsing is limited to 2 reports. Failed jobs do not count; parse further reports with a production API key.',
    });
    expect(stored(third.bytes)).toBe(false);
    expect(await jobCount(teamId)).toBe(3);
    // Another team is not affected.
    const other = await setup(api);
    expect((await upload(other.apiKey, other.userId, [await pdf()], api)).status).toBe(200);
  }, 150_000);
});
