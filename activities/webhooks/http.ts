import type { AttemptResult } from '../../domain/webhooks/retry.js';
import { SsrfRefusedError, type GuardedFetch } from '../../lib/ssrf.js';

const RESPONSE_KEEP_BYTES = 1024;

export interface PostResult {
  result: AttemptResult;
  /** The destination was refused (SSRF guard): the delivery fails without further attempts. */
  refused?: true;
  durationMs: number;
  responseBody: string | null;
}

/** Reads at most `limit` bytes of a body, then stops reading (a huge answer costs nothing). */
async function firstBytes(res: Response, limit: number): Promise<string> {
  if (!res.body) return '';
  const reader = res.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    while (size < limit) {
      const { done, value } = await reader.read();
      if (done) break;
      chunks.push(value);
      size += value.byteLength;
    }
  } finally {
    await reader.cancel().catch(() => {});
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

/**
 * One signed POST, through the SSRF-guarded fetch (lib/ssrf.ts) in the delivery activity. Never throws for what the receiver does:
 * refusals, timeouts and a refused destination are results.
 */
export async function postEvent(
  url: string,
  headers: Record<string, string>,
  body: string,
  timeoutMs: number,
  fetchFn: GuardedFetch = fetch,
): Promise<PostResult> {
  const started = performance.now();
  try {
    const res = await fetchFn(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'user-agent': 'labflow-webhooks/1', ...headers },
      body,
      redirect: 'manual', // a redirect is not a delivery
      signal: AbortSignal.timeout(timeoutMs),
    });
    const responseBody = storable(await firstBytes(res, RESPONSE_KEEP_BYTES));
    return {
      result: { statusCode: res.status, retryAfter: res.headers.get('retry-after') },
      durationMs: Math.round(performance.now() - started),
      responseBody,
    };
  } catch (err) {
    const durationMs = Math.round(performance.now() - started);
    if (err instanceof SsrfRefusedError) return { result: { statusCode: null, error: err.reason }, refused: true, durationMs, responseBody: null };
    const e = err as Error & { cause?: { code?: string; message?: string } };
    const error = e.name === 'TimeoutError' ? `no answer within ${timeoutMs} ms` : (e.cause?.code ?? e.cause?.message ?? e.message);
    return { result: { statusCode: null, error: storable(error) }, durationMs, responseBody: null };
  }
}
