import type { MiddlewareHandler } from 'hono';
import { ValidationError } from './errors.js';
import type { AppEnv } from './env.js';

/**
 * Checks on raw input that run before any schema (issue 10): JSON nesting, strings in a parsed body,
 * control characters in the URL. All are single linear passes without recursion.
 */

export const MAX_JSON_DEPTH = 64;

/**
 * Why `text` must not be parsed as JSON, or null: nesting deeper than `max`, counted in one pass over
 * the text (brackets inside strings do not count), so neither parsing nor echoing it can overflow.
 */
export function checkJsonDepth(text: string, max = MAX_JSON_DEPTH): string | null {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text.charCodeAt(i);
    if (inString) {
      if (ch === 0x5c) i++; // backslash: skip the escaped character
      else if (ch === 0x22) inString = false;
    } else if (ch === 0x22) inString = true;
    else if (ch === 0x5b || ch === 0x7b) {
      if (++depth > max) return `JSON is nested deeper than ${max} levels`;
    } else if (ch === 0x5d || ch === 0x7d) depth--;
  }
  return null;
}

/* eslint-disable no-control-regex -- finding control characters is the point of these patterns */
/** C0 controls and DEL. */
export const CONTROL = /[\u0000-\u001f\u007f]/;
/** The same but tab, newline and carriage return, which free text may hold (names may not: api/validation.ts). */
export const CONTROL_BUT_WHITESPACE = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/;
/** `%00`–`%1F`, `%7F` (any case), or a raw control character. */
const URL_CONTROL = /%(?:[01][0-9a-f]|7f)|[\u0000-\u001f\u007f]/i;
/* eslint-enable no-control-regex */

export interface BadString {
  path: (string | number)[];
  value: string;
  msg: string;
}

/**
 * The first string (value or key) of a parsed JSON value with a control character, or longer than
 * `maxText` (values) / `maxKey` (keys). Walks with an explicit stack.
 */
export function findBadString(json: unknown, maxText: number, maxKey: number): BadString | null {
  const stack: { value: unknown; path: (string | number)[] }[] = [{ value: json, path: [] }];
  while (stack.length) {
    const { value, path } = stack.pop()!;
    if (typeof value === 'string') {
      if (value.length > maxText) return { path, value, msg: `must be at most ${maxText.toLocaleString('en-US')} characters` };
      if (CONTROL_BUT_WHITESPACE.test(value)) return { path, value, msg: 'must not contain control characters' };
    } else if (Array.isArray(value)) {
      for (let i = value.length - 1; i >= 0; i--) stack.push({ value: value[i], path: [...path, i] });
    } else if (value !== null && typeof value === 'object') {
      for (const [k, v] of Object.entries(value)) {
        if (k.length > maxKey) return { path, value: k, msg: `keys must be at most ${maxKey} characters` };
        if (CONTROL_BUT_WHITESPACE.test(k)) return { path, value: k, msg: 'keys must not contain control characters' };
        stack.push({ value: v, path: [...path, k] });
      }
    }
  }
  return null;
}

/**
 * Refuses a request whose path or query carries a control character (encoded or not) with a 422,
 * before any route reads its parameters: no NUL byte reaches a query or a log line from the URL.
 */
export function refuseControlCharsInUrl(): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const url = c.req.url;
    const start = url.indexOf('/', url.indexOf('//') + 2);
    const q = url.indexOf('?', start);
    const path = q === -1 ? url.slice(start) : url.slice(start, q);
    const query = q === -1 ? '' : url.slice(q + 1);
    for (const [where, part] of [['path', path], ['query', query]] as const) {
      if (URL_CONTROL.test(part)) {
        throw new ValidationError([{ loc: [where], msg: `The ${where} must not contain control characters`, type: 'value_error' }]);
      }
    }
    await next();
  };
}
