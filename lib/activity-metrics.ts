import { CancelledFailure } from '@temporalio/common';
import type { ActivityInterceptorsFactory } from '@temporalio/worker';
import { activityDuration, activityRetries } from './metrics.js';

/** Each activity execution's time by type and outcome, and every attempt after the first as a retry. */
export const activityMetricsInterceptor: ActivityInterceptorsFactory = (ctx) => ({
  inbound: {
    async execute(input, next) {
      const activity = ctx.info.activityType;
      if (ctx.info.attempt > 1) activityRetries.inc({ activity });
      const end = activityDuration.startTimer({ activity });
      try {
        const result = await next(input);
        end({ outcome: 'completed' });
        return result;
      } catch (err) {
        end({ outcome: err instanceof CancelledFailure ? 'cancelled' : 'failed' });
        throw err;
      }
    },
  },
});
