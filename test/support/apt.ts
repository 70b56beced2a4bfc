import { execFileSync } from 'node:child_process';

/** Installs a Debian package with apt-get (root, as on CI machines), for tests that need a system tool. */
export function aptInstall(pkg: string, log: (msg: string) => void = (m) => process.stderr.write(`${m}\n`)): void {
  log(`installing Debian's ${pkg} with apt-get`);
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  execFileSync('apt-get', ['update'], { stdio: 'inherit', env, timeout: 600_000 });
  execFileSync('apt-get', ['install', '-y', '--no-install-recommends', pkg], { stdio: 'inherit', env, timeout: 900_000 });
}
