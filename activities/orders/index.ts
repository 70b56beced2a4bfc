import { eq } from 'drizzle-orm';
import type { Db, DbOrTx } from '../../db/client.js';
import { endpointsPendingFor } from '../../db/queries/webhooks.js';
import { classifyActivityError } from '../../lib/activity-errors.js';
import {
  criticalResultEventId,
  findOrderRecorded,
  recordOrderCreation,
  recordStep,
  recordStepPipelined,
  upsertResults,
  type NewOrder,
  type OrderPayloadBuilder,
  type StepContext,
  type StepsWritten,
  type TransitionPatch,
} from '../../db/queries/orders.js';
import { labs, labTestMarkers, labTests, loincCodes, markerResults, markers, orders, users } from '../../db/schema/index.js';
import { simulateResults } from '../../domain/orders/simulated-results.js';
import { ORDER_EVENT_TYPES, type CollectionMethod, type LowLevelStatus } from '../../domain/orders/status.js';
import type { Logger } from '../../lib/logger.js';
import type { RegistrationInput, ResultsInput, SimulationRequest } from '../../workflows/lab-order/definitions.js';
import type { ShipmentRecord } from '../../workflows/lab-order/shipment.js';

interface Deps {
  db: Db;
  logger: Logger;
  /**
   * The builder of webhook payloads (the order exactly as GET /v3/order/{id} returns it), with what it
   * needs loaded: asked for before each write's transaction, as it runs inside it.
   */
  orderPayload: () => Promise<OrderPayloadBuilder>;
  /** Wakes the delivery workflows of endpoints that got new events. */
  wakeEndpoints: (endpointIds: string[]) => Promise<void>;
}

