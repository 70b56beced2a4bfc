import { cpSync, existsSync, lstatSync, readFileSync, readlinkSync, realpathSync, rmSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import postgres from 'postgres';
import { afterAll, describe, expect, it, type ExpectStatic } from 'vitest';
import { startEmbeddedPostgres } from '../../lib/embedded-postgres.js';
import { packagedBinaries } from '../../lib/postgres-placement.js';
import { freePort, holdPort, privateDir, processesMentioning, startDev, waitForHealth } from '../support/dev-process.js';
import { eventually } from '../support/harness.js';

/**
 * First run anywhere (issue 18): the stack from a private (0700) directory, as root or not; one clear line
 * for each start-up failure with nothing left running; Ctrl-C stops everything within 30 s.
 */
const dirs: string[] = [];
const mkPrivate = () => {
  const d = privateDir();
  dirs.push(d);
  return d;
};
afterAll(() => {
  for (const d of dirs) {
    // As root the dev stack's cluster lives under /var/tmp, linked from DATA_DIR/postgres: remove it too.
    const link = join(d, '.data', 'postgres');
    if (lstatSync(link, { throwIfNoEntry: false })?.isSymbolicLink()) rmSync(resolve(dirname(link), readlinkSync(link)), { recursive: true, force: true });
    rmSync(d, { recursive: true, force: true });
  }
});

const uidOf = (pid: number) => Number(/^Uid:\s+(\d+)/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))![1]);

describe('embedded PostgreSQL under a private directory', () => {
  it('runs from binaries and data inside a 0700 directory and answers queries', async () => {
    const dir = mkPrivate();
    expect(statSync(dir).mode & 0o777).toBe(0o700);
    // A clone under /root: the binaries (node_modules) and the data both inside the private directory.
    const packaged = await packagedBinaries();
    cpSync(dirname(dirname(realpathSync(packaged.postgres))), join(dir, 'native'), { recursive: true, verbatimSymlinks: true });
    const binaries = { initdb: join(dir, 'native', 'bin', 'initdb'), postgres: join(dir, 'native', 'bin', 'postgres') };
    const dataDir = join(dir, '.data', 'postgres');
    const pg = await startEmbeddedPostgres({ dataDir, port: await freePort(), database: 'first_run', persistent: false, log: () => {}, binaries });
    const realData = realpathSync(dataDir);
    try {
      const sql = postgres(pg.url, { max: 1, onnotice: () => {} });
      const [row] = await sql<{ db: string; version: number; pid: number }[]>`
        select current_database() as db, current_setting('server_version_num')::int as version, pg_backend_pid() as pid`;
      // Read the backend's owner while its connection is open (its process ends with the connection).
      const backendUid = uidOf(row!.pid);
      await sql.end();
      expect(row!.db).toBe('first_run');
      expect(row!.version).toBeGreaterThanOrEqual(170000);
      // As root the server runs as the unprivileged `postgres` user; otherwise as ourselves.
      if (process.getuid!() === 0) expect(backendUid).not.toBe(0);
      else expect(backendUid).toBe(process.getuid!());
    } finally {
      await pg.stop();
    }
    expect(existsSync(realData)).toBe(false); // persistent: false removes the cluster, wherever it lived
  });
});

