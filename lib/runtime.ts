import { DefaultLogger, Runtime, type LogLevel } from '@temporalio/worker';

let installed = false;

/**
 * Installs the Temporal worker runtime once per process: SDK logs at WARN and above, and no
 * signal handlers of its own, so the process that hosts the worker decides how to shut down.
 */
export function installWorkerRuntime(level: LogLevel = 'WARN'): void {
  if (installed) return;
  Runtime.install({ logger: new DefaultLogger(level), shutdownSignals: [] });
  installed = true;
}
