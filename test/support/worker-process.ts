import { spawn, type ChildProcess } from 'node:child_process';
import { inject } from 'vitest';
import { TEST_SECRET_ENCRYPTION_KEY } from './constants.js';

/**
 * The service worker (`worker.ts`) as a child process on a namespace of its own, against the run's
 * Postgres and Temporal: tests that kill it, give it a small pool, or read its output. `env` adds to or
 * overrides the defaults (LOG_LEVEL warn); `stdout: 'pipe'` lets the test read its log lines.
 */
export function startWorkerProcess(namespace: string, env: Record<string, string> = {}, stdout: 'ignore' | 'pipe' = 'ignore'): ChildProcess {
  return spawn(process.execPath, ['--import', 'tsx', 'worker.ts'], {
    env: {
      ...process.env,
      DATABASE_URL: inject('databaseUrl'),
      TEMPORAL_ADDRESS: inject('temporalAddress'),
      TEMPORAL_NAMESPACE: namespace,
      SECRET_ENCRYPTION_KEY: TEST_SECRET_ENCRYPTION_KEY,
      LOG_LEVEL: 'warn',
      ...env,
    },
    stdio: ['ignore', stdout, 'inherit'],
  });
}
