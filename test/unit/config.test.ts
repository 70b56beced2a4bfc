import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../lib/config.js';

describe('loadConfig', () => {
  it('gives the documented defaults', () => {
    const c = loadConfig({});
    expect(c).toMatchObject({
      PORT: 8000,
      TEMPORAL_NAMESPACE: 'default',
      SERVICE_ENVIRONMENT: 'sandbox',
      SERVICE_REGION: 'us',
      DATA_DIR: '.data',
      LOG_LEVEL: 'info',
      USER_DELETION_GRACE_SECONDS: 604800,
    });
    expect(c.DATABASE_URL).toBeUndefined();
    expect(c.TEMPORAL_ADDRESS).toBeUndefined();
  });

  it('parses given values and treats empty strings as unset', () => {
    const c = loadConfig({ PORT: '9001', SERVICE_ENVIRONMENT: 'production', SERVICE_REGION: 'eu', DATABASE_URL: '', TEMPORAL_ADDRESS: 'temporal:7233' });
    expect(c).toMatchObject({ PORT: 9001, SERVICE_ENVIRONMENT: 'production', SERVICE_REGION: 'eu', TEMPORAL_ADDRESS: 'temporal:7233' });
    expect(c.DATABASE_URL).toBeUndefined();
  });

  it('names every bad variable in one error', () => {
    let caught: unknown;
    try {
      loadConfig({ PORT: 'eighty', SERVICE_ENVIRONMENT: 'staging', DATABASE_URL: 'mysql://x', TEMPORAL_ADDRESS: 'http://t:7233', LOG_LEVEL: 'loud' });
    } catch (err) {
      caught = err;
    }
    expect(caught).toBeInstanceOf(ConfigError);
    const msg = (caught as Error).message;
    for (const name of ['PORT', 'SERVICE_ENVIRONMENT', 'DATABASE_URL', 'TEMPORAL_ADDRESS', 'LOG_LEVEL']) expect(msg).toContain(name);
  });

  it('makes an entry point fail fast with the message and exit code 1', async () => {
    const run = promisify(execFile);
    const err = await run(process.execPath, ['--import', 'tsx', 'api/server.ts'], {
      env: { ...process.env, PORT: '99999', SERVICE_REGION: 'mars' },
    }).then(
      () => null,
      (e: unknown) => e as { code: number; stderr: string },
    );
    expect(err?.code).toBe(1);
    expect(err?.stderr).toMatch(/Invalid configuration/);
    expect(err?.stderr).toMatch(/PORT/);
    expect(err?.stderr).toMatch(/SERVICE_REGION/);
    // Starting a TypeScript entry point with tsx takes seconds on a loaded 2-core machine: this checks the
    // exit, not its speed.
  }, 60_000);
});
