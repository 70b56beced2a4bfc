import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { providerConnections } from '../../db/schema/index.js';
import { mintApiKey } from '../../domain/api-keys.js';
import { http, newTeam, startTestStack, type TestStack } from '../support/harness.js';

let stack: TestStack;
beforeAll(async () => {
  stack = await startTestStack();
});
afterAll(async () => {
  await stack?.close();
});

const uniq = (p: string) => `${p}-${Math.random().toString(36).slice(2, 10)}`;
const MISSING_UUID = '00000000-0000-4000-8000-000000000000';

async function teamWithUser() {
  const team = await newTeam(stack);
  const res = await http(stack, 'POST', '/v2/user', { apiKey: team.apiKey, body: { client_user_id: uniq('u') } });
  expect(res.status).toBe(200);
  return { ...team, userId: res.json.user_id as string, clientUserId: res.json.client_user_id as string };
}

function expect422(res: Awaited<ReturnType<typeof http>>, locTail: string | null) {
  expect(res.status).toBe(422);
  expect(res.headers.get('content-type')).toMatch(/application\/json/);
  const detail = res.json.detail as { loc: unknown[]; msg: string; type: string }[];
  expect(Array.isArray(detail)).toBe(true);
  expect(detail.length).toBeGreaterThan(0);
  for (const item of detail) {
    expect(typeof item.msg).toBe('string');
    expect(typeof item.type).toBe('string');
  }
  if (locTail !== null) expect(detail.map((d) => d.loc.at(-1))).toContain(locTail);
}

async function countUsers(teamApiKey: string): Promise<number> {
  const res = await http(stack, 'GET', '/v2/user', { apiKey: teamApiKey });
  return res.json.total as number;
}

describe('authentication', () => {
  it('answers 401 with {detail} for a missing, unknown, malformed or wrong-environment key', async () => {
    const missing = await http(stack, 'GET', '/v2/user');
    expect(missing.status).toBe(401);
    expect(missing.json.detail).toMatch(/Missing API key/);

    const unknown = await http(stack, 'GET', '/v2/user', { apiKey: mintApiKey('sandbox', 'us').key });
    expect(unknown.status).toBe(401);
    expect(unknown.json.detail).toBe('Invalid API key.');

    expect((await http(stack, 'GET', '/v2/user', { apiKey: 'not-a-key' })).status).toBe(401);

    const prod = await http(stack, 'GET', '/v2/user', { apiKey: mintApiKey('production', 'us').key });
    expect(prod.status).toBe(401);
    expect(prod.json.detail).toMatch(/production us environment; this service is sandbox us/);
    expect((await http(stack, 'GET', '/v2/user', { apiKey: mintApiKey('sandbox', 'eu').key })).status).toBe(401);
  });

  it('accepts x-vital-api-key as an alias of x-service-api-key', async () => {
    const { apiKey } = await newTeam(stack);
    const res = await http(stack, 'GET', '/v2/user', { headers: { 'x-vital-api-key': apiKey } });
    expect(res.status).toBe(200);
  });
});

describe('tenant isolation', () => {
  it("never shows or changes another team's user: 404 everywhere", async () => {
    const owner = await teamWithUser();
    const intruder = await newTeam(stack);
    const k = { apiKey: intruder.apiKey };
    expect((await http(stack, 'GET', `/v2/user/${owner.userId}`, k)).status).toBe(404);
    expect((await http(stack, 'GET', `/v2/user/resolve/${owner.clientUserId}`, k)).status).toBe(404);
    expect((await http(stack, 'GET', `/v2/user/providers/${owner.userId}`, k)).status).toBe(404);
    expect((await http(stack, 'PATCH', `/v2/user/${owner.userId}`, { ...k, body: { client_user_id: 'stolen' } })).status).toBe(404);
    expect((await http(stack, 'DELETE', `/v2/user/${owner.userId}`, k)).status).toBe(404);
    expect((await http(stack, 'POST', `/v2/user/undo_delete?user_id=${owner.userId}`, k)).status).toBe(404);
    expect((await http(stack, 'GET', '/v2/user', k)).json.total).toBe(0);

    const still = await http(stack, 'GET', `/v2/user/${owner.userId}`, { apiKey: owner.apiKey });
    expect(still.status).toBe(200);
    expect(still.json.client_user_id).toBe(owner.clientUserId);
  });
});

