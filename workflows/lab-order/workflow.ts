import {
  ApplicationFailure,
  allHandlersFinished,
  condition,
  patched,
  proxyActivities,
  proxyLocalActivities,
  setHandler,
  uuid4,
} from '@temporalio/workflow';
import type { createOrderActivities } from '../../activities/orders/index.js';
import type { LowLevelStatus } from '../../domain/orders/status.js';
import {
  afterCreation,
  decide,
  initialState,
  isTerminal,
  nextTowards,
  type TestkitCommand,
  type TestkitState,
} from '../../domain/orders/testkit-lifecycle.js';
import { workflowNow } from '../shared/time.js';
import {
  DEFAULT_DEADLINES,
  type LabOrderInput,
  type RegistrationInput,
  type ResultsInput,
  type ShipmentUpdate,
  type SimulationRequest,
  cancelUpdate,
  createdUpdate,
  registerUpdate,
  resultsSignal,
  sampleErrorSignal,
  shipmentSignal,
  simulateUpdate,
  stateQuery,
} from './definitions.js';
import { shipmentPatch, type ShipmentRecord } from './shipment.js';

const acts = proxyActivities<ReturnType<typeof createOrderActivities>>({
  // Database writes take milliseconds; a worker that died mid-activity is noticed after this long.
  startToCloseTimeout: '10 seconds',
  retry: { initialInterval: '1 second', maximumInterval: '1 minute' },
});

const localActs = proxyLocalActivities<ReturnType<typeof createOrderActivities>>({
  startToCloseTimeout: '10 seconds',
  retry: { initialInterval: '200 milliseconds', maximumInterval: '10 seconds' },
});

/** Histories from before creation became one local activity replay the old path. */
const CREATE_IN_ONE_STEP = 'order-created-in-one-local-activity';
/**
 * Each step is a short Postgres transaction: run as local activities (no activity task round trip
 * through the server; a run of simulated steps fits in one workflow task). Earlier histories replay
 * with regular activities.
 */
const STEPS_AS_LOCAL_ACTIVITIES = 'order-steps-as-local-activities';

interface Job {
  cmd: TestkitCommand;
  registration?: RegistrationInput;
  shipment?: ShipmentUpdate;
  results?: ResultsInput;
  statusDetail?: string | null;
  outcome?: { ok: true; low: LowLevelStatus } | { ok: false; reason: string };
}

/**
 * One lab order, from creation to a terminal status. Decides every transition (domain/orders/
 * testkit-lifecycle.ts) and records each through an idempotent activity that writes the event, the
 * order row and the outgoing webhook event in one transaction.
 */