/** Activities of the lab-order workflow. Each is idempotent: a retry after a crash changes nothing twice. */
export function createOrderActivities({ db, logger, orderPayload, wakeEndpoints }: Deps) {
  /**
   * Wakes, once, the endpoints the writes queued deliveries for: each write with its events' ids, so a retry
   * that found its events queued already (queuedNow false) looks its endpoints up.
   */
  const wakeAfter = async (...writes: [Pick<StepsWritten, 'queuedNow' | 'endpoints'>, string[]][]) => {
    const endpoints = new Set(writes.flatMap(([w]) => (w.queuedNow ? w.endpoints : [])));
    const lookUp = writes.flatMap(([w, eventIds]) => (w.queuedNow ? [] : eventIds));
    if (lookUp.length) for (const e of await endpointsPendingFor(db, lookUp)) endpoints.add(e);
    if (endpoints.size) await wakeEndpoints([...endpoints]);
  };

  /** The order's results with their metadata (patient, lab, dates), as GET /v3/order/{id}/result serves them. */
  async function storeResults(orderId: string, results: ResultsInput, q: DbOrTx = db): Promise<void> {
    // the order with its patient's client id and its lab's name, in one read
    const [row] = await q
      .select({
        order: { patientDetails: orders.patientDetails, lowLevelStatusCreatedAt: orders.lowLevelStatusCreatedAt, sampleId: orders.sampleId },
        clientUserId: users.clientUserId,
        labName: labs.name,
      })
      .from(orders)
      .leftJoin(users, eq(users.id, orders.userId))
      .leftJoin(labTests, eq(labTests.id, orders.labTestId))
      .leftJoin(labs, eq(labs.id, labTests.labId))
      .where(eq(orders.id, orderId));
    if (!row) throw new Error(`order ${orderId} not found`);
    const { order } = row;
    const pd = order.patientDetails ?? {};
    const dob = typeof pd.dob === 'string' ? pd.dob : '';
    const now = new Date();
    await upsertResults(q, orderId, {
      status: results.final ? 'final' : 'partial',
      interpretation: results.interpretation,
      results: results.results,
      missingResults: results.missingResults ?? [],
      metadata: {
        age: dob ? String(ageOn(dob, now)) : '',
        dob,
        patient: [pd.first_name, pd.last_name].filter(Boolean).join(' ') || (row.clientUserId ?? ''),
        laboratory: row.labName ?? null,
        date_reported: now.toISOString().slice(0, 10),
        date_collected: order.lowLevelStatusCreatedAt.toISOString().slice(0, 10),
        specimen_number: order.sampleId ?? '',
        status: results.final ? 'final' : 'partial',
        interpretation: results.interpretation,
      },
    });
  }

  /** One step: results first when asked (RESULTS_STORED_WITH_STEP), then the order row, its event and webhook events. */
  async function recordTransitionIn(q: DbOrTx, input: TransitionActivityInput, payload: OrderPayloadBuilder): Promise<StepsWritten> {
    if (input.storeResults && input.patch.results) await storeResults(input.orderId, input.patch.results, q);
    return recordStep(q, { ...input, patch: transitionPatch(input), outbox: { id: input.outboxEventId, eventType: ORDER_EVENT_TYPES.updated } }, payload);
  }

  /** The order row's columns a step sets, from what the workflow sent. */
  function transitionPatch(input: Pick<TransitionActivityInput, 'patch'>): TransitionPatch {
    const patch: TransitionPatch = {};
    const reg = input.patch.registration;
    if (reg) {
      Object.assign(patch, {
        sampleId: reg.sampleId,
        userId: reg.userId,
        patientDetails: reg.patientDetails,
        patientAddress: reg.patientAddress,
        physician: reg.physician,
        consents: reg.consents,
        healthInsurance: reg.healthInsurance,
      });
    }
    if (input.patch.shipment) patch.shipment = input.patch.shipment;
    if (input.patch.results) {
      patch.interpretation = input.patch.results.interpretation;
      patch.hasMissingResults = (input.patch.results.missingResults?.length ?? 0) > 0;
    }
    return patch;
  }

  return {
    /** The order row with its first event(s) and their webhook events; `then` are the steps that follow creation at once. */
    async createOrderRecord(input: {
      record: NewOrder;
      idempotency: { key: string; requestHash: string } | null;
      outboxEventId: string;
      then?: { low: LowLevelStatus; outboxEventId: string }[];
    }) {
      const then = input.then ?? [];
      const eventIds = [input.outboxEventId, ...then.map((t) => t.outboxEventId)];
      // Usually written already (by the API's create, or by an earlier attempt of this activity): one read.
      const recorded = await findOrderRecorded(db, input.record.id, eventIds);
      // one line per order (not per step): an operator follows an order from here to its workflow
      const logRecorded = (created: boolean) => logger.info({ order_id: input.record.id, team_id: input.record.teamId, created }, 'order recorded');
      if (recorded.present) {
        logRecorded(false);
        if (recorded.endpoints.length) await wakeEndpoints(recorded.endpoints);
        return;
      }
      const written = await recordOrderCreation(
        db,
        input.record,
        input.idempotency,
        { id: input.outboxEventId, eventType: ORDER_EVENT_TYPES.created },
        await orderPayload(),
        then.map((t) => ({ low: t.low, outbox: { id: t.outboxEventId, eventType: ORDER_EVENT_TYPES.updated } })),
      );
      logRecorded(written.written);
      await wakeAfter([written, eventIds]);
    },

    async recordTransition(input: TransitionActivityInput) {
      const written = await recordTransitionIn(db, input, await orderPayload());
      logger.debug({ order_id: input.orderId, event_id: input.eventId, status: input.low, appended: written.written }, 'order transition');
      await wakeAfter([written, [input.outboxEventId, criticalResultEventId(input.outboxEventId)]]);
    },

    /**
     * A zero-delay simulation's run of steps (workflows since SIMULATED_WALK_IN_ONE_STEP): every job's
     * steps recorded in order, in ONE transaction, each step with its own event and webhook event exactly
     * as `recordTransition` writes it; a results job's simulated results generated and stored with its
     * first step. Idempotent as each step is (a retry finds the events written). All or nothing: on any
     * error nothing is written, `recorded` is false, and the workflow walks the same steps one activity at
     * a time, where a refused step stops the order as before.
     */
    async recordSimulatedWalk(input: {
      teamId: string;
      orderId: string;
      method: CollectionMethod;
      jobs: SimulatedWalkJob[];
    }): Promise<{ recorded: boolean; missingSlugs: string[] | null }> {
      const payload = await orderPayload();
      const writes: [Omit<StepsWritten, 'written'>, string[]][] = [];
      let missingSlugs: string[] | null = null;
      try {
        await db.transaction(async (tx) => {
          // each step's webhook events are awaited after the next step is sent (recordStepPipelined)
          const queued: { outboxEventId: string; events: Promise<Omit<StepsWritten, 'written'>> }[] = [];
          // what the first step read of the lab test, user, team and transaction serves the later ones (light reads)
          let context: StepContext | undefined;
          for (const job of input.jobs) {
            const results = job.simulatedResults ? await simulated(tx, input.orderId, job.simulatedResults.final, job.simulatedResults.request) : null;
            if (results?.final) missingSlugs = (results.missingResults ?? []).map((m) => m.slug);
            for (const [i, step] of job.steps.entries()) {
              // results are stored with the first step they bring, as `recordTransition` does
              const withResults = i === 0 && results !== null;
              if (withResults) await storeResults(input.orderId, results, tx);
              const stepInput = { teamId: input.teamId, orderId: input.orderId, method: input.method, ...step, patch: withResults ? { ...step.patch, results } : step.patch };
              const outbox = { id: step.outboxEventId, eventType: ORDER_EVENT_TYPES.updated };
              const sent = await recordStepPipelined(tx, { ...stepInput, patch: transitionPatch(stepInput), outbox }, payload, context);
              context = sent.context;
              queued.push({ outboxEventId: step.outboxEventId, events: sent.events });
            }
          }
          for (const { outboxEventId, events } of queued) writes.push([await events, [outboxEventId, criticalResultEventId(outboxEventId)]]);
        });
      } catch (err) {
        // nothing was written; the workflow records the steps one at a time, where errors are classified
        logger.warn({ order_id: input.orderId, reason: classifyActivityError(err).message }, 'simulated walk not recorded in one step');
        return { recorded: false, missingSlugs: null };
      }
      await wakeAfter(...writes);
      return { recorded: true, missingSlugs };
    },

    async storeResults(input: { orderId: string; results: ResultsInput }) {
      await storeResults(input.orderId, input.results);
    },

    /** Sandbox only: results for the order's lab test markers, shaped as a lab would report them. */
    async simulatedResults(input: { orderId: string; final: boolean; request: SimulationRequest }): Promise<ResultsInput> {
      return simulated(db, input.orderId, input.final, input.request);
    },
  };
}

