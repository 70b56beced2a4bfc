import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { Connection } from '@temporalio/client';
import { assertPortFree, freePort, oneLine, StartupError } from './startup.js';
import { findOrInstallTemporalCli } from './temporal-cli.js';
import { searchAttributeFlags } from '../domain/search-attributes.js';

type Log = (msg: string) => void;

export interface TemporalDevServer {
  address: string;
  uiUrl: string | null;
  stop(): Promise<void>;
  /** Calls `fn` if the server exits while it should be running (not after stop()). */
  onUnexpectedExit?(fn: (detail: string) => void): void;
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

/** Waits until the server answers; `ours()` must hold first (our child printed that it bound the port). */
async function waitUntilReachable(address: string, child: ChildProcess, ours: () => boolean, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let lastError: unknown;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`temporal server exited with code ${child.exitCode}`);
    if (!ours()) {
      await new Promise((r) => setTimeout(r, 100));
      continue;
    }
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
  // Our own server, never someone else's: a taken port fails here rather than joining the server there.
  await assertPortFree(opts.port, 'Temporal dev server', 'TEMPORAL_DEV_PORT');
  if (opts.uiPort !== null) await assertPortFree(opts.uiPort, 'Temporal UI', 'TEMPORAL_UI_PORT');
  let cli: string | null;
  try {
    cli = await findOrInstallTemporalCli(opts.log, opts.cliPath);
  } catch (err) {
    if (opts.cliPath) throw new StartupError(`${oneLine(err)}: point TEMPORAL_CLI_PATH at a \`temporal\` binary, or unset it to find or build one`);
    throw new StartupError(`no Temporal CLI (${oneLine(err)}): install Go (https://go.dev/dl) to build it, set TEMPORAL_CLI_PATH to a \`temporal\` binary, or TEMPORAL_ADDRESS to a running server`);
  }
  const address = `127.0.0.1:${opts.port}`;
  if (!cli) {
    try {
      return await startWithSdkDownload(opts);
    } catch (err) {
      throw new StartupError(`no Temporal CLI, no Go to build it, and the download of the dev server failed (${oneLine(err)}): install Go (https://go.dev/dl), or set TEMPORAL_CLI_PATH or TEMPORAL_ADDRESS`);
    }
  }

  const args = ['server', 'start-dev', '--ip', '127.0.0.1', '--port', String(opts.port), '--log-level', 'error'];
  // Its HTTP API and metrics ports chosen here, apart from ours: left to the CLI, a "random free port" was once
  // the frontend's own port (free until the frontend took it), and the server failed at start.
  const taken = new Set([opts.port, opts.uiPort]);
  for (const flag of ['--http-port', '--metrics-port']) {
    let port = await freePort();
    while (taken.has(port)) port = await freePort();
    taken.add(port);
    args.push(flag, String(port));
  }
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
  const child = spawn(cli, args, { stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  // `start-dev` prints its banner ("Server: host:port") only once its frontend holds the port: until then,
  // whatever answers there is some other server, and this stack must never use it.
  let banner = '';
  child.stdout?.on('data', (chunk: Buffer) => {
    if (banner.length < 4000) banner += chunk.toString();
  });
  const killOnExit = () => child.kill('SIGKILL');
  process.once('exit', killOnExit);
  child.once('exit', () => process.removeListener('exit', killOnExit));
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr = (stderr + chunk.toString()).slice(-4000);
  });
  child.once('error', () => {}); // a spawn failure shows as the exit below
  try {
    await waitUntilReachable(address, child, () => banner.includes(`:${opts.port}`), 60_000);
    // What answered must be our server (still running), not another one that took the port meanwhile.
    if (child.exitCode !== null || child.signalCode !== null) throw new Error('temporal server exited at start');
  } catch (err) {
    child.kill('SIGKILL');
    const detail = stderr.trim().split('\n').slice(-2).join(' | ');
    throw new StartupError(`the Temporal dev server did not start on port ${opts.port} (${oneLine(err)}${detail ? `: ${detail}` : ''}): check TEMPORAL_DEV_PORT and the SQLite file under DATA_DIR/temporal`);
  }
  let stopping = false;
  return {
    address,
    uiUrl: opts.uiPort === null ? null : `http://127.0.0.1:${opts.uiPort}`,
    onUnexpectedExit: (fn) =>
      child.once('exit', (code, signal) => {
        if (!stopping) fn(`exit ${signal ?? code}${stderr ? `: ${stderr.trim().split('\n').pop()}` : ''}`);
      }),
    stop: () =>
      new Promise<void>((resolve) => {
        stopping = true;
        if (child.exitCode !== null || child.signalCode !== null) return resolve();
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
