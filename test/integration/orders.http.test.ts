import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../api/app.js';
import { loadConfig } from '../../lib/config.js';
import { createLogger } from '../../lib/logger.js';
import { mintApiKey } from '../../domain/api-keys.js';
import { createTeam } from '../../db/queries/teams.js';
import { testkitLabTest } from '../support/catalog-fixture.js';
import { http, newTeam, startTestStack, type TestStack } from '../support/harness.js';

let stack: TestStack;
beforeAll(async () => {
  stack = await startTestStack();
});
afterAll(async () => {
  await stack?.close();
});

const MISSING = '00000000-0000-4000-8000-000000000000';
const shipping = {
  receiver_name: 'Jane Doe', first_line: '123 Main St', city: 'San Francisco', state: 'CA', zip: '94105', country: 'US', phone_number: '+14155552671',
};
const patient = {
  patient_details: { first_name: 'Jane', last_name: 'Doe', dob: '1990-05-17', gender: 'female', phone_number: '+14155552671', email: 'jane@example.com' },
  patient_address: { first_line: '123 Main St', city: 'San Francisco', state: 'CA', zip: '94105', country: 'US' },
};

async function setup() {
  const team = await newTeam(stack);
  const user = await http(stack, 'POST', '/v2/user', { apiKey: team.apiKey, body: { client_user_id: `p-${Math.random()}` } });
  const { labTestId } = await testkitLabTest(stack.db.db, team.teamId);
  return { ...team, userId: user.json.user_id as string, labTestId };
}

async function orderCount(apiKey: string) {
  return (await http(stack, 'GET', '/v3/orders', { apiKey })).json.total as number;
}

function expect422(res: Awaited<ReturnType<typeof http>>, locTail: string | null) {
  expect(res.status, JSON.stringify(res.json)).toBe(422);
  const detail = res.json.detail as { loc: unknown[] }[];
  expect(Array.isArray(detail)).toBe(true);
  if (locTail) expect(detail.some((d) => d.loc.includes(locTail)), JSON.stringify(detail)).toBe(true);
}

describe('POST /v3/order/testkit', () => {
  it('refuses bad input with 422 and creates nothing', async () => {
    const { apiKey, userId, labTestId } = await setup();
    const base = { user_id: userId, lab_test_id: labTestId, shipping_details: shipping };
    const cases: [unknown, string | null][] = [
      [{ ...base, user_id: 'nope' }, 'user_id'],
      [{ ...base, lab_test_id: undefined }, 'lab_test_id'],
      [{ ...base, shipping_details: { ...shipping, country: 'Utopia' } }, 'country'],
      [{ ...base, shipping_details: { ...shipping, phone_number: '555-1234' } }, 'phone_number'],
      [{ ...base, shipping_details: { ...shipping, zip: '' } }, 'zip'],
      [{ ...base, shipping_details: undefined }, 'shipping_details'],
    ];
    for (const [body, loc] of cases) expect422(await http(stack, 'POST', '/v3/order/testkit', { apiKey, body }), loc);
    expect422(await http(stack, 'POST', '/v3/order/testkit', { apiKey, rawBody: '{', headers: { 'content-type': 'application/json' } }), null);
    expect(await orderCount(apiKey)).toBe(0);
  });

  it('answers 404 for an unknown user or lab test, or another team\'s lab test', async () => {
    const { apiKey, userId, labTestId } = await setup();
    const unknownUser = await http(stack, 'POST', '/v3/order/testkit', { apiKey, body: { user_id: MISSING, lab_test_id: labTestId, shipping_details: shipping } });
    expect(unknownUser.status).toBe(404);
    expect(unknownUser.json.detail).toBe('User does not exist on this team');
    expect((await http(stack, 'POST', '/v3/order/testkit', { apiKey, body: { user_id: userId, lab_test_id: MISSING, shipping_details: shipping } })).status).toBe(404);
    const other = await setup();
    expect((await http(stack, 'POST', '/v3/order/testkit', { apiKey, body: { user_id: userId, lab_test_id: other.labTestId, shipping_details: shipping } })).status).toBe(404);
    expect(await orderCount(apiKey)).toBe(0);
  });

  it('refuses a lab test that is not a testkit on the testkit route', async () => {
    const team = await newTeam(stack);
    const user = await http(stack, 'POST', '/v2/user', { apiKey: team.apiKey, body: { client_user_id: 'walkin' } });
    const { labTestId } = await testkitLabTest(stack.db.db, team.teamId, 'walk_in_test');
    const res = await http(stack, 'POST', '/v3/order/testkit', { apiKey: team.apiKey, body: { user_id: user.json.user_id, lab_test_id: labTestId, shipping_details: shipping } });
    expect(res.status).toBe(400);
    expect(res.json.detail).toMatch(/collected by walk_in_test, not by a testkit/);
  });
});

