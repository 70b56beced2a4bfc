import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** `npm run dev` as a child process, for the first-run tests. */
export const REPO = fileURLToPath(new URL('../..', import.meta.url));

export { freePort } from '../../lib/startup.js';

/** Something else listening on `port` (all addresses), as another program would. */
export async function holdPort(port: number): Promise<Server> {
  return new Promise((resolve) => {
    const s = createServer().listen(port, '0.0.0.0', () => resolve(s));
  });
}

/** A directory only its owner may enter (mode 0700), like /root or `mktemp -d`. */
export const privateDir = () => mkdtempSync(join(tmpdir(), 'labflow-private-'));

export interface DevRun {
  child: ChildProcess;
  output: () => string;
  stderr: () => string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null; at: number }>;
}

/** Starts `tsx scripts/dev.ts` with `env` over a clean environment (no DATABASE_URL/TEMPORAL_ADDRESS of ours). */
export function startDev(env: Record<string, string>): DevRun {
  const base = { ...process.env };
  for (const k of ['DATABASE_URL', 'TEMPORAL_ADDRESS', 'PORT', 'DATA_DIR', 'EMBEDDED_POSTGRES_PORT', 'TEMPORAL_DEV_PORT', 'TEMPORAL_UI_PORT']) delete base[k];
  const child = spawn(process.execPath, ['--import', 'tsx', 'scripts/dev.ts'], {
    cwd: REPO,
    env: { ...base, LOG_LEVEL: 'info', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stdout!.on('data', (c: Buffer) => (out += c.toString()));
  child.stderr!.on('data', (c: Buffer) => (err += c.toString()));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null; at: number }>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal, at: Date.now() })),
  );
  return { child, output: () => out + err, stderr: () => err, exited };
}

/** Polls `url` until it answers 200 or the child exits; throws with its output otherwise. */
export async function waitForHealth(run: DevRun, url: string, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (run.child.exitCode !== null) throw new Error(`dev stack exited before it was ready:\n${run.output()}`);
    const ok = await fetch(url).then((r) => r.status === 200, () => false);
    if (ok) return;
    await new Promise((r) => setTimeout(r, 500));
  }
  throw new Error(`no 200 from ${url} within ${timeoutMs} ms:\n${run.output()}`);
}

/** Processes whose command line mentions `text` (e.g. a data dir or a port flag), from /proc. */
export function processesMentioning(text: string): string[] {
  const found: string[] = [];
  for (const pid of readdirSync('/proc').filter((d) => /^\d+$/.test(d))) {
    try {
      const cmd = readFileSync(`/proc/${pid}/cmdline`, 'utf8').replace(/\0/g, ' ');
      if (cmd.includes(text) && Number(pid) !== process.pid) found.push(`${pid}: ${cmd}`);
    } catch {
      // gone meanwhile
    }
  }
  return found;
}
