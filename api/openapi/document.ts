/**
 * The OpenAPI 3.1 document of every served route (GET /openapi.json), built from the operations in
 * api/openapi/operations/* with zod's own JSON Schema output (`z.toJSONSchema`, draft 2020-12, which is
 * OpenAPI 3.1's schema dialect): request schemas as the routes read input (`io: 'input'`), response
 * schemas as the routes write output (`io: 'output'`).
 */
import { z } from 'zod';
import { appointmentOperations } from './operations/appointments.js';
import { dashboardOperations } from './operations/dashboard.js';
import { labReportOperations } from './operations/lab-reports.js';
import { labTestOperations } from './operations/lab-tests.js';
import { linkOperations } from './operations/link.js';
import { orderOperations } from './operations/orders.js';
import { serviceOperations } from './operations/service.js';
import { teamOperations } from './operations/team.js';
import { userOperations } from './operations/users.js';
import { wearableOperations } from './operations/wearables.js';
import { webhookOperations } from './operations/webhooks.js';
import { errorDetail, validationError, type Answer, type Auth, type Named, type Operation } from './spec.js';

export type JsonSchema = Record<string, unknown>;

export interface OpenApiDocument {
  openapi: '3.1.0';
  info: { title: string; version: string; description: string };
  servers: { url: string }[];
  tags: { name: string }[];
  paths: Record<string, Record<string, JsonSchema>>;
  components: { schemas: Record<string, JsonSchema>; securitySchemes: Record<string, JsonSchema> };
}

export function allOperations(): Operation[] {
  return [
    ...userOperations, ...orderOperations, ...appointmentOperations, ...webhookOperations, ...labReportOperations, ...labTestOperations,
    ...teamOperations, ...linkOperations, ...wearableOperations, ...serviceOperations, ...dashboardOperations,
  ];
}


const SECURITY: Record<Auth, Record<string, string[]>[]> = {
  team: [{ apiKey: [] }, { serviceApiKey: [] }],
  partner: [{ partnerKey: [] }],
  link: [{ linkToken: [] }],
  session: [{ dashboardSession: [] }],
  none: [],
};

const MEDIA: Record<Exclude<Answer['kind'], 'json' | 'redirect' | 'empty'>, string> = {
  pdf: 'application/pdf',
  html: 'text/html',
  text: 'text/plain',
  javascript: 'text/javascript',
  css: 'text/css',
};

/** A zod schema as JSON Schema 2020-12 (no `$schema`: it sits inside the document). */
export function jsonSchemaOf(schema: z.ZodType, io: 'input' | 'output'): JsonSchema {
  const out = z.toJSONSchema(schema, { target: 'draft-2020-12', io, unrepresentable: 'any' }) as JsonSchema;
  delete out.$schema;
  return out;
}

const isNamed = (s: z.ZodType | Named): s is Named => 'name' in s && 'schema' in s && !(s instanceof z.ZodType);

class Builder {
  readonly schemas: Record<string, JsonSchema> = {};
  private readonly owners = new Map<string, z.ZodType>();

  /** `$ref` to a named schema (added once; one name, one schema), or the schema inline. */
  schema(s: z.ZodType | Named, io: 'input' | 'output'): JsonSchema {
    if (!isNamed(s)) return jsonSchemaOf(s, io);
    const owner = this.owners.get(s.name);
    if (owner && owner !== s.schema) throw new Error(`Two schemas are named ${s.name}`);
    if (!owner) {
      this.owners.set(s.name, s.schema);
      this.schemas[s.name] = jsonSchemaOf(s.schema, io);
    }
    return { $ref: `#/components/schemas/${s.name}` };
  }

