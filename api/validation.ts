import type { Context } from 'hono';
import type { z } from 'zod';
import { ValidationError, type ValidationItem } from './errors.js';
import type { AppEnv } from './env.js';

type Where = 'body' | 'query' | 'path' | 'header';

function toItems(error: z.ZodError, where: Where): ValidationItem[] {
  return error.issues.map((issue) => {
    const loc = [where, ...issue.path.map((p) => (typeof p === 'symbol' ? String(p) : p))];
    if (issue.code === 'invalid_type' && issue.input === undefined) {
      return { loc, msg: 'Field required', type: 'missing' };
    }
    if (issue.code === 'invalid_type') {
      return { loc, msg: `Input should be a valid ${issue.expected}`, type: `${issue.expected}_type`, input: issue.input };
    }
    return { loc, msg: issue.message, type: issue.code === 'custom' ? 'value_error' : issue.code, input: issue.input };
  });
}

/** Validate any input against a schema; a failure becomes a 422 with FastAPI-shaped `detail`. */
export function parse<S extends z.ZodType>(schema: S, input: unknown, where: Where): z.infer<S> {
  const result = schema.safeParse(input, { reportInput: true });
  if (!result.success) throw new ValidationError(toItems(result.error, where));
  return result.data;
}

/** Reads and validates a JSON body. Malformed JSON or a missing body is a 422, like any bad input. */
export async function parseJsonBody<S extends z.ZodType>(c: Context<AppEnv>, schema: S): Promise<z.infer<S>> {
  const text = await c.req.text();
  if (text.trim() === '') {
    throw new ValidationError([{ loc: ['body'], msg: 'Field required', type: 'missing' }]);
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (err) {
    throw new ValidationError([
      { loc: ['body'], msg: `JSON decode error: ${err instanceof Error ? err.message : 'invalid JSON'}`, type: 'json_invalid' },
    ]);
  }
  return parse(schema, json, 'body');
}

/** Validates query parameters, passing repeated keys as arrays only where the schema wants them. */
export function parseQuery<S extends z.ZodType>(c: Context<AppEnv>, schema: S): z.infer<S> {
  return parse(schema, c.req.query(), 'query');
}
