import { randomUUID } from 'node:crypto';
import { and, eq, inArray, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { orderPayloadBuilder } from '../../activities/index.js';
import { createDb, type DbHandle } from '../../db/client.js';
import { updateTeamLabTest } from '../../db/queries/catalog.js';
import { rowFromJson } from '../../db/queries/json-rows.js';
import { cachedLabTestView, loadLabTestViews } from '../../db/queries/lab-test-view.js';
import { orderView } from '../../db/queries/order-view.js';
import {
  criticalResultEventId,
  findOrderRecorded,
  recordOrderCreation,
  recordStep,
  recordStepPipelined,
  type OrderPayloadBuilder,
  type StepContext,
  type TransitionInput,
} from '../../db/queries/orders.js';
import { createTeam } from '../../db/queries/teams.js';
import { insertUser } from '../../db/queries/users.js';
import { labTestMarkers, markers, orderEvents, orders, outboxEvents, teams, webhookDeliveries, webhookEndpoints } from '../../db/schema/index.js';
import { transactionIdOf } from '../../domain/orders/ids.js';
import type { UrlSigner } from '../../lib/url-signing.js';
import { testkitLabTest } from '../support/catalog-fixture.js';

// The writers of order steps read the payload's rows in the statement that writes the step (db/queries/
// order-steps.ts). Their payload must be exactly what GET builds from its own reads, byte for byte.
let handle: DbHandle;
beforeAll(() => {
  handle = createDb(inject('databaseUrl'), { max: 3 });
});
afterAll(() => handle?.close());

// A signer whose links do not depend on the moment they are made, so two payloads built apart compare equal.
const signer: UrlSigner = {
  sign: (path) => `https://docs.example${path}`,
  verify: () => {
    throw new Error('not used');
  },
};

/** The real builder, remembering the last payload it shaped from rows (before jsonb storage reorders its keys). */
function recordingBuilder() {
  const real = orderPayloadBuilder(signer);
  const shaped: Record<string, unknown>[] = [];
  const build: OrderPayloadBuilder = (tx, teamId, orderId) => real(tx, teamId, orderId);
  build.fromRows = (rows) => {
    const payload = real.fromRows!(rows);
    shaped.push(payload);
    return payload;
  };
  return { build, last: () => shaped.at(-1) };
}

async function newOrder(opts: { partialWebhooks?: boolean } = {}) {
  const db = handle.db;
  const team = await createTeam(db, { name: 'steps', environment: 'sandbox', region: 'us' });
  if (opts.partialWebhooks) await db.update(teams).set({ partialWebhooksEnabled: true }).where(eq(teams.id, team.teamId));
  const { labTestId } = await testkitLabTest(db, team.teamId);
  const inserted = await insertUser(db, team.teamId, { clientUserId: `steps-${randomUUID()}` }, new Date());
  const user = 'created' in inserted ? inserted.created : inserted.duplicateOf;
  const endpointId = randomUUID();
  await db.insert(webhookEndpoints).values({
    id: endpointId,
    teamId: team.teamId,
    url: 'https://hooks.example/x',
    secretEnc: 'x',
    eventTypes: ['labtest.'],
    createdAt: new Date(),
    updatedAt: new Date(),
  });
  const id = randomUUID();
  const record = {
    id,
    teamId: team.teamId,
    userId: user.id,
    labTestId,
    method: 'testkit',
    detailsId: randomUUID(),
    workflowId: `order-${id}`,
    origin: 'initial',
    transactionId: transactionIdOf(id),
    patientDetails: { first_name: 'Ada', last_name: 'Lovelace', dob: '1985-12-10', gender: 'female', email: 'ada@example.com' },
    patientAddress: { first_line: '10 Downing St', city: 'London', state: 'LDN', zip: 'SW1A 2AA', country: 'GB' },
    icdCodes: ['E11.9', 'Z00.00'],
    activateBy: '2026-01-02',
    passthrough: 'p',
  };
  return { team, user, labTestId, endpointId, id, record };
}

const step = (o: Awaited<ReturnType<typeof newOrder>>, eventId: number, low: TransitionInput['low'], patch: TransitionInput['patch'] = {}): TransitionInput => ({
  teamId: o.team.teamId,
  orderId: o.id,
  eventId,
  method: 'testkit',
  low,
  statusDetail: null,
  patch,
  outbox: { id: randomUUID(), eventType: 'labtest.order.updated' },
});

async function get(o: Awaited<ReturnType<typeof newOrder>>) {
  return orderView(handle.db, o.team.teamId, o.id, loadLabTestViews, () => Promise.resolve(signer));
}

describe('order steps: one statement writes a step and reads its payload', () => {
  it('maps a row read as jsonb exactly as drizzle maps the same row', async () => {
    const o = await newOrder();
    const { build } = recordingBuilder();
    await recordOrderCreation(handle.db, o.record, null, { id: randomUUID(), eventType: 'labtest.order.created' }, build);
    await handle.db
      .update(orders)
      .set({
        shipment: { id: 's', outbound_courier: 'usps', outbound_tracking_number: '1', outbound_tracking_url: null, inbound_courier: null, inbound_tracking_number: null, inbound_tracking_url: null, notes: null } as never,
        physician: { first_name: 'A', last_name: 'B', npi: '1234567893' },
        consents: [{ consentType: 'terms' }],
        healthInsurance: { member_id: 'm' },
        redrawMarkerSlugs: ['a', 'b'],
        aoeAnswers: [{ marker_id: 1, question_id: 2, answer: 'x' }] as never,
        expectedResultByDate: '2026-02-03',
        hasMissingResults: true,
        interpretation: 'normal',
        sampleId: `S-${o.id}`,
      })
      .where(eq(orders.id, o.id));
    const [drizzleRow] = await handle.db.select().from(orders).where(eq(orders.id, o.id));
    const [json] = [...(await handle.db.execute<{ o: Record<string, unknown> }>(sql`select to_jsonb(x) as o from ${orders} x where x.id = ${o.id}`))];
    const mapped = rowFromJson(orders, json!.o);
    expect(mapped).toEqual(drizzleRow);
    expect(Object.keys(mapped)).toEqual(Object.keys(drizzleRow!));
    expect(Object.values(mapped).filter((v) => v === null)).toHaveLength(Object.values(drizzleRow!).filter((v) => v === null).length);
  });

  it('every payload equals the order as GET returns it, byte for byte; retries write nothing twice', async () => {
    const o = await newOrder();
    const { build, last } = recordingBuilder();
    const createdId = randomUUID();
    const created = await recordOrderCreation(handle.db, o.record, { key: `k-${o.id}`, requestHash: 'h' }, { id: createdId, eventType: 'labtest.order.created' }, build, [
      { low: 'requisition_created', outbox: { id: randomUUID(), eventType: 'labtest.order.updated' } },
    ]);
    expect(created).toEqual({ written: true, queuedNow: true, endpoints: [o.endpointId], order: last() });
    expect(JSON.stringify(last())).toBe(JSON.stringify(await get(o)));
    expect((created.order as { status: string; events: unknown[] }).events).toHaveLength(2);
    // a retry of the creation finds the order and writes nothing (its pipelined steps are rolled back too)
    expect(await recordOrderCreation(handle.db, o.record, null, { id: createdId, eventType: 'labtest.order.created' }, build)).toMatchObject({ written: false });
    const retriedStep = randomUUID();
    const retry = await recordOrderCreation(handle.db, { ...o.record, patientDetails: { first_name: 'Other' } }, null, { id: randomUUID(), eventType: 'labtest.order.created' }, build, [
      { low: 'requisition_created', outbox: { id: randomUUID(), eventType: 'labtest.order.updated' } },
      { low: 'transit_customer', outbox: { id: retriedStep, eventType: 'labtest.order.updated' } },
    ]);
    expect(retry).toMatchObject({ written: false });
    expect((await handle.db.select().from(orderEvents).where(eq(orderEvents.orderId, o.id))).map((e) => e.id)).toEqual([1, 2]);
    expect(await handle.db.select().from(outboxEvents).where(eq(outboxEvents.id, retriedStep))).toEqual([]);
    expect((await get(o))?.status).toBe('received');
    expect(await findOrderRecorded(handle.db, o.id, [createdId])).toEqual({ present: true, endpoints: [o.endpointId] });
    expect(await findOrderRecorded(handle.db, randomUUID(), [createdId])).toMatchObject({ present: false });

    const steps: TransitionInput[] = [
      step(o, 3, 'transit_customer', {
        shipment: { id: 'sh', outbound_courier: 'usps', outbound_tracking_number: 'T1', outbound_tracking_url: null, inbound_courier: null, inbound_tracking_number: null, inbound_tracking_url: null, notes: null } as never,
      }),
      step(o, 4, 'with_customer', {
        // a registration's patient details: stored as jsonb (keys reordered), read back in the same order as GET reads them
        sampleId: `S-${o.id}`,
        patientDetails: { zz_last: 'z', email: 'x@example.com', first_name: 'Grace', last_name: 'Hopper', dob: '1906-12-09', gender: 'female' },
      }),
      step(o, 5, 'completed', { interpretation: 'critical', hasMissingResults: false }),
    ];
    for (const s of steps) {
      const written = await recordStep(handle.db, s, build);
      expect(written).toEqual({ written: true, queuedNow: true, endpoints: [o.endpointId] });
      expect(JSON.stringify(last())).toBe(JSON.stringify(await get(o)));
      const [stored] = await handle.db.select({ data: outboxEvents.data }).from(outboxEvents).where(eq(outboxEvents.id, s.outbox.id));
      expect(stored!.data).toEqual(await get(o));
    }
    // the critical result was announced beside the completion
    const completion = steps[2]!.outbox.id;
    const [critical] = await handle.db.select().from(outboxEvents).where(eq(outboxEvents.id, criticalResultEventId(completion)));
    expect(critical).toMatchObject({ eventType: 'labtest.result.critical', subjectId: o.id, userId: o.user.id, clientUserId: o.user.clientUserId });
    expect(critical!.data).toMatchObject({ order_id: o.id, status: 'completed', interpretation: 'critical' });

    // a retried step writes nothing and says its events were queued before (the caller then looks the endpoints up)
    const again = await recordStep(handle.db, steps[1]!, build);
    expect(again).toEqual({ written: false, queuedNow: false, endpoints: [] });
    const events = await handle.db.select().from(orderEvents).where(eq(orderEvents.orderId, o.id));
    expect(events.map((e) => e.id)).toEqual([1, 2, 3, 4, 5]);
    const outbox = await handle.db.select({ id: outboxEvents.id }).from(outboxEvents).where(eq(outboxEvents.subjectId, o.id));
    expect(outbox).toHaveLength(6); // created, 4 updates, critical
    const deliveries = await handle.db.select().from(webhookDeliveries).where(inArray(webhookDeliveries.eventId, outbox.map((r) => r.id)));
    expect(deliveries).toHaveLength(6);
  });

  it('a run of steps in one transaction (later steps read only the order and its events) gives each step the payload GET gives', async () => {
    const o = await newOrder();
    const { build, last } = recordingBuilder();
    await recordOrderCreation(handle.db, o.record, null, { id: randomUUID(), eventType: 'labtest.order.created' }, build);
    const steps: TransitionInput[] = [
      step(o, 2, 'requisition_created'),
      step(o, 3, 'transit_customer', {
        shipment: { id: 'sh', outbound_courier: 'usps', outbound_tracking_number: 'T1', outbound_tracking_url: null, inbound_courier: null, inbound_tracking_number: null, inbound_tracking_url: null, notes: null } as never,
      }),
      step(o, 4, 'delivered_to_lab'),
      step(o, 5, 'completed', { interpretation: 'critical', hasMissingResults: true }),
    ];
    const payloads: string[] = [];
    await handle.db.transaction(async (tx) => {
      let context: StepContext | undefined;
      const queued = [];
      for (const s of steps) {
        const sent = await recordStepPipelined(tx, s, build, context);
        expect(sent.written).toBe(true);
        if (context) expect(sent.context).toBe(context); // the first step's read serves the run
        context = sent.context;
        queued.push(sent.events);
        // the order as GET would return it at this step, read in the same transaction
        const view = await orderView(tx, o.team.teamId, o.id, loadLabTestViews, () => Promise.resolve(signer));
        expect(JSON.stringify(last())).toBe(JSON.stringify(view));
        payloads.push(JSON.stringify(view));
      }
      for (const events of queued) expect(await events).toEqual({ queuedNow: true, endpoints: [o.endpointId] });
    });
    for (const [i, s] of steps.entries()) {
      const [stored] = await handle.db.select({ data: outboxEvents.data }).from(outboxEvents).where(eq(outboxEvents.id, s.outbox.id));
      expect(stored!.data).toEqual(JSON.parse(payloads[i]!));
    }
    const [critical] = await handle.db.select().from(outboxEvents).where(eq(outboxEvents.id, criticalResultEventId(steps[3]!.outbox.id)));
    expect(critical).toMatchObject({ eventType: 'labtest.result.critical', subjectId: o.id, clientUserId: o.user.clientUserId });
  });

  it('a step after the lab test, its markers or its lab changed carries the change (the cached view is never stale)', async () => {
    const o = await newOrder();
    const { build, last } = recordingBuilder();
    await recordOrderCreation(handle.db, o.record, null, { id: randomUUID(), eventType: 'labtest.order.created' }, build);
    await recordStep(handle.db, step(o, 2, 'requisition_created'), build); // the view is cached now
    expect(JSON.stringify(last())).toBe(JSON.stringify(await get(o)));
    const before = cachedLabTestView(o.labTestId)!.view;

    expect(await updateTeamLabTest(handle.db, o.team.teamId, o.labTestId, { name: 'Renamed kit' })).toBe(true);
    await recordStep(handle.db, step(o, 3, 'transit_customer'), build);
    expect((last()!.lab_test as { name: string }).name).toBe('Renamed kit');
    expect(last()!.lab_test).not.toBe(before);
    expect(JSON.stringify(last())).toBe(JSON.stringify(await get(o)));

    // a marker renamed and one unlinked, without touching the lab test row
    const links = await handle.db.select().from(labTestMarkers).where(eq(labTestMarkers.labTestId, o.labTestId));
    await handle.db.update(markers).set({ name: 'Renamed marker' }).where(eq(markers.id, links[0]!.markerId));
    await handle.db.delete(labTestMarkers).where(and(eq(labTestMarkers.labTestId, o.labTestId), eq(labTestMarkers.markerId, links[1]!.markerId)));
    await recordStep(handle.db, step(o, 4, 'with_customer'), build);
    expect((last()!.lab_test as { markers: { name: string }[] }).markers.map((m) => m.name)).toEqual(['Renamed marker']);
    expect(JSON.stringify(last())).toBe(JSON.stringify(await get(o)));

    // unchanged since: the view this process cached (the statement did not send the lab test again), equal to what GET reads
    const cachedView = cachedLabTestView(o.labTestId)!.view;
    expect(last()!.lab_test).toBe(cachedView);
    await recordStep(handle.db, step(o, 5, 'transit_lab'), build);
    expect(last()!.lab_test).toBe(cachedView);
    expect(JSON.stringify(last())).toBe(JSON.stringify(await get(o)));
  });

  it('a builder without `fromRows` reads the order itself, with the same payload (recordOrderCreation and recordStep)', async () => {
    const o = await newOrder();
    const plain: OrderPayloadBuilder = async (tx, teamId, orderId) => (await orderView(tx, teamId, orderId, loadLabTestViews, () => Promise.resolve(signer)))!;
    const createdId = randomUUID();
    expect((await recordOrderCreation(handle.db, o.record, null, { id: createdId, eventType: 'labtest.order.created' }, plain)).written).toBe(true);
    expect((await recordOrderCreation(handle.db, o.record, null, { id: createdId, eventType: 'labtest.order.created' }, plain)).written).toBe(false);
    const s = step(o, 2, 'requisition_created');
    expect((await recordStep(handle.db, s, plain)).written).toBe(true);
    expect((await recordStep(handle.db, s, plain)).written).toBe(false);
    const [stored] = await handle.db.select({ data: outboxEvents.data }).from(outboxEvents).where(eq(outboxEvents.id, s.outbox.id));
    expect(stored!.data).toEqual(await get(o));
  });

  it('partial results are announced only to teams that ask for them', async () => {
    for (const partialWebhooks of [false, true]) {
      const o = await newOrder({ partialWebhooks });
      const { build } = recordingBuilder();
      await recordOrderCreation(handle.db, o.record, null, { id: randomUUID(), eventType: 'labtest.order.created' }, build);
      const partial = step(o, 2, 'partial_results', { interpretation: 'normal', hasMissingResults: true });
      const written = await recordStep(handle.db, partial, build);
      expect(written).toEqual({ written: true, queuedNow: true, endpoints: partialWebhooks ? [o.endpointId] : [] });
      const stored = await handle.db.select().from(outboxEvents).where(eq(outboxEvents.id, partial.outbox.id));
      expect(stored).toHaveLength(partialWebhooks ? 1 : 0);
      const [row] = await handle.db.select().from(orders).where(eq(orders.id, o.id));
      expect(row).toMatchObject({ lowLevelStatus: 'partial_results', hasMissingResults: true, interpretation: 'normal' });
    }
  });
});
