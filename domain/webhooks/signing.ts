import { createHmac, randomBytes } from 'node:crypto';
import { Webhook } from 'standardwebhooks';

/**
 * Standard Webhooks signatures (the scheme Svix uses): `v1,<base64 HMAC-SHA256(secret, id.ts.body)>`.
 * While a rotated-out secret is still valid, both sign, space-separated, so receivers holding either
 * secret verify. The same values are sent under the `svix-*` names.
 */
export function newEndpointSecret(): string {
  return `whsec_${randomBytes(24).toString('base64')}`;
}

export function signedHeaders(secrets: readonly string[], eventId: string, at: Date, body: string): Record<string, string> {
  return webhookSigner(secrets)(eventId, at, body);
}

/**
 * `signedHeaders` with the secrets decoded once: a delivery round signs many events with the same secrets.
 * Each secret is checked by the `standardwebhooks` library as it is taken (the same refusals as its own
 * `sign`), then HMAC-SHA256 is node:crypto's over the same bytes (`id.timestamp.body`, UTF-8).
 */
export function webhookSigner(secrets: readonly string[]): (eventId: string, at: Date, body: string) => Record<string, string> {
  const keys = secrets.map((s) => {
    new Webhook(s); // refuses what the library refuses (empty, not base64)
    return Buffer.from(s.startsWith('whsec_') ? s.slice('whsec_'.length) : s, 'base64');
  });
  return (eventId, at, body) => {
    const timestamp = String(Math.floor(at.getTime() / 1000));
    const signature = keys.map((k) => `v1,${createHmac('sha256', k).update(`${eventId}.${timestamp}.${body}`).digest('base64')}`).join(' ');
    return {
      'webhook-id': eventId,
      'webhook-timestamp': timestamp,
      'webhook-signature': signature,
      'svix-id': eventId,
      'svix-timestamp': timestamp,
      'svix-signature': signature,
    };
  };
}

/** The delivered body: the spec's event envelope. */
export interface EventEnvelope {
  event_type: string;
  data: Record<string, unknown>;
  team_id: string;
  user_id: string | null;
  client_user_id: string | null;
}