describe('POST /v3/order', () => {
  it('refuses bad input with 422 and creates nothing', async () => {
    const { apiKey, userId, labTestId } = await setup();
    const base = { user_id: userId, order_set: { lab_test_ids: [labTestId] }, ...patient };
    const cases: [unknown, string | null][] = [
      [{ ...base, order_set: undefined }, 'lab_test_ids'],
      [{ ...base, order_set: { lab_test_ids: [labTestId, labTestId] } }, 'lab_test_ids'],
      [{ ...base, clinical_notes: 'x'.repeat(1001) }, 'clinical_notes'],
      [{ ...base, patient_details: { ...patient.patient_details, dob: '2999-01-01' } }, 'dob'],
      [{ ...base, patient_details: { ...patient.patient_details, gender: 'robot' } }, 'gender'],
      [{ ...base, patient_details: { ...patient.patient_details, email: 'not-an-email' } }, 'email'],
      [{ ...base, physician: { first_name: 'A', last_name: 'B', npi: '123' } }, 'npi'],
      [{ ...base, activate_by: '2025-02-30' }, 'activate_by'],
      [{ ...base, billing_type: 'free' }, 'billing_type'],
      [{ ...base, collection_method: 'walk_in_test' }, 'collection_method'],
    ];
    for (const [body, loc] of cases) expect422(await http(stack, 'POST', '/v3/order', { apiKey, body }), loc);
    expect422(await http(stack, 'POST', '/v3/order', { apiKey, body: base, headers: { 'x-idempotency-key': 'é'.repeat(3) } }), 'x-idempotency-key');
    expect(await orderCount(apiKey)).toBe(0);
  });

  it('keeps a scheduled order (activate_by in the future) ordered, and lists it as scheduled', async () => {
    const { apiKey, userId, labTestId } = await setup();
    // activate_by must be within a year (issue 10): half a year ahead.
    const activateBy = new Date(Date.now() + 180 * 86_400_000).toISOString().slice(0, 10);
    const res = await http(stack, 'POST', '/v3/order', { apiKey, body: { user_id: userId, order_set: { lab_test_ids: [labTestId] }, activate_by: activateBy, ...patient } });
    expect(res.status).toBe(200);
    const order = res.json.order as { id: string; events: { status: string }[]; activate_by: string };
    expect(order.activate_by).toBe(activateBy);
    await new Promise((r) => setTimeout(r, 500));
    const again = await http(stack, 'GET', `/v3/order/${order.id}`, { apiKey });
    expect((again.json.events as { status: string }[]).map((e) => e.status)).toEqual(['received.testkit.ordered']);
    const scheduled = await http(stack, 'GET', '/v3/orders?order_activation_types=scheduled', { apiKey });
    expect((scheduled.json.orders as { id: string }[]).map((o) => o.id)).toEqual([order.id]);
    expect((await http(stack, 'GET', '/v3/orders?order_activation_types=current', { apiKey })).json.total).toBe(0);
    // a scheduled order can still be cancelled
    expect((await http(stack, 'POST', `/v3/order/${order.id}/cancel`, { apiKey })).status).toBe(200);
  });
});

describe('POST /v3/order/testkit/register', () => {
  it('refuses bad input (422), an unknown sample (404) and a second registration (400)', async () => {
    const { apiKey, userId, labTestId } = await setup();
    const created = await http(stack, 'POST', '/v3/order/testkit', { apiKey, body: { user_id: userId, lab_test_id: labTestId, shipping_details: shipping } });
    const sampleId = (created.json.order as { sample_id: string }).sample_id;
    expect422(await http(stack, 'POST', '/v3/order/testkit/register', { apiKey, body: { sample_id: sampleId } }), 'patient_details');
    expect422(await http(stack, 'POST', '/v3/order/testkit/register', { apiKey, body: { sample_id: sampleId, ...patient, user_id: 'x' } }), 'user_id');
    expect((await http(stack, 'POST', '/v3/order/testkit/register', { apiKey, body: { sample_id: 'NOSUCHKIT123', ...patient } })).status).toBe(404);
    expect((await http(stack, 'POST', '/v3/order/testkit/register', { apiKey, body: { sample_id: sampleId, ...patient, user_id: MISSING } })).status).toBe(404);
    expect((await http(stack, 'POST', '/v3/order/testkit/register', { apiKey, body: { sample_id: sampleId, ...patient } })).status).toBe(200);
    const twice = await http(stack, 'POST', '/v3/order/testkit/register', { apiKey, body: { sample_id: sampleId, ...patient } });
    expect(twice.status).toBe(400);
    expect(twice.json.detail).toMatch(/already registered/);
  });

  it("cannot register another team's kit", async () => {
    const a = await setup();
    const b = await setup();
    const created = await http(stack, 'POST', '/v3/order/testkit', { apiKey: a.apiKey, body: { user_id: a.userId, lab_test_id: a.labTestId, shipping_details: shipping } });
    const sampleId = (created.json.order as { sample_id: string }).sample_id;
    expect((await http(stack, 'POST', '/v3/order/testkit/register', { apiKey: b.apiKey, body: { sample_id: sampleId, ...patient } })).status).toBe(404);
  });
});

