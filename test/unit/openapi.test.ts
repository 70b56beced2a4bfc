import { Client } from '@temporalio/client';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../api/app.js';
import { allOperations, buildDocument, type OpenApiDocument } from '../../api/openapi/document.js';
import { honoPath } from '../../api/openapi/spec.js';
import { createDb, type DbHandle } from '../../db/client.js';
import { loadConfig } from '../../lib/config.js';
import { createLogger } from '../../lib/logger.js';
import { servedRoutes } from '../support/fuzz-served-routes.js';
import { ResponseValidator, addFormats } from '../support/openapi-validator.js';
import { concretePath, sdkOperations } from '../support/sdk-operations.js';
import { specFor } from '../integration/fuzz-routes.js';

/**
 * The API document (GET /openapi.json) against the app's own route table: every served route is in it
 * and nothing else is; its schemas compile as JSON Schema 2020-12; the reference page (/docs) is served
 * with its assets from this service, not a CDN. Nothing here connects to Postgres or Temporal.
 */

/** `METHOD /path/:param` of every served route missing from the document, and of every documented route not served. */
function compare(served: { method: string; path: string }[], doc: OpenApiDocument) {
  const documented = new Set(
    Object.entries(doc.paths).flatMap(([path, ops]) => Object.keys(ops).map((m) => `${m.toUpperCase()} ${honoPath(path)}`)),
  );
  const serving = new Set(served.map((r) => `${r.method} ${r.path}`));
  return { missing: [...serving].filter((r) => !documented.has(r)), extra: [...documented].filter((r) => !serving.has(r)) };
}

let db: DbHandle;
let app: ReturnType<typeof createApp>;
let doc: OpenApiDocument;

beforeAll(async () => {
  db = createDb('postgres://unused@127.0.0.1:1/unused', { max: 1 });
  app = createApp({ db, temporal: new Client(), logger: createLogger({ level: 'silent', pretty: false }), config: loadConfig({ PUBLIC_URL: 'https://labflow.example' }) });
  const res = await app.request('/openapi.json');
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toMatch(/^application\/json/);
  doc = (await res.json()) as OpenApiDocument;
});
afterAll(async () => {
  await db.close();
});

