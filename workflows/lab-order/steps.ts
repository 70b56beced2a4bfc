import { ActivityFailure, ApplicationFailure, proxyActivities, proxyLocalActivities } from '@temporalio/workflow';
import type { createAppointmentActivities } from '../../activities/appointments/index.js';
import type { createOrderActivities } from '../../activities/orders/index.js';

export type { SimulatedWalkJob } from '../../activities/orders/index.js';

export type OrderActivities = ReturnType<typeof createOrderActivities> & ReturnType<typeof createAppointmentActivities>;

export const acts = proxyActivities<OrderActivities>({
  // Database writes take milliseconds; a worker that died mid-activity is noticed after this long.
  startToCloseTimeout: '10 seconds',
  retry: { initialInterval: '1 second', maximumInterval: '1 minute' },
});

export const localActs = proxyLocalActivities<OrderActivities>({
  startToCloseTimeout: '10 seconds',
  retry: { initialInterval: '200 milliseconds', maximumInterval: '10 seconds' },
});

/** Histories from before creation became one local activity replay the old path. */
export const CREATE_IN_ONE_STEP = 'order-created-in-one-local-activity';
/**
 * Each step is a short Postgres transaction: run as local activities (no activity task round trip
 * through the server; a run of simulated steps fits in one workflow task). Earlier histories replay
 * with regular activities.
 */
export const STEPS_AS_LOCAL_ACTIVITIES = 'order-steps-as-local-activities';
/**
 * A zero-delay simulation records its run of steps (those that need no appointment change) in one local
 * activity and one transaction, instead of one local activity (and one workflow activation) per step and
 * one for the simulated results. Older histories walk step by step.
 */
export const SIMULATED_WALK_IN_ONE_STEP = 'order-simulated-walk-in-one-local-activity';
/** Completed orders stay open for corrected results (`completed.<method>.corrected`) for a while. */
export const CORRECTION_WINDOW = 'order-correction-window';

/**
 * A step that can never succeed: the activity failed non-retryably (bad data that Postgres refuses, a
 * constraint that cannot heal, a validation error — `InvalidData` and kin). Retrying would loop for ever.
 */
export function poisonOf(err: unknown): ApplicationFailure | null {
  // A regular activity's failure arrives wrapped in an ActivityFailure; a local activity's may arrive bare.
  const cause = err instanceof ActivityFailure ? err.cause : err;
  return cause instanceof ApplicationFailure && cause.nonRetryable ? cause : null;
}

/** Simulated draw orders book a real sandbox appointment on their way (histories from before walk without one). */
export const SIMULATION_BOOKS_APPOINTMENTS = 'order-simulation-books-appointments';
/** A redraw draws only the markers its initial order missed (older histories: the whole lab test). */
export const REDRAW_MISSING_MARKERS = 'order-redraw-missing-markers-only';
/** Orders carry the service's search attributes (team, status, method, user); older histories set none. */
export const SEARCH_ATTRIBUTES_SET = 'order-search-attributes';
/**
 * The status search attribute is upserted once before each wait (the last status of a run of steps), not
 * once per step: a simulated walk of seven steps in one workflow task wrote seven upserts, each a history
 * event and a visibility write, of which only the last was ever seen. Older histories upsert per step.
 */
export const SEARCH_STATUS_BEFORE_WAIT = 'order-search-status-before-wait';
/**
 * Results are stored by the local activity that records their step (one activity instead of two, the results
 * sent once); older histories store them in an activity of their own first.
 */
export const RESULTS_STORED_WITH_STEP = 'order-results-stored-with-step';
/** Reserved appointments are confirmed with the requisition, and cancelled when it does not come in time (older histories: neither). */
export const RESERVED_APPOINTMENTS = 'order-reserved-appointments-confirmed-or-expired';

/**
 * Every order patch above at once. An order started on this code records this one marker (and the SDK's
 * one `TemporalChangeVersion` search-attribute upsert that goes with each marker) instead of one per patch
 * it meets: up to nine markers and nine upserts per order, each a history event and a visibility write.
 * Orders started before it replay (and go on) with each patch decided on its own, as recorded. It covers
 * only the patches that existed when it was written: a later patch must be checked on its own, with
 * `patched()`, never through `OrderRun.has`.
 */
export const ORDER_PATCHES_2026_11 = 'order-patches-2026-11';

/**
 * A simulation whose sandbox booking is refused (most often: another order took the slot between the
 * availability read and the booking; any refusal counts) asks for a slot again, with a fresh availability
 * read each time, up to SIMULATED_REBOOKINGS times, instead of ending the simulation
 * at `appointment_pending`. Checked with `patched()` on its own (it came after ORDER_PATCHES_2026_11), and
 * only on a refused booking: histories from before stop the simulation there, as they did.
 */
export const SIMULATION_REBOOKS_TAKEN_SLOT = 'order-simulation-rebooks-taken-slot';
export const SIMULATED_REBOOKINGS = 5;

/** A refusal by the scheduling provider (slot full, key expired): the change is refused, the order goes on. */
export function providerRefusal(err: unknown): string | null {
  const cause = err instanceof ActivityFailure ? err.cause : err;
  return cause instanceof ApplicationFailure && cause.type === 'AppointmentRefused' ? cause.message : null;
}

export const refused = (reason: string) => ApplicationFailure.nonRetryable(reason, 'TransitionRefused');