  parameters(op: Operation): JsonSchema[] {
    const out: JsonSchema[] = [];
    const names = [...op.path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]!);
    const pathSchemas: Record<string, z.ZodType> = op.params instanceof z.ZodObject ? (op.params.shape as Record<string, z.ZodType>) : (op.params ?? {});
    for (const name of names) {
      const schema = pathSchemas[name];
      out.push({ name, in: 'path', required: true, schema: schema ? jsonSchemaOf(schema, 'input') : { type: 'string' } });
    }
    for (const extra of Object.keys(pathSchemas)) if (!names.includes(extra)) throw new Error(`${op.method} ${op.path}: no {${extra}} in the path`);
    if (op.query) {
      const q = jsonSchemaOf(op.query, 'input');
      const props = q.properties as Record<string, JsonSchema> | undefined;
      if (q.type !== 'object' || !props) throw new Error(`${op.method} ${op.path}: the query schema is not an object`);
      const required = new Set((q.required as string[] | undefined) ?? []);
      for (const [name, schema] of Object.entries(props)) out.push({ name, in: 'query', required: required.has(name), schema });
    }
    return out;
  }

  requestBody(op: Operation): JsonSchema | undefined {
    const b = op.body;
    if (!b) return undefined;
    if ('json' in b) return { required: b.required ?? true, content: { 'application/json': { schema: this.schema(b.json, 'input') } } };
    if ('multipart' in b) return { required: true, content: { 'multipart/form-data': { schema: jsonSchemaOf(b.multipart, 'input') } } };
    return { required: true, content: { 'application/x-www-form-urlencoded': { schema: jsonSchemaOf(b.form, 'input') } } };
  }

  answer(a: Answer): JsonSchema {
    const description = a.description ?? (a.kind === 'json' ? 'JSON' : a.kind);
    if (a.kind === 'json') return { description, content: { 'application/json': { schema: this.schema(a.schema, 'output') } } };
    if (a.kind === 'redirect') return { description, headers: { Location: { schema: { type: 'string' } } } };
    if (a.kind === 'empty') return { description };
    return { description, content: { [MEDIA[a.kind]]: { schema: { type: 'string' } } } };
  }

  responses(op: Operation): Record<string, JsonSchema> {
    const out: Record<string, JsonSchema> = {};
    for (const [status, a] of Object.entries(op.responses)) out[status] = this.answer(a);
    const error: Record<string, JsonSchema> = { 'application/json': { schema: this.schema(errorDetail, 'output') } };
    // Every route: the app's input guards (api/input-guard.ts) refuse control characters in the URL and bad
    // form fields with a 422 before any route reads its input.
    out['422'] ??= { description: 'Bad input: one item per problem.', content: { 'application/json': { schema: this.schema(validationError, 'output') } } };
    if (op.htmlErrors) {
      // An error page to a browser; `{detail}` to a client that does not ask for HTML.
      out['4XX'] ??= { description: 'Refused: an error page, or `{detail}`.', content: { 'text/html': { schema: { type: 'string' } }, 'text/plain': { schema: { type: 'string' } }, ...error } };
      out['5XX'] ??= { description: 'A server error.', content: { 'text/html': { schema: { type: 'string' } }, ...error } };
      return out;
    }
    out['4XX'] ??= { description: 'Refused: not found, not allowed, conflict, too large, too many requests…', content: error };
    out['5XX'] ??= { description: 'A server error (with its request id).', content: error };
    return out;
  }
}

function operationId(op: Operation): string {
  const words = `${op.method.toLowerCase()} ${op.path}`.replace(/[{}]/g, '').split(/[^A-Za-z0-9]+/).filter(Boolean);
  return words.map((w, i) => (i === 0 ? w : w[0]!.toUpperCase() + w.slice(1))).join('');
}

/** The document; `serverUrl` is where this service answers (PUBLIC_URL). */
export function buildDocument(serverUrl: string, ops: Operation[] = allOperations()): OpenApiDocument {
  const b = new Builder();
  const paths: OpenApiDocument['paths'] = {};
  const seen = new Set<string>();
  for (const op of ops) {
    const key = `${op.method} ${op.path}`;
    if (seen.has(key)) throw new Error(`${key} is described twice`);
    seen.add(key);
    const parameters = b.parameters(op);
    const requestBody = b.requestBody(op);
    (paths[op.path] ??= {})[op.method.toLowerCase()] = {
      operationId: operationId(op),
      summary: op.summary,
      tags: [op.tag],
      security: SECURITY[op.auth],
      ...(parameters.length ? { parameters } : {}),
      ...(requestBody ? { requestBody } : {}),
      responses: b.responses(op),
      ...(op.deprecated ? { deprecated: true } : {}),
    };
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'labflow API',
      version: '1',
      description:
        'Health data and lab testing: users, lab orders, appointments, webhooks, lab report parsing, wearable data. ' +
        'Wire-compatible with @tryvital/vital-node 3.1.551. Team calls take the API key in `x-vital-api-key` (or `x-service-api-key`).',
    },
    servers: [{ url: serverUrl }],
    tags: [...new Set(ops.map((o) => o.tag))].map((name) => ({ name })),
    paths,
    components: {
      schemas: b.schemas,
      securitySchemes: {
        apiKey: { type: 'apiKey', in: 'header', name: 'x-vital-api-key', description: 'The team’s API key.' },
        serviceApiKey: { type: 'apiKey', in: 'header', name: 'x-service-api-key', description: 'The team’s API key (the same key, another header).' },
        partnerKey: { type: 'apiKey', in: 'header', name: 'x-partner-api-key', description: 'A courier’s or lab’s partner key (docs/partner-api.md).' },
        linkToken: { type: 'apiKey', in: 'header', name: 'x-vital-link-token', description: 'A Link token (POST /v2/link/token).' },
        dashboardSession: { type: 'apiKey', in: 'cookie', name: 'labflow_session', description: 'An operator’s dashboard session.' },
      },
    },
  };
}
