import type { AttemptResult } from '../../domain/webhooks/retry.js';

const RESPONSE_KEEP_BYTES = 1024;

export interface PostResult {
  result: AttemptResult;
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

/** One signed POST. Never throws for what the receiver does: refusals and timeouts are results. */
export async function postEvent(url: string, headers: Record<string, string>, body: string, timeoutMs: number): Promise<PostResult> {
  const started = performance.now();
  try {
    const res = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'user-agent': 'labflow-webhooks/1', ...headers },
      body,
      redirect: 'manual', // a redirect is not a delivery
      signal: AbortSignal.timeout(timeoutMs),
    });
    const responseBody = await firstBytes(res, RESPONSE_KEEP_BYTES);
    return {
      result: { statusCode: res.status, retryAfter: res.headers.get('retry-after') },
      durationMs: Math.round(performance.now() - started),
      responseBody,
    };
  } catch (err) {
    const e = err as Error & { cause?: { code?: string; message?: string } };
    const error = e.name === 'TimeoutError' ? `no answer within ${timeoutMs} ms` : (e.cause?.code ?? e.cause?.message ?? e.message);
    return { result: { statusCode: null, error }, durationMs: Math.round(performance.now() - started), responseBody: null };
  }
}
