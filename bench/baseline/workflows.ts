import { condition, defineSignal, proxyActivities, setHandler } from '@temporalio/workflow';
import type { baselineActivities } from './activities.js';

const acts = proxyActivities<typeof baselineActivities>({ startToCloseTimeout: '10 seconds' });
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
