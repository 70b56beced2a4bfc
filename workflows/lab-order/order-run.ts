import { ApplicationFailure, condition, log, patched, upsertSearchAttributes, uuid4 } from '@temporalio/workflow';
import { PHLEBOTOMY_CANCELLATION_REASONS } from '../../domain/appointments/reasons.js';
import type { DrawState } from '../../domain/orders/draw-lifecycle.js';
import { DEFAULT_DEADLINES, type Decision, type Lifecycle, type OrderCommand, type OrderDeadlines } from '../../domain/orders/lifecycle.js';
import type { LowLevelStatus } from '../../domain/orders/status.js';
import type { TestkitState } from '../../domain/orders/testkit-lifecycle.js';
import { searchAttributePairs } from '../shared/search-attributes.js';
import { workflowNow } from '../shared/time.js';
import type { AppointmentChange, LabOrderInput, ShipmentUpdate, SimulationRequest } from './definitions.js';
import { type Job, type Outcome, isTestkitState } from './jobs.js';
import { reservationExpiry } from './reservation.js';
import { shipmentPatch, type ShipmentRecord } from './shipment.js';
import { ORDER_PATCHES_2026_11, RESERVED_APPOINTMENTS, RESULTS_STORED_WITH_STEP, SIMULATED_WALK_IN_ONE_STEP, SIMULATION_BOOKS_APPOINTMENTS, STEPS_AS_LOCAL_ACTIVITIES, acts, localActs, poisonOf, providerRefusal, refused, type SimulatedWalkJob } from './steps.js';

type TransitionPatch = Parameters<typeof acts.recordTransition>[0]['patch'];

/**
 * One order's running state and its steps: the lifecycle decides each job, and every resulting status is
 * recorded through an idempotent activity (event, order row and outgoing webhook event in one
 * transaction). A step that fails for good (bad data) stops the order visibly (`do_not_process`,
 * status_detail `processing_error`) instead of retrying for ever. Handlers (handlers.ts) and the main
 * loop (run.ts) work through it.
 */
export class OrderRun<S extends TestkitState | DrawState> {
  readonly deadlines: OrderDeadlines;
  state: S;
  events = 0;
  created = false;
  creationError: string | null = null;
  /** Set by the simulate handler; a new request bumps the version, which wakes the main loop. */
  simulation: SimulationRequest | null = null;
  simulationVersion = 0;
  /** Sandbox bookings the simulation asked for again after a refusal (SIMULATION_REBOOKS_TAKEN_SLOT). */
  simulatedRebookings = 0;
  readonly queue: Job[] = [];
  /** Set once the order exists: its status changes are then upserted as search attributes. */
  searchable = false;
  /** Upserts of the status wait for `flushSearchStatus` (before each wait: SEARCH_STATUS_BEFORE_WAIT). */
  searchStatusBeforeWait = false;
  private pendingSearchStatus: LowLevelStatus | null = null;
  /** Result slugs the last final results lacked (what a redraw draws again). */
  missingSlugs: string[] = [];
  private shipment: ShipmentRecord | null = null;
  private legStartedAt = 0;
  private readonly activationAt: number;
  private readonly placedAt = workflowNow();
  private appointmentStartAt: number | null = null;
  private reservationsExpire: boolean | null = null;
  private stepActs: typeof acts | null = null;
  private walkInOneStep: boolean | null = null;

  /** Started on code that has every patch up to ORDER_PATCHES_2026_11 (decided once, at the start). */
  private readonly current: boolean;

  constructor(readonly input: LabOrderInput, readonly lc: Lifecycle<S>, initial: S) {
    // first, at the workflow's start: on replay of an older history it is false for the whole run
    this.current = patched(ORDER_PATCHES_2026_11);
    this.deadlines = { ...DEFAULT_DEADLINES, ...input.deadlines };
    this.state = initial;
    this.activationAt = input.activateBy ? Date.parse(`${input.activateBy}T00:00:00Z`) : 0;
  }

  /** Whether a patch from before ORDER_PATCHES_2026_11 applies: always for orders started since, else as recorded. */
  has(patch: string): boolean {
    return this.current || patched(patch);
  }

  /** Activities for order steps: local ones for orders started on this code, regular ones on replay of older histories. */
  steps(): typeof acts {
    return (this.stepActs ??= this.has(STEPS_AS_LOCAL_ACTIVITIES) ? localActs : acts);
  }

  /** Queues a caller's job and waits for its outcome; a refusal is thrown to the caller. */
  async submit(job: Job): Promise<{ low: LowLevelStatus }> {
    this.queue.push(job);
    await condition(() => job.outcome !== undefined);
    const outcome = job.outcome!;
    if (!outcome.ok) throw refused(outcome.reason);
    return { low: outcome.low };
  }

  refuseUnless(cmd: OrderCommand): void {
    const d = this.lc.decide(this.state, cmd);
    if (!d.ok) throw refused(d.reason);
  }

