import { randomUUID } from 'node:crypto';
import type { Vital } from '@tryvital/vital-node';
import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { orderEvents, orderResults, outboxEvents } from '../../db/schema/index.js';
import { labOrderWorkflowId } from '../../workflows/lab-order/definitions.js';
import { testkitLabTest } from '../support/catalog-fixture.js';
import { eventually, newTeam, sdkFor, startTestStack, type TestStack } from '../support/harness.js';

// A zero-delay simulation records its run of steps in one local activity and one transaction
// (SIMULATED_WALK_IN_ONE_STEP): every step still gets its own event and webhook event, and a walk the
// database refuses part-way writes nothing and is walked again step by step, where the refused step stops
// the order visibly as any refused step does.

let stack: TestStack;
beforeAll(async () => {
  stack = await startTestStack({}, { orderDeadlines: { correctionWindowSeconds: 0 } });
});
afterAll(async () => {
  await stack?.close();
});

const shipping = { receiverName: 'Jane Doe', firstLine: '123 Main St', city: 'San Francisco', state: 'CA', zip: '94105', country: 'US', phoneNumber: '+14155552671' };
const patientDetails = { firstName: 'Jane', lastName: 'Doe', dob: '1990-05-17', gender: 'female' as const, phoneNumber: '+14155552671', email: 'jane@example.com' };
const patientAddress = { firstLine: '123 Main St', city: 'San Francisco', state: 'CA', zip: '94105', country: 'US' };
const statuses = (o: Vital.ClientFacingOrder) => o.events.map((e) => e.status);

async function registeredOrder() {
  const team = await newTeam(stack);
  const client = sdkFor(stack, team.apiKey);
  const { userId } = await client.user.create({ clientUserId: `walk-${randomUUID()}` });
  const { labTestId } = await testkitLabTest(stack.db.db, team.teamId);
  const { order } = await client.testkit.createOrder({ userId, labTestId, shippingDetails: shipping });
  await client.testkit.register({ sampleId: order.sampleId!, patientDetails, patientAddress });
  return { client, teamId: team.teamId, orderId: order.id };
}

/** Local activities run by the workflow after the simulation request (markers in its history). */
async function localActivitiesAfterSimulate(orderId: string): Promise<number> {
  const history = await stack.temporal.workflow.getHandle(labOrderWorkflowId(orderId)).fetchHistory();
  const events = history.events ?? [];
  const lastUpdate = events.findLastIndex((e) => e.workflowExecutionUpdateAcceptedEventAttributes?.acceptedRequest?.input?.name === 'simulate');
  expect(lastUpdate).toBeGreaterThan(0);
  return events.slice(lastUpdate).filter((e) => e.markerRecordedEventAttributes?.markerName === 'core_local_activity').length;
}

describe('a zero-delay simulation', () => {
  it('records its whole walk in one local activity, each step with its event and webhook event', async () => {
    const { client, teamId, orderId } = await registeredOrder();
    await client.labTests.simulateOrderProcess(orderId, { finalStatus: 'completed.testkit.completed' });
    const done = await eventually(async () => {
      const o = await client.labTests.getOrder(orderId);
      return o.status === 'completed' ? o : null;
    });
    await expect(stack.temporal.workflow.getHandle(labOrderWorkflowId(orderId)).result()).resolves.toBe('completed');
    expect(statuses(done).slice(4)).toEqual([
      'collecting_sample.testkit.transit_customer',
      'collecting_sample.testkit.out_for_delivery',
      'collecting_sample.testkit.with_customer',
      'collecting_sample.testkit.transit_lab',
      'sample_with_lab.testkit.delivered_to_lab',
      'completed.testkit.completed',
    ]);
    expect(done.events.map((e) => e.id)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    // six steps and the simulated results: one local activity (step by step it was seven)
    expect(await localActivitiesAfterSimulate(orderId)).toBe(1);
    // every patch the order met in one marker (ORDER_PATCHES_2026_11; one per patch before: six here)
    const history = await stack.temporal.workflow.getHandle(labOrderWorkflowId(orderId)).fetchHistory();
    expect(history.events?.filter((e) => e.markerRecordedEventAttributes?.markerName === 'core_patch')).toHaveLength(1);
    const [results] = await stack.db.db.select().from(orderResults).where(eq(orderResults.orderId, orderId));
    expect(results?.status).toBe('final');
    expect(Array.isArray(results?.results) && results.results.length).toBeGreaterThan(0);
    const outbox = await stack.db.db.select().from(outboxEvents).where(and(eq(outboxEvents.teamId, teamId), eq(outboxEvents.subjectId, orderId)));
    const updates = outbox.filter((e) => e.eventType === 'labtest.order.updated').map((e) => (e.data as { events: unknown[] }).events.length);
    // one update per status after creation, each carrying the order as it was at its step
    expect(updates.sort((a, b) => a - b)).toEqual([2, 3, 4, 5, 6, 7, 8, 9, 10]);
  });

  it('refused part-way writes nothing of the walk; walked step by step, the refused step stops the order', async () => {
    const { client, orderId } = await registeredOrder();
    const fn = `refuse_completed_${orderId.replaceAll('-', '')}`;
    // the database refuses this order's `completed` event as bad data (class 22), as it would a NUL byte
    await stack.db.db.execute(
      sql.raw(`create function ${fn}() returns trigger language plpgsql as $$
        begin
          if new.order_id = '${orderId}' and new.status like 'completed.%' then
            raise exception 'refused by the test' using errcode = '22023';
          end if;
          return new;
        end $$`),
    );
    await stack.db.db.execute(sql.raw(`create trigger ${fn} before insert on order_events for each row execute function ${fn}()`));
    try {
      await client.labTests.simulateOrderProcess(orderId, { finalStatus: 'completed.testkit.completed' });
      const stopped = await eventually(async () => {
        const o = await client.labTests.getOrder(orderId);
        return o.events.at(-1)?.status.endsWith('.do_not_process') ? o : null;
      });
      expect(statuses(stopped).slice(4)).toEqual([
        'collecting_sample.testkit.transit_customer',
        'collecting_sample.testkit.out_for_delivery',
        'collecting_sample.testkit.with_customer',
        'collecting_sample.testkit.transit_lab',
        'sample_with_lab.testkit.delivered_to_lab',
        'cancelled.testkit.do_not_process',
      ]);
      expect(stopped.events.map((e) => e.id)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
      const [last] = await stack.db.db.select().from(orderEvents).where(and(eq(orderEvents.orderId, orderId), eq(orderEvents.id, 10)));
      expect(last?.statusDetail).toBe('processing_error');
      // the walk (rolled back) and then one local activity per step: results, five steps, the refused one, the stop
      expect(await localActivitiesAfterSimulate(orderId)).toBeGreaterThan(6);
    } finally {
      await stack.db.db.execute(sql.raw(`drop trigger ${fn} on order_events`));
      await stack.db.db.execute(sql.raw(`drop function ${fn}()`));
    }
  });
});
