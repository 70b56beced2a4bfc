/**
 * Checks real HTTP answers against the API document (GET /openapi.json): the route and status must be
 * documented, the content type must be the documented one, and a JSON body must validate against the
 * document's schema for that route and status (ajv, JSON Schema draft 2020-12 with formats).
 */
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import ajvFormats from 'ajv-formats';
import type { OpenApiDocument } from '../../api/openapi/document.js';

// ajv-formats is CommonJS: the plugin is its `default` property (ESM sees the module object).
export const addFormats = ajvFormats.default;

export interface Exchange {
  method: string;
  /** The request path, without the query string. */
  path: string;
  status: number;
  contentType: string;
  /** The parsed JSON body, when the answer is JSON. */
  body?: unknown;
}

interface Template {
  path: string;
  pattern: RegExp;
  params: number;
}

type Json = Record<string, unknown>;

export class ResponseValidator {
  private readonly ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: true });
  private readonly templates: Template[];
  private readonly compiled = new Map<string, ValidateFunction>();

  constructor(private readonly doc: OpenApiDocument) {
    addFormats(this.ajv);
    this.templates = Object.keys(doc.paths)
      .map((path) => ({
        path,
        pattern: new RegExp(`^${path.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{\w+\}/g, '[^/]+')}/?$`),
        params: (path.match(/\{/g) ?? []).length,
      }))
      // A literal segment wins over a parameter (/v2/user/metrics before /v2/user/{user_id}), as in the router.
      .sort((a, b) => a.params - b.params);
  }

  /** The documented path template a request path falls under, with the method documented there. */
  operationOf(method: string, path: string): { path: string; operation: Json } | undefined {
    for (const t of this.templates) {
      if (!t.pattern.test(path)) continue;
      const operation = this.doc.paths[t.path]![method.toLowerCase()];
      if (operation) return { path: t.path, operation };
    }
    return undefined;
  }

  /** Problems with one answer (empty when it matches the document). */
  check(x: Exchange): string[] {
    const found = this.operationOf(x.method, x.path);
    if (!found) return [`${x.method} ${x.path} is not in the document`];
    const where = `${x.method} ${found.path} → ${x.status}`;
    const responses = found.operation.responses as Record<string, Json>;
    const key = [String(x.status), `${String(x.status)[0]}XX`, 'default'].find((k) => k in responses);
    if (!key) return [`${where}: status ${x.status} is not documented (documented: ${Object.keys(responses).join(', ')})`];
    const content = responses[key]!.content as Record<string, { schema: Json }> | undefined;
    const media = x.contentType.split(';')[0]!.trim().toLowerCase();
    if (!content) return media === '' || x.body === undefined ? [] : [`${where}: the document says no body, got ${media}`];
    const entry = content[media];
    if (!entry) return [`${where}: content type ${media} is not documented (documented: ${Object.keys(content).join(', ')})`];
    if (media !== 'application/json') return [];
    const validate = this.validatorFor(`${x.method} ${found.path} ${key}`, entry.schema);
    if (validate(x.body)) return [];
    return (validate.errors ?? []).slice(0, 5).map((e) => `${where}: ${e.instancePath || '(body)'} ${e.message ?? ''} ${JSON.stringify(e.params)}`);
  }

  private validatorFor(key: string, schema: Json): ValidateFunction {
    let v = this.compiled.get(key);
    if (!v) {
      // The schema's `#/components/schemas/…` references resolve against this wrapper's root.
      v = this.ajv.compile({ ...schema, components: this.doc.components });
      this.compiled.set(key, v);
    }
    return v;
  }
}

/** A `fetch` that records every answer (method, path, status, content type, JSON body) it passes on. */
export function recordingFetch(log: Exchange[]): typeof fetch {
  return async (input, init) => {
    const request = new Request(input, init);
    const response = await fetch(request);
    const contentType = response.headers.get('content-type') ?? '';
    const exchange: Exchange = { method: request.method, path: new URL(request.url).pathname, status: response.status, contentType };
    if (contentType.includes('json')) {
      const text = await response.clone().text();
      exchange.body = text === '' ? undefined : (JSON.parse(text) as unknown);
    }
    log.push(exchange);
    return response;
  };
}
