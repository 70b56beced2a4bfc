import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { VitalError } from '@tryvital/vital-node';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createLabAccount } from '../../db/queries/lab-accounts.js';
import { loadUrlSigner } from '../../db/queries/secrets.js';
import { labAccounts, labs, outboxEvents } from '../../db/schema/index.js';
import { requisitionDocumentPath } from '../../domain/orders/requisition.js';
import { testkitLabTest } from '../support/catalog-fixture.js';
import { eventually, http, newTeam, sdkFor, startTestStack, type TestStack } from '../support/harness.js';
import { pdfText } from '../support/pdf-text.js';

const PUBLIC_URL = 'https://labs.example.test';
const MISSING = '00000000-0000-4000-8000-000000000000';
const run = promisify(execFile);

let stack: TestStack;
beforeAll(async () => {
  stack = await startTestStack({ PUBLIC_URL });
});
afterAll(async () => {
  await stack?.close();
});

const patient = {
  patient_details: { first_name: 'Jane', last_name: 'Doe', dob: '1990-05-17', gender: 'female', phone_number: '+14155552671', email: 'jane@example.com' },
  patient_address: { first_line: '123 Main St', city: 'San Francisco', state: 'CA', zip: '94105', country: 'US' },
};
const physician = { first_name: 'Gregory', last_name: 'House', npi: '1234567893' };
const ORDER_COMMENT = 'Patient fasted for 12 hours.';
const ACCOUNT_COMMENT = 'Bill to account 1234567890.';

