import type { ChildProcess } from 'node:child_process';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { orderEvents, outboxEvents } from '../../db/schema/index.js';
import { TASK_QUEUES } from '../../domain/temporal.js';
import { testkitLabTest } from '../support/catalog-fixture.js';
import { eventually, http, newTeam, startTestStack, type TestStack } from '../support/harness.js';
import { startWorkerProcess } from '../support/worker-process.js';

// The service worker runs in a child process here, on a namespace of its own, so the test can SIGKILL it.
const NAMESPACE = 'durability';
let stack: TestStack;
let worker: ChildProcess | null = null;

const startWorker = () => startWorkerProcess(NAMESPACE);

async function pollerCount(): Promise<number> {
  const res = await stack.temporal.workflowService.describeTaskQueue({
    namespace: NAMESPACE,
    taskQueue: { name: TASK_QUEUES.orders },
    taskQueueType: 1,
  });
  const now = Date.now();
  return (res.pollers ?? []).filter((p) => now - Number(p.lastAccessTime?.seconds ?? 0) * 1000 < 5000).length;
}

beforeAll(async () => {
  stack = await startTestStack({ TEMPORAL_NAMESPACE: NAMESPACE });
});
afterAll(async () => {
  worker?.kill('SIGKILL');
  await stack?.close();
});

const patient = {
  patient_details: { first_name: 'Ada', last_name: 'Lovelace', dob: '1985-12-10', gender: 'female', phone_number: '+442079460958', email: 'ada@example.com' },
  patient_address: { first_line: '10 Downing St', city: 'London', state: 'LDN', zip: 'SW1A 2AA', country: 'GB' },
};

describe('durability: the worker is killed mid-lifecycle', () => {
  it('the order still completes, with every event recorded and announced exactly once', async () => {
    worker = startWorker();
    // A child worker takes a while to start (bundling the workflows) on a busy machine: wait for its pollers.
    await eventually(async () => (await pollerCount()) > 0, 60_000, 250);
    const team = await newTeam(stack);
    const { labTestId } = await testkitLabTest(stack.db.db, team.teamId);
    const user = await http(stack, 'POST', '/v2/user', { apiKey: team.apiKey, body: { client_user_id: `durable-${Date.now()}` } });
    const created = await http(stack, 'POST', '/v3/order', {
      apiKey: team.apiKey,
      body: { user_id: user.json.user_id, order_set: { lab_test_ids: [labTestId] }, ...patient },
    });
    expect(created.status).toBe(200);
    const orderId = (created.json.order as { id: string }).id;
    const countEvents = async () =>
      (await stack.db.db.select().from(orderEvents).where(eq(orderEvents.orderId, orderId))).length;

    await eventually(async () => (await countEvents()) >= 2, 30_000);
    const sim = await http(stack, 'POST', `/v3/order/${orderId}/test?final_status=completed.testkit.completed&delay=1`, { apiKey: team.apiKey });
    expect(sim.status).toBe(200);

    // Let the walk get half way, then kill the worker process without warning.
    await eventually(async () => (await countEvents()) >= 4, 30_000);
    worker.kill('SIGKILL');
    await new Promise((r) => worker!.once('exit', r));
    const atKill = await countEvents();
    process.stderr.write(`[durability] worker SIGKILLed with ${atKill} of 8 events recorded\n`);
    expect(atKill).toBeLessThan(8);

    worker = startWorker();
    await eventually(async () => (await pollerCount()) > 0, 60_000, 250);
    const done = await eventually(async () => {
      const res = await http(stack, 'GET', `/v3/order/${orderId}`, { apiKey: team.apiKey });
      return res.json.status === 'completed' ? res.json : null;
    }, 90_000, 250);

    const events = done.events as { id: number; status: string }[];
    expect(events.map((e) => e.status)).toEqual([
      'received.testkit.ordered',
      'received.testkit.requisition_created',
      'collecting_sample.testkit.transit_customer',
      'collecting_sample.testkit.out_for_delivery',
      'collecting_sample.testkit.with_customer',
      'collecting_sample.testkit.transit_lab',
      'sample_with_lab.testkit.delivered_to_lab',
      'completed.testkit.completed',
    ]);
    expect(events.map((e) => e.id)).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    const outbox = await stack.db.db
      .select()
      .from(outboxEvents)
      .where(and(eq(outboxEvents.teamId, team.teamId), eq(outboxEvents.subjectId, orderId)));
    expect(outbox).toHaveLength(8);
    expect(new Set(outbox.map((e) => e.id)).size).toBe(8);
    expect(outbox.filter((e) => e.eventType === 'labtest.order.created')).toHaveLength(1);
  }, 180_000);
});
