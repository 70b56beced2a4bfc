import { Vital, VitalError } from '@tryvital/vital-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clientFacingUser, paginatedUsers } from '../../api/routes/users/schemas.js';
import { newTeam, sdkFor, startTestStack, type TestStack } from '../support/harness.js';

let stack: TestStack;
beforeAll(async () => {
  stack = await startTestStack();
});
afterAll(async () => {
  await stack?.close();
});

const uniq = (p: string) => `${p}-${Math.random().toString(36).slice(2, 10)}`;

describe('users API through @tryvital/vital-node (unchanged, baseUrl pointed at us)', () => {
  it('creates, reads, resolves, lists and patches a user', async () => {
    const { apiKey, teamId } = await newTeam(stack);
    const client = sdkFor(stack, apiKey);
    const clientUserId = uniq('patient');

    const created = await client.user.create({ clientUserId, fallbackTimeZone: 'Europe/Berlin', ingestionStart: '2024-01-01' });
    expect(created.clientUserId).toBe(clientUserId);
    expect(created.userId).toMatch(/^[0-9a-f-]{36}$/);

    const got = await client.user.get(created.userId);
    expect(got).toMatchObject({ userId: created.userId, teamId, clientUserId, ingestionStart: '2024-01-01', connectedSources: [] });
    expect(got.fallbackTimeZone?.id).toBe('Europe/Berlin');
    expect(got.fallbackTimeZone?.sourceSlug).toBe('manual');
    expect(got.createdOn).toBeInstanceOf(Date);

    const resolved = await client.user.getByClientUserId(clientUserId);
    expect(resolved.userId).toBe(created.userId);

    await client.user.patch(created.userId, {
      fallbackBirthDate: '1990-02-28',
      fallbackTimeZone: 'America/New_York',
      ingestionEnd: '2025-12-31',
    });
    const patched = await client.user.get(created.userId);
    expect(patched.fallbackBirthDate?.value).toBe('1990-02-28');
    expect(patched.fallbackTimeZone?.id).toBe('America/New_York');
    expect(patched.ingestionStart).toBe('2024-01-01');
    expect(patched.ingestionEnd).toBe('2025-12-31');
    expect(patched.fallbackBirthDate?.updatedAt).toBeInstanceOf(Date);

    const providers = await client.user.getConnectedProviders(created.userId);
    expect(providers).toEqual({ providers: [] });
  });

  it('pages through the team\'s users with offset and limit', async () => {
    const { apiKey } = await newTeam(stack);
    const client = sdkFor(stack, apiKey);
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) ids.push((await client.user.create({ clientUserId: uniq(`u${i}`) })).userId);

    const first = await client.user.getAll({ offset: 0, limit: 2 });
    expect(first.total).toBe(5);
    expect(first.limit).toBe(2);
    expect(first.users.map((u) => u.userId)).toEqual(ids.slice(0, 2));
    const last = await client.user.getAll({ offset: 4, limit: 2 });
    expect(last.users.map((u) => u.userId)).toEqual(ids.slice(4));
    expect(last.offset).toBe(4);
  });

  it('refuses a duplicate client_user_id with BadRequestError naming the existing user', async () => {
    const { apiKey } = await newTeam(stack);
    const client = sdkFor(stack, apiKey);
    const clientUserId = uniq('dup');
    const first = await client.user.create({ clientUserId });
    const err = await client.user.create({ clientUserId }).then(
      () => null,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(Vital.BadRequestError);
    expect((err as VitalError).statusCode).toBe(400);
    expect((err as VitalError).body).toMatchObject({ detail: { error_message: 'Client user id already exists.', user_id: first.userId } });

    // the same client_user_id in another team is fine
    const other = sdkFor(stack, (await newTeam(stack)).apiKey);
    await expect(other.user.create({ clientUserId })).resolves.toMatchObject({ clientUserId });
  });

  it('deletes a user (then 404) and undoes the deletion (user back)', async () => {
    const { apiKey } = await newTeam(stack);
    const client = sdkFor(stack, apiKey);
    const { userId } = await client.user.create({ clientUserId: uniq('del') });

    await expect(client.user.delete(userId)).resolves.toEqual({ success: true });
    const err = await client.user.get(userId).then(
      () => null,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(VitalError);
    expect((err as VitalError).statusCode).toBe(404);
    expect((err as VitalError).body).toEqual({ detail: 'You have scheduled this user for deletion.' });
    expect((await client.user.getAll()).total).toBe(0);

    await expect(client.user.undoDelete({ userId })).resolves.toEqual({ success: true });
    await expect(client.user.get(userId)).resolves.toMatchObject({ userId });
  });

  it('maps 422 validation errors to UnprocessableEntityError', async () => {
    const client = sdkFor(stack, (await newTeam(stack)).apiKey);
    const err = await client.user.create({ clientUserId: 'someone@example.com' }).then(
      () => null,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(Vital.UnprocessableEntityError);
  });
});

describe('response shapes', () => {
  it('match our own response schemas too', async () => {
    const { apiKey } = await newTeam(stack);
    const client = sdkFor(stack, apiKey);
    const { userId } = await client.user.create({ clientUserId: uniq('shape'), fallbackBirthDate: '2000-01-31' });
    const raw = await (await fetch(`${stack.url}/v2/user/${userId}`, { headers: { 'x-vital-api-key': apiKey } })).json();
    expect(() => clientFacingUser.parse(raw)).not.toThrow();
    const list = await (await fetch(`${stack.url}/v2/user/`, { headers: { 'x-vital-api-key': apiKey } })).json();
    expect(paginatedUsers.parse(list).users).toHaveLength(1);
  });
});
