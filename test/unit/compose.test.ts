import { execFile } from 'node:child_process';
import { chmodSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { SEARCH_ATTRIBUTES } from '../../domain/search-attributes.js';
import { loadConfig } from '../../lib/config.js';

/**
 * The compose file cannot be started here (no Docker engine), so what it must say is checked as data: the
 * search attributes it registers are the ones the workflows set, the services that run workflows wait for
 * them, and the Temporal UI decodes through the dashboard's codec with the operator's cookie.
 */
const run = promisify(execFile);
const root = new URL('../../', import.meta.url).pathname;
interface Service {
  image?: string;
  environment?: Record<string, string>;
  depends_on?: Record<string, { condition: string }>;
  entrypoint?: string[];
  volumes?: string[];
}
const compose = parse(readFileSync(join(root, 'docker-compose.yml'), 'utf8'), { merge: true }) as { services: Record<string, Service> };
const expected = Object.values(SEARCH_ATTRIBUTES).map((a) => `${a.name}=${a.type}`);

describe('docker-compose.yml', () => {
  it('registers exactly the search attributes of domain/search-attributes.ts before the API and workers start', () => {
    const setup = compose.services['temporal-setup']!;
    expect(setup.environment!.SEARCH_ATTRIBUTES!.split(/\s+/).sort()).toEqual([...expected].sort());
    for (const name of ['api', 'worker']) {
      expect(compose.services[name]!.depends_on!['temporal-setup']).toEqual({ condition: 'service_completed_successfully' });
    }
  });

  it("points the Temporal UI at the dashboard's codec with credentials, and lets that origin call it", () => {
    const ui = compose.services['temporal-ui']!.environment!;
    expect(ui.TEMPORAL_CODEC_ENDPOINT).toMatch(/\/dashboard\/codec$/);
    expect(ui.TEMPORAL_CODEC_INCLUDE_CREDENTIALS).toBe('true');
    const api = compose.services.api!.environment!;
    const origins = api.DASHBOARD_CODEC_ORIGINS!.replace(/\$\{[A-Z_]+:-([^}]*)\}/g, '$1'); // the default of ${VAR:-default}
    expect(loadConfig({ DASHBOARD_CODEC_ORIGINS: origins }).DASHBOARD_CODEC_ORIGINS).toEqual(['http://localhost:8080']);
  });
});

describe('deploy/temporal/register-search-attributes.sh (with a stand-in temporal CLI)', () => {
  async function runScript(existing: string[]) {
    const dir = mkdtempSync(join(tmpdir(), 'sa-'));
    const log = join(dir, 'calls.log');
    writeFileSync(
      join(dir, 'temporal'),
      `#!/bin/sh\necho "$*" >> ${log}\nif [ "$3" = list ]; then printf '%s\\n' ${existing.map((e) => `'  ${e}  Keyword'`).join(' ') || "''"}; fi\n`,
    );
    chmodSync(join(dir, 'temporal'), 0o755);
    const env = { PATH: `${dir}:${process.env.PATH}`, TEMPORAL_ADDRESS: 'temporal:7233', SEARCH_ATTRIBUTES: expected.join(' ') };
    const out = await run('sh', [join(root, 'deploy/temporal/register-search-attributes.sh')], { env });
    const calls = readFileSync(log, 'utf8').trim().split('\n');
    return { out: out.stdout, creates: calls.filter((c) => c.includes(' create ')) };
  }

  it('creates every attribute on a fresh namespace', async () => {
    const { creates } = await runScript([]);
    expect(creates.map((c) => /--name (\S+) --type (\S+)/.exec(c)!.slice(1).join('='))).toEqual(expected);
  });

  it('leaves attributes already registered alone (a second start changes nothing)', async () => {
    const { creates, out } = await runScript([SEARCH_ATTRIBUTES.team.name, SEARCH_ATTRIBUTES.status.name]);
    expect(creates).toHaveLength(expected.length - 2);
    expect(creates.join('\n')).not.toContain(`--name ${SEARCH_ATTRIBUTES.team.name} `);
    expect(out).toContain(`search attribute ${SEARCH_ATTRIBUTES.status.name}: already registered`);
  });

  it('fails when the server cannot list the attributes', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'sa-'));
    writeFileSync(join(dir, 'temporal'), '#!/bin/sh\necho "connection refused" >&2\nexit 1\n');
    chmodSync(join(dir, 'temporal'), 0o755);
    const env = { PATH: `${dir}:${process.env.PATH}`, TEMPORAL_ADDRESS: 'temporal:7233', SEARCH_ATTRIBUTES: expected.join(' ') };
    await expect(run('sh', [join(root, 'deploy/temporal/register-search-attributes.sh')], { env })).rejects.toThrow();
  });
});
