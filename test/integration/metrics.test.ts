import { randomUUID } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, inject, it } from 'vitest';
import { freePort } from '../../lib/startup.js';
import { serveMetrics } from '../../worker.js';
import { orderWithReceiver } from '../browser/fixtures.js';
import { samplePdf } from '../fixtures/lab-reports/report.js';
import { eventually, http, newTeam, startTestStack, type TestStack } from '../support/harness.js';
import { Receivers } from '../support/webhooks.js';

/** Prometheus metrics: the API's /metrics (route patterns, never ids), its optional token, the worker's own server. */
const TOKEN = 'metrics-token-for-tests-0123456789';
let stack: TestStack;
let guarded: TestStack;
beforeAll(async () => {
  stack = await startTestStack();
  guarded = await startTestStack({ METRICS_TOKEN: TOKEN });
});
afterAll(async () => {
  await stack?.close();
  await guarded?.close();
});

/** The value of one sample line of the exposition, or 0. */
const sample = (text: string, name: string, labels: Record<string, string>) => {
  const want = Object.entries(labels).map(([k, v]) => `${k}="${v}"`);
  const line = text.split('\n').find((l) => (l.startsWith(`${name}{`) || l.startsWith(`${name} `)) && want.every((w) => l.includes(w)));
  return line ? Number(line.split(' ').at(-1)) : 0;
};

