import { ApplicationFailure, allHandlersFinished, condition, log, patched, setHandler, upsertSearchAttributes, uuid4 } from '@temporalio/workflow';
import { searchAttributePairs } from '../shared/search-attributes.js';
import type { DrawState } from '../../domain/orders/draw-lifecycle.js';
import { DEFAULT_DEADLINES, type Lifecycle, type OrderCommand } from '../../domain/orders/lifecycle.js';
import type { LowLevelStatus } from '../../domain/orders/status.js';
import type { TestkitState } from '../../domain/orders/testkit-lifecycle.js';
import { workflowNow } from '../shared/time.js';
import {
  type AppointmentChange,
  type CallerAppointmentChange,
  type LabOrderInput,
  type RegistrationInput,
  type SimulationRequest,
  appointmentUpdate,
  cancelUpdate,
  partnerReportUpdate,
  createdUpdate,
  drawCompletedUpdate,
  registerUpdate,
  resultsSignal,
  sampleErrorSignal,
  shipmentSignal,
  simulateUpdate,
  stateQuery,
} from './definitions.js';
import { type Job, type Outcome, isTestkitState, partnerJob, resultsJob } from './jobs.js';
import { startRedraw } from './redraw.js';
import { reservationExpiry, reservationExpiryJob } from './reservation.js';
import { shipmentPatch, type ShipmentRecord } from './shipment.js';
import {
  CORRECTION_WINDOW,
  CREATE_IN_ONE_STEP,
  REDRAW_MISSING_MARKERS,
  RESERVED_APPOINTMENTS,
  SEARCH_ATTRIBUTES_SET,
  SIMULATION_BOOKS_APPOINTMENTS,
  STEPS_AS_LOCAL_ACTIVITIES,
  acts,
  localActs,
  poisonOf,
  providerRefusal,
  refused,
} from './steps.js';
import { appointmentEventOf, appointmentRefusal } from '../../domain/appointments/rules.js';
import { PHLEBOTOMY_CANCELLATION_REASONS } from '../../domain/appointments/reasons.js';

/**
 * The order's life under its method's lifecycle: every change arrives as a job (an Update, a partner
 * Signal, a deadline, a simulation step), the lifecycle decides it, and each resulting status is
 * recorded through an idempotent activity that writes the event, the order row and the outgoing webhook
 * event in one transaction. A step that fails for good (bad data) stops the order visibly
 * (`do_not_process`, status_detail `processing_error`) instead of retrying for ever.
 */
