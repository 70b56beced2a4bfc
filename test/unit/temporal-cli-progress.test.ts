import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { BuildProgress, findOrInstallTemporalCli, installTemporalCli } from '../../lib/temporal-cli.js';

describe('BuildProgress (go install -v output)', () => {
  it('tells downloading, compiling and linking apart, with counts', () => {
    const p = new BuildProgress();
    expect(p.step()).toBe('resolving the module');
    p.feed('go: downloading github.com/temporalio/cli v1.5.1');
    p.feed('go: downloading cel.dev/expr v0.23.1');
    expect(p.step()).toBe('downloading modules: 2 so far, last cel.dev/expr v0.23.1');
    p.feed('cel.dev/expr');
    p.feed('google.golang.org/grpc/internal');
    p.feed('go: some warning that is not a package');
    expect(p.step()).toBe('compiling: 2 packages so far (2 modules downloaded), last google.golang.org/grpc/internal');
    p.feed('github.com/temporalio/cli/cmd/temporal');
    expect(p.step()).toBe('linking (2 packages compiled)');
    expect(p.line(125_000)).toBe('  building the Temporal CLI: 2m05s of ~6 min on 2 cores — linking (2 packages compiled)');
  });
});

describe('installTemporalCli with a fake go on PATH', () => {
  let dir: string;
  let savedPath: string | undefined;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'labflow-fake-go-'));
    savedPath = process.env.PATH;
  });
  afterEach(() => {
    process.env.PATH = savedPath;
    rmSync(dir, { recursive: true, force: true });
  });

  /** A `go` that answers `go env` with `dir/bin` and "builds" by printing go install -v lines slowly. */
  function fakeGo(installExit: number) {
    const bin = join(dir, 'bin');
    const script = `#!/bin/sh
if [ "$1" = env ]; then echo "${bin}"; echo "${dir}/gopath"; exit 0; fi
[ "$1" = install ] || exit 2
[ "$2" = -v ] || exit 3
say() { echo "$1" >&2; sleep 0.4; }
say "go: downloading github.com/temporalio/cli v1.5.1"
say "go: downloading cel.dev/expr v0.23.1"
say "cel.dev/expr"
say "github.com/temporalio/cli/internal/temporalcli"
[ ${installExit} -eq 0 ] || { echo "go: build failed: out of memory" >&2; exit ${installExit}; }
say "github.com/temporalio/cli/cmd/temporal"
mkdir -p "${bin}"; printf '#!/bin/sh\\necho "temporal version 9.9.9-fake"\\n' > "${bin}/temporal"; chmod +x "${bin}/temporal"
`;
    writeFileSync(join(dir, 'go'), script);
    chmodSync(join(dir, 'go'), 0o755);
    process.env.PATH = `${dir}:/usr/bin:/bin`;
    return join(bin, 'temporal');
  }

  it('prints elapsed time, the step and the expected duration while it builds, then the binary', async () => {
    const expected = fakeGo(0);
    const lines: string[] = [];
    const path = await installTemporalCli((m) => lines.push(m), 100);
    expect(path).toBe(expected);
    expect(lines[0]).toContain('~6 min on 2 cores');
    const ticks = lines.filter((l) => l.startsWith('  building the Temporal CLI: 0m0'));
    expect(ticks.some((l) => l.includes('downloading modules: 1 so far') || l.includes('downloading modules: 2 so far'))).toBe(true);
    expect(ticks.some((l) => /compiling: [12] packages so far \(2 modules downloaded\)/.test(l))).toBe(true);
    expect(ticks.some((l) => l.includes('linking (2 packages compiled)'))).toBe(true);
    expect(ticks.every((l) => l.includes('of ~6 min on 2 cores'))).toBe(true);
    expect(lines.at(-1)).toMatch(new RegExp(`^Temporal CLI v1\\.5\\.1 built in \\d+s: ${expected}$`));

    // A later start names the binary it uses and its version.
    const later: string[] = [];
    expect(await findOrInstallTemporalCli((m) => later.push(m), expected)).toBe(expected);
    expect(later).toEqual([`using the Temporal CLI ${expected} (temporal version 9.9.9-fake)`]);
  });

  it('tries each release, then fails with the build error', async () => {
    fakeGo(1);
    const lines: string[] = [];
    await expect(installTemporalCli((m) => lines.push(m), 1000)).rejects.toThrow(/could not build the Temporal CLI \(v1\.5\.1, v1\.4\.1, v1\.3\.0\): go: build failed: out of memory/);
    expect(lines.filter((l) => l.startsWith('building Temporal CLI') && l.includes('failed'))).toHaveLength(3);
  }, 30_000);
});