describe('GET /metrics', () => {
  it('counts requests by route pattern and status, unknown paths as unmatched, and never shows an id', async () => {
    const team = await newTeam(stack);
    const user = await http(stack, 'POST', '/v2/user', { apiKey: team.apiKey, body: { client_user_id: `m-${randomUUID()}` } });
    const userId = user.json.user_id as string;
    const count = 'labflow_http_request_duration_seconds_count';
    const before = await (await fetch(`${stack.url}/metrics`)).text();
    const got = { route: '/v2/user/:user_id', method: 'GET', status: '200' };
    for (let i = 0; i < 3; i++) expect((await http(stack, 'GET', `/v2/user/${userId}`, { apiKey: team.apiKey })).status).toBe(200);
    expect((await http(stack, 'GET', `/v2/user/${randomUUID()}`, { apiKey: team.apiKey })).status).toBe(404);
    expect((await http(stack, 'GET', `/no/such/${randomUUID()}`)).status).toBe(404);

    const res = await fetch(`${stack.url}/metrics`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/plain/);
    const text = await res.text();
    expect(sample(text, count, got) - sample(before, count, got)).toBe(3);
    expect(sample(text, count, { ...got, status: '404' }) - sample(before, count, { ...got, status: '404' })).toBe(1);
    expect(sample(text, count, { route: 'unmatched', status: '404' })).toBeGreaterThanOrEqual(1);
    expect(text).not.toContain(userId);
    expect(text).not.toContain(team.apiKey);
    expect(text).toContain('labflow_process_cpu_seconds_total'); // the process's own
  });

  it('needs the bearer token when METRICS_TOKEN is set', async () => {
    expect((await fetch(`${guarded.url}/metrics`)).status).toBe(401);
    expect((await fetch(`${guarded.url}/metrics`, { headers: { authorization: 'Bearer wrong' } })).status).toBe(401);
    const ok = await fetch(`${guarded.url}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } });
    expect(ok.status).toBe(200);
    expect(await ok.text()).toContain('labflow_http_request_duration_seconds');
  });
});

describe('worker metrics', () => {
  const receivers = new Receivers();
  afterEach(async () => receivers.stopAll());

  it('count webhook delivery attempts and activity executions as the worker runs them', async () => {
    const url = inject('workerMetricsUrl');
    const read = async () => (await fetch(url)).text();
    const before = await read();
    const delivered = { outcome: 'delivered' };
    await orderWithReceiver(stack, receivers); // its first events are delivered to the receiver
    const after = await eventually(async () => {
      const text = await read();
      return sample(text, 'labflow_webhook_delivery_attempts_total', delivered) >= sample(before, 'labflow_webhook_delivery_attempts_total', delivered) + 4 ? text : null;
    });
    expect(sample(after, 'labflow_webhook_delivery_duration_seconds_count', {})).toBeGreaterThan(sample(before, 'labflow_webhook_delivery_duration_seconds_count', {}));
    expect(sample(after, 'labflow_activity_duration_seconds_count', { outcome: 'completed' })).toBeGreaterThan(0);
    // The Temporal SDK's own metrics, from Core's exporter, in the same scrape: workflow tasks and activities by type.
    const sdk = await eventually(async () => {
      const text = await read();
      const delivered = sample(text, 'temporal_activity_execution_latency_count', { activity_type: 'deliverDue' });
      return delivered > sample(before, 'temporal_activity_execution_latency_count', { activity_type: 'deliverDue' }) ? text : null;
    });
    expect(sample(sdk, 'temporal_workflow_task_execution_latency_count', { workflow_type: 'labOrderWorkflow' })).toBeGreaterThan(0);
    // The API counts the workflows it starts, by type.
    const api = await (await fetch(`${stack.url}/metrics`)).text();
    expect(sample(api, 'labflow_workflow_starts_total', { workflow_type: 'labOrderWorkflow', outcome: 'started' })).toBeGreaterThanOrEqual(1);
  });
});

describe('parser metrics', () => {
  it("count the pages the worker reads and time them, by kind, as a lab report is parsed", async () => {
    const url = inject('workerMetricsUrl');
    const read = async () => (await fetch(url)).text();
    const text = { kind: 'text' };
    const before = await read();
    const team = await newTeam(stack);
    const user = await http(stack, 'POST', '/v2/user', { apiKey: team.apiKey, body: { client_user_id: `m-${randomUUID()}` } });
    const form = new FormData();
    form.append('file', new Blob([await samplePdf()], { type: 'application/pdf' }), 'report.pdf');
    form.append('user_id', user.json.user_id as string);
    const res = await fetch(`${stack.url}/lab_report/v1/parser/job`, { method: 'POST', headers: { 'x-vital-api-key': team.apiKey }, body: form });
    expect(res.status).toBe(200);
    const jobId = ((await res.json()) as { id: string }).id;
    const job = await eventually(async () => {
      const got = await http(stack, 'GET', `/lab_report/v1/parser/job/${jobId}`, { apiKey: team.apiKey });
      return got.json.status === 'completed' ? got.json : null;
    }, 60_000, 250);
    expect(job.page_count).toBeGreaterThanOrEqual(1);
    const after = await read();
    const pages = sample(after, 'labflow_parser_pages_total', text) - sample(before, 'labflow_parser_pages_total', text);
    expect(pages).toBeGreaterThanOrEqual(job.page_count as number);
    expect(sample(after, 'labflow_parser_page_duration_seconds_count', text)).toBeGreaterThanOrEqual(sample(after, 'labflow_parser_pages_total', text));
    expect(sample(after, 'labflow_parser_page_duration_seconds_sum', text)).toBeGreaterThan(0);
    expect(after).toMatch(/^labflow_parser_ocr_queue_depth \d+$/m);
  });
});

describe('task queue backlog', () => {
  it("reports the tasks waiting on each service queue: a namespace no worker polls keeps a started deletion's first task", async () => {
    const idle = await startTestStack({ TEMPORAL_NAMESPACE: 'unpolled' });
    try {
      const backlog = async () =>
        sample(await (await fetch(`${idle.url}/metrics`)).text(), 'labflow_task_queue_backlog', { task_queue: 'labflow-users', kind: 'workflow' });
      const before = await backlog();
      const team = await newTeam(idle);
      const user = await http(idle, 'POST', '/v2/user', { apiKey: team.apiKey, body: { client_user_id: `q-${randomUUID()}` } });
      expect(user.status).toBe(200);
      // Deleting a user starts its deletion workflow on the users queue, where nothing polls in this namespace.
      expect((await http(idle, 'DELETE', `/v2/user/${user.json.user_id as string}`, { apiKey: team.apiKey })).status).toBeLessThan(300);
      expect(await eventually(async () => ((await backlog()) > before ? true : null), 20_000, 500)).toBe(true);
      const text = await (await fetch(`${idle.url}/metrics`)).text();
      expect(text).toMatch(/labflow_task_queue_backlog\{task_queue="labflow-parsing",kind="activity"\} \d+/);
    } finally {
      await idle.close();
    }
  });
});

describe("the worker process's metrics server", () => {
  it('answers GET /metrics (with the token when one is set) and nothing else', async () => {
    const port = await freePort();
    const server = await serveMetrics(port, { host: '127.0.0.1', token: TOKEN });
    try {
      const base = `http://127.0.0.1:${port}`;
      expect((await fetch(`${base}/metrics`)).status).toBe(401);
      const ok = await fetch(`${base}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } });
      expect(ok.status).toBe(200);
      expect(await ok.text()).toContain('labflow_activity_duration_seconds');
      const other = await fetch(`${base}/health`);
      expect(other.status).toBe(404);
      expect(((await other.json()) as { detail: string }).detail).toMatch(/metrics/);
    } finally {
      server.close();
    }
  });
});
