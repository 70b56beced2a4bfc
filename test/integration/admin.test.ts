import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inject } from 'vitest';
import { eq } from 'drizzle-orm';
import { apiKeys, labs, partnerKeys } from '../../db/schema/index.js';
import { testkitLabTest } from '../support/catalog-fixture.js';
import { http, newTeam, startTestStack, type TestStack } from '../support/harness.js';

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

  it('create-partner-key, list-partner-keys and revoke-partner-key manage keys that open /partner/v1 only', async () => {
    const team = await newTeam(stack);
    const { labId } = await testkitLabTest(stack.db.db, team.teamId);
    const [lab] = await stack.db.db.select().from(labs).where(eq(labs.id, labId));
    const created = await admin('create-partner-key', '--name', 'Fixture Lab', '--kind', 'lab', '--lab-slug', lab!.slug);
    expect(created.code, created.stderr).toBe(0);
    expect(created.stdout.trim().split('\n')).toHaveLength(1);
    const { partner_key_id, api_key } = JSON.parse(created.stdout) as { partner_key_id: string; api_key: string };
    expect(api_key).toMatch(/^partner_sandbox_us_/);
    const stored = await stack.db.db.select().from(partnerKeys).where(eq(partnerKeys.id, partner_key_id));
    expect(stored[0]).toMatchObject({ kind: 'lab', labId, name: 'Fixture Lab' });
    expect(JSON.stringify(stored)).not.toContain(api_key);

    const unknownOrder = '/partner/v1/orders/00000000-0000-4000-8000-000000000000/sample_received';
    const asPartner = { headers: { 'x-partner-api-key': api_key } };
    expect((await http(stack, 'POST', unknownOrder, asPartner)).status).toBe(404); // authenticated: the order is unknown
    expect((await http(stack, 'GET', '/v2/user', { apiKey: api_key })).status).toBe(401);

    const courier = await admin('create-partner-key', '--name', 'Courier Co', '--kind', 'courier');
    expect(courier.code, courier.stderr).toBe(0);
    const listed = await admin('list-partner-keys');
    const keys = (JSON.parse(listed.stdout) as { partner_keys: Record<string, unknown>[] }).partner_keys;
    expect(keys).toContainEqual(expect.objectContaining({ partner_key_id, name: 'Fixture Lab', kind: 'lab', lab_slug: lab!.slug, revoked_at: null }));
    expect(keys).toContainEqual(expect.objectContaining({ name: 'Courier Co', kind: 'courier', lab_slug: null }));
    expect(listed.stdout).not.toContain(api_key);

    const revoked = await admin('revoke-partner-key', '--id', partner_key_id);
    expect(revoked.code).toBe(0);
    expect(JSON.parse(revoked.stdout)).toEqual({ partner_key_id, revoked: true });
    expect((await http(stack, 'POST', unknownOrder, asPartner)).status).toBe(401);
  });

  it('refuses bad partner-key arguments with exit code 2, an unknown lab or key with 1', async () => {
    for (const args of [
      ['create-partner-key', '--name', 'X'],
      ['create-partner-key', '--name', 'X', '--kind', 'robot'],
      ['create-partner-key', '--name', 'X', '--kind', 'lab'],
      ['create-partner-key', '--name', 'X', '--kind', 'courier', '--lab-slug', 'some-lab'],
      ['revoke-partner-key', '--id', 'nope'],
    ]) {
      const res = await admin(...args);
      expect(res.code, args.join(' ')).toBe(2);
      expect(res.stderr).toMatch(/usage: npm run admin/);
    }
    const noLab = await admin('create-partner-key', '--name', 'X', '--kind', 'lab', '--lab-slug', 'no-such-lab');
    expect(noLab.code).toBe(1);
    expect(noLab.stderr).toMatch(/no lab with slug/);
    const noKey = await admin('revoke-partner-key', '--id', '00000000-0000-4000-8000-000000000000');
    expect(noKey.code).toBe(1);
    expect(noKey.stderr).toMatch(/no partner key/);
  });
});