export async function labOrderWorkflow(input: LabOrderInput): Promise<LowLevelStatus> {
  const deadlines = { ...DEFAULT_DEADLINES, ...input.deadlines };
  let state: TestkitState = initialState(input.registrable);
  let events = 0;
  let created = false;
  let simulation = null as SimulationRequest | null; // set by the simulate handler
  let simulationVersion = 0;
  let shipment: ShipmentRecord | null = null;
  let legStartedAt = 0;
  const queue: Job[] = [];
  const activationAt = input.activateBy ? Date.parse(`${input.activateBy}T00:00:00Z`) : 0;

  const submit = async (job: Job) => {
    queue.push(job);
    await condition(() => job.outcome !== undefined);
    const outcome = job.outcome!;
    if (!outcome.ok) throw ApplicationFailure.nonRetryable(outcome.reason, 'TransitionRefused');
    return { low: outcome.low };
  };
  const refuseUnless = (cmd: TestkitCommand) => {
    const d = decide(state, cmd);
    if (!d.ok) throw ApplicationFailure.nonRetryable(d.reason, 'TransitionRefused');
  };

  setHandler(createdUpdate, async () => {
    await condition(() => created);
    return { orderId: input.orderId };
  });
  setHandler(registerUpdate, (registration) => submit({ cmd: { kind: 'register' }, registration }), {
    validator: (_registration: RegistrationInput) => refuseUnless({ kind: 'register' }),
  });
  setHandler(cancelUpdate, ({ as }) => submit({ cmd: { kind: 'cancel', as } }), {
    validator: ({ as }) => refuseUnless({ kind: 'cancel', as }),
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
        if (isTerminal(state)) throw ApplicationFailure.nonRetryable(`the order is already ${state.low}`, 'TransitionRefused');
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
    queue.push({ cmd: { kind: 'results', final: results.final }, results });
  });
  setHandler(stateQuery, () => ({
    orderId: input.orderId,
    testkit: state,
    events,
    waitingFor: waitingFor(state),
    simulationTarget: simulation?.target ?? null,
  }));

  let stepActs: typeof acts | null = null;
  /** Activities for order steps: local ones for orders started on this code, regular ones on replay of older histories. */
  const steps = () => (stepActs ??= patched(STEPS_AS_LOCAL_ACTIVITIES) ? localActs : acts);

  async function apply(job: Job): Promise<NonNullable<Job['outcome']>> {
    const decision = decide(state, job.cmd);
    if (!decision.ok) return decision;
    if (job.results) await steps().storeResults({ orderId: input.orderId, results: job.results });
    if (job.shipment) shipment = shipmentPatch(shipment, job.shipment, uuid4(), new Date(workflowNow()).toISOString());
    for (const [i, low] of decision.steps.entries()) {
      events += 1;
      await steps().recordTransition({
        teamId: input.teamId,
        orderId: input.orderId,
        method: input.method,
        eventId: events,
        low,
        statusDetail: job.statusDetail ?? null,
        outboxEventId: uuid4(),
        patch: i === 0 ? { registration: job.registration ?? null, shipment, results: job.results ?? null } : {},
      });
    }
    const legChanged = decision.next.shipping !== state.shipping;
    state = decision.next;
    if (legChanged) legStartedAt = workflowNow();
    return { ok: true, low: state.low };
  }

  /** Milliseconds until the next timed step (activation or a transit deadline), or undefined for none. */
  function untilDeadline(): number | undefined {
    const now = workflowNow();
    if (state.low === 'ordered') return Math.max(0, activationAt - now);
    if (state.shipping === 'transit_customer' || state.shipping === 'out_for_delivery') {
      return Math.max(0, legStartedAt + deadlines.outboundTransitSeconds * 1000 - now);
    }
    if (state.shipping === 'transit_lab') return Math.max(0, legStartedAt + deadlines.inboundTransitSeconds * 1000 - now);
    return undefined;
  }

  function timedStep(): Job | null {
    if (state.low === 'ordered') return { cmd: { kind: 'activate' } };
    if (state.shipping === 'transit_customer' || state.shipping === 'out_for_delivery') {
      return { cmd: { kind: 'shipment', event: 'failure_to_deliver_to_customer' }, statusDetail: 'delivery_deadline_exceeded' };
    }
    if (state.shipping === 'transit_lab') return { cmd: { kind: 'shipment', event: 'lost' }, statusDetail: 'delivery_deadline_exceeded' };
    return null;
  }

  // The order row, its first event and the `labtest.order.created` webhook event come into being together.
  const first = afterCreation(state);
  if (patched(CREATE_IN_ONE_STEP)) {
    // One local activity, one transaction: creation and the steps that follow it at once (an unregistered
    // kit's `awaiting_registration`). The caller waits on this, so it skips the activity task queue.
    const decision = first ? decide(state, first) : null;
    const then = decision?.ok ? decision.steps.map((low) => ({ low, outboxEventId: uuid4() })) : [];
    await localActs.createOrderRecord({ record: input.record, idempotency: input.idempotency, outboxEventId: uuid4(), then });
    events = 1 + then.length;
    if (decision?.ok) state = decision.next;
  } else {
    await acts.createOrderRecord({ record: input.record, idempotency: input.idempotency, outboxEventId: uuid4() });
    events = 1;
    if (first) await apply({ cmd: first });
  }
  created = true;

  while (!isTerminal(state)) {
    const seenVersion = simulationVersion;
    const simStep = simulation ? nextTowards(state, simulation.target) : null;
    if (simulation && !simStep) simulation = null;
    let wait = untilDeadline();
    if (simStep && simulation) wait = Math.min(wait ?? Infinity, simulation.delaySeconds * 1000);
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
    if (simStep && simulation) {
      const job: Job = { cmd: simStep };
      if (simStep.kind === 'results') job.results = await steps().simulatedResults({ orderId: input.orderId, final: simStep.final, request: simulation });
      if (simStep.kind === 'shipment') job.shipment = { event: simStep.event, courier: 'usps', trackingNumber: `SIM${input.orderId.slice(0, 8).toUpperCase()}` };
      await apply(job);
      continue;
    }
    const step = timedStep();
    if (step) await apply(step);
  }

  // Refuse whatever arrives after the end, then let running handlers finish.
  for (const job of queue.splice(0)) job.outcome = decide(state, job.cmd) as { ok: false; reason: string };
  await condition(allHandlersFinished);
  return state.low;
}

function waitingFor(s: TestkitState): string {
  if (isTerminal(s)) return 'nothing: the order is finished';
  if (s.low === 'ordered') return 'activation (activate_by date)';
  if (!s.registered && (s.shipping === 'with_customer' || s.shipping === 'none' || s.shipping === 'transit_customer' || s.shipping === 'out_for_delivery')) {
    return s.shipping === 'with_customer' ? 'kit registration by the customer' : 'kit shipment to the customer and registration';
  }
  switch (s.shipping) {
    case 'none':
      return 'kit shipment to the customer';
    case 'transit_customer':
    case 'out_for_delivery':
      return 'delivery of the kit to the customer';
    case 'with_customer':
      return 'the sample to be sent to the lab';
    case 'transit_lab':
      return 'delivery of the sample to the lab';
    case 'delivered_to_lab':
      return s.results === 'partial' ? 'final results' : 'results from the lab';
  }
}

