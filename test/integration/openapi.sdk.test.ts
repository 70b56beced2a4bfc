import { randomUUID } from 'node:crypto';
import { VitalClient, VitalError } from '@tryvital/vital-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { OpenApiDocument } from '../../api/openapi/document.js';
import { createPartnerKey } from '../../db/queries/partners.js';
import { providerConnections } from '../../db/schema/index.js';
import { ingestionWorkflowId, ingestionWorkflowType, taskQueue, type IngestionInput } from '../../workflows/ingestion/definitions.js';
import { samplePdf } from '../fixtures/lab-reports/report.js';
import { testkitLabTest } from '../support/catalog-fixture.js';
import { exchange, fuzzRequests, pool, prepareFuzzWorld } from '../support/fuzz-cases.js';
import { servedRoutes } from '../support/fuzz-served-routes.js';
import { eventually, newTeam, startTestStack, type TestStack } from '../support/harness.js';
import { ResponseValidator, recordingFetch, type Exchange } from '../support/openapi-validator.js';
import { specFor, type RouteSpec } from './fuzz-routes.js';

/**
 * The API document against the service's real answers: the SDK (and plain HTTP for what it has no
 * method for: webhook endpoints, the Link widget's calls) drives a team through users, lab tests,
 * orders to completion and their documents, webhooks, a parsing job, Link, insurance, appointments
 * information and a demo wearable backfill; every answer, errors included, is recorded and must
 * match GET /openapi.json for its route and status. Then the fuzz suite's malformed requests (a few
 * per route, test/support/fuzz-cases.ts) reach every served route, and their refusals must match too.
 */

let stack: TestStack;
let validator: ResponseValidator;
const log: Exchange[] = [];
const record = recordingFetch(log);

beforeAll(async () => {
  // Completed orders end their workflow at once (no correction window), so results are final; rate
  // limits off, so the malformed requests below all reach the routes.
  stack = await startTestStack({ RATE_LIMIT_TEAM_PER_SECOND: '0', RATE_LIMIT_IP_PER_SECOND: '0' }, { orderDeadlines: { correctionWindowSeconds: 0 } });
  const res = await record(`${stack.url}/openapi.json`);
  validator = new ResponseValidator((await res.json()) as OpenApiDocument);
});
afterAll(async () => {
  await stack?.close();
});

const sdk = (apiKey: string) => new VitalClient({ apiKey, baseUrl: stack.url, maxRetries: 0, timeoutInSeconds: 30, fetch: record });

