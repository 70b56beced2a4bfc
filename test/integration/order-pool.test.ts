import type { ChildProcess } from 'node:child_process';
import { inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { orders } from '../../db/schema/index.js';
import { testkitLabTest } from '../support/catalog-fixture.js';
import { eventually, http, newTeam, startTestStack, type TestStack } from '../support/harness.js';
import { startWorkerProcess } from '../support/worker-process.js';

// A fresh worker process with a pool of 2 connections, on a namespace of its own: its first order writes
// all need what is loaded once per process (the URL signing secret). Loaded inside a write transaction,
// that waited for a connection the transactions themselves held, and every order hung.
const NAMESPACE = 'small-pool';
const ORDERS = 6;
let stack: TestStack;
let worker: ChildProcess | null = null;

beforeAll(async () => {
  stack = await startTestStack({ TEMPORAL_NAMESPACE: NAMESPACE });
});
afterAll(async () => {
  worker?.kill('SIGKILL');
  await stack?.close();
});

describe('a worker with a small connection pool', () => {
  it(`records ${ORDERS} orders created at once, without waiting on its own pool`, async () => {
    worker = startWorkerProcess(NAMESPACE, { DATABASE_POOL_SIZE: '2' });
    const team = await newTeam(stack);
    const { labTestId } = await testkitLabTest(stack.db.db, team.teamId);
    const user = await http(stack, 'POST', '/v2/user', { apiKey: team.apiKey, body: { client_user_id: `pool-${Date.now()}` } });
    const body = {
      user_id: user.json.user_id,
      order_set: { lab_test_ids: [labTestId] },
      patient_details: { first_name: 'Ada', last_name: 'Lovelace', dob: '1985-12-10', gender: 'female', phone_number: '+442079460958', email: 'ada@example.com' },
      patient_address: { first_line: '10 Downing St', city: 'London', state: 'LDN', zip: 'SW1A 2AA', country: 'GB' },
    };
    const created = await Promise.all(Array.from({ length: ORDERS }, () => http(stack, 'POST', '/v3/order', { apiKey: team.apiKey, body })));
    expect(created.map((r) => r.status)).toEqual(Array(ORDERS).fill(200));
    const ids = created.map((r) => (r.json.order as { id: string }).id);
    // Registered kits move on to requisition_created at once: that write carries a signed requisition link.
    await eventually(async () => {
      const rows = await stack.db.db.select({ low: orders.lowLevelStatus }).from(orders).where(inArray(orders.id, ids));
      return rows.length === ORDERS && rows.every((r) => r.low === 'requisition_created');
    }, 30_000);
  }, 60_000);
});
