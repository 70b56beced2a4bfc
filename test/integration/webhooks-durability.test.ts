import type { ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { and, count, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recordTeamEvent } from '../../db/queries/events.js';
import { webhookDeliveries } from '../../db/schema/index.js';
import { wakeEndpoints } from '../../lib/webhook-wake.js';
import { eventually, http, newTeam, startTestStack, type TestStack } from '../support/harness.js';
import { startWorkerProcess } from '../support/worker-process.js';
import { TestReceiver } from '../support/receiver.js';

// The worker runs in a child process, on a namespace of its own, so the test can SIGKILL it mid-backlog.
const NAMESPACE = 'durability-webhooks';
const BACKLOG = 1000;
let stack: TestStack;
let worker: ChildProcess | null = null;
let receiver: TestReceiver | null = null;

const startWorker = () => startWorkerProcess(NAMESPACE, { WEBHOOK_RETRY_SCHEDULE: '0,0.5,1,1,1,1,1,1' });

beforeAll(async () => {
  stack = await startTestStack({ TEMPORAL_NAMESPACE: NAMESPACE });
});
afterAll(async () => {
  worker?.kill('SIGKILL');
  await receiver?.stop();
  await stack?.close();
});

describe('durability: the worker is killed during a webhook backlog', () => {
  it(`delivers all ${BACKLOG} events, none lost, each with its original id`, async () => {
    worker = startWorker();
    const team = await newTeam(stack);
    // A receiver that takes a few milliseconds per request, so the backlog is still draining at the kill.
    receiver = await new TestReceiver(() => 200).start();
    const slow = receiver;
    const original = slow.behaviour;
    slow.behaviour = (req) => {
      const until = Date.now() + 3;
      while (Date.now() < until); // busy for 3 ms
      return original(req);
    };
    const ep = await http(stack, 'POST', '/v2/webhooks/endpoints', { apiKey: team.apiKey, body: { url: slow.url } });
    expect(ep.status).toBe(201);

    const ids = Array.from({ length: BACKLOG }, () => randomUUID());
    await stack.db.db.transaction(async (tx) => {
      for (const [i, id] of ids.entries()) {
        await recordTeamEvent(tx, { id, teamId: team.teamId, eventType: 'labtest.order.updated', data: { n: i }, createdAt: new Date() });
      }
    });
    await wakeEndpoints(stack.temporal, [ep.json.id as string]);

    await eventually(async () => slow.accepted.length >= 100, 60_000, 20);
    worker.kill('SIGKILL');
    await new Promise((r) => worker!.once('exit', r));
    const atKill = new Set(slow.accepted.map((r) => r.headers['webhook-id'])).size;
    expect(atKill).toBeLessThan(BACKLOG); // the kill really happened mid-backlog

    worker = startWorker();
    await eventually(async () => new Set(slow.accepted.map((r) => r.headers['webhook-id'])).size === BACKLOG, 120_000, 200);
    expect(new Set(slow.accepted.map((r) => String(r.headers['webhook-id'])))).toEqual(new Set(ids));
    // every delivery ends recorded as delivered (the last answers may still be being written)
    await eventually(async () => {
      const [done] = await stack.db.db
        .select({ n: count() })
        .from(webhookDeliveries)
        .where(and(eq(webhookDeliveries.teamId, team.teamId), eq(webhookDeliveries.status, 'delivered')));
      return done!.n === BACKLOG;
    }, 20_000);
    const duplicates = slow.accepted.length - BACKLOG;
    process.stderr.write(`[webhooks durability] ${atKill} delivered before the kill; ${duplicates} delivered twice (at-least-once)\n`);
  }, 240_000);
});