describe('GET /openapi.json', () => {
  it('is an OpenAPI 3.1 document of this service', () => {
    expect(doc.openapi).toBe('3.1.0');
    expect(doc.servers).toEqual([{ url: 'https://labflow.example' }]);
    const ids = Object.values(doc.paths).flatMap((ops) => Object.values(ops).map((o) => o.operationId));
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('holds every served route, and only those', async () => {
    const served = await servedRoutes();
    const { missing, extra } = compare(served, doc);
    const operations = Object.values(doc.paths).reduce((n, ops) => n + Object.keys(ops).length, 0);
    process.stdout.write(`[openapi] ${operations} operations for ${served.length} served routes; ${Object.keys(doc.components.schemas).length} named schemas\n`);
    expect(missing).toEqual([]);
    expect(extra).toEqual([]);
    expect(operations).toBe(served.length);
  });

  it('the coverage check fails when a served route is left out of the document', async () => {
    const served = await servedRoutes();
    const without = buildDocument('http://x', allOperations().filter((o) => !(o.method === 'GET' && o.path === '/v3/order/{order_id}')));
    expect(compare(served, without).missing).toEqual(['GET /v3/order/:order_id']);
  });

  it('routes the fuzz suite has a spec for, /openapi.json and /docs included', () => {
    for (const path of ['/openapi.json', '/docs', '/docs/init.js', '/docs/swagger-ui.css', '/docs/swagger-ui-bundle.js']) {
      expect(specFor('GET', path), path).toBeDefined();
    }
  });

  it('documents every operation of the SDK', () => {
    const validator = new ResponseValidator(doc);
    const undocumented = sdkOperations()
      .filter((op) => !validator.operationOf(op.httpMethod, concretePath(op.path)))
      .map((op) => `${op.namespace}.${op.method} (${op.httpMethod} ${op.path})`);
    expect(undocumented).toEqual([]);
  });

  it('gives every route a request and a response description, and every input a schema', () => {
    for (const [path, ops] of Object.entries(doc.paths)) {
      for (const [method, op] of Object.entries(ops)) {
        const where = `${method.toUpperCase()} ${path}`;
        const responses = op.responses as Record<string, { content?: Record<string, { schema?: unknown }> }>;
        const answers = Object.keys(responses).filter((s) => /^\d+$/.test(s));
        expect(answers.length, `${where} documents no answer of its own (only error ranges)`).toBeGreaterThan(0);
        const params = (op.parameters ?? []) as { name: string; in: string; schema?: unknown }[];
        for (const name of [...path.matchAll(/\{(\w+)\}/g)].map((m) => m[1])) {
          expect(params.find((p) => p.in === 'path' && p.name === name)?.schema, `${where}: {${name}}`).toBeDefined();
        }
        for (const r of Object.values(responses)) for (const c of Object.values(r.content ?? {})) expect(c.schema, where).toBeDefined();
      }
    }
    // The domains that had no response schema before this document (orders, webhooks, lab reports) name theirs.
    for (const name of ['ClientFacingOrder', 'PostOrderResponse', 'WebhookEndpoint', 'WebhookEvent', 'ParsingJob']) expect(doc.components.schemas[name], name).toBeDefined();
  });

  it('has schemas that compile as JSON Schema 2020-12', () => {
    const ajv = new Ajv2020({ strict: false });
    addFormats(ajv);
    let compiled = 0;
    const visit = (schema: unknown) => {
      ajv.compile({ ...(schema as object), components: doc.components });
      compiled += 1;
    };
    for (const s of Object.values(doc.components.schemas)) visit(s);
    for (const ops of Object.values(doc.paths)) {
      for (const op of Object.values(ops)) {
        for (const p of (op.parameters ?? []) as { schema: unknown }[]) visit(p.schema);
        const body = op.requestBody as { content: Record<string, { schema: unknown }> } | undefined;
        for (const c of Object.values(body?.content ?? {})) visit(c.schema);
      }
    }
    expect(compiled).toBeGreaterThan(500);
  }, 30_000); // hundreds of Ajv compilations: over the default 5 s on a loaded 2-core machine

  it('validates an answer against its route, and refuses a wrong one', () => {
    const v = new ResponseValidator(doc);
    const endpoint = {
      id: '7b1c1f0e-2a1e-4c1d-9a7e-0d8f6f6b0c11', url: 'https://example.com/hook', description: null, event_types: null, enabled: true,
      disabled_reason: null, failing_since: null, created_at: '2024-01-01T00:00:00.000Z', updated_at: '2024-01-01T00:00:00.000Z',
    };
    const get = { method: 'GET', path: `/v2/webhooks/endpoints/${endpoint.id}`, status: 200, contentType: 'application/json' };
    expect(v.check({ ...get, body: endpoint })).toEqual([]);
    expect(v.check({ ...get, body: { ...endpoint, enabled: 'yes' } }).join()).toMatch(/\/enabled must be boolean/);
    expect(v.check({ ...get, body: { ...endpoint, created_at: 'yesterday' } }).join()).toMatch(/\/created_at must match format "date-time"/);
    const { url: _url, ...withoutUrl } = endpoint;
    expect(v.check({ ...get, body: withoutUrl }).join()).toMatch(/must have required property 'url'/);
    expect(v.check({ ...get, status: 299, body: endpoint }).join()).toMatch(/status 299 is not documented/);
    expect(v.check({ ...get, contentType: 'text/html', body: '<p>' }).join()).toMatch(/content type text\/html is not documented/);
    expect(v.check({ ...get, path: '/v2/webhooks/nowhere/1/2' }).join()).toMatch(/not in the document/);
    // Errors: {detail} sentences, and FastAPI-shaped 422s.
    expect(v.check({ ...get, status: 404, body: { detail: 'Endpoint not found' } })).toEqual([]);
    expect(v.check({ ...get, status: 404, body: { message: 'Endpoint not found' } })).not.toEqual([]);
    expect(v.check({ ...get, status: 422, body: { detail: [{ loc: ['path', 'id'], msg: 'id must be a UUID', type: 'invalid_format' }] } })).toEqual([]);
    expect(v.check({ ...get, status: 422, body: { detail: 'id must be a UUID' } })).not.toEqual([]);
  });
});

describe('GET /docs', () => {
  it('serves an interactive reference page on /openapi.json, its script and style from this service', async () => {
    const page = await app.request('/docs');
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    const html = await page.text();
    expect(html.startsWith('<!doctype html>')).toBe(true);
    const srcs = [...html.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1]!);
    expect(srcs.sort()).toEqual(['/docs/init.js', '/docs/swagger-ui-bundle.js', '/docs/swagger-ui.css', '/openapi.json'].sort());
    expect(html).not.toMatch(/https?:\/\//); // nothing from another host: the page works offline

    const init = await (await app.request('/docs/init.js')).text();
    expect(init).toContain("url: '/openapi.json'");
    expect(init).toContain('validatorUrl: null'); // Swagger UI would otherwise call validator.swagger.io

    const bundle = await app.request('/docs/swagger-ui-bundle.js');
    expect(bundle.headers.get('content-type')).toMatch(/^text\/javascript/);
    expect((await bundle.text()).length).toBeGreaterThan(500_000);
    const css = await app.request('/docs/swagger-ui.css');
    expect(css.headers.get('content-type')).toMatch(/^text\/css/);
    expect(await css.text()).toContain('.swagger-ui');
  });
});
