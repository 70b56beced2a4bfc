import type { VitalError } from '@tryvital/vital-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testkitLabTest } from '../support/catalog-fixture.js';
import { http, newTeam, sdkFor, startTestStack, type TestStack } from '../support/harness.js';
import { pdfText } from '../support/pdf-text.js';

let stack: TestStack;
beforeAll(async () => {
  stack = await startTestStack();
});
afterAll(async () => {
  await stack?.close();
});

const MISSING = '00000000-0000-4000-8000-000000000000';
const address = { firstLine: '1 Health Plaza', city: 'Hartford', state: 'CT', zip: '06156', country: 'US' };
const sdkError = (p: Promise<unknown>) => p.then(() => null, (e: unknown) => e as VitalError);
const bytesOf = async (p: Promise<{ arrayBuffer(): Promise<ArrayBuffer> }>) => Buffer.from(await (await p).arrayBuffer());

async function setup() {
  const team = await newTeam(stack);
  const client = sdkFor(stack, team.apiKey);
  const { userId } = await client.user.create({ clientUserId: `patient-${Date.now()}-${Math.random()}` });
  return { ...team, client, userId };
}

describe('payors', () => {
  it('search by name (GET and the deprecated POST), by clearinghouse id; a created payor is the team own', async () => {
    const s = await setup();
    const aetna = await s.client.insurance.searchGetPayorInfo({ insuranceName: 'aetna' });
    expect(aetna).toEqual([expect.objectContaining({ payorCode: 'AETNA', name: 'Aetna', source: 'platform' })]);
    const byId = await s.client.insurance.searchGetPayorInfo({ provider: 'change_healthcare', providerPayorId: '87726' });
    expect(byId.map((p) => p.payorCode)).toEqual(['UHC']);
    const old = await s.client.insurance.searchPayorInfo({ insuranceName: 'blue cross' });
    expect(old.map((p) => p.code).sort()).toEqual(['ANTHEMCA', 'BCBSTX']);

    const created = await s.client.payor.createPayor({ name: 'Harbor Health Plan', address, provider: 'availity', providerPayorId: 'HHP01' });
    expect(created).toMatchObject({ name: 'Harbor Health Plan', source: 'team', aliases: [] });
    expect(created.payorCode).toMatch(/^TEAM-[0-9A-F]{8}$/);
    expect((await s.client.insurance.searchGetPayorInfo({ insuranceName: 'harbor' })).map((p) => p.payorCode)).toEqual([created.payorCode]);
    const other = await setup();
    expect(await other.client.insurance.searchGetPayorInfo({ insuranceName: 'harbor' })).toEqual([]);
  });

  it('bad input is a 422 with detail', async () => {
    const s = await setup();
    expect((await http(stack, 'GET', '/v3/insurance/search/payor?provider=fax', { apiKey: s.apiKey })).status).toBe(422);
    const noName = await http(stack, 'POST', '/v3/payor', { apiKey: s.apiKey, body: { address: { first_line: 'x', city: 'y', state: 'CT', zip: '1', country: 'US' } } });
    expect(noName.status).toBe(422);
    expect(noName.json.detail).toEqual([expect.objectContaining({ loc: ['body', 'name'], type: 'missing' })]);
    const half = await http(stack, 'POST', '/v3/payor', { apiKey: s.apiKey, body: { name: 'X', address: { first_line: 'x', city: 'y', state: 'CT', zip: '1', country: 'US' }, provider: 'stedi' } });
    expect(half.status).toBe(422);
  });
});

