import { ApplicationFailure, condition, setHandler } from '@temporalio/workflow';
import { appointmentEventOf, appointmentRefusal } from '../../domain/appointments/rules.js';
import type { DrawState } from '../../domain/orders/draw-lifecycle.js';
import type { TestkitState } from '../../domain/orders/testkit-lifecycle.js';
import {
  type CallerAppointmentChange,
  type RegistrationInput,
  type SimulationRequest,
  appointmentUpdate,
  cancelUpdate,
  createdUpdate,
  drawCompletedUpdate,
  partnerReportUpdate,
  registerUpdate,
  resultsSignal,
  sampleErrorSignal,
  shipmentSignal,
  simulateUpdate,
  stateQuery,
} from './definitions.js';
import { type Job, isTestkitState, partnerJob, resultsJob } from './jobs.js';
import type { OrderRun } from './order-run.js';
import { refused } from './steps.js';

/**
 * The order workflow's message handlers. Updates check their change against the order's state in a
 * validator (the caller learns accept/refuse synchronously) and queue a job for the main loop; signals
 * (the older partner path) queue theirs unchecked, and the loop drops what does not fit.
 */
export function registerHandlers<S extends TestkitState | DrawState>(run: OrderRun<S>): void {
  const { input, lc } = run;
  setHandler(createdUpdate, async () => {
    await condition(() => run.created || run.creationError !== null);
    if (run.creationError !== null) throw ApplicationFailure.nonRetryable(run.creationError, 'InvalidData');
    return { orderId: input.orderId };
  });
  setHandler(registerUpdate, (registration) => run.submit({ cmd: { kind: 'register' }, registration }), {
    validator: (_registration: RegistrationInput) => run.refuseUnless({ kind: 'register' }),
  });
  setHandler(cancelUpdate, ({ as }) => run.submit({ cmd: { kind: 'cancel', as } }), {
    validator: ({ as }) => run.refuseUnless({ kind: 'cancel', as }),
  });
  setHandler(
    appointmentUpdate,
    async (change) => {
      const job: Job = { cmd: { kind: 'appointment', event: appointmentEventOf(change.action) }, appointment: change };
      await run.submit(job);
      return { appointmentId: job.appointmentId! };
    },
    {
      validator: (change: CallerAppointmentChange) => {
        const s = run.state;
        const why = isTestkitState(s) ? 'a testkit order has no appointments' : appointmentRefusal(s, change.action);
        if (why) throw refused(why);
        run.refuseUnless({ kind: 'appointment', event: appointmentEventOf(change.action) });
      },
    },
  );
  setHandler(drawCompletedUpdate, () => run.submit({ cmd: { kind: 'draw_completed' } }), {
    validator: () => run.refuseUnless({ kind: 'draw_completed' }),
  });
  setHandler(
    simulateUpdate,
    (request) => {
      run.simulation = request;
      run.simulationVersion += 1; // wakes the main loop
      return { accepted: true } as const;
    },
    {
      validator: (_request: SimulationRequest) => {
        if (lc.isTerminal(run.state)) throw refused(`the order is already ${run.state.low}`);
      },
    },
  );
  setHandler(shipmentSignal, (update) => {
    run.queue.push({ cmd: { kind: 'shipment', event: update.event }, shipment: update, statusDetail: update.statusDetail ?? null });
  });
  setHandler(sampleErrorSignal, ({ statusDetail }) => {
    run.queue.push({ cmd: { kind: 'sample_error' }, statusDetail });
  });
  setHandler(resultsSignal, (results) => {
    run.queue.push(resultsJob(lc, run.state, results));
  });
  setHandler(
    partnerReportUpdate,
    async (report) => {
      const { low } = await run.submit(partnerJob(lc, run.state, input.method, report));
      return { low, events: run.events };
    },
    {
      validator: (report) => {
        const job = partnerJob(lc, run.state, input.method, report);
        if (job.appointment && isTestkitState(run.state)) throw refused('a testkit order has no appointments');
        run.refuseUnless(job.cmd);
      },
    },
  );
  setHandler(stateQuery, () => ({
    orderId: input.orderId,
    method: input.method,
    low: run.state.low,
    lifecycle: run.state,
    testkit: isTestkitState(run.state) ? run.state : null,
    events: run.events,
    waitingFor: lc.waitingFor(run.state),
    simulationTarget: run.simulation?.target ?? null,
  }));
}
