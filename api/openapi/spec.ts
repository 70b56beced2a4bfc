/**
 * The building blocks of the API document (GET /openapi.json): one `Operation` per served route, its
 * inputs the route modules' own zod schemas and its answers zod schemas too (api/routes/<domain>/responses.ts
 * where a domain has them, api/openapi/responses/*.ts for the rest). api/openapi/document.ts turns them
 * into OpenAPI 3.1 with `z.toJSONSchema`.
 */
import { z } from 'zod';
import { validationErrorItem } from '../routes/responses.js';

export type Method = 'GET' | 'POST' | 'PATCH' | 'DELETE';

/** team: an API key; partner: a partner key; link: a Link token; session: a dashboard operator; none. */
export type Auth = 'team' | 'partner' | 'link' | 'session' | 'none';

/** A JSON body with a name in `components.schemas` (shared by every route answering it). */
export interface Named {
  name: string;
  schema: z.ZodType;
}

/** What a route answers with one status. */
export type Answer =
  | { kind: 'json'; schema: z.ZodType | Named; description?: string }
  | { kind: 'pdf' | 'html' | 'text' | 'javascript' | 'css' | 'redirect' | 'empty'; description?: string };

export interface Operation {
  method: Method;
  /** OpenAPI form: `{param}`. */
  path: string;
  tag: string;
  summary: string;
  auth: Auth;
  /** Path parameters: one schema per name (a route module's `…Param` object, or a map of single schemas). */
  params?: z.ZodObject | Record<string, z.ZodType>;
  query?: z.ZodType;
  /** A JSON body, a multipart form or an HTML form. */
  body?: { json: z.ZodType; required?: boolean } | { multipart: z.ZodType } | { form: z.ZodType };
  responses: Record<string, Answer>;
  /** Error answers are HTML pages (the dashboard, the portal), not `{detail}`. */
  htmlErrors?: true;
  deprecated?: true;
}

export const named = (name: string, schema: z.ZodType): Named => ({ name, schema });
export const json = (schema: z.ZodType | Named, description?: string): Answer => ({ kind: 'json', schema, ...(description ? { description } : {}) });
export const pdf: Answer = { kind: 'pdf', description: 'A PDF document.' };
export const html: Answer = { kind: 'html', description: 'An HTML page.' };
export const redirect: Answer = { kind: 'redirect', description: 'A redirect (Location header).' };
export const empty: Answer = { kind: 'empty', description: 'No body.' };

/** `{param}` → Hono's `:param`, for matching the app's routes. */
export const honoPath = (path: string) => path.replace(/\{(\w+)\}/g, ':$1');


/** Every 4xx that is not a 422 (and a 5xx): `detail` is a sentence, or an object for some refusals (a link token's `error_type`). */
export const errorDetail = named('ErrorDetail', z.object({ detail: z.union([z.string(), z.looseObject({})]), request_id: z.string().optional() }));
/** 422: FastAPI's shape, one item per bad input. */
export const validationError = named('HTTPValidationError', z.object({ detail: z.array(validationErrorItem.extend({ input: z.unknown().optional() })).min(1) }));
