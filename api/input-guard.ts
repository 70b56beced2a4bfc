import { STATUS_CODES, type Server } from 'node:http';
import type { Duplex } from 'node:stream';
import type { Context, MiddlewareHandler } from 'hono';
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

/** Years a date or timestamp given as a query or form value may have (api/validation.ts MIN_YEAR/MAX_YEAR). */
export const MIN_DATE_YEAR = 1900;
export const MAX_DATE_YEAR = 2200;
/** A value that is a date or a timestamp (`YYYY-mm-dd…`, or an expanded year `+YYYYYY-mm-dd…`): anchored, linear. */
const DATE_LIKE = /^([+-]\d{6}|\d{4})-\d\d-\d\d(?:[T ][\d:.]*(?:Z|[+-][\d:]+)?)?$/i;

/**
 * Why a query or form value must be refused, or null: a date or timestamp that is no calendar date
 * (`2024-02-30`, which `Date.parse` reads as 1 March) or outside MIN_DATE_YEAR..MAX_DATE_YEAR.
 */
export function dateOutOfRange(value: string): string | null {
  if (value.length > 40) return null;
  const m = DATE_LIKE.exec(value);
  if (!m) return null;
  const year = Number(m[1]);
  if (year < MIN_DATE_YEAR || year > MAX_DATE_YEAR) return `dates must be between ${MIN_DATE_YEAR} and ${MAX_DATE_YEAR}`;
  const month = Number(value.slice(5, 7));
  const day = Number(value.slice(8, 10));
  const days = new Date(Date.UTC(year, month, 0)).getUTCDate();
  return month < 1 || month > 12 || day < 1 || day > days ? 'must be a real calendar date' : null;
}

function decoded(s: string): string | null {
  try {
    return decodeURIComponent(s.replace(/\+/g, ' '));
  } catch {
    return null;
  }
}

/** The first `key=value` pair of a query string or urlencoded form whose value is a date out of range. */
function badDateIn(encoded: string, where: 'query' | 'body'): ValidationError | null {
  for (const pair of encoded.split('&')) {
    const eq = pair.indexOf('=');
    if (eq === -1) continue;
    const value = decoded(pair.slice(eq + 1));
    const problem = value === null ? null : dateOutOfRange(value);
    if (problem) {
      const key = decoded(pair.slice(0, eq)) ?? 'value';
      return new ValidationError([{ loc: [where, key.slice(0, 100)], msg: problem, type: 'value_error', input: value!.slice(0, 40) }]);
    }
  }
  return null;
}

/**
 * Refuses a request whose path or query carries a control character (encoded or not), or a query value
 * that is a date outside 1900..2200, with a 422, before any route reads its parameters: no NUL byte
 * reaches a query or a log line from the URL, and no year 0 or 275760 reaches a query of the database.
 */
export function refuseControlCharsInUrl(): MiddlewareHandler<AppEnv> {
  // Not async: a clean URL costs two scans and passes the request on without a promise of its own.
  return (c, next) => {
    const url = c.req.url;
    const start = url.indexOf('/', url.indexOf('//') + 2);
    const q = url.indexOf('?', start);
    const path = q === -1 ? url.slice(start) : url.slice(start, q);
    if (URL_CONTROL.test(path)) throw controlCharsIn('path');
    if (q !== -1) {
      const query = url.slice(q + 1);
      if (URL_CONTROL.test(query)) throw controlCharsIn('query');
      const badDate = badDateIn(query, 'query');
      if (badDate) throw badDate;
    }
    return next();
  };
}

const controlCharsIn = (where: 'path' | 'query') =>
  new ValidationError([{ loc: [where], msg: `The ${where} must not contain control characters`, type: 'value_error' }]);

/**
 * The same checks for an HTML form body (`application/x-www-form-urlencoded`, the dashboard's forms):
 * control characters other than tab and newlines, values longer than `maxText`, dates out of range are
 * a 422 before any route reads the form. Runs after the body size limit; the route still reads the body.
 */
export function refuseBadFormFields(maxText: number): MiddlewareHandler<AppEnv> {
  const checkForm = async (c: Context<AppEnv>) => {
    const body = await c.req.raw.clone().text();
    for (const pair of body.split('&')) {
      const eq = pair.indexOf('=');
      const key = decoded(eq === -1 ? pair : pair.slice(0, eq));
      const value = eq === -1 ? '' : decoded(pair.slice(eq + 1));
      if (key === null || value === null) {
        throw new ValidationError([{ loc: ['body'], msg: 'The form body is not valid URL encoding', type: 'value_error' }]);
      }
      const msg =
        value.length > maxText ? `must be at most ${maxText.toLocaleString('en-US')} characters`
          : CONTROL_BUT_WHITESPACE.test(key) || CONTROL_BUT_WHITESPACE.test(value) ? 'must not contain control characters'
            : dateOutOfRange(value);
      if (msg) throw new ValidationError([{ loc: ['body', key.slice(0, 100)], msg, type: 'value_error', input: value.slice(0, 40) }]);
    }
  };
  // Not async for the requests it has nothing to check (every one but a form POST).
  return (c, next) => {
    const type = c.req.header('content-type');
    if (type === undefined || !FORM.test(type)) return next();
    return checkForm(c).then(next);
  };
}

const FORM = /^application\/x-www-form-urlencoded/i;

/**
 * Requests Node's HTTP parser refuses before the app sees them (a NUL or other control character in a
 * header, a malformed request line, headers over the size limit) get a JSON `{detail}` like every other
 * 4xx, instead of Node's bare `400 Bad Request`; the connection is closed.
 */
export function answerClientErrors(server: unknown): void {
  (server as Server).on('clientError', (err: NodeJS.ErrnoException, socket: Duplex) => {
    if (err.code === 'ECONNRESET' || !socket.writable) {
      socket.destroy();
      return;
    }
    const status = err.code === 'HPE_HEADER_OVERFLOW' ? 431 : err.code === 'ERR_HTTP_REQUEST_TIMEOUT' ? 408 : 400;
    const detail =
      status === 431 ? 'The request headers are too large.'
        : status === 408 ? 'The request took too long to arrive.'
          : 'Malformed HTTP request (e.g. a control character in a header or the request line).';
    const body = JSON.stringify({ detail });
    socket.end(
      `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
    );
  });
}
