import { EventEmitter } from 'node:events';
import type { Readable } from 'node:stream';
import { request } from 'undici';
import type { AttemptResult } from '../../domain/webhooks/retry.js';
import { SsrfRefusedError, type GuardedRequest } from '../../lib/ssrf.js';

const RESPONSE_KEEP_BYTES = 1024;

export interface PostResult {
  result: AttemptResult;
  /** The destination was refused (SSRF guard): the delivery fails without further attempts. */
  refused?: true;
  durationMs: number;
  responseBody: string | null;
}

/** Reads at most `limit` bytes of a body, then stops reading (a huge answer costs nothing). */
async function firstBytes(body: Readable, limit: number): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  try {
    for await (const chunk of body) {
      chunks.push(chunk as Buffer);
      size += (chunk as Buffer).byteLength;
      if (size >= limit) break;
    }
  } finally {
    if (!body.readableEnded) body.destroy();
  }
  return Buffer.concat(chunks).subarray(0, limit).toString('utf8');
}

/**
 * Text a receiver sent, made storable: NUL and the other C0 controls (but tab and newlines) and lone
 * surrogates go (Postgres refuses NUL in text; a receiver's answer must never wedge delivery).
 */
export function storable(text: string): string {
  // eslint-disable-next-line no-control-regex -- removing control characters is the point
  return text.replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f]/g, '');
}

/** The first value of a response header. */
const header = (v: string | string[] | undefined): string | null => (Array.isArray(v) ? (v[0] ?? null) : (v ?? null));

/**
 * One signed POST, through the SSRF-guarded undici `request` (lib/ssrf.ts) in the delivery activity (the bare
 * loop of bench:webhooks passes undici's own). Never throws for what the receiver does: refusals, timeouts and
 * a refused destination are results. The whole exchange (connect, answer, its first bytes) has `timeoutMs`.
 */
export async function postEvent(
  url: string,
  headers: Record<string, string>,
  body: string,
  timeoutMs: number,
  send: GuardedRequest = request,
): Promise<PostResult> {
  const started = performance.now();
  // An emitter, not AbortSignal.timeout: undici takes either, and this one costs nothing when unused.
  const abort = new EventEmitter();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    abort.emit('abort');
  }, timeoutMs);
  try {
    const res = await send(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'user-agent': 'labflow-webhooks/1', ...headers },
      body,
      signal: abort,
    });
    const responseBody = storable(await firstBytes(res.body, RESPONSE_KEEP_BYTES));
    return {
      result: { statusCode: res.statusCode, retryAfter: header(res.headers['retry-after']) },
      durationMs: Math.round(performance.now() - started),
      responseBody,
    };
  } catch (err) {
    const durationMs = Math.round(performance.now() - started);
    if (err instanceof SsrfRefusedError) return { result: { statusCode: null, error: err.reason }, refused: true, durationMs, responseBody: null };
    const e = err as Error & { code?: string; cause?: { code?: string; message?: string } };
    const error = timedOut ? `no answer within ${timeoutMs} ms` : (e.code ?? e.cause?.code ?? e.cause?.message ?? e.message);
    return { result: { statusCode: null, error: storable(error) }, durationMs, responseBody: null };
  } finally {
    clearTimeout(timer);
  }
}
