import { initialDrawState, type DrawState } from './draw-lifecycle.js';
import type { Lifecycle } from './lifecycle.js';
import { onSiteLifecycle } from './on-site-lifecycle.js';
import { phlebotomyLifecycle } from './phlebotomy-lifecycle.js';
import type { CollectionMethod, LowLevelStatus } from './status.js';
import { initialState, testkitLifecycle, type TestkitState } from './testkit-lifecycle.js';
import { walkInLifecycle } from './walk-in-lifecycle.js';

/** Each collection method's lifecycle, with the state a new order of it starts in. */
export type MethodLifecycle =
  | { method: 'testkit'; lifecycle: Lifecycle<TestkitState>; initial: TestkitState }
  | { method: Exclude<CollectionMethod, 'testkit'>; lifecycle: Lifecycle<DrawState>; initial: DrawState };

export interface LifecycleOptions {
  /** A testkit created unregistered (POST /v3/order/testkit). */
  registrable: boolean;
  /** An imported order: its requisition already exists (`requisition_bypassed`). */
  imported: boolean;
  /** An initial walk-in order at a lab that offers redraws. */
  redraw: boolean;
}

export function lifecycleFor(method: CollectionMethod, options: LifecycleOptions): MethodLifecycle {
  switch (method) {
    case 'testkit':
      return { method, lifecycle: testkitLifecycle, initial: initialState(options.registrable) };
    case 'at_home_phlebotomy':
      return { method, lifecycle: phlebotomyLifecycle, initial: initialDrawState({ imported: options.imported, redraw: false }) };
    case 'walk_in_test':
      return { method, lifecycle: walkInLifecycle, initial: initialDrawState(options) };
    case 'on_site_collection':
      return { method, lifecycle: onSiteLifecycle, initial: initialDrawState({ imported: options.imported, redraw: false }) };
  }
}

/** Statuses after which an order takes no command of its customer (cancel, simulate, register) under any method. */
export const FINISHED_STATUSES: ReadonlySet<LowLevelStatus> = new Set([
  'completed', 'corrected', 'redraw_available', 'cancelled', 'do_not_process', 'sample_error', 'lost',
  'failure_to_deliver_to_customer', 'failure_to_deliver_to_lab',
]);
export const isFinishedStatus = (low: string): boolean => FINISHED_STATUSES.has(low as LowLevelStatus);

/**
 * The statuses a new order passes through in its creating transaction, after `ordered` (e.g. an
 * unregistered kit's `awaiting_registration`): what the workflow records at creation, and what the API
 * records when it writes the order itself (api/routes/orders/create.ts). One decision for both.
 */
export function stepsAfterCreation(method: CollectionMethod, options: LifecycleOptions): LowLevelStatus[] {
  const chosen = lifecycleFor(method, options);
  const stepsOf = <S extends { low: LowLevelStatus }>(lc: Lifecycle<S>, s: S): LowLevelStatus[] => {
    const first = lc.afterCreation(s);
    const decision = first ? lc.decide(s, first) : null;
    return decision?.ok ? decision.steps : [];
  };
  return chosen.method === 'testkit' ? stepsOf(chosen.lifecycle, chosen.initial) : stepsOf(chosen.lifecycle, chosen.initial);
}
