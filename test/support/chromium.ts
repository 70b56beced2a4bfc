import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type BrowserContext } from 'playwright-core';
import { aptInstall } from './apt.js';

/** Debian's chromium: the browser tests never download one. */
export const CHROMIUM_PATH = '/usr/bin/chromium';

const ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/** Installs Debian's `chromium` with apt-get when it is missing (CI machines may lack it). */
export function ensureChromium(log: (msg: string) => void = (m) => process.stderr.write(`${m}\n`)): string {
  if (existsSync(CHROMIUM_PATH)) return CHROMIUM_PATH;
  log(`${CHROMIUM_PATH} missing`);
  aptInstall('chromium', log);
  if (!existsSync(CHROMIUM_PATH)) throw new Error(`apt-get install chromium did not provide ${CHROMIUM_PATH}`);
  return CHROMIUM_PATH;
}

/** A headless chromium with a fresh profile (removed on close), driven by playwright-core. */
export async function launchChromium(): Promise<{ context: BrowserContext; close(): Promise<void> }> {
  const executablePath = ensureChromium();
  const profile = mkdtempSync(join(tmpdir(), 'labflow-chromium-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath,
    headless: true,
    args: ARGS,
    viewport: { width: 1360, height: 900 },
  });
  return {
    context,
    close: async () => {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}