describe('POST /v2/user', () => {
  it.each([
    ['missing client_user_id', {}, 'client_user_id'],
    ['non-string client_user_id', { client_user_id: 42 }, 'client_user_id'],
    ['empty client_user_id', { client_user_id: '  ' }, 'client_user_id'],
    ['an e-mail address as client_user_id', { client_user_id: 'jane.doe@example.com' }, 'client_user_id'],
    ['an international phone number', { client_user_id: '+44 20 7946 0958' }, 'client_user_id'],
    ['a formatted US phone number', { client_user_id: '(555) 123-4567' }, 'client_user_id'],
    ['an unknown time zone', { client_user_id: 'x1', fallback_time_zone: 'Mars/Olympus' }, 'fallback_time_zone'],
    ['an offset instead of a zone', { client_user_id: 'x1', fallback_time_zone: '+01:00' }, 'fallback_time_zone'],
    ['an impossible birth date', { client_user_id: 'x1', fallback_birth_date: '2023-02-30' }, 'fallback_birth_date'],
    ['a birth date in another format', { client_user_id: 'x1', fallback_birth_date: '01/02/1990' }, 'fallback_birth_date'],
    ['ingestion_end before ingestion_start', { client_user_id: 'x1', ingestion_start: '2024-05-01', ingestion_end: '2024-04-01' }, 'ingestion_end'],
    ['a JSON array body', [], null],
  ])('refuses %s with 422 and creates nothing', async (_name, body, loc) => {
    const { apiKey } = await newTeam(stack);
    expect422(await http(stack, 'POST', '/v2/user', { apiKey, body }), loc);
    expect(await countUsers(apiKey)).toBe(0);
  });

  it('accepts a bare numeric id (customers use those) and a client_user_id of digits', async () => {
    const { apiKey } = await newTeam(stack);
    expect((await http(stack, 'POST', '/v2/user', { apiKey, body: { client_user_id: '1234567890' } })).status).toBe(200);
  });

  it('refuses malformed JSON and an empty body with 422', async () => {
    const { apiKey } = await newTeam(stack);
    const bad = await http(stack, 'POST', '/v2/user', { apiKey, rawBody: '{"client_user_id": ', headers: { 'content-type': 'application/json' } });
    expect422(bad, null);
    expect((bad.json.detail as { type: string }[])[0]!.type).toBe('json_invalid');
    expect422(await http(stack, 'POST', '/v2/user', { apiKey, rawBody: '' }), null);
    expect(await countUsers(apiKey)).toBe(0);
  });

  it('refuses a body over 1 MB with 413 and {detail}', async () => {
    const { apiKey } = await newTeam(stack);
    const big = JSON.stringify({ client_user_id: 'x'.repeat(1024 * 1024 + 10) });
    const res = await http(stack, 'POST', '/v2/user', { apiKey, rawBody: big, headers: { 'content-type': 'application/json' } });
    expect(res.status).toBe(413);
    expect(res.json.detail).toMatch(/larger than/);
    expect(await countUsers(apiKey)).toBe(0);
  });
});

describe('GET /v2/user', () => {
  it('accepts the trailing-slash form and refuses bad paging with 422', async () => {
    const { apiKey } = await teamWithUser();
    const slash = await http(stack, 'GET', '/v2/user/?offset=0&limit=10', { apiKey });
    expect(slash.status).toBe(200);
    expect(slash.json).toMatchObject({ total: 1, offset: 0, limit: 10 });
    expect422(await http(stack, 'GET', '/v2/user?offset=-1', { apiKey }), 'offset');
    expect422(await http(stack, 'GET', '/v2/user?limit=0', { apiKey }), 'limit');
    expect422(await http(stack, 'GET', '/v2/user?limit=abc', { apiKey }), 'limit');
    expect422(await http(stack, 'GET', '/v2/user?limit=501', { apiKey }), 'limit');
  });
});