describe('diagnoses and ICD-10 validation', () => {
  it('searchDiagnosis and validateIcdCodes through the SDK', async () => {
    const s = await setup();
    const found = await s.client.insurance.searchDiagnosis({ diagnosisQuery: 'prediabetes' });
    expect(found).toEqual([{ diagnosisCode: 'R73.03', description: 'Prediabetes', isSecondary: false }]);
    expect(await s.client.labTests.validateIcdCodes({ codes: ['E11.9', 'e785'] })).toEqual({ valid: true, errors: [], violations: [], warnings: [] });
    const bad = await s.client.labTests.validateIcdCodes({ codes: ['E11.9', 'R73.03', 'Q99.99', '12'] });
    expect(bad.valid).toBe(false);
    expect(bad.errors).toEqual(['Q99.99 is not a known ICD-10-CM code', '12 is not a valid ICD-10 code format']);
    expect(bad.violations).toContainEqual({ code: 'E11.9', conflictsWith: 'R73.03', type: 'excludes1' });
  });

  it('empty or missing input is a 422', async () => {
    const s = await setup();
    expect((await sdkError(s.client.labTests.validateIcdCodes({ codes: [] })))?.statusCode).toBe(422);
    expect((await http(stack, 'POST', '/v3/insurance/validate_icd_codes', { apiKey: s.apiKey, body: {} })).status).toBe(422);
    expect((await http(stack, 'GET', '/v3/insurance/search/diagnosis', { apiKey: s.apiKey })).status).toBe(422);
  });
});

describe('user insurance', () => {
  const insured = { firstName: 'Jane', lastName: 'Doe', gender: 'female' as const, address, dob: '1990-05-17', email: 'jane@example.com', phoneNumber: '+14155552671' };

  it('createInsurance, then getLatestInsurance (primary or not)', async () => {
    const s = await setup();
    const first = await s.client.user.createInsurance(s.userId, { payorCode: 'CIGNA', memberId: 'M-1', relationship: 'Self', insured });
    expect(first).toMatchObject({ payorCode: 'CIGNA', memberId: 'M-1', isPrimary: true, company: { name: 'Cigna Healthcare' } });
    await s.client.user.createInsurance(s.userId, { payorCode: 'AETNA', memberId: 'M-2', relationship: 'Spouse', insured, isPrimary: false });
    expect((await s.client.user.getLatestInsurance(s.userId)).memberId).toBe('M-2');
    expect((await s.client.user.getLatestInsurance(s.userId, { isPrimary: true })).memberId).toBe('M-1');
  });

  it('unknown payor → 422; unknown or another team user → 404; none on file → 404', async () => {
    const s = await setup();
    const unknown = await sdkError(s.client.user.createInsurance(s.userId, { payorCode: 'NOPE', memberId: 'M', relationship: 'Self', insured }));
    expect(unknown?.statusCode).toBe(422);
    const other = await setup();
    const foreign = await sdkError(other.client.user.createInsurance(s.userId, { payorCode: 'CIGNA', memberId: 'M', relationship: 'Self', insured }));
    expect(foreign?.statusCode).toBe(404);
    expect((await sdkError(s.client.user.getLatestInsurance(MISSING)))?.statusCode).toBe(404);
    const none = await sdkError(s.client.user.getLatestInsurance(s.userId));
    expect(none?.body).toEqual({ detail: 'No insurance found for this user' });
    const bad = await http(stack, 'POST', `/v2/user/${s.userId}/insurance`, { apiKey: s.apiKey, body: { payor_code: 'CIGNA', member_id: 'M', relationship: 'Brother' } });
    expect(bad.status).toBe(422);
  });
});