  /** Records one status; `storeResults`: the activity stores `patch.results` first (RESULTS_STORED_WITH_STEP). */
  async record(low: LowLevelStatus, statusDetail: string | null, patch: TransitionPatch, storeResults = false): Promise<void> {
    const eventId = this.events + 1;
    await this.steps().recordTransition({
      teamId: this.input.teamId,
      orderId: this.input.orderId,
      method: this.input.method,
      eventId,
      low,
      statusDetail,
      outboxEventId: uuid4(),
      patch,
      ...(storeResults ? { storeResults } : {}),
    });
    this.events = eventId;
    this.statusRecorded(low);
  }

  /** A status was recorded: it becomes searchable now, or before the next wait (SEARCH_STATUS_BEFORE_WAIT). */
  private statusRecorded(low: LowLevelStatus): void {
    if (!this.searchable) return;
    if (this.searchStatusBeforeWait) this.pendingSearchStatus = low;
    else upsertSearchAttributes(searchAttributePairs({ status: low }));
  }

  /** Upserts the status recorded last, if not yet: called before the workflow waits and before it ends. */
  flushSearchStatus(): void {
    if (this.pendingSearchStatus === null) return;
    upsertSearchAttributes(searchAttributePairs({ status: this.pendingSearchStatus }));
    this.pendingSearchStatus = null;
  }

  /** A step failed for good: the order ends `do_not_process` (processing_error), recorded without the data that failed. */
  private async stopOnPoison(poison: ApplicationFailure): Promise<Outcome> {
    const reason = `the order could not be processed: ${poison.message}`;
    log.warn('order step failed for good', { orderId: this.input.orderId, type: poison.type, message: poison.message });
    const d = this.lc.decide(this.state, { kind: 'processing_error' });
    if (!d.ok) return { ok: false, reason }; // a finished order (a refused correction) stays as it is
    try {
      for (const low of d.steps) await this.record(low, 'processing_error', {});
    } catch (err) {
      const again = poisonOf(err);
      if (!again) throw err;
      throw ApplicationFailure.nonRetryable(`order ${this.input.orderId} cannot be recorded: ${again.message}`, 'OrderUnrecordable');
    }
    this.state = d.next;
    return { ok: false, reason };
  }