describe('npm run dev from a private directory', () => {
  it('serves /health, and Ctrl-C stops every part within 30 s leaving no process', async () => {
    const dataDir = join(mkPrivate(), '.data');
    const [port, pgPort, temporalPort, uiPort] = [await freePort(), await freePort(), await freePort(), await freePort()];
    const run = startDev({ DATA_DIR: dataDir, PORT: String(port), EMBEDDED_POSTGRES_PORT: String(pgPort), TEMPORAL_DEV_PORT: String(temporalPort), TEMPORAL_UI_PORT: String(uiPort) });
    try {
      await waitForHealth(run, `http://127.0.0.1:${port}/health`, 150_000);
      expect(run.output()).toContain(`Temporal     127.0.0.1:${temporalPort}`);
      expect(run.output()).toContain(`Dashboard    http://127.0.0.1:${port}/dashboard`);
      // Its Temporal UI decodes payloads through the dashboard's codec, which allows that UI's origin.
      const settings = (await (await fetch(`http://127.0.0.1:${uiPort}/api/v1/settings`)).json()) as { Codec?: { Endpoint?: string } };
      expect(settings.Codec?.Endpoint).toBe(`http://127.0.0.1:${port}/dashboard/codec`);
      const preflight = await fetch(`http://127.0.0.1:${port}/dashboard/codec/decode`, {
        method: 'OPTIONS',
        headers: { origin: `http://127.0.0.1:${uiPort}`, 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type' },
      });
      expect(preflight.headers.get('access-control-allow-origin')).toBe(`http://127.0.0.1:${uiPort}`);
      expect(preflight.headers.get('access-control-allow-credentials')).toBe('true');
      expect(processesMentioning(realpathSync(join(dataDir, 'postgres'))).length).toBe(1); // its own Postgres
      // The worker runs as a process of its own and drives an order to its end (a sandbox simulation).
      const key = /x-service-api-key: (\S+)/.exec(run.output())?.[1];
      expect(key).toBeDefined();
      const call = async (method: string, path: string, body?: unknown) => {
        const res = await fetch(`http://127.0.0.1:${port}${path}`, { method, headers: { 'x-service-api-key': key!, 'content-type': 'application/json' }, ...(body ? { body: JSON.stringify(body) } : {}) });
        return { status: res.status, json: (await res.json()) as Record<string, any> }; // eslint-disable-line @typescript-eslint/no-explicit-any
      };
      const user = await call('POST', '/v2/user', { client_user_id: 'first-run' });
      const tests = await call('GET', '/v3/lab_test?collection_method=testkit');
      const labTestId = (tests.json.data as { id: string }[])[0]!.id;
      const created = await call('POST', '/v3/order', {
        user_id: user.json.user_id,
        order_set: { lab_test_ids: [labTestId] },
        patient_details: { first_name: 'Jane', last_name: 'Doe', dob: '1980-01-01', gender: 'female', phone_number: '+14155552671', email: 'jane@example.com' },
        patient_address: { first_line: '1 Main St', city: 'Austin', state: 'TX', zip: '78701', country: 'US' },
      });
      expect(created.status).toBe(200);
      const orderId = created.json.order.id as string;
      expect((await call('POST', `/v3/order/${orderId}/test?final_status=completed.testkit.completed&delay=0`)).status).toBe(200);
      await eventually(async () => (await call('GET', `/v3/order/${orderId}`)).json.status === 'completed', 60_000, 250).catch(async (err: unknown) => {
        process.stderr.write(`[first-run] order: ${JSON.stringify((await call('GET', `/v3/order/${orderId}`)).json.events)}\n`);
        throw err;
      });
      const sent = Date.now();
      run.child.kill('SIGINT');
      const { code, at } = await run.exited;
      expect(at - sent).toBeLessThan(30_000);
      expect(code).toBe(0);
      expect(run.output()).toContain('stopping API');
      expect(run.output().indexOf('stopping API')).toBeLessThan(run.output().indexOf('stopping worker'));
      expect(run.output().indexOf('stopping worker')).toBeLessThan(run.output().indexOf('stopping Temporal server'));
      expect(run.output().indexOf('stopping Temporal server')).toBeLessThan(run.output().indexOf('stopping Postgres'));
      expect(processesMentioning(dataDir)).toEqual([]);
      expect(processesMentioning(`--port ${temporalPort}`)).toEqual([]);
      expect(processesMentioning(`-p ${pgPort}`)).toEqual([]);
    } finally {
      run.child.kill('SIGKILL');
    }
  }, 200_000);
});

// Independent child processes: run side by side to keep the file's time down.
describe.concurrent('start-up failures: one line, nothing left running, exit 1', () => {
  async function failing(expect: ExpectStatic, env: Record<string, string>) {
    const dataDir = join(mkPrivate(), '.data');
    const ports = { PORT: String(await freePort()), EMBEDDED_POSTGRES_PORT: String(await freePort()), TEMPORAL_DEV_PORT: String(await freePort()), TEMPORAL_UI_PORT: String(await freePort()) };
    const run = startDev({ DATA_DIR: dataDir, ...ports, ...env });
    const { code } = await run.exited;
    const failures = run.stderr().split('\n').filter((l) => l.startsWith('start-up failed: '));
    expect(failures).toHaveLength(1);
    expect(run.stderr()).not.toMatch(/^\s+at /m); // no stack trace
    expect(code).toBe(1);
    expect(processesMentioning(dataDir)).toEqual([]);
    expect(processesMentioning(`-p ${ports.EMBEDDED_POSTGRES_PORT}`)).toEqual([]);
    return { line: failures[0]!, dataDir };
  }

  it('names the API port and PORT when the port is taken, before starting anything', async ({ expect }) => {
    const port = await freePort();
    const other = await holdPort(port);
    try {
      const { line, dataDir } = await failing(expect, { PORT: String(port) });
      expect(line).toContain(`port ${port} (API) is already in use`);
      expect(line).toContain('set PORT to a free port');
      expect(existsSync(join(dataDir, 'postgres'))).toBe(false);
    } finally {
      other.close();
    }
  }, 180_000);

  it('names the Temporal port and TEMPORAL_DEV_PORT when another server holds it (never joins it)', async ({ expect }) => {
    const port = await freePort();
    const other = await holdPort(port);
    try {
      const { line } = await failing(expect, { TEMPORAL_DEV_PORT: String(port) });
      expect(line).toContain(`port ${port} (Temporal dev server) is already in use`);
      expect(line).toContain('set TEMPORAL_DEV_PORT');
    } finally {
      other.close();
    }
  }, 180_000);

  it('names the bad variable of an invalid configuration', async ({ expect }) => {
    const { line } = await failing(expect, { PORT: 'eighty' });
    expect(line).toMatch(/^start-up failed: invalid configuration \(PORT: .+\): fix or unset/);
  }, 180_000);

  it('stops the Postgres it had started when a later part fails (no Temporal CLI at TEMPORAL_CLI_PATH)', async ({ expect }) => {
    const { line, dataDir } = await failing(expect, { TEMPORAL_CLI_PATH: '/nonexistent/temporal' });
    expect(line).toContain('TEMPORAL_CLI_PATH=/nonexistent/temporal is not an executable file');
    expect(existsSync(join(dataDir, 'postgres', 'PG_VERSION'))).toBe(true); // Postgres had started…
    expect(existsSync(join(dataDir, 'postgres', 'postmaster.pid'))).toBe(false); // …and was stopped
  }, 180_000);
});
