import type { Context } from 'hono';
import { z } from 'zod';
import { isRealDate } from '../domain/users.js';
import { ValidationError, type ValidationItem } from './errors.js';
import type { AppEnv } from './env.js';
import { CONTROL, CONTROL_BUT_WHITESPACE, checkJsonDepth, findBadString } from './input-guard.js';

/**
 * The input boundary's building blocks (issue 10). Every route's schema is made of these, so that
 * every string has a length limit checked first (and nothing else runs on a string that is too long),
 * no control character reaches the database, dates and integers fit their columns.
 */

export const MAX_NAME = 255;
export const MAX_FREE_TEXT = 10_000;
export const INT4_MAX = 2_147_483_647;
export const MIN_YEAR = 1900;
export const MAX_YEAR = 2200;

/** C0 controls and DEL; in multi-line text tab, newline and carriage return are allowed. */
export const hasControlChars = (v: string, multiline = false) => (multiline ? CONTROL_BUT_WHITESPACE : CONTROL).test(v);

interface TextOptions {
  /** At least this many characters after trimming (default 0). */
  min?: number;
  /** Tab and newlines allowed (free text, notes); other control characters never are. */
  multiline?: boolean;
  /** Trim surrounding white space (default true). */
  trim?: boolean;
}

/**
 * A string of at most `max` characters without control characters. The length is checked first and
 * aborts: no later check or refinement ever runs on a too-long string.
 */
export function text(max: number = MAX_FREE_TEXT, { min = 0, multiline = false, trim = true }: TextOptions = {}) {
  let s = z
    .string()
    .max(max, { abort: true, message: `must be at most ${max.toLocaleString('en-US')} characters` })
    .refine((v) => !hasControlChars(v, multiline), {
      abort: true,
      message: multiline ? 'must not contain control characters other than tab and newline' : 'must not contain control characters',
    });
  if (trim) s = s.trim();
  if (min > 0) s = s.min(min, { abort: true, message: min === 1 ? 'must not be empty' : `must be at least ${min} characters` });
  return s;
}

/** A name: 1–255 characters, one line. */
export const name = (max = MAX_NAME) => text(max, { min: 1 });

/** A path parameter that is not an id (e.g. a client user id, a provider id): 1–255 characters, one line. */
export const pathString = (max = MAX_NAME) => text(max, { min: 1, trim: false });

/** A UUID (any version), its length checked before its shape. */
export const uuid = (field: string) => z.string().max(36, { abort: true, message: `${field} must be a UUID` }).pipe(z.guid(`${field} must be a UUID`));

const yearOf = (v: string) => Number(v.slice(0, 4));
const inYears = (v: string) => yearOf(v) >= MIN_YEAR && yearOf(v) <= MAX_YEAR;
const today = () => new Date().toISOString().slice(0, 10);
const plusDays = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);

/** A calendar date `YYYY-mm-dd` in 1900..2200. */
export function date(message = 'must be a real calendar date written YYYY-mm-dd') {
  return z
    .string()
    .max(10, { abort: true, message })
    .refine(isRealDate, { abort: true, message })
    .refine(inYears, { abort: true, message: `must be between ${MIN_YEAR} and ${MAX_YEAR}` });
}

/** A date of birth: a real date from 1900 up to today. */
export const birthDate = (message?: string) => date(message).refine((d) => d <= today(), { abort: true, message: 'must not be in the future' });

/** A date at most `days` ahead of today (e.g. `activate_by`, within a year). */
export const dateWithin = (days: number, message?: string) =>
  date(message).refine((d) => d <= plusDays(days), { abort: true, message: `must be within ${days} days from today` });

/** An ISO 8601 date-time with a time zone, in 1900..2200, kept as written. */
export function dateTimeString(message = 'must be an ISO 8601 date-time with a time zone') {
  return z
    .string()
    .max(40, { abort: true, message })
    .pipe(z.iso.datetime({ offset: true, message }))
    .refine(inYears, { abort: true, message: `must be between ${MIN_YEAR} and ${MAX_YEAR}` });
}

/** An ISO 8601 date-time with a time zone, in 1900..2200, read as a Date. */
export const dateTime = (message?: string) => dateTimeString(message).transform((v) => new Date(v));

/** An integer that fits a Postgres `integer` column. */
export const int4 = (min = -INT4_MAX - 1) => z.number().int().min(min).max(INT4_MAX, { message: `must be at most ${INT4_MAX}` });