describe('order documents: labels, ABN, collection instructions', () => {
  const patient = {
    patient_details: { first_name: 'Jane', last_name: 'Doe', dob: '1950-05-17', gender: 'female', phone_number: '+14155552671', email: 'jane@example.com' },
    patient_address: { first_line: '123 Main St', city: 'San Francisco', state: 'CA', zip: '94105', country: 'US' },
  };

  async function order(s: Awaited<ReturnType<typeof setup>>, extra: Record<string, unknown> = {}) {
    const { labTestId } = await testkitLabTest(stack.db.db, s.teamId);
    const res = await http(stack, 'POST', '/v3/order', { apiKey: s.apiKey, body: { user_id: s.userId, order_set: { lab_test_ids: [labTestId] }, ...patient, ...extra } });
    expect(res.status, JSON.stringify(res.json)).toBe(200);
    return (res.json.order as { id: string; sample_id: string });
  }

  it('labels carry the patient and sample id; collection instructions the method steps; ABN for Medicare billing', async () => {
    const s = await setup();
    const o = await order(s, { billing_type: 'commercial_insurance', icd_codes: ['Z13.220'], health_insurance: { payor_code: 'MEDICARECA' } });
    const labels = await bytesOf(s.client.labTests.getLabelsPdf(o.id, { numberOfLabels: 2, collectionDate: new Date('2026-11-20T09:30:00Z') }));
    expect(labels.subarray(0, 5).toString()).toBe('%PDF-');
    const { text } = await pdfText(labels);
    expect(text).toContain('Jane Doe');
    expect(text).toContain('Collected 2026-11-20 09:30 UTC');
    expect(text).toContain('Label 2 of 2');
    const instructions = (await pdfText(await bytesOf(s.client.labTests.getOrderCollectionInstructionPdf(o.id)))).text;
    expect(instructions).toContain('Register the kit before collecting');
    const abn = (await pdfText(await bytesOf(s.client.labTests.getOrderAbnPdf(o.id)))).text;
    expect(abn).toContain('Advance Beneficiary Notice');
    expect(abn).toContain('Medicare Part B');
  });

  it("a lab test's general collection instructions (labTests.getLabTestCollectionInstructionPdf): its name and method steps; unknown or bad id refused", async () => {
    const s = await setup();
    const { labTestId } = await testkitLabTest(stack.db.db, s.teamId, 'at_home_phlebotomy');
    const bytes = await bytesOf(s.client.labTests.getLabTestCollectionInstructionPdf(labTestId));
    expect(bytes.subarray(0, 5).toString()).toBe('%PDF-');
    const { text } = await pdfText(bytes);
    expect(text).toContain('Collection instructions:');
    expect(text).toContain('Wear a short-sleeved shirt');
    expect(text).not.toContain('Order');
    const other = await setup();
    const foreign = await http(stack, 'GET', `/v3/lab_test/${labTestId}/collection_instruction_pdf`, { apiKey: other.apiKey });
    expect(foreign.status).toBe(404);
    expect(foreign.json.detail).toBe('Lab test not found');
    const bad = await http(stack, 'GET', '/v3/lab_test/not-a-uuid/collection_instruction_pdf', { apiKey: s.apiKey });
    expect(bad.status).toBe(422);
    expect(bad.json.detail).toBeDefined();
  });

  it('no ABN without Medicare; unknown or other team order → 404; bad label query → 422', async () => {
    const s = await setup();
    const o = await order(s);
    const noAbn = await http(stack, 'GET', `/v3/order/${o.id}/abn_pdf`, { apiKey: s.apiKey });
    expect(noAbn.status).toBe(404);
    const other = await setup();
    for (const path of [`/v3/order/${o.id}/abn_pdf`, `/v3/order/${o.id}/collection_instruction_pdf`, `/v3/order/${MISSING}/labels/pdf?collection_date=2026-11-20T09:30:00Z`]) {
      const res = await http(stack, 'GET', path, { apiKey: other.apiKey });
      expect(res.status, path).toBe(404);
      expect(res.json.detail).toBe("This order doesn't exist");
    }
    for (const q of ['', '?collection_date=yesterday', '?collection_date=2026-11-20T09:30:00Z&number_of_labels=0', '?collection_date=2026-11-20T09:30:00Z&number_of_labels=many']) {
      const res = await http(stack, 'GET', `/v3/order/${o.id}/labels/pdf${q}`, { apiKey: s.apiKey });
      expect(res.status, q).toBe(422);
      expect(Array.isArray(res.json.detail)).toBe(true);
    }
    expect((await http(stack, 'GET', '/v3/order/nope/abn_pdf', { apiKey: s.apiKey })).status).toBe(422);
  });
});
