import { randomBytes } from 'node:crypto';
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
  const signature = secrets.map((s) => new Webhook(s).sign(eventId, at, body)).join(' ');
  const timestamp = String(Math.floor(at.getTime() / 1000));
  return {
    'webhook-id': eventId,
    'webhook-timestamp': timestamp,
    'webhook-signature': signature,
    'svix-id': eventId,
    'svix-timestamp': timestamp,
    'svix-signature': signature,
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