describe('GET /v3/order/{id}, GET /v3/orders, cancel, simulate', () => {
  it('answer 422 for malformed ids and 404 for unknown or other teams\' orders', async () => {
    const a = await setup();
    const b = await setup();
    const created = await http(stack, 'POST', '/v3/order/testkit', { apiKey: a.apiKey, body: { user_id: a.userId, lab_test_id: a.labTestId, shipping_details: shipping } });
    const id = (created.json.order as { id: string }).id;
    for (const [method, path] of [['GET', '/v3/order/x'], ['POST', '/v3/order/x/cancel'], ['POST', '/v3/order/x/test']] as const) {
      expect422(await http(stack, method, path, { apiKey: a.apiKey }), 'order_id');
    }
    for (const [method, path] of [['GET', `/v3/order/${id}`], ['POST', `/v3/order/${id}/cancel`], ['POST', `/v3/order/${id}/test`]] as const) {
      expect((await http(stack, method, path, { apiKey: b.apiKey })).status).toBe(404);
      expect((await http(stack, method, path.replace(id, MISSING), { apiKey: a.apiKey })).status).toBe(404);
    }
    expect((await http(stack, 'GET', '/v3/orders', { apiKey: b.apiKey })).json.total).toBe(0);
    expect((await http(stack, 'GET', `/v3/order/${id}`, { apiKey: a.apiKey })).json.status).toBe('received');
  });

  it('refuses bad list filters with 422', async () => {
    const { apiKey } = await setup();
    for (const [q, loc] of [
      ['status=bogus', 'status'], ['page=0', 'page'], ['size=1000', 'size'], ['order_key=price', 'order_key'],
      ['start_date=yesterday', 'start_date'], ['order_type=drone', 'order_type'], ['user_id=1', 'user_id'],
    ] as const) {
      expect422(await http(stack, 'GET', `/v3/orders?${q}`, { apiKey }), loc);
    }
  });

  it('refuses bad simulation parameters with 422/400', async () => {
    const { apiKey, userId, labTestId } = await setup();
    const created = await http(stack, 'POST', '/v3/order/testkit', { apiKey, body: { user_id: userId, lab_test_id: labTestId, shipping_details: shipping } });
    const id = (created.json.order as { id: string }).id;
    expect422(await http(stack, 'POST', `/v3/order/${id}/test?final_status=finished`, { apiKey }), 'final_status');
    expect422(await http(stack, 'POST', `/v3/order/${id}/test?final_status=completed.testkit.ordered`, { apiKey }), 'final_status');
    expect422(await http(stack, 'POST', `/v3/order/${id}/test?delay=-1`, { apiKey }), 'delay');
    expect422(await http(stack, 'POST', `/v3/order/${id}/test`, { apiKey, body: { interpretation: 'weird' } }), 'interpretation');
    const wrongMethod = await http(stack, 'POST', `/v3/order/${id}/test?final_status=completed.walk_in_test.completed`, { apiKey });
    expect(wrongMethod.status).toBe(400);
  });

  it('refuses simulation outside the sandbox with 403', async () => {
    const team = await createTeam(stack.db.db, { name: 'prod', environment: 'production', region: 'us' });
    const app = createApp({
      db: stack.db,
      temporal: stack.temporal,
      logger: createLogger({ level: 'silent', pretty: false }),
      config: loadConfig({ SERVICE_ENVIRONMENT: 'production', API_KEY_CACHE_TTL_SECONDS: '0' }),
    });
    expect(mintApiKey('production', 'us').key).toMatch(/^pk_us_/);
    const res = await app.request(`/v3/order/${MISSING}/test`, { method: 'POST', headers: { 'x-service-api-key': team.apiKey } });
    expect(res.status).toBe(403);
    expect(await res.json()).toEqual({ detail: 'Order simulation is only available in the sandbox environment' });
  });
});
