import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { userInfo } from '../../db/schema/index.js';
import { http, newTeam, sdkFor, startTestStack, type TestStack } from '../support/harness.js';

let stack: TestStack;
beforeAll(async () => {
  stack = await startTestStack();
});
afterAll(async () => {
  await stack?.close();
});

async function team() {
  const t = await newTeam(stack);
  const client = sdkFor(stack, t.apiKey);
  const clientUserId = `surface-${randomUUID()}`;
  const { userId } = await client.user.create({ clientUserId });
  return { ...t, client, userId, clientUserId };
}

const info = {
  firstName: 'Ada',
  lastName: 'Lovelace',
  email: 'ada@example.com',
  phoneNumber: '+14155550142',
  gender: 'female',
  dob: '1990-12-10',
  address: { firstLine: '1 Main St', country: 'US', zip: '94105', city: 'San Francisco', state: 'CA' },
  race: 'other' as const,
};

describe('user info', () => {
  it('upserts and reads back the latest info, sealed at rest, scoped to the team', async () => {
    const t = await team();
    await expect(t.client.user.getLatestUserInfo(t.userId)).rejects.toMatchObject({ statusCode: 404 });
    expect(await t.client.user.upsertUserInfo(t.userId, info)).toMatchObject({ firstName: 'Ada', address: { city: 'San Francisco' } });
    expect(await t.client.user.upsertUserInfo(t.userId, { ...info, lastName: 'King' })).toMatchObject({ lastName: 'King' });
    expect(await t.client.user.getLatestUserInfo(t.userId)).toMatchObject({ firstName: 'Ada', lastName: 'King', race: 'other' });
    const [row] = await stack.db.db.select().from(userInfo).where(eq(userInfo.userId, t.userId));
    expect(row!.sealed).toMatch(/^v1\./);
    expect(row!.sealed).not.toContain('Lovelace');

    const other = await team();
    expect((await http(stack, 'GET', `/v2/user/${t.userId}/info/latest`, { apiKey: other.apiKey })).status).toBe(404);
    expect((await http(stack, 'PATCH', `/v2/user/${t.userId}/info`, { apiKey: other.apiKey, body: { first_name: 'x' } })).status).toBe(422);
  });

  it('refuses bad info with 422 and unknown users with 404', async () => {
    const t = await team();
    const good = {
      first_name: 'A', last_name: 'B', email: 'a@example.com', phone_number: '+14155550142', gender: 'f', dob: '1990-01-01',
      address: { first_line: 'x', country: 'US', zip: '1', city: 'c', state: 's' },
    };
    for (const body of [{}, { ...good, email: 'nope' }, { ...good, dob: '1990-02-30' }, { ...good, address: {} }, { ...good, race: 'martian' }]) {
      const res = await http(stack, 'PATCH', `/v2/user/${t.userId}/info`, { apiKey: t.apiKey, body });
      expect(res.status).toBe(422);
      expect(res.json).toHaveProperty('detail');
    }
    expect((await http(stack, 'PATCH', `/v2/user/${randomUUID()}/info`, { apiKey: t.apiKey, body: good })).status).toBe(404);
    expect((await http(stack, 'GET', '/v2/user/nope/info/latest', { apiKey: t.apiKey })).status).toBe(422);
    expect(await stack.db.db.select().from(userInfo).where(eq(userInfo.userId, t.userId))).toEqual([]);
  });
});

describe('team', () => {
  it('getUserById, source priorities', async () => {
    const t = await team();
    const byId = await t.client.team.getUserById({ queryId: t.userId });
    expect(byId.map((u) => u.userId)).toEqual([t.userId]);
    const byClient = await t.client.team.getUserById({ queryId: t.clientUserId });
    expect(byClient.map((u) => u.userId)).toEqual([t.userId]);
    const priorities = await t.client.team.getSourcePriorities({ dataType: 'sleep' });
    expect(priorities).toHaveLength(1);
    expect(priorities[0]).toMatchObject({ data_type: 'sleep' });

    const other = await team();
    expect(await other.client.team.getUserById({ queryId: t.userId })).toEqual([]);
    expect((await http(stack, 'GET', '/v2/team/source/priorities?data_type=moods', { apiKey: t.apiKey })).status).toBe(422);
    expect((await http(stack, 'GET', `/v2/team/users/search?query_id=${'x'.repeat(300)}`, { apiKey: t.apiKey })).status).toBe(422);
  });
});
