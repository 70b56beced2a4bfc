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

/** How long the first build takes on the machines we know (2 cores); shown while it runs. */
export const EXPECTED_BUILD = '~6 min on 2 cores';

/**
 * Reads `go install -v` output: `go: downloading <module>` lines while modules are fetched, then one package
 * path per compiled package; after the main package, only linking is left.
 */
export class BuildProgress {
  private downloads = 0;
  private compiled = 0;
  private linking = false;
  private last = '';

  feed(line: string): void {
    const text = line.trim();
    if (!text) return;
    if (text.startsWith('go: downloading ')) this.downloads++;
    else if (text === MODULE) this.linking = true;
    else if (!text.startsWith('go: ') && !text.includes(' ')) this.compiled++;
    else return;
    this.last = text.replace(/^go: downloading /, '');
  }

  step(): string {
    if (this.linking) return `linking (${this.compiled} packages compiled)`;
    if (this.compiled > 0) return `compiling: ${this.compiled} packages so far (${this.downloads} modules downloaded), last ${this.last}`;
    if (this.downloads > 0) return `downloading modules: ${this.downloads} so far, last ${this.last}`;
    return 'resolving the module';
  }

  line(elapsedMs: number): string {
    const s = Math.round(elapsedMs / 1000);
    return `  building the Temporal CLI: ${Math.floor(s / 60)}m${String(s % 60).padStart(2, '0')}s of ${EXPECTED_BUILD} — ${this.step()}`;
  }
}

/** Builds the CLI with `go install -v`, printing the step and elapsed time: the first build takes minutes. */
export async function installTemporalCli(log: Log, tickMs = 15_000): Promise<string> {
  const bin = await goBinDir();
  if (!bin) throw new Error('the Temporal CLI is not installed and Go is not available to build it');
  let lastError = '';
  for (const version of TEMPORAL_CLI_VERSIONS) {
    log(`building the Temporal CLI with \`go install ${MODULE}@${version}\` into ${bin} (first start only; ${EXPECTED_BUILD})…`);
    const started = Date.now();
    const progress = new BuildProgress();
    const ok = await new Promise<boolean>((resolve) => {
      const child = spawn('go', ['install', '-v', `${MODULE}@${version}`], { stdio: ['ignore', 'ignore', 'pipe'] });
      let stderr = '';
      let partial = '';
      child.stderr.on('data', (chunk: Buffer) => {
        stderr = (stderr + chunk.toString()).slice(-8000);
        const lines = (partial + chunk.toString()).split('\n');
        partial = lines.pop() ?? '';
        for (const l of lines) progress.feed(l);
      });
      const ticker = setInterval(() => log(progress.line(Date.now() - started)), tickMs);
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
  throw new Error(`could not build the Temporal CLI (${TEMPORAL_CLI_VERSIONS.join(', ')}): ${lastError.split('\n').pop() ?? ''}`);
}

/** `temporal --version`'s first line, to say which CLI a start uses. */
export async function cliVersion(path: string): Promise<string> {
  try {
    const { stdout } = await run(path, ['--version'], { timeout: 10_000 });
    return stdout.trim().split('\n')[0] ?? 'unknown version';
  } catch {
    return 'version unknown';
  }
}

/** The CLI path, installing it if needed; null when neither the CLI nor Go exists (use the SDK download). */
export async function findOrInstallTemporalCli(log: Log, explicit?: string): Promise<string | null> {
  const found = await findTemporalCli(explicit);
  if (found) {
    log(`using the Temporal CLI ${found} (${await cliVersion(found)})`);
    return found;
  }
  if (!(await goBinDir())) return null;
  return installTemporalCli(log);
}
