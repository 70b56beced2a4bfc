import { DefaultLogger, Runtime, type LogLevel } from '@temporalio/worker';
import { setSdkMetricsUrl } from './metrics.js';
import { skipMetadataOfDroppedSdkLines } from './sdk-log-guard.js';
import { freePort } from './startup.js';

let installed = false;

/**
 * Installs the Temporal worker runtime once per process: SDK logs at WARN and above, no signal handlers
 * of its own unless given (the process that hosts the worker decides how to shut down; worker.ts lets the
 * SDK stop its workers on SIGINT/SIGTERM), and the SDK's own metrics
 * served by Core's Prometheus exporter on a loopback port of its own, which this process's `GET /metrics`
 * appends (lib/metrics.ts), so one scrape gets both.
 */
export async function installWorkerRuntime(level: LogLevel = 'WARN', options: { shutdownSignals?: NodeJS.Signals[] } = {}): Promise<void> {
  if (installed) return;
  installed = true;
  const port = await freePort();
  const logger = new DefaultLogger(level);
  // the SDK's own TRACE/DEBUG lines (several per activity) are dropped before their metadata is built
  skipMetadataOfDroppedSdkLines(logger, level);
  Runtime.install({
    logger,
    shutdownSignals: options.shutdownSignals ?? [],
    telemetryOptions: { metrics: { prometheus: { bindAddress: `127.0.0.1:${port}`, countersTotalSuffix: true, useSecondsForDurations: true } } },
  });
  setSdkMetricsUrl(`http://127.0.0.1:${port}/metrics`);
}
