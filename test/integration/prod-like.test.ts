import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { Client, Connection } from '@temporalio/client';
import { sql as dsql } from 'drizzle-orm';
import postgres from 'postgres';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { BenchReceiver } from '../../bench/webhooks-receiver.js';
import { freePort } from '../../bench/support.js';
import { createDb, type DbHandle } from '../../db/client.js';
import { createTeam, rotateTeamKey } from '../../db/queries/teams.js';
import { SEARCH_ATTRIBUTES } from '../../domain/search-attributes.js';
import { portIsFree } from '../../lib/startup.js';
import { findTemporalServer, serverEnv, serverPorts, TEMPORAL_SERVER_VERSION } from '../../lib/temporal-server.js';
import { DEFAULT_WORKERS, parseWorkers, stackPorts, startProdLikeStack, type ProdLikeStack } from '../../scripts/stack-prod-like.js';
import { testkitLabTest } from '../support/catalog-fixture.js';
import { DashboardClient, newOperator } from '../browser/dashboard-client.js';
import type { TestStack } from '../support/harness.js';
import { samplePdf } from '../fixtures/lab-reports/report.js';

/**
 * The production-like stack (scripts/stack-prod-like.ts): the real Temporal server v1.31.2 on Postgres, its schema
 * set up by its own tool, the namespace and search attributes registered by the compose file's scripts, 2 API and
 * 3 worker processes. An order goes through it end to end; and the compose file describes the same stack.
 */
const root = new URL('../../', import.meta.url).pathname;

interface Service {
  image?: string;
  command?: string[];
  entrypoint?: string[];
  environment?: Record<string, string>;
  deploy?: { replicas?: number };
  volumes?: string[];
}
const compose = parse(readFileSync(join(root, 'docker-compose.yml'), 'utf8'), { merge: true }) as { services: Record<string, Service> };

describe('docker-compose.yml runs what npm run stack:prod-like runs', () => {
  const s = compose.services;
  it('the same Temporal release: server image and admin tools (schema tool, CLI)', () => {
    const tag = TEMPORAL_SERVER_VERSION.replace(/^v/, '');
    expect(s.temporal!.image).toBe(`temporalio/server:${tag}`);
    expect(s['temporal-schema']!.image).toBe(`temporalio/admin-tools:${tag}`);
    expect(s['temporal-setup']!.image).toBe(`temporalio/admin-tools:${tag}`);
  });

  it('the server configured by the same variables, ports and addresses aside', () => {
    const ours = serverEnv({ host: 'h', port: 1, user: 'u', password: 'p', database: 'temporal', visibilityDatabase: 'temporal_visibility' }, serverPorts(20000));
    const theirs = s.temporal!.environment!;
    const config = Object.keys(ours).filter((k) => !/_PORT$|^BIND_ON_IP$|BROADCAST|PROMETHEUS|SEEDS|USER|PWD|DYNAMIC_CONFIG|LOG_LEVEL/.test(k));
    for (const k of config) expect(theirs[k], k).toBe(ours[k]);
    for (const k of ['POSTGRES_SEEDS', 'POSTGRES_USER', 'POSTGRES_PWD', 'PROMETHEUS_ENDPOINT', 'DYNAMIC_CONFIG_FILE_PATH']) expect(theirs, k).toHaveProperty(k);
    expect(basename(theirs.DYNAMIC_CONFIG_FILE_PATH!)).toBe(basename(ours.DYNAMIC_CONFIG_FILE_PATH!));
  });

  it('the same set-up scripts: schema, then namespace and search attributes', () => {
    expect(s['temporal-schema']!.entrypoint).toEqual(['sh', '/setup-schema.sh']);
    expect(s['temporal-schema']!.volumes).toContain('./deploy/temporal/setup-schema.sh:/setup-schema.sh:ro');
    expect(s['temporal-setup']!.entrypoint!.join(' ')).toContain('sh /create-namespace.sh && sh /register-search-attributes.sh');
  });

  it('every API and worker shares one blob volume and the Postgres rate-limit store', () => {
    const env = s.api!.environment!;
    expect(env.RATE_LIMIT_STORE).toBe('postgres');
    const apps = Object.values(s).filter((svc) => svc.command?.[1] === 'worker.ts' || svc === s.api);
    expect(apps.length).toBeGreaterThanOrEqual(3);
    for (const svc of apps) {
      expect(svc.environment!.DATA_DIR).toBe('/data');
      expect(svc.volumes).toContain('blobs:/data');
    }
  });

  it('2 API processes and 3 workers polling the same queues', () => {
    expect(s.api!.deploy!.replicas).toBe(2);
    const workers = Object.values(s)
      .filter((svc) => svc.command?.[1] === 'worker.ts')
      .flatMap((svc) => Array.from({ length: svc.deploy?.replicas ?? 1 }, () => svc.command![svc.command!.indexOf('--queues') + 1]!));
    expect(workers.sort()).toEqual(parseWorkers(DEFAULT_WORKERS).map((q) => q.join(',')).sort());
  });
});

