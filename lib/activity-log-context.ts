import type { ActivityInterceptorsFactory } from '@temporalio/worker';
import { withLogContext } from './log-context.js';

/** Each activity runs inside a log context: every line it logs carries its workflow id, run id and activity. */
export const activityLogContextInterceptor: ActivityInterceptorsFactory = (ctx) => ({
  inbound: {
    execute(input, next) {
      const info = ctx.info;
      return withLogContext(
        {
          workflow_id: info.workflowExecution?.workflowId,
          run_id: info.workflowExecution?.runId,
          workflow_type: info.workflowType,
          activity: info.activityType,
          activity_id: info.activityId,
          attempt: info.attempt,
        },
        () => next(input),
      );
    },
  },
});
