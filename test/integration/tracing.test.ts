import type { ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTracing, stopTracing } from '../../lib/tracing.js';
import { testkitLabTest } from '../support/catalog-fixture.js';
import { eventually, http, newTeam, startTestStack, type TestStack } from '../support/harness.js';
import { startWorkerProcess } from '../support/worker-process.js';

/**
 * Traces from an API request through the workflow it starts to the workflow's activities, exported over
 * OTLP/HTTP to a collector (a small receiver here), and the log lines of the worker's activities carrying
 * their workflow id and the trace. The worker runs as a child process on a namespace of its own, as in
 * production; the API runs in this process with tracing on.
 */
const NAMESPACE = 'traces';

interface ReceivedSpan {
  service: string;
  traceId: string;
  spanId: string;
  parentSpanId: string;
  name: string;
}

const spans: ReceivedSpan[] = [];
let collector: Server;
let collectorUrl: string;
let stack: TestStack;
let worker: ChildProcess;
const workerLines: string[] = [];

/** OTLP/HTTP JSON: ids are hex strings in the JSON encoding. */
function collect(body: string) {
  const doc = JSON.parse(body) as {
    resourceSpans: { resource: { attributes: { key: string; value: { stringValue?: string } }[] }; scopeSpans: { spans: Omit<ReceivedSpan, 'service'>[] }[] }[];
  };
  for (const rs of doc.resourceSpans) {
    const service = rs.resource.attributes.find((a) => a.key === 'service.name')?.value.stringValue ?? '';
    for (const ss of rs.scopeSpans) for (const s of ss.spans) spans.push({ service, traceId: s.traceId, spanId: s.spanId, parentSpanId: s.parentSpanId ?? '', name: s.name });
  }
}

beforeAll(async () => {
  collector = createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8').on('data', (c: string) => (body += c));
    req.on('end', () => {
      if (req.url === '/v1/traces' && req.headers['content-type']?.startsWith('application/json')) collect(body);
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((resolve) => collector.listen(0, '127.0.0.1', resolve));
  collectorUrl = `http://127.0.0.1:${(collector.address() as { port: number }).port}`;

  worker = startWorkerProcess(
    NAMESPACE,
    { OTEL_EXPORTER_OTLP_ENDPOINT: collectorUrl, OTEL_SERVICE_NAME: 'labflow-worker', LOG_LEVEL: 'info' },
    'pipe',
  );
  let partial = '';
  worker.stdout!.setEncoding('utf8').on('data', (chunk: string) => {
    const lines = (partial + chunk).split('\n');
    partial = lines.pop()!;
    workerLines.push(...lines);
  });

  expect(startTracing('labflow-api', { OTEL_EXPORTER_OTLP_ENDPOINT: collectorUrl })).toBe(true);
  stack = await startTestStack({ TEMPORAL_NAMESPACE: NAMESPACE });
}, 120_000);

afterAll(async () => {
  worker?.kill('SIGTERM');
  await stack?.close();
  await stopTracing();
  collector?.close();
});

const patient = {
  patient_details: { first_name: 'Ada', last_name: 'Lovelace', dob: '1985-12-10', gender: 'female', phone_number: '+442079460958', email: 'ada@example.com' },
  patient_address: { first_line: '10 Downing St', city: 'London', state: 'LDN', zip: 'SW1A 2AA', country: 'GB' },
};

describe('traces', () => {
  it('follow an order from the API request that creates it through its workflow to its activities, and its log lines carry the ids', async () => {
    const team = await newTeam(stack);
    const { labTestId } = await testkitLabTest(stack.db.db, team.teamId);
    const user = await http(stack, 'POST', '/v2/user', { apiKey: team.apiKey, body: { client_user_id: `traced-${Date.now()}` } });
    // The caller's own trace: the service continues it.
    const traceId = randomBytes(16).toString('hex');
    const callerSpan = randomBytes(8).toString('hex');
    const created = await http(stack, 'POST', '/v3/order', {
      apiKey: team.apiKey,
      headers: { traceparent: `00-${traceId}-${callerSpan}-01` },
      body: { user_id: user.json.user_id, order_set: { lab_test_ids: [labTestId] }, ...patient },
    });
    expect(created.status).toBe(200);
    const orderId = (created.json.order as { id: string }).id;

    const trace = await eventually(async () => {
      const mine = spans.filter((s) => s.traceId === traceId);
      return mine.some((s) => s.name === 'RunActivity:recordTransition') && mine.some((s) => s.name === 'POST /v3/order') ? mine : null;
    }, 60_000, 250).catch((err: unknown) => {
      process.stderr.write(`[traces] spans received: ${JSON.stringify(spans.map((x) => [x.service, x.name, x.traceId === traceId]))}\n`);
      throw err;
    });
    const byId = new Map(trace.map((s) => [s.spanId, s]));
    const request = trace.find((s) => s.name === 'POST /v3/order');
    expect(request, trace.map((s) => s.name).join(', ')).toBeDefined();
    expect(request!.parentSpanId).toBe(callerSpan);
    expect(request!.service).toBe('labflow-api');
    // The API starts the order's workflow and records the order itself; the workflow's first step finds the
    // record there. The workflow's own RunWorkflow span is exported when the run ends, which an order's does
    // not here.
    const start = trace.find((s) => s.name === 'StartWorkflow:labOrderWorkflow')!;
    expect(start.service).toBe('labflow-api');
    const scheduled = trace.find((s) => s.name === 'StartActivity:createOrderRecord')!;
    expect(scheduled.service).toBe('labflow-worker');
    const activity = trace.find((s) => s.name === 'RunActivity:createOrderRecord')!;
    expect(activity.service).toBe('labflow-worker');
    // The start descends from the API request's span; the activity runs under the span that scheduled it
    // (whose parent, the workflow run's span, is exported when the run ends). All are in the caller's trace,
    // whose id only propagation can have carried to the worker.
    const descends = (s: ReceivedSpan): boolean => {
      for (let p = byId.get(s.parentSpanId), hops = 0; p && hops < 20; p = byId.get(p.parentSpanId), hops++) if (p === request) return true;
      return false;
    };
    expect(descends(start)).toBe(true);
    expect(scheduled.traceId).toBe(traceId);
    expect(activity.parentSpanId).toBe(scheduled.spanId);

    // The worker's activity log lines carry the workflow id, the activity and the trace.
    const recorded = await eventually(async () => {
      const line = workerLines.map((l) => (l.startsWith('{') ? (JSON.parse(l) as Record<string, unknown>) : null)).find((l) => l?.msg === 'order recorded' && l.order_id === orderId);
      return line ?? null;
    }, 30_000, 250);
    expect(recorded.workflow_id).toEqual(expect.stringContaining(orderId));
    expect(recorded.run_id).toEqual(expect.any(String));
    expect(recorded.activity).toEqual(expect.any(String));
    expect(recorded.trace_id).toBe(traceId);
  }, 120_000);

  it('an API request without a traceparent starts its own trace, and no span carries a request value', async () => {
    const team = await newTeam(stack);
    const res = await http(stack, 'GET', `/v2/user/${'00000000-0000-4000-8000-000000000000'}`, { apiKey: team.apiKey });
    expect(res.status).toBe(404);
    const span = await eventually(async () => spans.find((s) => s.name === 'GET /v2/user/:user_id') ?? null, 30_000, 250);
    expect(span.traceId).toMatch(/^[0-9a-f]{32}$/);
    expect(span.parentSpanId).toBe('');
    expect(spans.some((s) => s.name.includes(team.apiKey) || s.name.includes('00000000-0000-4000-8000-000000000000'))).toBe(false);
  });
});