// The server is built once from its Go module (minutes) and cached; without Go that cannot happen here.
const goMissing = (() => {
  try {
    execFileSync('go', ['version']);
    return null;
  } catch {
    return 'Go is not installed, so temporal-server cannot be built';
  }
})();
if (goMissing && !findTemporalServer()) process.stdout.write(`SKIPPED prod-like stack test: ${goMissing} (https://go.dev/dl)\n`);

describe.skipIf(goMissing !== null && !findTemporalServer())('the prod-like stack: Temporal v1.31.2 on Postgres, 2 API + 3 workers', () => {
  let stack: ProdLikeStack;
  let db: DbHandle;
  beforeAll(async () => {
    let base = 0;
    for (let i = 0; i < 50 && !base; i++) {
      const candidate = 20_000 + Math.floor(Math.random() * 12_000);
      const p = stackPorts(candidate, 2, 3);
      const all = [p.postgres, ...Object.values(p.temporal), ...p.apis, ...p.workerMetrics];
      if ((await Promise.all(all.map((x) => portIsFree(x)))).every(Boolean)) base = candidate;
    }
    stack = await startProdLikeStack({
      basePort: base,
      dataDir: mkdtempSync(join(tmpdir(), 'labflow-prod-like-')),
      fresh: true,
      apis: 2,
      workers: parseWorkers(DEFAULT_WORKERS),
      // A key cache far longer than any wait below: only the revocation notice can make an API refuse a key soon.
      serviceEnv: { LOG_LEVEL: 'warn', API_KEY_CACHE_TTL_SECONDS: '300' },
      log: (m) => process.stderr.write(`[prod-like] ${m}\n`),
    });
    db = createDb(stack.databaseUrl, { max: 2 });
  }, 45 * 60_000); // a first run builds temporal-server (~20 min on 2 cores)
  afterAll(async () => {
    await db?.close();
    await stack?.stop();
  }, 120_000);

  it("keeps Temporal's state in its own Postgres databases, set up by temporal-sql-tool", async () => {
    const admin = postgres(stack.databaseUrl.replace(/\/labflow$/, '/temporal'), { max: 1, onnotice: () => {} });
    try {
      const [version] = await admin`select curr_version from schema_version`;
      expect(version!.curr_version).toMatch(/^1\.\d+$/);
      const [shards] = await admin`select count(*)::int as n from shards`;
      expect(shards!.n).toBe(4);
    } finally {
      await admin.end();
    }
  });

  it('runs an order through both APIs and the workers to completed, with its webhooks delivered', async () => {
    const team = await createTeam(db.db, { name: 'prod-like', environment: 'sandbox', region: 'us' });
    const { labTestId } = await testkitLabTest(db.db, team.teamId);
    const headers = { 'x-service-api-key': team.apiKey, 'content-type': 'application/json' };
    const [api1, api2] = stack.apiUrls as [string, string];
    const port = await freePort();
    const ep = await fetch(`${api1}/v2/webhooks/endpoints`, { method: 'POST', headers, body: JSON.stringify({ url: `http://127.0.0.1:${port}/hooks` }) });
    expect(ep.status).toBe(201);
    const receiver = new BenchReceiver(((await ep.json()) as { secret: string }).secret);
    await receiver.start(port);
    try {
      const user = await fetch(`${api2}/v2/user`, { method: 'POST', headers, body: JSON.stringify({ client_user_id: 'prod-like-patient' }) });
      const userId = ((await user.json()) as { user_id: string }).user_id;
      const created = await fetch(`${api1}/v3/order`, {
        method: 'POST',
        headers,
        body: JSON.stringify({
          user_id: userId,
          order_set: { lab_test_ids: [labTestId] },
          patient_details: { first_name: 'Pat', last_name: 'Prod', dob: '1980-01-01', gender: 'other', phone_number: '+14155552671', email: 'p@example.com' },
          patient_address: { first_line: '1 Main St', city: 'Austin', state: 'TX', zip: '78701', country: 'US' },
        }),
      });
      expect(created.status).toBe(200);
      const orderId = ((await created.json()) as { order: { id: string } }).order.id;
      const sim = await fetch(`${api2}/v3/order/${orderId}/test?final_status=completed.testkit.completed&delay=0`, { method: 'POST', headers });
      expect(sim.status).toBe(200);

      const deadline = Date.now() + 90_000;
      let status = '';
      while (Date.now() < deadline && status !== 'completed') {
        const res = await fetch(`${api1}/v3/order/${orderId}`, { headers });
        status = ((await res.json()) as { status: string }).status;
        if (status !== 'completed') await new Promise((r) => setTimeout(r, 500));
      }
      expect(status).toBe('completed');
      const events = await db.db.execute<{ status: string }>(dsql`select status from order_events where order_id = ${orderId} order by id`);
      expect(events.map((e) => e.status)).toContain('completed.testkit.completed');
      expect(new Set(events.map((e) => e.status)).size).toBe(events.length);

      // Every webhook event of the order arrives, signed with the endpoint's secret.
      const outbox = (await db.db.execute<{ id: string }>(dsql`select id from outbox_events where team_id = ${team.teamId}`)).map((r) => r.id);
      expect(outbox.length).toBeGreaterThanOrEqual(events.length);
      const until = Date.now() + 60_000;
      while (receiver.countOf(outbox) < outbox.length && Date.now() < until) await new Promise((r) => setTimeout(r, 250));
      expect(receiver.summary(outbox).missing).toEqual([]);
      expect(receiver.invalid).toBe(0);

      // Temporal's SQL visibility finds the order by the service's search attributes.
      const connection = await Connection.connect({ address: stack.temporalAddress });
      try {
        const client = new Client({ connection, namespace: 'default' });
        const found: string[] = [];
        const query = `${SEARCH_ATTRIBUTES.team.name} = "${team.teamId}" AND ${SEARCH_ATTRIBUTES.status.name} = "completed"`;
        const until2 = Date.now() + 30_000;
        while (!found.length && Date.now() < until2) {
          for await (const wf of client.workflow.list({ query })) found.push(wf.workflowId);
          if (!found.length) await new Promise((r) => setTimeout(r, 500));
        }
        expect(found.some((id) => id.includes(orderId))).toBe(true);
      } finally {
        await connection.close();
      }
    } finally {
      await receiver.stop();
    }
  }, 180_000);

  it('shares state between the processes: a report uploaded through one API is parsed by a worker and served by the other; a rotated key fails on both', async () => {
    const team = await createTeam(db.db, { name: 'prod-like shared', environment: 'sandbox', region: 'us' });
    const [api1, api2] = stack.apiUrls as [string, string];
    const headers = { 'x-service-api-key': team.apiKey };
    const user = await fetch(`${api1}/v2/user`, { method: 'POST', headers: { ...headers, 'content-type': 'application/json' }, body: JSON.stringify({ client_user_id: 'prod-like-blob' }) });
    const userId = ((await user.json()) as { user_id: string }).user_id;
    const pdf = await samplePdf();
    const form = new FormData();
    form.append('file', new Blob([new Uint8Array(pdf)], { type: 'application/pdf' }), 'report.pdf');
    form.append('user_id', userId);
    const created = await fetch(`${api1}/lab_report/v1/parser/job`, { method: 'POST', headers, body: form });
    expect(created.status).toBe(200);
    const jobId = ((await created.json()) as { id: string }).id;

    // Parsed by the parsing worker (another process, reading the blob api-1 wrote), read through api-2.
    let job: { status: string; data?: { results?: unknown[] } } = { status: '' };
    const deadline = Date.now() + 120_000;
    while (Date.now() < deadline && job.status !== 'completed' && job.status !== 'failed') {
      job = (await (await fetch(`${api2}/lab_report/v1/parser/job/${jobId}`, { headers })).json()) as typeof job;
      if (job.status !== 'completed') await new Promise((r) => setTimeout(r, 500));
    }
    expect(job.status).toBe('completed');
    expect(job.data?.results?.length).toBeGreaterThan(0);

    // The operator logs in through api-1 (sessions live in Postgres) and downloads the upload through api-2.
    const at = (url: string) => ({ url, db }) as unknown as TestStack; // the dashboard client needs only these two
    const op = await newOperator(at(api1));
    const dash = await DashboardClient.login(at(api1), op.email, op.password);
    const file = await fetch(`${api2}/dashboard/parsing/${jobId}/file/0`, { headers: { cookie: dash.cookie } });
    expect(file.status).toBe(200);
    expect(Buffer.from(await file.arrayBuffer()).equals(pdf)).toBe(true);

    // Both APIs cached the key (for 300 s); rotated, it fails on both at once.
    for (const url of [api1, api2]) expect((await fetch(`${url}/v2/user`, { headers })).status).toBe(200);
    const rotated = await rotateTeamKey(db.db, team.teamId);
    const refusedBy = async () => Promise.all([api1, api2].map(async (url) => (await fetch(`${url}/v2/user`, { headers })).status));
    const until = Date.now() + 3000;
    let statuses = await refusedBy();
    while (statuses.some((x) => x !== 401) && Date.now() < until) {
      await new Promise((r) => setTimeout(r, 100));
      statuses = await refusedBy();
    }
    expect(statuses).toEqual([401, 401]);
    expect((await fetch(`${api2}/v2/user`, { headers: { 'x-service-api-key': rotated!.apiKey } })).status).toBe(200);
  }, 180_000);

  it('after a Postgres restart the APIs listen again: a key rotated then fails on both without waiting for the cache TTL', async () => {
    const team = await createTeam(db.db, { name: 'prod-like restart', environment: 'sandbox', region: 'us' });
    const headers = { 'x-service-api-key': team.apiKey };
    const statuses = () => Promise.all(stack.apiUrls.map(async (url) => (await fetch(`${url}/v2/user`, { headers })).status));
    expect(await statuses()).toEqual([200, 200]); // cached in both
    await stack.stopPostgres();
    await stack.startPostgres();
    for (const url of stack.apiUrls) {
      const deadline = Date.now() + 60_000;
      while (Date.now() < deadline && !(await fetch(`${url}/health`).then((r) => r.ok, () => false))) await new Promise((r) => setTimeout(r, 500));
    }
    expect(await statuses()).toEqual([200, 200]);
    // The test's own pool may hold connections the restart cut: the first query can fail.
    let rotated = null;
    for (let i = 0; i < 5 && !rotated; i++) rotated = await rotateTeamKey(db.db, team.teamId).catch(() => null);
    expect(rotated).not.toBeNull();
    // The heartbeat (5 s) finds a deaf listener within 12.5 s and subscribes again, clearing the cache.
    const deadline = Date.now() + 20_000;
    let now = await statuses();
    while (now.some((x) => x !== 401) && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 250));
      now = await statuses();
    }
    expect(now).toEqual([401, 401]);
  }, 120_000);
});
