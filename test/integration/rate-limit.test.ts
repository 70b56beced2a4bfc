import { VitalClient } from '@tryvital/vital-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { http, newTeam, startTestStack, type TestStack } from '../support/harness.js';

// One team may make 2 requests at once, then 1 per second; the same budget per address on keyless routes.
let stack: TestStack;
beforeAll(async () => {
  stack = await startTestStack({ RATE_LIMIT_TEAM_PER_SECOND: '1', RATE_LIMIT_TEAM_BURST: '2', RATE_LIMIT_IP_PER_SECOND: '1', RATE_LIMIT_IP_BURST: '2' });
});
afterAll(async () => {
  await stack?.close();
});

describe('rate limits through the app', () => {
  it('answers 429 {detail} with Retry-After per team, leaves other teams and /health alone', async () => {
    const a = await newTeam(stack);
    const b = await newTeam(stack);
    expect((await http(stack, 'GET', '/v2/user', { apiKey: a.apiKey })).status).toBe(200);
    expect((await http(stack, 'GET', '/v2/user', { apiKey: a.apiKey })).status).toBe(200);
    const limited = await http(stack, 'GET', '/v2/user', { apiKey: a.apiKey });
    expect(limited.status).toBe(429);
    expect(limited.headers.get('retry-after')).toBe('1');
    expect(limited.json.detail).toMatch(/Too many requests for this API key/);
    expect((await http(stack, 'GET', '/v2/user', { apiKey: b.apiKey })).status).toBe(200);
    for (let i = 0; i < 4; i++) expect((await http(stack, 'GET', '/health')).status).not.toBe(429);
  });

  it('limits keyless routes per address', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 4; i++) statuses.push((await http(stack, 'GET', '/documents/orders/x/requisition.pdf')).status);
    expect(statuses.slice(0, 2)).not.toContain(429);
    expect(statuses.at(-1)).toBe(429);
  });

  it('does not count team-key routes (aggregate included) against the address: they have the team limit', async () => {
    // Each request from a new team: only a per-address limit (burst 2) could refuse these.
    for (const path of ['/v2/user', '/v3/orders', '/aggregate/v1/user/00000000-0000-4000-8000-000000000000/continuous_query/x/result_table']) {
      for (let i = 0; i < 3; i++) {
        const team = await newTeam(stack);
        expect((await http(stack, 'GET', path, { apiKey: team.apiKey })).status, path).not.toBe(429);
      }
    }
  });

  it("the SDK's own retry waits out Retry-After and succeeds", async () => {
    const team = await newTeam(stack);
    const client = new VitalClient({ apiKey: team.apiKey, baseUrl: stack.url, maxRetries: 2, timeoutInSeconds: 30 });
    await client.user.getAll();
    await client.user.getAll();
    const started = Date.now();
    const page = await client.user.getAll(); // 429 first, then a retry after Retry-After (1 s)
    expect(page.users).toEqual([]);
    expect(Date.now() - started).toBeGreaterThanOrEqual(900);
  });
});