/** Plain HTTP through the recording fetch; answers the status and the JSON body (if any). */
async function call(method: string, path: string, headers: Record<string, string>, body?: unknown): Promise<{ status: number; json: unknown }> {
  const res = await record(`${stack.url}${path}`, {
    method,
    headers: { ...headers, ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
  });
  const text = await res.text();
  return { status: res.status, json: (res.headers.get('content-type') ?? '').includes('json') && text ? (JSON.parse(text) as unknown) : undefined };
}

/** An SDK call that must be refused: answers its status (the answer itself is in the log). */
async function refused(p: Promise<unknown>): Promise<number> {
  try {
    await p;
  } catch (err) {
    if (err instanceof VitalError) return err.statusCode ?? 0;
    throw err;
  }
  throw new Error('expected the call to be refused');
}

const shipping = { receiverName: 'Jane Doe', firstLine: '123 Main St', city: 'San Francisco', state: 'CA', zip: '94105', country: 'US', phoneNumber: '+14155552671' };
const patientDetails = { firstName: 'Jane', lastName: 'Doe', dob: '1990-05-17', gender: 'female' as const, phoneNumber: '+14155552671', email: 'jane@example.com' };
const patientAddress = { firstLine: '123 Main St', city: 'San Francisco', state: 'CA', zip: '94105', country: 'US' };

describe('GET /openapi.json against the answers of a representative run', () => {
  it('every answer of the run matches the document for its route and status', async () => {
    const team = await newTeam(stack);
    const key = { 'x-vital-api-key': team.apiKey };
    const client = sdk(team.apiKey);
    const step = (what: string) => process.stdout.write(`[openapi] ${what} (${log.length} answers so far)\n`);

    step('users');
    const { userId } = await client.user.create({ clientUserId: `openapi-${randomUUID()}`, fallbackTimeZone: 'Europe/Berlin' });
    await client.user.get(userId);
    await client.user.getAll();
    await client.user.patch(userId, { fallbackBirthDate: '1990-05-17' });
    const user = await client.user.get(userId);
    await client.user.getByClientUserId(user.clientUserId);
    await client.user.getTeamMetrics();
    await client.user.getConnectedProviders(userId);
    await client.user.getDevices(userId);
    await client.user.upsertUserInfo(userId, {
      firstName: 'Jane', lastName: 'Doe', email: 'jane@example.com', phoneNumber: '+14155552671', gender: 'female', dob: '1990-05-17',
      address: { firstLine: '123 Main St', city: 'San Francisco', state: 'CA', zip: '94105', country: 'US' },
    });
    await client.user.getLatestUserInfo(userId);
    const insured = { firstName: 'Jane', lastName: 'Doe', gender: 'female' as const, address: patientAddress, dob: '1990-05-17', email: 'jane@example.com', phoneNumber: '+14155552671' };
    await client.user.createInsurance(userId, { payorCode: 'AETNA', memberId: 'M-1', relationship: 'Self', insured });
    await client.user.getLatestInsurance(userId);
    await client.user.getUserSignInToken(userId);
    await client.user.createPortalUrl(userId, { context: 'launch' });
    const { userId: doomed } = await client.user.create({ clientUserId: `openapi-doomed-${randomUUID()}` });
    await client.user.delete(doomed);
    await client.user.undoDelete({ userId: doomed });
    expect(await refused(client.user.get(randomUUID()))).toBe(404);
    expect(await refused(client.user.get('not-a-uuid'))).toBe(422);
    expect(await refused(sdk('sk_us_wrong').user.getAll())).toBe(401);

    step('team, providers, insurance');
    await client.team.get(team.teamId);
    await client.team.getPhysicians(team.teamId);
    await client.team.getUserById({ queryId: userId });
    await client.team.getSourcePriorities();
    await client.team.getSvixUrl();
    await client.providers.getAll();
    await client.insurance.searchGetPayorInfo({ insuranceName: 'aetna' });
    await client.insurance.searchPayorInfo({ insuranceName: 'blue cross' });
    await client.insurance.searchDiagnosis({ diagnosisQuery: 'diabetes' });
    await client.labTests.validateIcdCodes({ codes: ['E11.9', 'nonsense'] });

    step('lab tests');
    const { labTestId } = await testkitLabTest(stack.db.db, team.teamId);
    await client.labTests.getLabs();
    await client.labTests.get();
    await client.labTests.getPaginated();
    const labTest = await client.labTests.getById(labTestId);
    await client.labTests.getMarkers();
    await client.labTests.getMarkersForLabTest(labTestId);
    await client.labTests.getMarkersForOrderSet({ body: { labTestIds: [labTestId] } });
    const marker = labTest.markers?.[0];
    if (marker?.providerId && labTest.lab) await client.labTests.getMarkersByLabAndProviderId(marker.providerId, labTest.lab.id);
    await client.labTests.updateLabTest(labTestId, { name: 'OpenAPI fixture test' });
    await call('GET', '/v3/lab_test/lab_account', key);

    step('orders');
    const created = await client.testkit.createOrder({ userId, labTestId, shippingDetails: shipping });
    const orderId = created.order.id;
    await client.testkit.register({ sampleId: created.order.sampleId!, patientDetails, patientAddress });
    await client.labTests.getOrder(orderId);
    await client.labTests.getOrders({});
    await client.labTests.getOrderRequistionPdf(orderId);
    await client.labTests.simulateOrderProcess(orderId, { finalStatus: 'completed.testkit.completed' });
    await eventually(async () => (await client.labTests.getOrder(orderId)).status === 'completed', 60_000, 500);
    await client.labTests.getResultRaw(orderId);
    await client.labTests.getResultMetadata(orderId);
    await client.labTests.getResultPdf(orderId);
    await client.order.resendEvents({ orderIds: [orderId] });
    const second = await client.testkit.createOrder({ userId, labTestId, shippingDetails: shipping });
    await client.labTests.cancelOrder(second.order.id);
    expect(await refused(client.labTests.getOrder(randomUUID()))).toBe(404);
    expect(await refused(client.labTests.cancelOrder(randomUUID()))).toBe(404);
    await client.labTests.getOrderPscInfo(orderId).catch(() => undefined); // 200 or 404: either is checked
    const markerIds = (labTest.markers ?? []).map((m) => m.id);
    await client.labTests.create({ name: 'OpenAPI panel', method: 'testkit', description: 'd', markerIds });
    await client.payor.createPayor({ name: 'OpenAPI Health Plan', address: { firstLine: '1 Main St', city: 'Austin', state: 'TX', zip: '78701', country: 'US' } });

    step('partner API');
    const courier = { 'x-partner-api-key': (await createPartnerKey(stack.db.db, { name: 'courier', kind: 'courier', labId: null, environment: 'sandbox', region: 'us' })).apiKey };
    const third = await client.testkit.createOrder({ userId, labTestId, shippingDetails: shipping });
    expect((await call('POST', `/partner/v1/orders/${third.order.id}/shipment`, courier, { event: 'transit_customer', courier: 'usps' })).status).toBe(202);
    expect((await call('POST', `/partner/v1/orders/${third.order.id}/shipment`, courier, { event: 'teleported' })).status).toBe(422);
    expect((await call('POST', `/partner/v1/orders/${third.order.id}/shipment`, {}, { event: 'transit_customer' })).status).toBe(401);

    step('appointments information');
    await client.labTests.getAreaInfo({ zipCode: '94105' });
    await client.labTests.getPhlebotomyAppointmentCancellationReason();
    await client.labTests.getPscAppointmentCancellationReason();
    await client.labTests.getPhlebotomyAppointmentAvailability({ body: { firstLine: '100 West Lincoln Street', city: 'Phoenix', state: 'AZ', zipCode: '85004' } });
    await call('GET', `/v3/order/psc/info?zip_code=94105&lab_id=${labTest.lab!.id}`, key);

    step('webhooks');
    const endpoint = (await call('POST', '/v2/webhooks/endpoints', key, { url: 'http://127.0.0.1:9/hook', event_types: ['labtest.order.'] })).json as { id: string };
    await call('GET', '/v2/webhooks/endpoints', key);
    await call('GET', `/v2/webhooks/endpoints/${endpoint.id}`, key);
    await call('PATCH', `/v2/webhooks/endpoints/${endpoint.id}`, key, { description: 'the OpenAPI run' });
    await call('GET', `/v2/webhooks/endpoints/${endpoint.id}/secret`, key);
    await call('POST', `/v2/webhooks/endpoints/${endpoint.id}/rotate_secret`, key);
    await call('POST', `/v2/webhooks/endpoints/${endpoint.id}/recover`, key, { since: new Date(Date.now() - 3_600_000).toISOString() });
    const events = (await call('GET', `/v2/webhooks/events?order_id=${orderId}`, key)).json as { data: { id: string }[] };
    expect(events.data.length).toBeGreaterThan(0);
    await call('GET', `/v2/webhooks/events/${events.data[0]!.id}`, key);
    await call('POST', `/v2/webhooks/events/${events.data[0]!.id}/resend`, key, { endpoint_id: endpoint.id });
    expect((await call('POST', '/v2/webhooks/endpoints', key, { url: 'not a url' })).status).toBe(422);
    await call('DELETE', `/v2/webhooks/endpoints/${endpoint.id}`, key);

    step('lab report parsing');
    const job = await client.labReport.parserCreateJob({ data: await samplePdf(), filename: 'report.pdf', contentType: 'application/pdf' }, { userId });
    await eventually(async () => (await client.labReport.parserGetJob(job.id)).status === 'completed', 120_000, 1000);

    step('link');
    const { linkToken } = await client.link.token({ userId });
    await client.link.isTokenValid({ token: linkToken });
    await client.link.startConnect({ linkToken, provider: 'oura' });
    await client.link.codeCreate({ userId });
    const widget = { 'x-vital-link-token': linkToken };
    await call('GET', '/v2/link/state', widget);
    await call('GET', '/v2/link/providers', widget);
    await call('GET', '/v2/link/provider/oauth/oura', widget);
    await call('GET', '/v2/team/link/config', widget);
    await call('POST', '/v2/link/provider/password/whoop', widget, { username: 'sandbox@example.com', password: 'wrong' });
    await call('POST', '/v2/link/provider/password/whoop', { 'x-vital-link-token': 'lt_not_a_token' }, { username: 'u', password: 'p' });
    await client.link.listBulkOps();

    step('wearables: a demo backfill');
    const [row] = await stack.db.db.insert(providerConnections).values({ userId, provider: 'fitbit', status: 'connected' }).returning();
    const input: IngestionInput = { teamId: team.teamId, userId, connectionId: row!.id, provider: 'fitbit', demo: true, pullIntervalSeconds: 3600 };
    await stack.temporal.workflow.start(ingestionWorkflowType, { taskQueue, workflowId: ingestionWorkflowId(row!.id), args: [input] });
    const today = new Date().toISOString().slice(0, 10);
    const start = new Date(Date.now() - 3 * 86_400_000).toISOString().slice(0, 10);
    await eventually(async () => (await client.activity.get(userId, { startDate: start, endDate: today })).activity.length > 0, 120_000, 1000);
    await eventually(async () => (await client.vitals.heartrate(userId, { startDate: start, endDate: today })).length > 0, 120_000, 1000);
    await client.vitals.heartrateGrouped(userId, { startDate: start, endDate: today });
    await client.vitals.steps(userId, { startDate: start, endDate: today });
    await client.sleep.get(userId, { startDate: start, endDate: today });
    await client.sleep.getRaw(userId, { startDate: start, endDate: today });
    await client.activity.getRaw(userId, { startDate: start, endDate: today });
    await client.devices.getRaw(userId);
    await client.user.getDevices(userId);
    await client.user.getConnectedProviders(userId);
    await client.introspect.getUserResources({ userId });
    await client.introspect.getUserHistoricalPulls({ userId });
    await client.link.bulkExport({ provider: 'fitbit', userIds: [userId] });
    await client.aggregate.queryOne(userId, {
      timeframe: { type: 'relative', anchor: today, past: { value: 7, unit: 'day' } },
      queries: [{ select: [{ groupKey: '*' }, { arg: { activity: 'steps' }, func: 'sum' }], groupBy: [{ dateTrunc: { value: 1, unit: 'day' }, arg: { index: 'activity' } }] }],
    });
    expect(await refused(client.aggregate.getResultTableForContinuousQuery(userId, 'weekly-steps'))).toBe(404);
    await stack.temporal.workflow.getHandle(ingestionWorkflowId(row!.id)).terminate('the OpenAPI run is done');

    step('service');
    await call('GET', '/health', {});
    await call('GET', '/openapi.json', {});

    const problems = log.flatMap((x) => validator.check(x));
    const operations = new Set(log.map((x) => (validator.operationOf(x.method, x.path) ? `${x.method} ${validator.operationOf(x.method, x.path)!.path}` : x.path)));
    const statuses = Object.fromEntries([...new Set(log.map((x) => x.status))].sort().map((s) => [s, log.filter((x) => x.status === s).length]));
    process.stdout.write(`[openapi] ${log.length} answers over ${operations.size} documented operations checked; statuses ${JSON.stringify(statuses)}; ${problems.length} problems\n`);
    expect(problems).toEqual([]);
    expect(operations.size).toBeGreaterThan(80);
  }, 600_000);

  it('every route answers malformed requests as the document says (the fuzz suite’s requests, a few per route)', async () => {
    const world = await prepareFuzzWorld(stack);
    const served = await servedRoutes();
    const routes = served.map((r) => specFor(r.method, r.path)).filter((r): r is RouteSpec => r !== undefined);
    expect(routes.length).toBe(served.length);
    const requests = fuzzRequests(routes, world, { seed: 20_261_125, runs: 4, familyRuns: 1 });
    const answers = await pool(requests, 4, async (req) => ({ req, answer: await exchange(stack.url, req) }));
    const problems: string[] = [];
    const reached = new Set<string>();
    for (const { req, answer } of answers) {
      if (answer.status === 0) continue; // an oversized body refused by closing the connection: no answer to check
      reached.add(req.route);
      let body: unknown;
      if (answer.contentType.includes('json')) {
        try {
          body = JSON.parse(answer.text);
        } catch {
          problems.push(`${req.route} → ${answer.status}: a JSON content type with a body that is not JSON`);
          continue;
        }
      }
      const path = new URL(req.path, 'http://x').pathname;
      problems.push(...validator.check({ method: req.method, path, status: answer.status, contentType: answer.contentType, ...(body !== undefined ? { body } : {}) }).map((p) => `${p} (${req.what})`));
    }
    const statuses = answers.reduce<Record<number, number>>((acc, a) => ({ ...acc, [a.answer.status]: (acc[a.answer.status] ?? 0) + 1 }), {});
    process.stdout.write(`[openapi] ${answers.length} malformed requests over ${reached.size} of ${served.length} routes checked; statuses ${JSON.stringify(statuses)}; ${problems.length} problems\n`);
    expect(problems.slice(0, 30)).toEqual([]);
    expect(reached.size).toBe(served.length);
  }, 600_000);

  it('refuses a real answer once it no longer matches the document', () => {
    const order = log.find((x) => x.method === 'GET' && /^\/v3\/order\/[0-9a-f-]{36}$/.test(x.path) && x.status === 200);
    expect(order, 'the run above read an order').toBeDefined();
    expect(validator.check(order!)).toEqual([]);
    const body = order!.body as Record<string, unknown>;
    expect(validator.check({ ...order!, body: { ...body, events: 'none' } }).join()).toMatch(/\/events must be array/);
    const { user_id: _dropped, ...withoutUser } = body;
    expect(validator.check({ ...order!, body: withoutUser }).join()).toMatch(/must have required property 'user_id'/);
    expect(validator.check({ ...order!, body: { ...body, created_at: 'yesterday' } }).join()).toMatch(/created_at must match format/);
    const job = log.find((x) => x.method === 'GET' && x.path.startsWith('/lab_report/v1/parser/job/') && x.status === 200)!;
    expect(validator.check({ ...job, body: { ...(job.body as object), status: 'exploded' } }).join()).toMatch(/\/status must be equal to one of the allowed values/);
  });
});
