import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { Connection } from '@temporalio/client';
import { findOrInstallTemporalCli } from './temporal-cli.js';
import { searchAttributeFlags } from '../domain/search-attributes.js';

type Log = (msg: string) => void;

export interface TemporalDevServer {
  address: string;
  uiUrl: string | null;
  stop(): Promise<void>;
}

export interface DevServerOptions {
  port: number;
  /** null = headless (no UI). */
  uiPort: number | null;
  /** The dashboard's remote codec (`<api>/dashboard/codec`): the UI shows decoded payloads to logged-in operators. */
  uiCodecEndpoint?: string;
  namespace: string;
  /** More namespaces to register (tests use one to run a worker of their own). */
  extraNamespaces?: string[];
  /** SQLite file that keeps workflows across restarts; omitted = in memory. */
  dbFile?: string;
  cliPath?: string;
  log: Log;
}

async function waitUntilReachable(address: string, child: ChildProcess | null, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let lastError: unknown;
  while (Date.now() < deadline) {
    if (child && child.exitCode !== null) throw new Error(`temporal server exited with code ${child.exitCode}`);
    try {
      const conn = await Connection.connect({ address, connectTimeout: 1000 });
      await conn.workflowService.getSystemInfo({});
      await conn.close();
      return;
    } catch (err) {
      lastError = err;
      await new Promise((r) => setTimeout(r, 250));
    }
  }
  throw new Error(`Temporal at ${address} not reachable after ${timeoutMs} ms: ${String(lastError)}`);
}

/**
 * Starts `temporal server start-dev` (found, or built with `go install`). When neither the CLI nor
 * Go is available, falls back to the SDK's own download of the dev server (needs internet).
 */
export async function startTemporalDevServer(opts: DevServerOptions): Promise<TemporalDevServer> {
  const cli = await findOrInstallTemporalCli(opts.log, opts.cliPath);
  const address = `127.0.0.1:${opts.port}`;
  if (!cli) return startWithSdkDownload(opts);

  const args = ['server', 'start-dev', '--ip', '127.0.0.1', '--port', String(opts.port), '--log-level', 'error'];
  for (const ns of new Set([opts.namespace, ...(opts.extraNamespaces ?? [])])) {
    if (ns !== 'default') args.push('--namespace', ns);
  }
  if (opts.uiPort === null) args.push('--headless');
  else args.push('--ui-port', String(opts.uiPort));
  args.push(...searchAttributeFlags()); // domain/search-attributes.ts
  if (opts.uiCodecEndpoint && opts.uiPort !== null) args.push('--ui-codec-endpoint', opts.uiCodecEndpoint);
  if (opts.dbFile) {
    mkdirSync(dirname(opts.dbFile), { recursive: true });
    args.push('--db-filename', opts.dbFile);
  }
  opts.log(`starting Temporal dev server (${cli} ${args.join(' ')})`);
  // Its own process group: a terminal's Ctrl-C reaches only our process, which then stops the worker
  // before the server (a server dying first would leave the worker's shutdown waiting on it).
  const child = spawn(cli, args, { stdio: ['ignore', 'ignore', 'pipe'], detached: true });
  const killOnExit = () => child.kill('SIGKILL');
  process.once('exit', killOnExit);
  child.once('exit', () => process.removeListener('exit', killOnExit));
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr = (stderr + chunk.toString()).slice(-4000);
  });
  try {
    await waitUntilReachable(address, child, 60_000);
  } catch (err) {
    child.kill('SIGKILL');
    throw new Error(`${err instanceof Error ? err.message : String(err)}\n${stderr}`);
  }
  return {
    address,
    uiUrl: opts.uiPort === null ? null : `http://127.0.0.1:${opts.uiPort}`,
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        const killer = setTimeout(() => child.kill('SIGKILL'), 10_000);
        child.once('exit', () => {
          clearTimeout(killer);
          resolve();
        });
        child.kill('SIGTERM');
      }),
  };
}

async function startWithSdkDownload(opts: DevServerOptions): Promise<TemporalDevServer> {
  opts.log('no Temporal CLI and no Go toolchain: falling back to the SDK download of the dev server');
  const { TestWorkflowEnvironment } = await import('@temporalio/testing');
  const env = await TestWorkflowEnvironment.createLocal({
    server: {
      ip: '127.0.0.1',
      port: opts.port,
      ui: opts.uiPort !== null,
      ...(opts.uiPort !== null ? { uiPort: opts.uiPort } : {}),
      namespace: opts.namespace,
      ...(opts.dbFile ? { dbFilename: opts.dbFile } : {}),
    },
  });
  return {
    address: `127.0.0.1:${opts.port}`,
    uiUrl: opts.uiPort === null ? null : `http://127.0.0.1:${opts.uiPort}`,
    stop: () => env.teardown(),
  };
}