  async apply(job: Job): Promise<Outcome> {
    const { input, lc } = this;
    const decision = lc.decide(this.state, job.cmd);
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
          const done = await this.steps().changeAppointment({ changeId: uuid4(), teamId: input.teamId, orderId: input.orderId, beforeRequisition: this.state.low === 'ordered', change });
          job.appointmentId = done.appointmentId;
          this.appointmentStartAt = done.startAt ? Date.parse(done.startAt) : null;
        } catch (err) {
          const reason = providerRefusal(err);
          if (!reason) throw err;
          // the provider refused: the order is unchanged, unless the change is the order's own (a release)
          if (job.appointment && !job.ownChange) return { ok: false, reason };
        }
      }
      // results are stored with the first status they bring (older histories: by an activity of their own first)
      const resultsWithStep = !!job.results && decision.steps.length > 0 && this.has(RESULTS_STORED_WITH_STEP);
      if (job.results && !resultsWithStep) await this.steps().storeResults({ orderId: input.orderId, results: job.results });
      if (job.results?.final) this.missingSlugs = (job.results.missingResults ?? []).map((m) => m.slug);
      if (job.shipment) this.shipment = shipmentPatch(this.shipment, job.shipment, uuid4(), new Date(workflowNow()).toISOString());
      for (const [i, low] of decision.steps.entries()) {
        const first = i === 0;
        await this.record(low, job.statusDetail ?? null, first ? { registration: job.registration ?? null, shipment: this.shipment, results: job.results ?? null } : {}, first && resultsWithStep);
      }
    } catch (err) {
      const poison = poisonOf(err);
      if (!poison) throw err;
      return this.stopOnPoison(poison);
    }
    const legChanged = lc.leg(decision.next) !== lc.leg(this.state);
    const s = this.state;
    const confirmsReservation = job.cmd.kind === 'activate' && !isTestkitState(s) && s.reserved && s.appointment === 'scheduled';
    this.state = decision.next;
    if (confirmsReservation && this.has(RESERVED_APPOINTMENTS)) await this.confirmReservation();
    if (legChanged) this.legStartedAt = workflowNow();
    return { ok: true, low: this.state.low };
  }

  /** The requisition exists: the reserved appointment becomes `confirmed` (labtest.appointment.updated). */
  private async confirmReservation(): Promise<void> {
    try {
      await this.steps().changeAppointment({ changeId: uuid4(), teamId: this.input.teamId, orderId: this.input.orderId, beforeRequisition: false, change: { action: 'confirm' } });
    } catch (err) {
      const reason = providerRefusal(err);
      if (!reason) throw err;
      log.warn('reserved appointment not confirmed', { orderId: this.input.orderId, reason });
    }
  }

  /** When the held (reserved) appointment is released, or null (none held, or a history from before). */
  reservationDeadline(): number | null {
    const s = this.state;
    if (isTestkitState(s)) return null;
    const at = reservationExpiry(s, this.placedAt, this.deadlines.reservationHoldSeconds, this.appointmentStartAt);
    if (at === null) return null;
    this.reservationsExpire ??= this.has(RESERVED_APPOINTMENTS);
    return this.reservationsExpire ? at : null;
  }

  /** Milliseconds until the lifecycle's next timed step, or undefined for none. */
  untilDeadline(): number | undefined {
    const d = this.lc.deadline(this.state, this.deadlines);
    if (!d) return undefined;
    return Math.max(0, (d.from === 'activation' ? this.activationAt : this.legStartedAt) + d.seconds * 1000 - workflowNow());
  }

  /**
   * A zero-delay simulation's next steps, as far as they need nothing but recording (no appointment to
   * book, cancel or confirm): decided here one after another, then recorded by one local activity in one
   * transaction, each step with its own event and webhook event as `apply` would record it (one workflow
   * activation instead of one per step). False when the next step needs more, when older histories replay
   * (SIMULATED_WALK_IN_ONE_STEP), or when the walk was not recorded: the caller then takes the steps one at
   * a time through `apply`, where a refused step stops the order as it always did.
   */
  async walkSimulation(request: SimulationRequest): Promise<boolean> {
    const { input, lc } = this;
    let next = this.walkable(this.state, request);
    if (!next) return false;
    if (!(this.walkInOneStep ??= this.has(SIMULATED_WALK_IN_ONE_STEP))) return false;
    const jobs: SimulatedWalkJob[] = [];
    let state = this.state;
    let shipment = this.shipment;
    let eventId = this.events;
    let legChanged = false;
    let finalResults = false;
    for (; next; next = this.walkable(state, request)) {
      const { cmd, d } = next;
      if (cmd.kind === 'shipment') shipment = shipmentPatch(shipment, this.simulatedShipment(cmd.event), uuid4(), new Date(workflowNow()).toISOString());
      const steps = d.steps.map((low, i) => ({
        eventId: ++eventId,
        low,
        statusDetail: null,
        outboxEventId: uuid4(),
        patch: i === 0 ? { registration: null, shipment } : {},
      }));
      jobs.push({ steps, ...(cmd.kind === 'results' ? { simulatedResults: { final: cmd.final, request } } : {}) });
      if (cmd.kind === 'results' && cmd.final) finalResults = true;
      legChanged ||= lc.leg(d.next) !== lc.leg(state);
      state = d.next;
    }
    const done = await this.steps().recordSimulatedWalk({ teamId: input.teamId, orderId: input.orderId, method: input.method, jobs });
    if (!done.recorded) return false;
    this.state = state;
    this.shipment = shipment;
    this.events = eventId;
    if (finalResults) this.missingSlugs = done.missingSlugs ?? [];
    if (legChanged) this.legStartedAt = workflowNow();
    this.statusRecorded(state.low);
    return true;
  }

  /** The simulation's next command from `state` and its decision, when recording is all it takes (see walkSimulation). */
  private walkable(state: S, request: SimulationRequest): { cmd: OrderCommand; d: Extract<Decision<S>, { ok: true }> } | null {
    const cmd = this.lc.nextTowards(state, request.target);
    if (!cmd || cmd.kind === 'appointment') return null;
    const d = this.lc.decide(state, cmd);
    if (!d.ok || d.steps.length === 0 || d.effects?.length) return null;
    // activating a reserved appointment confirms it with the provider
    if (cmd.kind === 'activate' && !isTestkitState(state) && state.reserved && state.appointment === 'scheduled') return null;
    return { cmd, d };
  }

  /** The courier's tracking update a simulated shipment step brings. */
  private simulatedShipment(event: ShipmentUpdate['event']): ShipmentUpdate {
    return { event, courier: 'usps', trackingNumber: `SIM${this.input.orderId.slice(0, 8).toUpperCase()}` };
  }

  /** A simulation step as the real outside party would send it (a courier's tracking, a lab's results). */
  async simulatedJob(cmd: OrderCommand, request: SimulationRequest): Promise<Job> {
    const { input } = this;
    const job: Job = { cmd };
    if (cmd.kind === 'results') {
      try {
        job.results = await this.steps().simulatedResults({ orderId: input.orderId, final: cmd.final, request });
      } catch (err) {
        if (!poisonOf(err)) throw err;
        return { cmd: { kind: 'processing_error' }, statusDetail: 'processing_error' };
      }
    }
    if (cmd.kind === 'appointment' && cmd.event === 'scheduled' && this.has(SIMULATION_BOOKS_APPOINTMENTS)) {
      const type = input.method === 'walk_in_test' ? 'patient_service_center' : 'phlebotomy';
      const bookingKey = await this.steps().sandboxBookingKey({ orderId: input.orderId, type });
      const s = this.state;
      const action = !isTestkitState(s) && s.appointment === 'scheduled' ? 'reschedule' : 'book';
      if (bookingKey) job.appointment = { action, type, bookingKey, notes: 'sandbox simulation', accessNotes: null };
    }
    if (cmd.kind === 'shipment') job.shipment = this.simulatedShipment(cmd.event);
    return job;
  }
}