/** A status change as the workflow sends it to `recordTransition`. */
interface TransitionActivityInput {
  teamId: string;
  orderId: string;
  method: CollectionMethod;
  eventId: number;
  low: LowLevelStatus;
  statusDetail: string | null;
  outboxEventId: string;
  patch: { registration?: RegistrationInput | null; shipment?: ShipmentRecord | null; results?: ResultsInput | null };
  /** Store `patch.results` first (workflows since RESULTS_STORED_WITH_STEP; before, `storeResults` was its own activity). */
  storeResults?: boolean;
}

/** One simulated job of a walk: its steps, and (a results job) the request its results are simulated from. */
export interface SimulatedWalkJob {
  steps: Pick<TransitionActivityInput, 'eventId' | 'low' | 'statusDetail' | 'outboxEventId' | 'patch'>[];
  simulatedResults?: { final: boolean; request: SimulationRequest };
}

/** Sandbox only: results for the order's lab test markers, shaped as a lab would report them. */
async function simulated(q: DbOrTx, orderId: string, final: boolean, request: SimulationRequest): Promise<ResultsInput> {
  // the order's redraw markers and its lab test's expected results, in one read (no marker: one row of nulls)
  const rows = await q
    .select({
      redrawMarkerSlugs: orders.redrawMarkerSlugs,
      name: markerResults.name,
      slug: markerResults.slug,
      providerId: markerResults.providerId,
      loincCode: loincCodes.code,
      loincSlug: loincCodes.slug,
      unit: loincCodes.unit,
    })
    .from(orders)
    .leftJoin(labTestMarkers, eq(labTestMarkers.labTestId, orders.labTestId))
    .leftJoin(markers, eq(markers.id, labTestMarkers.markerId))
    .leftJoin(markerResults, eq(markerResults.markerId, markers.id))
    .leftJoin(loincCodes, eq(loincCodes.id, markerResults.loincId))
    .where(eq(orders.id, orderId))
    .orderBy(markers.id, markerResults.id);
  if (rows.length === 0) throw new Error(`order ${orderId} not found`);
  const order = { redrawMarkerSlugs: rows[0]!.redrawMarkerSlugs };
  const expected = rows.flatMap(({ name, slug, providerId, loincCode, loincSlug, unit }) =>
    name !== null && slug !== null ? [{ name, slug, providerId, loincCode, loincSlug, unit }] : [],
  );
  // a redraw reports only the markers it draws again
  const drawn = order.redrawMarkerSlugs?.length ? expected.filter((e) => order.redrawMarkerSlugs!.includes(e.slug)) : expected;
  const simulatedNow = simulateResults(orderId, drawn, {
    interpretation: request.interpretation,
    resultTypes: request.resultTypes,
    hasMissingResults: request.hasMissingResults,
  });
  return { final, interpretation: request.interpretation, ...simulatedNow };
}

function ageOn(dob: string, now: Date): number {
  const d = new Date(`${dob.slice(0, 10)}T00:00:00Z`);
  let age = now.getUTCFullYear() - d.getUTCFullYear();
  const m = now.getUTCMonth() - d.getUTCMonth();
  if (m < 0 || (m === 0 && now.getUTCDate() < d.getUTCDate())) age--;
  return age;
}