/** A query or path integer (a decimal string) that fits a Postgres `integer` column. */
export const queryInt4 = (min = -INT4_MAX - 1) =>
  z
    .string()
    .max(12, { abort: true, message: 'Input should be a valid integer' })
    .regex(/^-?\d+$/, { abort: true, message: 'Input should be a valid integer' })
    .transform(Number)
    .pipe(int4(min));

/**
 * A query number (a decimal string, not empty: `z.coerce.number()` would read `""` as 0) within
 * `min..max`.
 */
export const queryNumber = (min: number, max: number) =>
  z
    .string()
    .max(24, { abort: true, message: 'Input should be a valid number' })
    .regex(/^-?\d+(\.\d+)?$/, { abort: true, message: 'Input should be a valid number' })
    .transform(Number)
    .pipe(z.number().min(min).max(max));

/** A number that is finite (no NaN or infinities, which JSON cannot carry anyway) and within ±1e12. */
export const finite = () => z.number().finite().min(-1e12).max(1e12);

// ---- reading input ------------------------------------------------------------------------------

type Where = 'body' | 'query' | 'path' | 'header';

/** Echoed input is kept short: a 422 never carries a huge or deep value back. */
export function clipInput(input: unknown): unknown {
  if (typeof input === 'string') return input.length > 200 ? `${input.slice(0, 200)}…` : input;
  if (input === null || typeof input !== 'object') return input;
  // Parsed input is at most MAX_JSON_DEPTH deep (input-guard.ts), so stringify cannot overflow.
  const s = JSON.stringify(input) ?? '';
  return s.length > 1000 ? `${s.slice(0, 200)}…` : input;
}

function toItems(error: z.ZodError, where: Where): ValidationItem[] {
  return error.issues.map((issue) => {
    const loc = [where, ...issue.path.map((p) => (typeof p === 'symbol' ? String(p) : p))];
    if (issue.code === 'invalid_type' && issue.input === undefined) {
      return { loc, msg: 'Field required', type: 'missing' };
    }
    const input = clipInput(issue.input);
    if (issue.code === 'invalid_type') {
      return { loc, msg: `Input should be a valid ${issue.expected}`, type: `${issue.expected}_type`, input };
    }
    return { loc, msg: issue.message, type: issue.code === 'custom' ? 'value_error' : issue.code, input };
  });
}

/** Validate any input against a schema; a failure becomes a 422 with FastAPI-shaped `detail`. */
export function parse<S extends z.ZodType>(schema: S, input: unknown, where: Where): z.infer<S> {
  const result = schema.safeParse(input, { reportInput: true });
  if (!result.success) throw new ValidationError(toItems(result.error, where));
  return result.data;
}

/**
 * Reads and validates a JSON body. Malformed JSON or a missing body is a 422, like any bad input; so is
 * JSON nested deeper than MAX_JSON_DEPTH (found before parsing), and any string in it with a control
 * character (tab and newlines aside) or longer than MAX_FREE_TEXT, whatever the schema says of it.
 */
export async function parseJsonBody<S extends z.ZodType>(c: Context<AppEnv>, schema: S): Promise<z.infer<S>> {
  const text = await c.req.text();
  if (text.trim() === '') {
    throw new ValidationError([{ loc: ['body'], msg: 'Field required', type: 'missing' }]);
  }
  return parse(schema, readJson(text), 'body');
}

/** Parses a JSON body with the checks of parseJsonBody (depth first, then strings); any problem is a 422. */
export function readJson(text: string): unknown {
  const depthProblem = checkJsonDepth(text);
  if (depthProblem) throw new ValidationError([{ loc: ['body'], msg: depthProblem, type: 'json_invalid' }]);
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (err) {
    throw new ValidationError([
      { loc: ['body'], msg: `JSON decode error: ${err instanceof Error ? err.message.slice(0, 200) : 'invalid JSON'}`, type: 'json_invalid' },
    ]);
  }
  const bad = findBadString(json, MAX_FREE_TEXT, MAX_NAME);
  if (bad) throw new ValidationError([{ loc: ['body', ...bad.path], msg: bad.msg, type: 'value_error', input: clipInput(bad.value) }]);
  return json;
}

/** Validates query parameters, passing repeated keys as arrays only where the schema wants them. */
export function parseQuery<S extends z.ZodType>(c: Context<AppEnv>, schema: S): z.infer<S> {
  return parse(schema, c.req.query(), 'query');
}
