import { describe, expect, it } from 'vitest';
import { CancelledFailure } from '@temporalio/common';
import { activityMetricsInterceptor } from '../../lib/activity-metrics.js';
import { activityDuration, activityRetries } from '../../lib/metrics.js';

type Ctx = Parameters<typeof activityMetricsInterceptor>[0];
const run = async (activityType: string, attempt: number, next: () => Promise<unknown>) => {
  const interceptor = activityMetricsInterceptor({ info: { activityType, attempt } } as unknown as Ctx);
  return interceptor.inbound!.execute!({ args: [], headers: {} }, next);
};
const countOf = async (activity: string, outcome: string) =>
  (await activityDuration.get()).values.find((v) => v.metricName === 'labflow_activity_duration_seconds_count' && v.labels.activity === activity && v.labels.outcome === outcome)?.value ?? 0;
const retriesOf = async (activity: string) => (await activityRetries.get()).values.find((v) => v.labels.activity === activity)?.value ?? 0;

describe('activity metrics interceptor', () => {
  it('times each execution by outcome and counts attempts after the first as retries', async () => {
    expect(await run('recordStep', 1, async () => 'ok')).toBe('ok');
    await expect(run('recordStep', 2, async () => Promise.reject(new Error('db down')))).rejects.toThrow('db down');
    await expect(run('recordStep', 3, async () => Promise.reject(new CancelledFailure('cancelled')))).rejects.toThrow();
    expect(await countOf('recordStep', 'completed')).toBe(1);
    expect(await countOf('recordStep', 'failed')).toBe(1);
    expect(await countOf('recordStep', 'cancelled')).toBe(1);
    expect(await retriesOf('recordStep')).toBe(2);
  });
});
