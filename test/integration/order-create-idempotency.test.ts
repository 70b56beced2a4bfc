import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testkitLabTest } from '../support/catalog-fixture.js';
import { http, newTeam, sdkFor, startTestStack, type TestStack } from '../support/harness.js';

// POST /v3/order reads its idempotency key with what the order refers to (one statement); the key is still
// answered first: a replay answers the first order whatever the refs say now, a changed body is a 409 even
// when it names a user or lab test that does not exist.

let stack: TestStack;
beforeAll(async () => {
  stack = await startTestStack();
});
afterAll(async () => {
  await stack?.close();
});

const MISSING = '00000000-0000-4000-8000-000000000000';
const patient = {
  patient_details: { first_name: 'Jane', last_name: 'Doe', dob: '1990-05-17', gender: 'female', phone_number: '+14155552671', email: 'jane@example.com' },
  patient_address: { first_line: '123 Main St', city: 'San Francisco', state: 'CA', zip: '94105', country: 'US' },
};

describe('POST /v3/order with X-Idempotency-Key', () => {
  it('answers the key before the refs: replay after the user is deleted, 409 for a changed body naming unknown refs', async () => {
    const team = await newTeam(stack);
    const { labTestId } = await testkitLabTest(stack.db.db, team.teamId);
    const { userId } = await sdkFor(stack, team.apiKey).user.create({ clientUserId: `p-${randomUUID()}` });
    const body = { user_id: userId, order_set: { lab_test_ids: [labTestId] }, ...patient };
    const key = `k-${randomUUID()}`;
    const headers = { 'x-idempotency-key': key };
    const first = await http(stack, 'POST', '/v3/order', { apiKey: team.apiKey, body, headers });
    expect(first.status).toBe(200);
    const id = (first.json.order as { id: string }).id;

    expect((await http(stack, 'DELETE', `/v2/user/${userId}`, { apiKey: team.apiKey })).status).toBe(200);
    // without the key the deleted user is refused; with it, the first order is answered
    const fresh = await http(stack, 'POST', '/v3/order', { apiKey: team.apiKey, body });
    expect(fresh.status).toBe(404);
    expect(fresh.json).toEqual({ detail: 'User does not exist on this team' });
    const replay = await http(stack, 'POST', '/v3/order', { apiKey: team.apiKey, body, headers });
    expect(replay.status).toBe(200);
    expect((replay.json.order as { id: string }).id).toBe(id);

    for (const changed of [{ ...body, user_id: MISSING }, { ...body, order_set: { lab_test_ids: [MISSING] } }, { ...body, lab_account_id: MISSING }]) {
      const res = await http(stack, 'POST', '/v3/order', { apiKey: team.apiKey, body: changed, headers });
      expect(res.status).toBe(409);
      expect(res.json).toEqual({ detail: 'Idempotency key was reused with a different request' });
    }
    // a new key with unknown refs: the refs' own answers
    const other = { 'x-idempotency-key': `k-${randomUUID()}` };
    const unknownTest = await http(stack, 'POST', '/v3/order', { apiKey: team.apiKey, body: { ...body, order_set: { lab_test_ids: [MISSING] } }, headers: other });
    expect([unknownTest.status, unknownTest.json]).toEqual([404, { detail: 'User does not exist on this team' }]);
  });
});