describe('GET /v2/user/{user_id}, /resolve, /providers', () => {
  it('answers 422 for a malformed id and 404 for an unknown one', async () => {
    const { apiKey } = await newTeam(stack);
    expect422(await http(stack, 'GET', '/v2/user/not-a-uuid', { apiKey }), 'user_id');
    expect422(await http(stack, 'GET', '/v2/user/providers/not-a-uuid', { apiKey }), 'user_id');
    const missing = await http(stack, 'GET', `/v2/user/${MISSING_UUID}`, { apiKey });
    expect(missing.status).toBe(404);
    expect(missing.json.detail).toBe('User not found');
    expect((await http(stack, 'GET', `/v2/user/providers/${MISSING_UUID}`, { apiKey })).status).toBe(404);
    expect((await http(stack, 'GET', '/v2/user/resolve/nobody-here', { apiKey })).status).toBe(404);
  });

  it('shows a user with its connected sources, oldest first (one joined read), and never another team\'s', async () => {
    const { apiKey, userId } = await teamWithUser();
    const t0 = Date.now();
    await stack.db.db.insert(providerConnections).values([
      { userId, provider: 'oura', createdAt: new Date(t0 - 1000) },
      { userId, provider: 'fitbit', createdAt: new Date(t0 - 5000) },
    ]);
    const res = await http(stack, 'GET', `/v2/user/${userId}`, { apiKey });
    expect(res.status).toBe(200);
    const sources = res.json.connected_sources as { provider: { slug: string }; created_on: string }[];
    expect(sources.map((s) => s.provider.slug)).toEqual(['fitbit', 'oura']);
    expect(sources[0]!.created_on).toBe(new Date(t0 - 5000).toISOString());
    const other = await newTeam(stack);
    expect((await http(stack, 'GET', `/v2/user/${userId}`, { apiKey: other.apiKey })).status).toBe(404);
  });

  it('lists connected providers of a user', async () => {
    const { apiKey, userId } = await teamWithUser();
    const res = await http(stack, 'GET', `/v2/user/providers/${userId}`, { apiKey });
    expect(res.status).toBe(200);
    expect(res.json).toEqual({ providers: [] });
  });
});

describe('PATCH /v2/user/{user_id}', () => {
  it('updates the fields it is given and keeps the others; null leaves a field as it is', async () => {
    const { apiKey, userId, clientUserId } = await teamWithUser();
    const res = await http(stack, 'PATCH', `/v2/user/${userId}`, {
      apiKey,
      body: { fallback_time_zone: 'Asia/Tokyo', ingestion_start: '2024-01-01', ingestion_end: null },
    });
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({ client_user_id: clientUserId, ingestion_start: '2024-01-01', ingestion_end: null });
    expect(res.json.fallback_time_zone).toMatchObject({ id: 'Asia/Tokyo', source_slug: 'manual' });

    const renamed = await http(stack, 'PATCH', `/v2/user/${userId}`, { apiKey, body: { client_user_id: 'renamed-1' } });
    expect(renamed.json.client_user_id).toBe('renamed-1');
    expect((await http(stack, 'GET', '/v2/user/resolve/renamed-1', { apiKey })).json.user_id).toBe(userId);
  });

  it('refuses bad values with 422 and changes nothing', async () => {
    const { apiKey, userId, clientUserId } = await teamWithUser();
    const cases: [unknown, string | null][] = [
      [{ fallback_time_zone: 'Nowhere/Land' }, 'fallback_time_zone'],
      [{ fallback_birth_date: '1990-13-01' }, 'fallback_birth_date'],
      [{ ingestion_start: 'yesterday' }, 'ingestion_start'],
      [{ client_user_id: 'me@example.org' }, 'client_user_id'],
      [{ client_user_id: 7 }, 'client_user_id'],
      ['a string', null],
    ];
    for (const [body, loc] of cases) expect422(await http(stack, 'PATCH', `/v2/user/${userId}`, { apiKey, body }), loc);
    // an end before the stored start is refused too
    await http(stack, 'PATCH', `/v2/user/${userId}`, { apiKey, body: { ingestion_start: '2024-06-01' } });
    expect422(await http(stack, 'PATCH', `/v2/user/${userId}`, { apiKey, body: { ingestion_end: '2024-01-01' } }), 'ingestion_end');
    expect422(await http(stack, 'PATCH', '/v2/user/nope', { apiKey, body: {} }), 'user_id');

    const after = await http(stack, 'GET', `/v2/user/${userId}`, { apiKey });
    expect(after.json).toMatchObject({ client_user_id: clientUserId, fallback_time_zone: null, fallback_birth_date: null, ingestion_end: null });
  });

  it('refuses a client_user_id another user of the team has with 400', async () => {
    const team = await newTeam(stack);
    const a = await http(stack, 'POST', '/v2/user', { apiKey: team.apiKey, body: { client_user_id: 'first' } });
    const b = await http(stack, 'POST', '/v2/user', { apiKey: team.apiKey, body: { client_user_id: 'second' } });
    const res = await http(stack, 'PATCH', `/v2/user/${b.json.user_id}`, { apiKey: team.apiKey, body: { client_user_id: 'first' } });
    expect(res.status).toBe(400);
    expect(res.json.detail).toMatchObject({ error_message: 'Client user id already exists.', user_id: a.json.user_id });
  });

  it('answers 404 for an unknown user', async () => {
    const { apiKey } = await newTeam(stack);
    expect((await http(stack, 'PATCH', `/v2/user/${MISSING_UUID}`, { apiKey, body: {} })).status).toBe(404);
  });
});

