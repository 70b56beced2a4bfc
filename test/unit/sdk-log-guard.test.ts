import { LoggerWithComposedMetadata } from '@temporalio/common/lib/logger.js';
import { DefaultLogger, type LogEntry } from '@temporalio/worker';
import { describe, expect, it } from 'vitest';
import { skipMetadataOfDroppedSdkLines } from '../../lib/sdk-log-guard.js';

describe("the SDK's composed loggers skip the metadata of lines their logger drops", () => {
  it('builds no metadata for lines below the level, and logs the others with their metadata as before', () => {
    const written: LogEntry[] = [];
    const runtimeLogger = new DefaultLogger('WARN', (e) => written.push(e));
    skipMetadataOfDroppedSdkLines(runtimeLogger, 'WARN');
    let built = 0;
    const composed = LoggerWithComposedMetadata.compose(runtimeLogger, () => {
      built++;
      return { taskQueue: 'orders' };
    });
    composed.trace('activation');
    composed.debug('Activity started', { activityId: '1' });
    composed.info('Activity completed');
    composed.log('DEBUG', 'also below');
    expect(built).toBe(0);
    expect(written).toEqual([]);
    composed.warn('slow', { ms: 5 });
    composed.log('ERROR', 'failed');
    expect(built).toBe(2);
    expect(written.map((e) => [e.level, e.message, e.meta])).toEqual([
      ['WARN', 'slow', { taskQueue: 'orders', ms: 5 }],
      ['ERROR', 'failed', { taskQueue: 'orders' }],
    ]);
  });

  it('leaves loggers it was not given alone (another logger at TRACE still gets every line with metadata)', () => {
    const written: LogEntry[] = [];
    skipMetadataOfDroppedSdkLines(new DefaultLogger('ERROR'), 'ERROR');
    const other = LoggerWithComposedMetadata.compose(new DefaultLogger('TRACE', (e) => written.push(e)), { sdkComponent: 'worker' });
    other.trace('activation', { runId: 'r' });
    other.debug('Activity started');
    expect(written.map((e) => [e.level, e.meta])).toEqual([
      ['TRACE', { sdkComponent: 'worker', runId: 'r' }],
      ['DEBUG', { sdkComponent: 'worker' }],
    ]);
  });
});
