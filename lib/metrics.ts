import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';

/**
 * The service's Prometheus metrics, one registry per process (`GET /metrics` on the API; the worker
 * process serves its own on METRICS_PORT). Labels are bounded sets: route patterns, never raw paths;
 * activity types; outcomes. No label carries an id, a key or a value from a request.
 */
export const registry = new Registry();
collectDefaultMetrics({ register: registry, prefix: 'labflow_' });

const LATENCY_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];

export const httpRequestDuration = new Histogram({
  name: 'labflow_http_request_duration_seconds',
  help: 'API request latency by method, route pattern and status',
  labelNames: ['method', 'route', 'status'] as const,
  buckets: LATENCY_BUCKETS,
  registers: [registry],
});

export const activityDuration = new Histogram({
  name: 'labflow_activity_duration_seconds',
  help: 'Temporal activity execution time by activity type and outcome (completed, failed, cancelled)',
  labelNames: ['activity', 'outcome'] as const,
  buckets: [...LATENCY_BUCKETS, 60, 300, 900],
  registers: [registry],
});

export const activityRetries = new Counter({
  name: 'labflow_activity_retries_total',
  help: 'Activity attempts after the first, by activity type',
  labelNames: ['activity'] as const,
  registers: [registry],
});

export const webhookDeliveries = new Counter({
  name: 'labflow_webhook_delivery_attempts_total',
  help: 'Webhook delivery attempts by outcome: delivered, retry (to be tried again), failed (for good), refused (private address or unsendable event)',
  labelNames: ['outcome'] as const,
  registers: [registry],
});

export const webhookDeliveryDuration = new Histogram({
  name: 'labflow_webhook_delivery_duration_seconds',
  help: "Webhook delivery attempt latency (until the receiver's answer or the timeout)",
  buckets: LATENCY_BUCKETS,
  registers: [registry],
});

export const workflowStarts = new Counter({
  name: 'labflow_workflow_starts_total',
  help: 'Workflows started by this process (API or worker), by workflow type and outcome (started, already_started, failed)',
  labelNames: ['workflow_type', 'outcome'] as const,
  registers: [registry],
});

/** Lab report pages read by this process: `text` from a PDF's text layer, `ocr` by tesseract (images, scanned pages). */
export const parserPages = new Counter({
  name: 'labflow_parser_pages_total',
  help: 'Lab report pages whose text was extracted, by kind: text (PDF text layer) or ocr (images and scanned PDF pages)',
  labelNames: ['kind'] as const,
  registers: [registry],
});

export const parserPageDuration = new Histogram({
  name: 'labflow_parser_page_duration_seconds',
  help: 'Time to extract the text of one lab report page (rendering and OCR included), by kind: text or ocr',
  labelNames: ['kind'] as const,
  buckets: [0.01, 0.05, 0.1, 0.5, 1, 2.5, 5, 10, 20, 30, 60, 120],
  registers: [registry],
});

export const ocrQueueDepth = new Gauge({
  name: 'labflow_parser_ocr_queue_depth',
  help: "Pages waiting for or being read by this process's OCR worker",
  registers: [registry],
});

/**
 * Where the Temporal SDK's own metrics (Core's Prometheus exporter: `temporal_workflow_completed`,
 * `temporal_workflow_failed`, `temporal_activity_execution_latency`, task slots, polls… by namespace, task
 * queue and type) are served in this process; `GET /metrics` appends them. Set by lib/runtime.ts.
 */
let sdkMetricsUrl: string | null = null;
export function setSdkMetricsUrl(url: string | null): void {
  sdkMetricsUrl = url;
}

async function sdkMetricsText(): Promise<string> {
  if (!sdkMetricsUrl) return '';
  try {
    const res = await fetch(sdkMetricsUrl, { signal: AbortSignal.timeout(2000) });
    if (!res.ok) return `# Temporal SDK metrics unavailable: HTTP ${res.status}\n`;
    return await res.text();
  } catch {
    return '# Temporal SDK metrics unavailable\n';
  }
}

/** The text exposition of every metric of this process, the Temporal SDK's included. */
export async function metricsText(): Promise<{ contentType: string; body: string }> {
  const [own, sdk] = await Promise.all([registry.metrics(), sdkMetricsText()]);
  return { contentType: registry.contentType, body: sdk ? `${own}\n${sdk}` : own };
}
