import { AsyncLocalStorage } from 'node:async_hooks';

/**
 * What every log line written while serving one API request or running one activity carries: the
 * request id, or the workflow id, run id and activity of the activity (and, with tracing on, the trace
 * and span ids; see lib/tracing.ts). The logger reads it through a pino mixin (lib/logger.ts), so code
 * that logs needs to pass nothing.
 */
export interface LogContext {
  request_id?: string;
  workflow_id?: string;
  run_id?: string;
  workflow_type?: string;
  activity?: string;
  activity_id?: string;
  attempt?: number;
}

const storage = new AsyncLocalStorage<LogContext>();

/** Runs `fn` with `fields` added to every log line it writes (nested contexts merge, inner wins). */
export function withLogContext<T>(fields: LogContext, fn: () => T): T {
  const outer = storage.getStore();
  return storage.run(outer ? { ...outer, ...fields } : fields, fn);
}

/** The fields of the current context (empty outside any). */
export function currentLogContext(): LogContext {
  return storage.getStore() ?? {};
}

/** Extra fields for each log line, beside the context: the tracing layer adds trace and span ids. */
let extraFields: (() => Record<string, string>) | null = null;
export function setLogFieldsSource(source: (() => Record<string, string>) | null): void {
  extraFields = source;
}

/**
 * The pino mixin: context and extra fields. A field the call passes itself wins over these. pino merges the
 * line's own fields into the object returned here (`Object.assign(mixin, fields)`), so it is a new one for each
 * line: returning the context's own object would keep every field one line logs for the lines after it.
 */
export function logMixin(): object {
  const store = storage.getStore();
  // Object.assign, not a spread: pino then assigns the line's fields into it, and into an object made by a spread
  // that costs several µs per line (bench/log-line.ts).
  if (!extraFields) return store ? Object.assign({}, store) : {};
  const extra = extraFields();
  return store ? Object.assign({}, store, extra) : extra;
}
