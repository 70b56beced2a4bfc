import { createRequire } from 'node:module';
import { ROOT_CONTEXT, SpanKind, SpanStatusCode, context, propagation, trace, type Tracer } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { Resource } from '@opentelemetry/resources';
import { BasicTracerProvider, BatchSpanProcessor, type SpanProcessor } from '@opentelemetry/sdk-trace-base';
import {
  OpenTelemetryActivityInboundInterceptor,
  OpenTelemetryActivityOutboundInterceptor,
  OpenTelemetryWorkflowClientInterceptor,
  makeWorkflowExporter,
} from '@temporalio/interceptors-opentelemetry';
import type { WorkflowClientInterceptor } from '@temporalio/client';
import type { WorkerOptions } from '@temporalio/worker';
import type { Context, MiddlewareHandler, Next } from 'hono';
import { routePath } from 'hono/route';
import { setLogFieldsSource } from './log-context.js';

/**
 * OpenTelemetry traces, from an API request through the workflow it starts to the workflow's activities:
 * the API opens a server span per request (continuing a caller's `traceparent`); the Temporal client
 * interceptor carries the active context into the workflow's headers; the worker's workflow interceptors
 * (in the workflow sandbox; spans leave through a sink) and activity interceptors continue it. Spans are
 * exported over OTLP/HTTP (JSON) to `OTEL_EXPORTER_OTLP_TRACES_ENDPOINT`, or `/v1/traces` under
 * `OTEL_EXPORTER_OTLP_ENDPOINT`, as the OpenTelemetry specification names them. Without either, tracing is off and
 * costs nothing. With it on, every log line also carries `trace_id` and `span_id`.
 */
interface Tracing {
  tracer: Tracer;
  processor: SpanProcessor;
  resource: Resource;
  provider: BasicTracerProvider;
}

let active: Tracing | null = null;

/** Where spans go: the traces endpoint as given, or `/v1/traces` under the general one (the OTLP specification's rule). */
export function tracingEndpoint(env: NodeJS.ProcessEnv = process.env): string | null {
  if (env.OTEL_SDK_DISABLED === 'true') return null;
  if (env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT) return env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT;
  if (env.OTEL_EXPORTER_OTLP_ENDPOINT) return `${env.OTEL_EXPORTER_OTLP_ENDPOINT.replace(/\/+$/, '')}/v1/traces`;
  return null;
}

/** Starts tracing for this process when an OTLP endpoint is configured; idempotent. Returns whether it is on. */
export function startTracing(serviceName: string, env: NodeJS.ProcessEnv = process.env): boolean {
  if (active) return true;
  const url = tracingEndpoint(env);
  if (!url) return false;
  const resource = new Resource({ 'service.name': env.OTEL_SERVICE_NAME || serviceName });
  const processor = new BatchSpanProcessor(new OTLPTraceExporter({ url }), { scheduledDelayMillis: 1000 });
  const provider = new BasicTracerProvider({ resource, spanProcessors: [processor] });
  provider.register({ contextManager: new AsyncLocalStorageContextManager(), propagator: new W3CTraceContextPropagator() });
  active = { tracer: trace.getTracer('labflow'), processor, resource, provider };
  setLogFieldsSource((): Record<string, string> => {
    const span = trace.getActiveSpan()?.spanContext();
    return span ? { trace_id: span.traceId, span_id: span.spanId } : {};
  });
  return true;
}

/** Sends the spans still buffered (before a process exits). */
export async function stopTracing(): Promise<void> {
  if (!active) return;
  const { provider } = active;
  active = null;
  setLogFieldsSource(null);
  await provider.shutdown();
}

/** Carries the active span into every workflow the client starts or signals. */
export function tracingClientInterceptors(): WorkflowClientInterceptor[] {
  return active ? [new OpenTelemetryWorkflowClientInterceptor({ tracer: active.tracer })] : [];
}

const require = createRequire(import.meta.url);

/** Worker options that continue the trace in workflows (sandboxed interceptors, spans out through a sink) and activities. */
export function tracingWorkerOptions(): Pick<WorkerOptions, 'sinks'> & { workflowModules: string[]; activity: NonNullable<NonNullable<WorkerOptions['interceptors']>['activity']> } {
  if (!active) return { workflowModules: [], activity: [] };
  const { tracer, processor, resource } = active;
  return {
    workflowModules: [require.resolve('@temporalio/interceptors-opentelemetry/lib/workflow-interceptors')],
    activity: [(ctx) => ({ inbound: new OpenTelemetryActivityInboundInterceptor(ctx, { tracer }), outbound: new OpenTelemetryActivityOutboundInterceptor(ctx) })],
    sinks: { exporter: makeWorkflowExporter(processor, resource) },
  };
}

/**
 * One server span per API request, named by its route pattern, continuing the caller's `traceparent`.
 * With tracing off it only passes the request on (no extra promise, no header copy).
 */
export function httpTracing(): MiddlewareHandler {
  return (c, next) => (active ? traced(active.tracer, c, next) : next());
}

async function traced(tracer: Tracer, c: Context, next: Next): Promise<void> {
  const parent = propagation.extract(ROOT_CONTEXT, Object.fromEntries(c.req.raw.headers));
  const span = tracer.startSpan(c.req.method, { kind: SpanKind.SERVER, attributes: { 'http.request.method': c.req.method } }, parent);
  try {
    await context.with(trace.setSpan(parent, span), next);
  } finally {
    const pattern = routePath(c, -1);
    const route = !pattern || pattern.endsWith('*') ? null : pattern;
    if (route) {
      span.updateName(`${c.req.method} ${route}`);
      span.setAttribute('http.route', route);
    }
    span.setAttribute('http.response.status_code', c.res.status);
    if (c.res.status >= 500) span.setStatus({ code: SpanStatusCode.ERROR });
    span.end();
  }
}
