import { execFile, spawn } from 'node:child_process';
import { accessSync, constants } from 'node:fs';
import { homedir } from 'node:os';
import { delimiter, join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** `go install` accepts these releases (later ones carry a `replace` directive); tried in order. */
export const TEMPORAL_CLI_VERSIONS = ['v1.5.1', 'v1.4.1', 'v1.3.0'] as const;
const MODULE = 'github.com/temporalio/cli/cmd/temporal';

type Log = (msg: string) => void;

function isExecutable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

async function goBinDir(): Promise<string | null> {
  try {
    const { stdout } = await run('go', ['env', 'GOBIN', 'GOPATH']);
    const [gobin, gopath] = stdout.split('\n').map((s) => s.trim());
    if (gobin) return gobin;
    if (gopath) return join(gopath.split(delimiter)[0]!, 'bin');
  } catch {
    // go is not installed
  }
  return null;
}

/** Finds the Temporal CLI: TEMPORAL_CLI_PATH, then PATH, then Go's bin directory. */
export async function findTemporalCli(explicit?: string): Promise<string | null> {
  if (explicit) {
    if (!isExecutable(explicit)) throw new Error(`TEMPORAL_CLI_PATH=${explicit} is not an executable file`);
    return explicit;
  }
  for (const dir of (process.env.PATH ?? '').split(delimiter)) {
    if (dir && isExecutable(join(dir, 'temporal'))) return join(dir, 'temporal');
  }
  const candidates = [await goBinDir(), join(homedir(), 'go', 'bin')].filter((d): d is string => Boolean(d));
  for (const dir of candidates) {
    if (isExecutable(join(dir, 'temporal'))) return join(dir, 'temporal');
  }
  return null;
}

/** Builds the CLI with `go install`, showing progress: the first build takes several minutes. */
export async function installTemporalCli(log: Log): Promise<string> {
  const bin = await goBinDir();
  if (!bin) throw new Error('the Temporal CLI is not installed and Go is not available to build it');
  let lastError = '';
  for (const version of TEMPORAL_CLI_VERSIONS) {
    log(`building the Temporal CLI with \`go install ${MODULE}@${version}\` (first time only; takes several minutes)…`);
    const started = Date.now();
    const ok = await new Promise<boolean>((resolve) => {
      const child = spawn('go', ['install', `${MODULE}@${version}`], { stdio: ['ignore', 'ignore', 'pipe'] });
      let lastLine = '';
      let stderr = '';
      child.stderr.on('data', (chunk: Buffer) => {
        stderr += chunk.toString();
        const lines = chunk.toString().trim().split('\n');
        lastLine = lines[lines.length - 1] ?? lastLine;
      });
      const ticker = setInterval(() => {
        const secs = Math.round((Date.now() - started) / 1000);
        log(`  …still building the Temporal CLI (${secs}s)${lastLine ? `: ${lastLine.slice(0, 100)}` : ''}`);
      }, 20_000);
      child.on('close', (code) => {
        clearInterval(ticker);
        if (code !== 0) lastError = stderr.trim().split('\n').slice(-5).join('\n');
        resolve(code === 0);
      });
      child.on('error', (err) => {
        clearInterval(ticker);
        lastError = err.message;
        resolve(false);
      });
    });
    const path = join(bin, 'temporal');
    if (ok && isExecutable(path)) {
      log(`Temporal CLI ${version} built in ${Math.round((Date.now() - started) / 1000)}s: ${path}`);
      return path;
    }
    log(`building Temporal CLI ${version} failed${lastError ? `:\n${lastError}` : ''}`);
  }
  throw new Error(`could not build the Temporal CLI (${TEMPORAL_CLI_VERSIONS.join(', ')}): ${lastError}`);
}

/** The CLI path, installing it if needed; null when neither the CLI nor Go exists (use the SDK download). */
export async function findOrInstallTemporalCli(log: Log, explicit?: string): Promise<string | null> {
  const found = await findTemporalCli(explicit);
  if (found) return found;
  if (!(await goBinDir())) return null;
  return installTemporalCli(log);
}
