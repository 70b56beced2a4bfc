import { condition, defineSignal, proxyLocalActivities, setHandler } from '@temporalio/workflow';
import type { baselineActivities } from './activities.js';

// Local activities, as the order workflow uses for its steps: the same kind of call, doing nothing.
const acts = proxyLocalActivities<typeof baselineActivities>({ startToCloseTimeout: '10 seconds' });
export const goSignal = defineSignal('go');

/**
 * The bare baseline of bench:orders: one start, one signal and the same number of activity calls as a
 * simulated order lifecycle, with activities that do nothing. What an order costs beyond this is ours.
 */
export async function baselineLifecycle(activityCalls: number): Promise<number> {
  let go = false;
  setHandler(goSignal, () => {
    go = true;
  });
  await acts.noop(0);
  await condition(() => go);
  for (let i = 1; i < activityCalls; i++) await acts.noop(i);
  return activityCalls;
}
