import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inject } from 'vitest';
import { apiKeys } from '../../db/schema/index.js';
import { http, startTestStack, type TestStack } from '../support/harness.js';

const run = promisify(execFile);
let stack: TestStack;
beforeAll(async () => {
  stack = await startTestStack();
});
afterAll(async () => {
  await stack?.close();
});

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

describe('npm run admin', () => {
  it('create-team prints one JSON line with a working key; rotate-key revokes it; list-teams lists the team', async () => {
    const created = await admin('create-team', '--name', 'Acme Labs');
    expect(created.code).toBe(0);
    const lines = created.stdout.trim().split('\n');
    expect(lines).toHaveLength(1);
    const { team_id, api_key } = JSON.parse(lines[0]!) as { team_id: string; api_key: string };
    expect(api_key).toMatch(/^sk_us_/);
    expect((await http(stack, 'GET', '/v2/user', { apiKey: api_key })).status).toBe(200);

    // only the hash is stored
    const stored = await stack.db.db.select().from(apiKeys);
    expect(stored.some((k) => k.keyHash.includes(api_key) || api_key.includes(k.keyHash))).toBe(false);
    expect(JSON.stringify(stored)).not.toContain(api_key);

    const listed = await admin('list-teams');
    const teams = (JSON.parse(listed.stdout) as { teams: { team_id: string; name: string }[] }).teams;
    expect(teams).toContainEqual(expect.objectContaining({ team_id, name: 'Acme Labs' }));

    const rotated = await admin('rotate-key', '--team', team_id);
    expect(rotated.code).toBe(0);
    const next = JSON.parse(rotated.stdout) as { team_id: string; api_key: string };
    expect(next.team_id).toBe(team_id);
    expect(next.api_key).not.toBe(api_key);
    expect((await http(stack, 'GET', '/v2/user', { apiKey: api_key })).status).toBe(401);
    expect((await http(stack, 'GET', '/v2/user', { apiKey: next.api_key })).status).toBe(200);
  });

  it('refuses bad arguments with exit code 2 and a usage line', async () => {
    for (const args of [[], ['bogus'], ['create-team'], ['rotate-key', '--team', 'nope']]) {
      const res = await admin(...args);
      expect(res.code).toBe(2);
      expect(res.stderr).toMatch(/usage: npm run admin/);
    }
    const missing = await admin('rotate-key', '--team', '00000000-0000-4000-8000-000000000000');
    expect(missing.code).toBe(1);
    expect(missing.stderr).toMatch(/no team/);
  });
});
