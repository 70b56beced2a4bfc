import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findUser } from '../../db/queries/users.js';
import { deletionStateQuery, userDeletionWorkflowId } from '../../workflows/user-deletion/definitions.js';
import { http, newTeam, startTestStack, type TestStack } from '../support/harness.js';
import { recordHistory } from '../support/histories.js';

// A real workflow on the real worker (started by the global setup) against real Postgres.
let stack: TestStack;
beforeAll(async () => {
  stack = await startTestStack({ USER_DELETION_GRACE_SECONDS: '2' });
});
afterAll(async () => {
  await stack?.close();
});

async function userOfNewTeam() {
  const team = await newTeam(stack);
  const res = await http(stack, 'POST', '/v2/user', { apiKey: team.apiKey, body: { client_user_id: `del-${Date.now()}` } });
  return { ...team, userId: res.json.user_id as string };
}

describe('user-deletion workflow', () => {
  it('erases the user once the grace period has passed, and undo is then refused', async () => {
    const { apiKey, teamId, userId } = await userOfNewTeam();
    expect((await http(stack, 'DELETE', `/v2/user/${userId}`, { apiKey })).status).toBe(200);

    const handle = stack.temporal.workflow.getHandle(userDeletionWorkflowId(userId));
    const state = await handle.query(deletionStateQuery);
    expect(state.phase).toBe('grace');
    expect(new Date(state.eraseAt).getTime()).toBeGreaterThan(Date.now());
    // marked at once, still in the table until the grace period ends
    const marked = await findUser(stack.db.db, teamId, userId);
    expect(marked?.deletedAt).toBeInstanceOf(Date);

    await expect(handle.result()).resolves.toBe('erased');
    await recordHistory('user-deletion-erased', handle);
    expect(await findUser(stack.db.db, teamId, userId)).toBeNull();
    const after = await http(stack, 'GET', `/v2/user/${userId}`, { apiKey });
    expect(after.status).toBe(404);
    expect(after.json.detail).toBe('User not found');
    expect((await http(stack, 'POST', `/v2/user/undo_delete?user_id=${userId}`, { apiKey })).status).toBe(404);
  });

  it('restores the user when undone within the grace period, and the user may be deleted again', async () => {
    const { apiKey, teamId, userId } = await userOfNewTeam();
    await http(stack, 'DELETE', `/v2/user/${userId}`, { apiKey });
    const handle = stack.temporal.workflow.getHandle(userDeletionWorkflowId(userId));
    expect((await http(stack, 'POST', `/v2/user/undo_delete?user_id=${userId}`, { apiKey })).status).toBe(200);
    await expect(handle.result()).resolves.toBe('restored');
    await recordHistory('user-deletion-restored', handle);
    expect((await findUser(stack.db.db, teamId, userId))?.deletedAt).toBeNull();

    // the workflow id is reusable after an undo
    expect((await http(stack, 'DELETE', `/v2/user/${userId}`, { apiKey })).status).toBe(200);
    const second = stack.temporal.workflow.getHandle(userDeletionWorkflowId(userId));
    await expect(second.result()).resolves.toBe('erased');
  });
});