export async function runOrder<S extends TestkitState | DrawState>(input: LabOrderInput, lc: Lifecycle<S>, initial: S): Promise<LowLevelStatus> {
  const deadlines = { ...DEFAULT_DEADLINES, ...input.deadlines };
  let state: S = initial;
  let events = 0;
  let created = false;
  let creationError: string | null = null;
  let simulation = null as SimulationRequest | null; // set by the simulate handler
  let simulationVersion = 0;
  let shipment: ShipmentRecord | null = null;
  let legStartedAt = 0;
  const queue: Job[] = [];
  const activationAt = input.activateBy ? Date.parse(`${input.activateBy}T00:00:00Z`) : 0;
  const placedAt = workflowNow();
  let appointmentStartAt: number | null = null;
  let reservationsExpire: boolean | null = null;
  /** Set once the order exists: its status changes are then upserted as search attributes. */
  let searchable = false;
  /** Result slugs the last final results lacked (what a redraw draws again). */
  let missingSlugs: string[] = [];

  const submit = async (job: Job) => {
    queue.push(job);
    await condition(() => job.outcome !== undefined);
    const outcome = job.outcome!;
    if (!outcome.ok) throw refused(outcome.reason);
    return { low: outcome.low };
  };
  const refuseUnless = (cmd: OrderCommand) => {
    const d = lc.decide(state, cmd);
    if (!d.ok) throw refused(d.reason);
  };

  setHandler(createdUpdate, async () => {
    await condition(() => created || creationError !== null);
    if (creationError !== null) throw ApplicationFailure.nonRetryable(creationError, 'InvalidData');
    return { orderId: input.orderId };
  });
  setHandler(registerUpdate, (registration) => submit({ cmd: { kind: 'register' }, registration }), {
    validator: (_registration: RegistrationInput) => refuseUnless({ kind: 'register' }),
  });
  setHandler(cancelUpdate, ({ as }) => submit({ cmd: { kind: 'cancel', as } }), {
    validator: ({ as }) => refuseUnless({ kind: 'cancel', as }),
  });
  setHandler(
    appointmentUpdate,
    async (change) => {
      const job: Job = { cmd: { kind: 'appointment', event: appointmentEventOf(change.action) }, appointment: change };
      await submit(job);
      return { appointmentId: job.appointmentId! };
    },
    {
      validator: (change: CallerAppointmentChange) => {
        const why = isTestkitState(state) ? 'a testkit order has no appointments' : appointmentRefusal(state, change.action);
        if (why) throw refused(why);
        refuseUnless({ kind: 'appointment', event: appointmentEventOf(change.action) });
      },
    },
  );
  setHandler(drawCompletedUpdate, () => submit({ cmd: { kind: 'draw_completed' } }), {
    validator: () => refuseUnless({ kind: 'draw_completed' }),
  });
  setHandler(
    simulateUpdate,
    (request) => {
      simulation = request;
      simulationVersion += 1; // wakes the main loop
      return { accepted: true } as const;
    },
    {
      validator: (_request: SimulationRequest) => {
        if (lc.isTerminal(state)) throw refused(`the order is already ${state.low}`);
      },
    },
  );
  setHandler(shipmentSignal, (update) => {
    queue.push({ cmd: { kind: 'shipment', event: update.event }, shipment: update, statusDetail: update.statusDetail ?? null });
  });
  setHandler(sampleErrorSignal, ({ statusDetail }) => {
    queue.push({ cmd: { kind: 'sample_error' }, statusDetail });
  });
  setHandler(resultsSignal, (results) => {
    queue.push(resultsJob(lc, state, results));
  });
  setHandler(
    partnerReportUpdate,
    async (report) => {
      const { low } = await submit(partnerJob(lc, state, input.method, report));
      return { low, events };
    },
    {
      validator: (report) => {
        const job = partnerJob(lc, state, input.method, report);
        if (job.appointment && isTestkitState(state)) throw refused('a testkit order has no appointments');
        refuseUnless(job.cmd);
      },
    },
  );
  setHandler(stateQuery, () => ({
    orderId: input.orderId,
    method: input.method,
    low: state.low,
    lifecycle: state,
    testkit: isTestkitState(state) ? state : null,
    events,
    waitingFor: lc.waitingFor(state),
    simulationTarget: simulation?.target ?? null,
  }));

  let stepActs: typeof acts | null = null;
  /** Activities for order steps: local ones for orders started on this code, regular ones on replay of older histories. */
  const steps = () => (stepActs ??= patched(STEPS_AS_LOCAL_ACTIVITIES) ? localActs : acts);

  async function record(low: LowLevelStatus, statusDetail: string | null, patch: Parameters<typeof acts.recordTransition>[0]['patch']) {
    const eventId = events + 1;
    await steps().recordTransition({
      teamId: input.teamId,
      orderId: input.orderId,
      method: input.method,
      eventId,
      low,
      statusDetail,
      outboxEventId: uuid4(),
      patch,
    });
    events = eventId;
    if (searchable) upsertSearchAttributes(searchAttributePairs({ status: low }));
  }

  /** A step failed for good: the order ends `do_not_process` (processing_error), recorded without the data that failed. */
  async function stopOnPoison(poison: ApplicationFailure): Promise<Outcome> {
    const reason = `the order could not be processed: ${poison.message}`;
    log.warn('order step failed for good', { orderId: input.orderId, type: poison.type, message: poison.message });
    const d = lc.decide(state, { kind: 'processing_error' });
    if (!d.ok) return { ok: false, reason }; // a finished order (a refused correction) stays as it is
    try {
      for (const low of d.steps) await record(low, 'processing_error', {});
    } catch (err) {
      const again = poisonOf(err);
      if (!again) throw err;
      throw ApplicationFailure.nonRetryable(`order ${input.orderId} cannot be recorded: ${again.message}`, 'OrderUnrecordable');
    }
    state = d.next;
    return { ok: false, reason };
  }

  async function apply(job: Job): Promise<Outcome> {
    const decision = lc.decide(state, job.cmd);
    if (!decision.ok) return decision;
    try {
      if (job.appointment || decision.effects?.includes('cancel_appointment')) {
        const change: AppointmentChange = job.appointment ?? {
          action: 'cancel',
          type: 'phlebotomy',
          reasonId: PHLEBOTOMY_CANCELLATION_REASONS[1].id,
          notes: 'the order was cancelled',
        };
        try {
          const done = await steps().changeAppointment({ changeId: uuid4(), teamId: input.teamId, orderId: input.orderId, beforeRequisition: state.low === 'ordered', change });
          job.appointmentId = done.appointmentId;
          appointmentStartAt = done.startAt ? Date.parse(done.startAt) : null;
        } catch (err) {
          const reason = providerRefusal(err);
          if (!reason) throw err;
          // the provider refused: the order is unchanged, unless the change is the order's own (a release)
          if (job.appointment && !job.ownChange) return { ok: false, reason };
        }
      }
      if (job.results) await steps().storeResults({ orderId: input.orderId, results: job.results });
      if (job.results?.final) missingSlugs = (job.results.missingResults ?? []).map((m) => m.slug);
      if (job.shipment) shipment = shipmentPatch(shipment, job.shipment, uuid4(), new Date(workflowNow()).toISOString());
      for (const [i, low] of decision.steps.entries()) {
        await record(low, job.statusDetail ?? null, i === 0 ? { registration: job.registration ?? null, shipment, results: job.results ?? null } : {});
      }
    } catch (err) {
      const poison = poisonOf(err);
      if (!poison) throw err;
      return stopOnPoison(poison);
    }
    const legChanged = lc.leg(decision.next) !== lc.leg(state);
    const confirmsReservation = job.cmd.kind === 'activate' && !isTestkitState(state) && state.reserved && state.appointment === 'scheduled';
    state = decision.next;
    if (confirmsReservation && patched(RESERVED_APPOINTMENTS)) await confirmReservation();
    if (legChanged) legStartedAt = workflowNow();
    return { ok: true, low: state.low };
  }

  /** The requisition exists: the reserved appointment becomes `confirmed` (labtest.appointment.updated). */
  async function confirmReservation() {
    try {
      await steps().changeAppointment({ changeId: uuid4(), teamId: input.teamId, orderId: input.orderId, beforeRequisition: false, change: { action: 'confirm' } });
    } catch (err) {
      const reason = providerRefusal(err);
      if (!reason) throw err;
      log.warn('reserved appointment not confirmed', { orderId: input.orderId, reason });
    }
  }

  /** When the held (reserved) appointment is released, or null (none held, or a history from before). */
  function reservationDeadline(): number | null {
    if (isTestkitState(state)) return null;
    const at = reservationExpiry(state, placedAt, deadlines.reservationHoldSeconds, appointmentStartAt);
    if (at === null) return null;
    reservationsExpire ??= patched(RESERVED_APPOINTMENTS);
    return reservationsExpire ? at : null;
  }

  /** Milliseconds until the lifecycle's next timed step, or undefined for none. */
  function untilDeadline(): number | undefined {
    const d = lc.deadline(state, deadlines);
    if (!d) return undefined;
    return Math.max(0, (d.from === 'activation' ? activationAt : legStartedAt) + d.seconds * 1000 - workflowNow());
  }

  // The order row, its first event and the `labtest.order.created` webhook event come into being together.
  const first = lc.afterCreation(state);
  try {
    if (patched(CREATE_IN_ONE_STEP)) {
      // One local activity, one transaction: creation and the steps that follow it at once (an unregistered
      // kit's `awaiting_registration`). The caller waits on this, so it skips the activity task queue.
      const decision = first ? lc.decide(state, first) : null;
      const then = decision?.ok ? decision.steps.map((low) => ({ low, outboxEventId: uuid4() })) : [];
      await localActs.createOrderRecord({ record: input.record, idempotency: input.idempotency, outboxEventId: uuid4(), then });
      events = 1 + then.length;
      if (decision?.ok) state = decision.next;
    } else {
      await acts.createOrderRecord({ record: input.record, idempotency: input.idempotency, outboxEventId: uuid4() });
      events = 1;
      if (first) await apply({ cmd: first });
    }
  } catch (err) {
    const poison = poisonOf(err);
    if (!poison) throw err;
    // Nothing was written: the caller's create request fails with the reason, and so does this workflow.
    creationError = `the order could not be recorded: ${poison.message}`;
    await condition(allHandlersFinished);
    throw ApplicationFailure.nonRetryable(creationError, 'InvalidData');
  }
  created = true;
  // From here on the order is findable by its search attributes (histories from before set none).
  searchable = patched(SEARCH_ATTRIBUTES_SET);
  if (searchable) upsertSearchAttributes(searchAttributePairs({ team: input.teamId, method: input.method, user: input.record.userId, status: state.low }));

  while (!lc.isTerminal(state)) {
    const seenVersion = simulationVersion;
    const simStep = simulation ? lc.nextTowards(state, simulation.target) : null;
    if (simulation && !simStep) simulation = null;
    let wait = untilDeadline();
    if (simStep && simulation) wait = Math.min(wait ?? Infinity, simulation.delaySeconds * 1000);
    const releaseAt = reservationDeadline();
    if (releaseAt !== null) wait = Math.min(wait ?? Infinity, Math.max(0, releaseAt - workflowNow()));
    const woken = () => queue.length > 0 || simulationVersion !== seenVersion;
    let gotWoken = woken();
    if (!gotWoken && wait === undefined) {
      await condition(woken);
      gotWoken = true;
    } else if (!gotWoken && wait !== undefined && wait > 0) {
      gotWoken = await condition(woken, wait);
    }
    if (gotWoken && queue.length === 0) continue; // a new simulation request: plan again
    if (gotWoken) {
      const job = queue.shift()!;
      job.outcome = await apply(job);
      continue;
    }
    if (releaseAt !== null && workflowNow() >= releaseAt) {
      await apply(reservationExpiryJob(input.method));
      continue;
    }
    if (simStep && simulation) {
      // a step refused on the way (the sandbox provider had no slot) ends the simulation rather than retrying it
      if (!(await apply(await simulatedJob(simStep, simulation))).ok) simulation = null;
      continue;
    }
    const timed = lc.deadline(state, deadlines);
    if (timed) await apply({ cmd: timed.cmd, statusDetail: timed.statusDetail });
  }

  /** A simulation step as the real outside party would send it (a courier's tracking, a lab's results). */
  async function simulatedJob(cmd: OrderCommand, request: SimulationRequest): Promise<Job> {
    const job: Job = { cmd };
    if (cmd.kind === 'results') {
      try {
        job.results = await steps().simulatedResults({ orderId: input.orderId, final: cmd.final, request });
      } catch (err) {
        if (!poisonOf(err)) throw err;
        return { cmd: { kind: 'processing_error' }, statusDetail: 'processing_error' };
      }
    }
    if (cmd.kind === 'appointment' && cmd.event === 'scheduled' && patched(SIMULATION_BOOKS_APPOINTMENTS)) {
      const type = input.method === 'walk_in_test' ? 'patient_service_center' : 'phlebotomy';
      const bookingKey = await steps().sandboxBookingKey({ orderId: input.orderId, type });
      const action = !isTestkitState(state) && state.appointment === 'scheduled' ? 'reschedule' : 'book';
      if (bookingKey) job.appointment = { action, type, bookingKey, notes: 'sandbox simulation', accessNotes: null };
    }
    if (cmd.kind === 'shipment') job.shipment = { event: cmd.event, courier: 'usps', trackingNumber: `SIM${input.orderId.slice(0, 8).toUpperCase()}` };
    return job;
  }

  // An initial walk-in order with markers missing gets its redraw, in the same order transaction.
  if (state.low === 'redraw_available' && input.record.transactionId) await startRedraw(input, patched(REDRAW_MISSING_MARKERS) ? missingSlugs : null);

  // A completed order still takes corrected results for a while.
  if (lc.takesCorrections(state) && deadlines.correctionWindowSeconds > 0 && patched(CORRECTION_WINDOW)) {
    const closesAt = workflowNow() + deadlines.correctionWindowSeconds * 1000;
    while (lc.takesCorrections(state)) {
      const left = closesAt - workflowNow();
      if (left <= 0 || !(await condition(() => queue.length > 0, left))) break;
      const job = queue.shift()!;
      job.outcome = await apply(job);
    }
  }

  // Refuse whatever arrives after the end, then let running handlers finish.
  for (const job of queue.splice(0)) {
    const d = lc.decide(state, job.cmd);
    job.outcome = { ok: false, reason: d.ok ? `the order is ${state.low} and no longer takes changes` : d.reason };
  }
  await condition(allHandlersFinished);
  return state.low;
}