describe('DELETE /v2/user/{user_id} and POST /v2/user/undo_delete', () => {
  it('refuses bad input: malformed id 422, unknown user 404, undo without an id 422', async () => {
    const { apiKey } = await newTeam(stack);
    expect422(await http(stack, 'DELETE', '/v2/user/123', { apiKey }), 'user_id');
    expect((await http(stack, 'DELETE', `/v2/user/${MISSING_UUID}`, { apiKey })).status).toBe(404);
    expect422(await http(stack, 'POST', '/v2/user/undo_delete', { apiKey }), null);
    expect422(await http(stack, 'POST', '/v2/user/undo_delete?user_id=zzz', { apiKey }), 'user_id');
    expect((await http(stack, 'POST', `/v2/user/undo_delete?user_id=${MISSING_UUID}`, { apiKey })).status).toBe(404);
  });

  it('refuses to undo the deletion of a user that is not deleted (400)', async () => {
    const { apiKey, clientUserId } = await teamWithUser();
    const res = await http(stack, 'POST', `/v2/user/undo_delete?client_user_id=${clientUserId}`, { apiKey });
    expect(res.status).toBe(400);
    expect(res.json.detail).toBe('User is not scheduled for deletion.');
  });

  it('is idempotent: a second DELETE joins the pending deletion; undo by client_user_id works', async () => {
    const { apiKey, userId, clientUserId } = await teamWithUser();
    expect((await http(stack, 'DELETE', `/v2/user/${userId}`, { apiKey })).json).toEqual({ success: true });
    expect((await http(stack, 'DELETE', `/v2/user/${userId}`, { apiKey })).json).toEqual({ success: true });
    expect((await http(stack, 'GET', `/v2/user/resolve/${clientUserId}`, { apiKey })).status).toBe(404);
    expect((await http(stack, 'PATCH', `/v2/user/${userId}`, { apiKey, body: {} })).status).toBe(404);
    expect((await http(stack, 'POST', `/v2/user/undo_delete?client_user_id=${clientUserId}`, { apiKey })).json).toEqual({ success: true });
    expect((await http(stack, 'GET', `/v2/user/${userId}`, { apiKey })).status).toBe(200);
  });
});

describe('errors outside the routes', () => {
  it('answers unknown routes with a JSON 404', async () => {
    const res = await http(stack, 'GET', '/v9/nothing');
    expect(res.status).toBe(404);
    expect(res.headers.get('content-type')).toMatch(/application\/json/);
    expect(res.json).toEqual({ detail: 'Not Found' });
  });

  it('echoes a request id', async () => {
    const res = await http(stack, 'GET', '/v9/nothing', { headers: { 'x-request-id': 'abc-123' } });
    expect(res.headers.get('x-request-id')).toBe('abc-123');
  });
});