async function admin(...args: string[]) {
  try {
    const { stdout, stderr } = await run(process.execPath, ['--import', 'tsx', 'scripts/admin.ts', ...args], {
      env: { ...process.env, DATABASE_URL: inject('databaseUrl'), LOG_LEVEL: 'warn' },
    });
    return { code: 0, stdout, stderr };
  } catch (err) {
    const e = err as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

async function setup() {
  const team = await newTeam(stack);
  const client = sdkFor(stack, team.apiKey);
  const { userId } = await client.user.create({ clientUserId: `patient-${Date.now()}-${Math.random()}` });
  const { labTestId, labId } = await testkitLabTest(stack.db.db, team.teamId);
  const [lab] = await stack.db.db.select().from(labs).where(eq(labs.id, labId));
  return { ...team, client, userId, labTestId, labId, labSlug: lab!.slug };
}

type Setup = Awaited<ReturnType<typeof setup>>;

/** A registered order (POST /v3/order) with a physician and a comment, once its requisition exists. */
async function orderWithRequisition(s: Setup, extra: Record<string, unknown> = {}) {
  const res = await http(stack, 'POST', '/v3/order', {
    apiKey: s.apiKey,
    body: { user_id: s.userId, order_set: { lab_test_ids: [s.labTestId] }, ...patient, physician, clinical_notes: ORDER_COMMENT, ...extra },
  });
  expect(res.status, JSON.stringify(res.json)).toBe(200);
  const id = (res.json.order as { id: string }).id;
  return eventually(async () => {
    const o = await s.client.labTests.getOrder(id);
    return o.events.some((e) => e.status === 'received.testkit.requisition_created') ? o : null;
  });
}

const bytesOf = async (p: Promise<{ arrayBuffer(): Promise<ArrayBuffer> }>) => Buffer.from(await (await p).arrayBuffer());
const sdkError = (p: Promise<unknown>) => p.then(() => null, (e: unknown) => e as VitalError);

/** The signed link, asked of this test's server (PUBLIC_URL names a host that does not exist here). */
function local(url: string, change: (u: URL) => void = () => {}) {
  const u = new URL(url);
  change(u);
  return `${u.pathname}${u.search}`;
}

describe('requisition PDF', () => {
  it('has patient, DOB, order and sample ids with a barcode, markers, physician and both comments; served with the team key', async () => {
    const s = await setup();
    const created = await admin('create-lab-account', '--team', s.teamId, '--lab-slug', s.labSlug, '--name', 'Acme at Fixture Lab', '--default-comment', ACCOUNT_COMMENT);
    expect(created.code, created.stderr).toBe(0);
    expect(created.stdout.trim().split('\n')).toHaveLength(1);
    const account = JSON.parse(created.stdout) as Record<string, string>;
    expect(account).toMatchObject({ team_id: s.teamId, lab_slug: s.labSlug, name: 'Acme at Fixture Lab', default_comment: ACCOUNT_COMMENT, status: 'active' });

    const order = await orderWithRequisition(s, { lab_account_id: account.lab_account_id });
    const bytes = await bytesOf(s.client.labTests.getOrderRequistionPdf(order.id));
    expect(bytes.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    expect(bytes.toString('latin1')).toMatch(/\/Subtype \/Image/); // the sample id's barcode
    const { text } = await pdfText(bytes);
    for (const want of ['Jane Doe', '1990-05-17', order.id, order.sampleId!, 'Hemoglobin A1c', 'Total Cholesterol', 'Gregory House', '1234567893', 'Acme at Fixture Lab']) {
      expect(text).toContain(want);
    }
    // the order's comment, then the lab account's default comment, on lines of their own
    const lines = text.split('\n');
    expect(lines.indexOf(ORDER_COMMENT)).toBeGreaterThan(-1);
    expect(lines.indexOf(ACCOUNT_COMMENT)).toBeGreaterThan(lines.indexOf(ORDER_COMMENT));

    const res = await http(stack, 'GET', `/v3/order/${order.id}/requisition/pdf`, { apiKey: s.apiKey });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/pdf');
    expect(res.headers.get('content-disposition')).toBe(`inline; filename="requisition-${order.id}.pdf"`);
    expect(res.headers.get('cache-control')).toBe('no-store');
  });

  it('prints the order comment alone without a lab account; none before requisition_created (404, url null)', async () => {
    const s = await setup();
    const order = await orderWithRequisition(s);
    const { text } = await pdfText(await bytesOf(s.client.labTests.getOrderRequistionPdf(order.id)));
    expect(text).toContain(ORDER_COMMENT);
    expect(text).not.toContain(ACCOUNT_COMMENT);

    const { order: kit } = await s.client.testkit.createOrder({
      userId: s.userId,
      labTestId: s.labTestId,
      shippingDetails: { receiverName: 'Jane Doe', firstLine: '123 Main St', city: 'San Francisco', state: 'CA', zip: '94105', country: 'US', phoneNumber: '+14155552671' },
    });
    expect(kit.requisitionFormUrl ?? null).toBeNull();
    const err = await sdkError(s.client.labTests.getOrderRequistionPdf(kit.id));
    expect(err).toBeInstanceOf(VitalError);
    expect(err!.statusCode).toBe(404);
    expect(err!.body).toEqual({ detail: `Requisition is not available for order - ${kit.id}. It exists once the order reaches requisition_created.` });
  });
});

describe('requisition_form_url', () => {
  it('is a link under PUBLIC_URL valid for 7 days that works without a key, also in the webhook payload', async () => {
    const s = await setup();
    const order = await orderWithRequisition(s);
    const url = order.requisitionFormUrl!;
    const pattern = new RegExp(`^${PUBLIC_URL}${requisitionDocumentPath(order.id)}\\?expires=(\\d+)&signature=[A-Za-z0-9_-]{43}$`);
    expect(url).toMatch(pattern);
    const expires = Number(pattern.exec(url)![1]) * 1000;
    expect(Math.abs(expires - (Date.now() + 7 * 86400_000))).toBeLessThan(60_000);

    const viaLink = await fetch(`${stack.url}${local(url)}`); // no API key
    expect(viaLink.status).toBe(200);
    expect(viaLink.headers.get('content-type')).toBe('application/pdf');
    const { text } = await pdfText(new Uint8Array(await viaLink.arrayBuffer()));
    expect(text).toContain(order.id);
    expect(text).toContain('Jane Doe');

    // the labtest.order.updated event of requisition_created carries a working link too (made by the worker)
    const events = await stack.db.db
      .select()
      .from(outboxEvents)
      .where(and(eq(outboxEvents.teamId, s.teamId), eq(outboxEvents.subjectId, order.id)));
    const atRequisition = events.find((e) => (e.data.last_event as { status: string }).status === 'received.testkit.requisition_created');
    const hooked = atRequisition!.data.requisition_form_url as string;
    expect(new URL(hooked).pathname).toBe(requisitionDocumentPath(order.id));
    expect((await http(stack, 'GET', local(hooked))).status).toBe(200);
    const before = events.find((e) => e.eventType === 'labtest.order.created')!;
    expect(before.data.requisition_form_url).toBeNull();
  });

  it('refuses a tampered, foreign or expired link with 403, and a bad id with 422', async () => {
    const s = await setup();
    const order = await orderWithRequisition(s);
    const other = await orderWithRequisition(s);
    const url = order.requisitionFormUrl!;
    const sig = new URL(url).searchParams.get('signature')!;
    const flipped = (sig[0] === 'A' ? 'B' : 'A') + sig.slice(1);
    const invalid = [
      local(url, (u) => u.searchParams.set('signature', flipped)),
      local(url, (u) => u.searchParams.set('expires', String(Number(u.searchParams.get('expires')) + 86400))),
      local(url, (u) => u.searchParams.delete('signature')),
      local(url, (u) => (u.search = '')),
      local(url, (u) => (u.pathname = requisitionDocumentPath(other.id))), // one order's signature on another's path
    ];
    for (const path of invalid) {
      const res = await http(stack, 'GET', path);
      expect(res.status, path).toBe(403);
      expect(res.json).toEqual({ detail: 'Invalid link signature' });
    }

    // the same key the service uses, with an expiry in the past
    const signer = await loadUrlSigner(stack.db.db, { PUBLIC_URL });
    const expired = signer.sign(requisitionDocumentPath(order.id), new Date(Date.now() - 1000));
    const res = await http(stack, 'GET', local(expired));
    expect(res.status).toBe(403);
    expect(res.json).toEqual({ detail: 'This link has expired; fetch the order again for a new requisition_form_url' });
    const fresh = signer.sign(requisitionDocumentPath(order.id), new Date(Date.now() + 60_000));
    expect((await http(stack, 'GET', local(fresh))).status).toBe(200);

    const bad = await http(stack, 'GET', '/documents/orders/nope/requisition.pdf?expires=1&signature=x');
    expect(bad.status).toBe(422);
    expect((bad.json.detail as { loc: string[] }[])[0]!.loc).toEqual(['path', 'order_id']);
  });
});

describe('results', () => {
  it('answer 404 before results exist, then the stored results, metadata and a PDF of them once completed', async () => {
    const s = await setup();
    const { order } = await s.client.labTests.createOrder({
      userId: s.userId,
      orderSet: { labTestIds: [s.labTestId] },
      patientDetails: { firstName: 'Jane', lastName: 'Doe', dob: '1990-05-17', gender: 'female', phoneNumber: '+14155552671', email: 'jane@example.com' },
      patientAddress: { firstLine: '123 Main St', city: 'San Francisco', state: 'CA', zip: '94105', country: 'US' },
    });
    const detail = `Results are not available for order - ${order.id}. Did you receive a webhook for this order?`;
    for (const call of [
      () => s.client.labTests.getResultRaw(order.id),
      () => s.client.labTests.getResultMetadata(order.id),
      () => s.client.labTests.getResultPdf(order.id),
    ]) {
      const err = await sdkError(call());
      expect(err).toBeInstanceOf(VitalError);
      expect(err!.statusCode).toBe(404);
      expect(err!.body).toEqual({ detail });
    }

    await s.client.labTests.simulateOrderProcess(order.id, { finalStatus: 'completed.testkit.completed' });
    const done = await eventually(async () => {
      const o = await s.client.labTests.getOrder(order.id);
      return o.status === 'completed' ? o : null;
    });

    const raw = await s.client.labTests.getResultRaw(order.id);
    expect(raw.metadata).toMatchObject({ patient: 'Jane Doe', dob: '1990-05-17', specimenNumber: done.sampleId, status: 'final', interpretation: 'normal' });
    const results = raw.results as { name: string; result: string; type: string; unit?: string }[];
    expect(results.map((r) => r.name)).toEqual(['Hemoglobin A1c', 'Total Cholesterol']);
    for (const r of results) {
      expect(r.type).toBe('numeric');
      expect(r.result).toMatch(/^\d+(\.\d+)?$/);
    }
    expect(raw.missingResults).toEqual([]);
    expect(await s.client.labTests.getResultMetadata(order.id)).toEqual(raw.metadata);

    const pdf = await bytesOf(s.client.labTests.getResultPdf(order.id));
    expect(pdf.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    const { lines } = await pdfText(pdf);
    for (const want of ['Jane Doe', '1990-05-17', order.id, done.sampleId!, 'Final report · interpretation: normal']) expect(lines).toContain(want);
    for (const r of results) {
      // each row: name, value, unit next to each other, as the results endpoint reports them
      const at = lines.indexOf(r.name);
      expect(at, r.name).toBeGreaterThan(-1);
      expect(lines.slice(at + 1, at + 3)).toEqual([r.result, r.unit]);
    }
  });
});

describe('isolation and bad input', () => {
  it('another team gets 404 for every document; bad ids are 422; no key is 401', async () => {
    const s = await setup();
    const order = await orderWithRequisition(s);
    const outsider = await newTeam(stack);
    const paths = ['requisition/pdf', 'result', 'result/metadata', 'result/pdf'];
    for (const p of paths) {
      const theirs = await http(stack, 'GET', `/v3/order/${order.id}/${p}`, { apiKey: outsider.apiKey });
      expect(theirs.status, p).toBe(404);
      expect(theirs.json).toEqual({ detail: "This order doesn't exist" });
      const unknown = await http(stack, 'GET', `/v3/order/${MISSING}/${p}`, { apiKey: s.apiKey });
      expect(unknown.status, p).toBe(404);
      expect(unknown.json).toEqual({ detail: "This order doesn't exist" });
      const bad = await http(stack, 'GET', `/v3/order/not-an-id/${p}`, { apiKey: s.apiKey });
      expect(bad.status, p).toBe(422);
      expect((bad.json.detail as { loc: string[] }[])[0]!.loc).toEqual(['path', 'order_id']);
      expect((await http(stack, 'GET', `/v3/order/${order.id}/${p}`)).status, p).toBe(401);
    }
    // the owner still gets its requisition
    expect((await http(stack, 'GET', `/v3/order/${order.id}/requisition/pdf`, { apiKey: s.apiKey })).status).toBe(200);
  });
});

describe('lab_account_id on order creation', () => {
  it('must be one of the team’s own active accounts at the lab test’s lab; otherwise nothing is created', async () => {
    const s = await setup();
    const outsider = await newTeam(stack);
    const theirs = await createLabAccount(stack.db.db, { teamId: outsider.teamId, labId: s.labId, name: 'Theirs', defaultComment: null });
    const inactive = await createLabAccount(stack.db.db, { teamId: s.teamId, labId: s.labId, name: 'Closed', defaultComment: null });
    await stack.db.db.update(labAccounts).set({ status: 'inactive' }).where(eq(labAccounts.id, inactive!.id));
    const { labId: otherLab } = await testkitLabTest(stack.db.db, s.teamId);
    const elsewhere = await createLabAccount(stack.db.db, { teamId: s.teamId, labId: otherLab, name: 'Elsewhere', defaultComment: null });

    const cases: [string, number, string][] = [
      [MISSING, 404, 'Lab account not found'],
      [theirs!.id, 404, 'Lab account not found'],
      [inactive!.id, 400, `Lab account ${inactive!.id} is not active`],
      [elsewhere!.id, 400, `Lab account ${elsewhere!.id} is not at the lab of lab test ${s.labTestId}`],
    ];
    for (const [id, status, detail] of cases) {
      const viaOrder = await http(stack, 'POST', '/v3/order', {
        apiKey: s.apiKey,
        body: { user_id: s.userId, order_set: { lab_test_ids: [s.labTestId], lab_account_id: id }, ...patient },
      });
      expect(viaOrder.status, detail).toBe(status);
      expect(viaOrder.json).toEqual({ detail });
      const viaKit = await http(stack, 'POST', '/v3/order/testkit', {
        apiKey: s.apiKey,
        body: { user_id: s.userId, lab_test_id: s.labTestId, lab_account_id: id, shipping_details: { receiver_name: 'Jane Doe', first_line: '123 Main St', city: 'San Francisco', state: 'CA', zip: '94105', country: 'US', phone_number: '+14155552671' } },
      });
      expect(viaKit.status, detail).toBe(status);
    }
    const malformed = await http(stack, 'POST', '/v3/order', { apiKey: s.apiKey, body: { user_id: s.userId, lab_account_id: 'nope', order_set: { lab_test_ids: [s.labTestId] }, ...patient } });
    expect(malformed.status).toBe(422);
    expect((await http(stack, 'GET', '/v3/orders', { apiKey: s.apiKey })).json.total).toBe(0);
  });

  it('create-lab-account refuses bad arguments (exit 2), an unknown team or lab (exit 1)', async () => {
    const s = await setup();
    for (const args of [
      ['create-lab-account', '--lab-slug', s.labSlug, '--name', 'A'],
      ['create-lab-account', '--team', 'nope', '--lab-slug', s.labSlug, '--name', 'A'],
      ['create-lab-account', '--team', s.teamId, '--name', 'A'],
      ['create-lab-account', '--team', s.teamId, '--lab-slug', s.labSlug],
    ]) {
      const res = await admin(...args);
      expect(res.code, args.join(' ')).toBe(2);
      expect(res.stderr).toMatch(/usage: npm run admin/);
    }
    const noTeam = await admin('create-lab-account', '--team', MISSING, '--lab-slug', s.labSlug, '--name', 'A');
    expect(noTeam.code).toBe(1);
    expect(noTeam.stderr).toMatch(/no team/);
    const noLab = await admin('create-lab-account', '--team', s.teamId, '--lab-slug', 'no-such-lab', '--name', 'A');
    expect(noLab.code).toBe(1);
    expect(noLab.stderr).toMatch(/no lab/);
    expect(await stack.db.db.select().from(labAccounts).where(eq(labAccounts.teamId, s.teamId))).toEqual([]);
  });
});
