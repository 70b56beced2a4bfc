import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { orderEvents, orders, outboxEvents } from '../../db/schema/index.js';
import { stepsAfterCreation } from '../../domain/orders/lifecycles.js';
import { labOrderWorkflowId, labOrderWorkflowType, taskQueue, type LabOrderInput } from '../../workflows/lab-order/definitions.js';
import { testkitLabTest } from '../support/catalog-fixture.js';
import { eventually, http, newTeam, startTestStack, type TestStack } from '../support/harness.js';

// Creation (api/routes/orders/create.ts): the API starts the order's workflow, then writes the order itself
// under ids it hands the workflow; the workflow's first step writes the very same rows when the API's write
// never happened. Either way: one order, each event once.

let stack: TestStack;
beforeAll(async () => {
  stack = await startTestStack();
});
afterAll(async () => {
  await stack?.close();
});

const shipping = { receiver_name: 'Jane Doe', first_line: '1 Main St', city: 'Austin', state: 'TX', zip: '78701', country: 'US', phone_number: '+14155552671' };

describe('order creation', () => {
  it('answers the order as GET returns it, and the workflow adds no second copy of its first events', async () => {
    const team = await newTeam(stack);
    const user = await http(stack, 'POST', '/v2/user', { apiKey: team.apiKey, body: { client_user_id: `create-${randomUUID()}` } });
    const { labTestId } = await testkitLabTest(stack.db.db, team.teamId);
    const created = await http(stack, 'POST', '/v3/order/testkit', {
      apiKey: team.apiKey,
      body: { user_id: user.json.user_id, lab_test_id: labTestId, shipping_details: shipping },
    });
    expect(created.status).toBe(200);
    const order = created.json.order as { id: string; events: { status: string }[] };
    expect(order.events.map((e) => e.status)).toEqual(['received.testkit.ordered', 'received.testkit.awaiting_registration']);
    const got = await http(stack, 'GET', `/v3/order/${order.id}`, { apiKey: team.apiKey });
    expect(got.json).toEqual(order);
    // the workflow's creating step has run (it moves on to wait for registration) and found the order there
    const handle = stack.temporal.workflow.getHandle(labOrderWorkflowId(order.id));
    await eventually(async () => (await handle.fetchHistory()).events!.some((e) => e.markerRecordedEventAttributes?.markerName === 'core_local_activity'), 20_000);
    expect((await stack.db.db.select().from(orderEvents).where(eq(orderEvents.orderId, order.id))).map((e) => e.id)).toEqual([1, 2]);
    const announced = await stack.db.db.select().from(outboxEvents).where(eq(outboxEvents.subjectId, order.id));
    expect(announced.map((e) => e.eventType).sort()).toEqual(['labtest.order.created', 'labtest.order.updated']);
  }, 60_000);

  it('when the API never wrote the order (it died after the start), the workflow writes it under the ids it was given', async () => {
    const team = await newTeam(stack);
    const user = await http(stack, 'POST', '/v2/user', { apiKey: team.apiKey, body: { client_user_id: `lost-${randomUUID()}` } });
    const { labTestId } = await testkitLabTest(stack.db.db, team.teamId);
    const orderId = randomUUID();
    const workflowId = labOrderWorkflowId(orderId);
    const steps = stepsAfterCreation('testkit', { registrable: true, imported: false, redraw: false });
    expect(steps).toEqual(['awaiting_registration']);
    const recorded = { outboxEventId: randomUUID(), then: [randomUUID()] };
    const input: LabOrderInput = {
      orderId,
      teamId: team.teamId,
      method: 'testkit',
      registrable: true,
      activateBy: null,
      record: { id: orderId, teamId: team.teamId, workflowId, detailsId: randomUUID(), userId: user.json.user_id as string, labTestId, method: 'testkit', shippingDetails: shipping },
      idempotency: null,
      recorded,
    };
    await stack.temporal.workflow.start(labOrderWorkflowType, { workflowId, taskQueue, args: [input] });
    const [row] = await eventually(async () => {
      const rows = await stack.db.db.select().from(orders).where(eq(orders.id, orderId));
      return rows.length ? rows : null;
    }, 20_000);
    expect(row!.lowLevelStatus).toBe('awaiting_registration');
    const announced = await stack.db.db.select().from(outboxEvents).where(eq(outboxEvents.subjectId, orderId));
    expect(announced.map((e) => [e.id, e.eventType]).sort()).toEqual(
      [
        [recorded.outboxEventId, 'labtest.order.created'],
        [recorded.then[0], 'labtest.order.updated'],
      ].sort(),
    );
    const got = await http(stack, 'GET', `/v3/order/${orderId}`, { apiKey: team.apiKey });
    expect(got.status).toBe(200);
    expect((got.json.events as unknown[]).length).toBe(2);
  }, 60_000);
});
