import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * Signed URLs: the link itself is the credential (no API key), limited to one path and an expiry.
 * `signature` = base64url(HMAC-SHA256(key, "<path>\n<expires>")), `expires` = Unix seconds. Changing
 * the path, the expiry or the signature breaks the link.
 */
export interface UrlSigner {
  /** Absolute URL of `path` (starting with `/`) that works until `expiresAt`. */
  sign(path: string, expiresAt: Date): string;
  /** Checks a request for `path` carrying the `expires` and `signature` query values. */
  verify(path: string, query: { expires?: string | undefined; signature?: string | undefined }, now?: Date): UrlCheck;
}

export type UrlCheck = 'valid' | 'invalid' | 'expired';

const SIGNATURE = /^[A-Za-z0-9_-]{43}$/; // 32 bytes, base64url without padding
const EXPIRES = /^\d{1,12}$/;

export function createUrlSigner(secret: string, baseUrl: string): UrlSigner {
  if (secret.length < 32) throw new Error('URL signing secret must be at least 32 characters');
  const key = Buffer.from(secret, 'utf8');
  const base = baseUrl.replace(/\/+$/, '');
  const mac = (path: string, expires: string) => createHmac('sha256', key).update(`${path}\n${expires}`).digest();

  return {
    sign(path, expiresAt) {
      const expires = String(Math.floor(expiresAt.getTime() / 1000));
      const signature = mac(path, expires).toString('base64url');
      return `${base}${path}?expires=${expires}&signature=${signature}`;
    },
    verify(path, { expires, signature }, now = new Date()) {
      if (!expires || !signature || !EXPIRES.test(expires) || !SIGNATURE.test(signature)) return 'invalid';
      // Constant-time comparison: the time taken says nothing about how much of a guess was right.
      if (!timingSafeEqual(Buffer.from(signature, 'base64url'), mac(path, expires))) return 'invalid';
      return Number(expires) * 1000 <= now.getTime() ? 'expired' : 'valid';
    },
  };
}

/** The base of links the service hands out: `PUBLIC_URL`, else this host's API port. */
export function publicBaseUrl(config: { PUBLIC_URL?: string | undefined; PORT?: number | undefined }): string {
  return (config.PUBLIC_URL ?? `http://localhost:${config.PORT ?? 8000}`).replace(/\/+$/, '');
}
