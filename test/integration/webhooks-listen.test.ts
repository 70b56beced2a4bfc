import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { signedHeaders } from '../../domain/webhooks/signing.js';
import { emitEvents } from '../support/webhooks.js';
import { eventually, http, newTeam, startTestStack, type TestStack } from '../support/harness.js';
import { unusedPort } from '../support/receiver.js';

let stack: TestStack;
const children: ChildProcess[] = [];
beforeAll(async () => {
  stack = await startTestStack();
});
afterEach(() => {
  for (const c of children.splice(0)) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
});
afterAll(async () => {
  await stack?.close();
});

/** `npm run webhooks:listen -- …` as a child process, with its output collected. */
function listen(args: string[]) {
  const child = spawn(process.execPath, ['--import', 'tsx', 'scripts/webhooks-listen.ts', ...args], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  const out = { stdout: '', stderr: '' };
  child.stdout!.on('data', (c: Buffer) => (out.stdout += c.toString('utf8')));
  child.stderr!.on('data', (c: Buffer) => (out.stderr += c.toString('utf8')));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return { child, out, exited };
}

const emit = (teamId: string, count: number) =>
  emitEvents(stack, teamId, count, { data: (n, id) => ({ n, id, status: 'completed' }) });

/** A team with an endpoint registered through the API for a listener on a free port; the listener running. */
async function registeredListener() {
  const team = await newTeam(stack);
  const port = await unusedPort();
  const url = `http://127.0.0.1:${port}/hooks`;
  const res = await http(stack, 'POST', '/v2/webhooks/endpoints', { apiKey: team.apiKey, body: { url, event_types: ['labtest.'] } });
  expect(res.status).toBe(201);
  const secret = res.json.secret as string;
  const l = listen(['--secret', secret, '--port', String(port), '--path', '/hooks']);
  await eventually(async () => l.out.stdout.includes(`verifying Standard Webhooks signatures on ${url}`), 20_000);
  return { ...team, url, secret, ...l };
}

describe('npm run webhooks:listen', () => {
  it('verifies and prints the events the service delivers to it; the service records them delivered', async () => {
    const l = await registeredListener();
    expect(l.out.stdout).toContain(`-d '{"url": "${l.url}"}'`); // the URL to register
    const ids = await emit(l.teamId, 3);
    await eventually(async () => ids.every((id) => l.out.stdout.includes(`webhook-id ${id}`)), 30_000);
    for (const [i, id] of ids.entries()) {
      expect(l.out.stdout).toContain(`✓ verified  labtest.order.updated  webhook-id ${id}  team ${l.teamId}\n`);
      expect(l.out.stdout).toContain(`    {\n      "n": ${i},\n      "id": "${id}",\n      "status": "completed"\n    }\n`);
    }
    expect(l.out.stdout).not.toContain('refused');
    expect(l.out.stdout).not.toContain('\u001b['); // not a terminal: no colours

    // the service saw 204 and counts each as delivered, at the first attempt (the listener prints an event
    // before the service has written its answer: wait for the writes)
    const recorded = async (id: string) => {
      const res = await http(stack, 'GET', `/v2/webhooks/events/${id}`, { apiKey: l.apiKey });
      return (res.json.deliveries as { status: string }[])[0]?.status !== 'pending';
    };
    await eventually(async () => (await Promise.all(ids.map(recorded))).every(Boolean), 10_000);
    for (const id of ids) {
      const res = await http(stack, 'GET', `/v2/webhooks/events/${id}`, { apiKey: l.apiKey });
      const [delivery] = res.json.deliveries as { status: string; attempt_log: { status_code: number }[] }[];
      expect(delivery).toMatchObject({ status: 'delivered', attempt_log: [{ status_code: 204 }] });
    }
  });

  it('refuses wrongly signed and unsigned requests with 401 and the reason, and stops cleanly on Ctrl-C', async () => {
    const l = await registeredListener();
    const body = JSON.stringify({ event_type: 'labtest.order.updated', data: { id: 'x' }, team_id: l.teamId, user_id: null, client_user_id: null });
    const post = (headers: Record<string, string>, b = body) =>
      fetch(l.url, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: b });

    const wrongSecret = `whsec_${randomBytes(24).toString('base64')}`;
    const forged = await post(signedHeaders([wrongSecret], 'forged-1', new Date(), body));
    expect(forged.status).toBe(401);
    expect(await forged.text()).toBe('invalid signature: No matching signature found\n');

    const unsigned = await post({});
    expect(unsigned.status).toBe(401);
    expect(await unsigned.text()).toMatch(/Missing required headers/);

    // signed with the right secret but the body changed on the way
    const tampered = await post(signedHeaders([l.secret], 'tampered-1', new Date(), body), body.replace('"x"', '"y"'));
    expect(tampered.status).toBe(401);

    // the right secret, sent under the svix-* names only: accepted
    const svixOnly = Object.fromEntries(Object.entries(signedHeaders([l.secret], 'svix-1', new Date(), body)).filter(([k]) => k.startsWith('svix-')));
    expect((await post(svixOnly)).status).toBe(204);

    expect((await fetch(l.url)).status).toBe(405);
    expect((await fetch(l.url.replace('/hooks', '/other'), { method: 'POST', body })).status).toBe(404);

    await eventually(async () => l.out.stdout.includes('POST /other → 404'));
    expect(l.out.stdout).toContain('✗ 401 refused: No matching signature found  webhook-id forged-1');
    expect(l.out.stdout).toContain('✗ 401 refused: Missing required headers');
    expect(l.out.stdout).toContain('✗ 401 refused: No matching signature found  webhook-id tampered-1');
    expect(l.out.stdout).toContain('✓ verified  labtest.order.updated  webhook-id svix-1');

    l.child.kill('SIGINT');
    expect(await l.exited).toBe(0);
    expect(l.out.stdout).toMatch(/stopped: 1 verified, 3 refused\n$/);
  });

  it('refuses to start without --secret (exit 2, saying where the secret comes from) and on bad arguments', async () => {
    const port = await unusedPort();
    const none = listen(['--port', String(port)]);
    expect(await none.exited).toBe(2);
    expect(none.out.stderr).toMatch(/needs --secret whsec_/);
    expect(none.out.stderr).toMatch(/usage: npm run webhooks:listen/);
    expect(none.out.stdout).toBe('');
    await expect(fetch(`http://127.0.0.1:${port}/`, { method: 'POST' })).rejects.toThrow(); // nothing listens

    const badPort = listen(['--secret', `whsec_${randomBytes(24).toString('base64')}`, '--port', 'http']);
    expect(await badPort.exited).toBe(2);
    expect(badPort.out.stderr).toMatch(/--port must be a number/);
  });
});
