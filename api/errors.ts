import type { Context } from 'hono';
import { HTTPException } from 'hono/http-exception';
import type { AppEnv } from './env.js';

/** FastAPI-style validation item: what the SDK (and most clients of this API) expect in a 422. */
export interface ValidationItem {
  loc: (string | number)[];
  msg: string;
  type: string;
  input?: unknown;
}

/** An error with a status and a `{detail}` body; thrown anywhere in a route, rendered by onError. */
export class HttpError extends Error {
  constructor(
    readonly status: 400 | 401 | 403 | 404 | 409 | 413 | 422 | 500 | 503,
    readonly detail: unknown,
  ) {
    // Never stringify a structured detail here: it may hold echoed input (api/validation.ts clips it).
    super(typeof detail === 'string' ? detail : `HTTP ${status}`);
    this.name = 'HttpError';
  }
}

export class ValidationError extends HttpError {
  constructor(readonly items: ValidationItem[]) {
    super(422, items);
    this.name = 'ValidationError';
  }
}

export const notFound = (detail: string) => new HttpError(404, detail);
export const badRequest = (detail: unknown) => new HttpError(400, detail);

export function onError(err: Error, c: Context<AppEnv>): Response {
  if (err instanceof HttpError) {
    // A refused oversized body may still be arriving: close the connection so it is not reused.
    if (err.status === 413) c.header('Connection', 'close');
    return c.json({ detail: err.detail }, err.status);
  }
  if (err instanceof HTTPException) {
    return c.json({ detail: err.message || 'HTTP error' }, err.status);
  }
  c.get('log')?.error({ err }, 'unhandled error');
  return c.json({ detail: 'Internal server error', request_id: c.get('requestId') }, 500);
}

export function onNotFound(c: Context<AppEnv>): Response {
  return c.json({ detail: 'Not Found' }, 404);
}
