import { ApplicationFailure, allHandlersFinished, condition, patched, upsertSearchAttributes, uuid4 } from '@temporalio/workflow';
import type { DrawState } from '../../domain/orders/draw-lifecycle.js';
import type { Lifecycle } from '../../domain/orders/lifecycle.js';
import type { LowLevelStatus } from '../../domain/orders/status.js';
import type { TestkitState } from '../../domain/orders/testkit-lifecycle.js';
import { searchAttributePairs } from '../shared/search-attributes.js';
import { workflowNow } from '../shared/time.js';
import type { LabOrderInput } from './definitions.js';
import { registerHandlers } from './handlers.js';
import { OrderRun } from './order-run.js';
import { startRedraw } from './redraw.js';
import { reservationExpiryJob } from './reservation.js';
import { CORRECTION_WINDOW, CREATE_IN_ONE_STEP, REDRAW_MISSING_MARKERS, SEARCH_ATTRIBUTES_SET, SEARCH_STATUS_BEFORE_WAIT, SIMULATED_REBOOKINGS, SIMULATION_REBOOKS_TAKEN_SLOT, acts, localActs, poisonOf } from './steps.js';

/**
 * The order's life under its method's lifecycle: every change arrives as a job (an Update, a partner
 * report, a deadline, a simulation step), the lifecycle decides it, and OrderRun records each resulting
 * status (order-run.ts). This function is the order's timeline: creation, the main loop until a terminal
 * status, the redraw, the correction window, then the end.
 */
export async function runOrder<S extends TestkitState | DrawState>(input: LabOrderInput, lc: Lifecycle<S>, initial: S): Promise<LowLevelStatus> {
  const run = new OrderRun(input, lc, initial);
  registerHandlers(run);

  // The order row, its first event and the `labtest.order.created` webhook event come into being together.
  const first = lc.afterCreation(run.state);
  try {
    if (run.has(CREATE_IN_ONE_STEP)) {
      // One local activity, one transaction: creation and the steps that follow it at once (an unregistered
      // kit's `awaiting_registration`). The caller waits on this, so it skips the activity task queue.
      const decision = first ? lc.decide(run.state, first) : null;
      // Ids the API already wrote under (input.recorded), else drawn here as they always were.
      const ids = input.recorded;
      const then = decision?.ok ? decision.steps.map((low, i) => ({ low, outboxEventId: ids?.then[i] ?? uuid4() })) : [];
      await localActs.createOrderRecord({ record: input.record, idempotency: input.idempotency, outboxEventId: ids?.outboxEventId ?? uuid4(), then });
      run.events = 1 + then.length;
      if (decision?.ok) run.state = decision.next;
    } else {
      await acts.createOrderRecord({ record: input.record, idempotency: input.idempotency, outboxEventId: uuid4() });
      run.events = 1;
      if (first) await run.apply({ cmd: first });
    }
  } catch (err) {
    const poison = poisonOf(err);
    if (!poison) throw err;
    // Nothing was written: the caller's create request fails with the reason, and so does this workflow.
    run.creationError = `the order could not be recorded: ${poison.message}`;
    await condition(allHandlersFinished);
    throw ApplicationFailure.nonRetryable(run.creationError, 'InvalidData');
  }
  run.created = true;
  // From here on the order is findable by its search attributes (histories from before set none).
  run.searchable = run.has(SEARCH_ATTRIBUTES_SET);
  // (unless the start set them: the API starts orders with them, its creation's status included)
  if (run.searchable && !input.searchAttributesAtStart) {
    upsertSearchAttributes(searchAttributePairs({ team: input.teamId, method: input.method, user: input.record.userId, status: run.state.low }));
  }
  run.searchStatusBeforeWait = run.searchable && run.has(SEARCH_STATUS_BEFORE_WAIT);

  while (!lc.isTerminal(run.state)) {
    const seenVersion = run.simulationVersion;
    const simStep = run.simulation ? lc.nextTowards(run.state, run.simulation.target) : null;
    if (run.simulation && !simStep) run.simulation = null;
    let wait = run.untilDeadline();
    if (simStep && run.simulation) wait = Math.min(wait ?? Infinity, run.simulation.delaySeconds * 1000);
    const releaseAt = run.reservationDeadline();
    if (releaseAt !== null) wait = Math.min(wait ?? Infinity, Math.max(0, releaseAt - workflowNow()));
    const woken = () => run.queue.length > 0 || run.simulationVersion !== seenVersion;
    let gotWoken = woken();
    // the status is searchable while the order waits (not at each step of a walk that does not wait)
    if (!gotWoken && (wait === undefined || wait > 0)) run.flushSearchStatus();
    if (!gotWoken && wait === undefined) {
      await condition(woken);
      gotWoken = true;
    } else if (!gotWoken && wait !== undefined && wait > 0) {
      gotWoken = await condition(woken, wait);
    }
    if (gotWoken && run.queue.length === 0) continue; // a new simulation request: plan again
    if (gotWoken) {
      const job = run.queue.shift()!;
      job.outcome = await run.apply(job);
      continue;
    }
    if (releaseAt !== null && workflowNow() >= releaseAt) {
      await run.apply(reservationExpiryJob(input.method));
      continue;
    }
    if (simStep && run.simulation) {
      // steps that need nothing but recording, all at once (older histories: one at a time, below)
      if (run.simulation.delaySeconds === 0 && (await run.walkSimulation(run.simulation))) continue;
      // a step refused on the way ends the simulation rather than retrying it; a refused sandbox booking
      // (most often: another order took the slot first) asks for a slot again, a few times (SIMULATION_REBOOKS_TAKEN_SLOT)
      const job = await run.simulatedJob(simStep, run.simulation);
      if ((await run.apply(job)).ok) continue;
      if (job.appointment && run.simulatedRebookings < SIMULATED_REBOOKINGS && patched(SIMULATION_REBOOKS_TAKEN_SLOT)) run.simulatedRebookings += 1;
      else run.simulation = null;
      continue;
    }
    const timed = lc.deadline(run.state, run.deadlines);
    if (timed) await run.apply({ cmd: timed.cmd, statusDetail: timed.statusDetail });
  }

  run.flushSearchStatus();
  // An initial walk-in order with markers missing gets its redraw, in the same order transaction.
  if (run.state.low === 'redraw_available' && input.record.transactionId) await startRedraw(input, run.has(REDRAW_MISSING_MARKERS) ? run.missingSlugs : null);

  // A completed order still takes corrected results for a while.
  if (lc.takesCorrections(run.state) && run.deadlines.correctionWindowSeconds > 0 && run.has(CORRECTION_WINDOW)) {
    const closesAt = workflowNow() + run.deadlines.correctionWindowSeconds * 1000;
    while (lc.takesCorrections(run.state)) {
      const left = closesAt - workflowNow();
      if (left <= 0 || !(await condition(() => run.queue.length > 0, left))) break;
      const job = run.queue.shift()!;
      job.outcome = await run.apply(job);
      run.flushSearchStatus();
    }
  }

  // Refuse whatever arrives after the end, then let running handlers finish.
  for (const job of run.queue.splice(0)) {
    const d = lc.decide(run.state, job.cmd);
    job.outcome = { ok: false, reason: d.ok ? `the order is ${run.state.low} and no longer takes changes` : d.reason };
  }
  await condition(allHandlersFinished);
  return run.state.low;
}
