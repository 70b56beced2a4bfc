/**
 * Wire shapes of the webhook endpoint and event-log responses. The SDK has no webhook CRUD (CONTRACT
 * §10), so these are ours (README "Webhooks"); every key is always present, null when empty.
 */
import { z } from 'zod';

const isoDateTime = z.iso.datetime({ offset: true });

export const webhookEndpoint = z.object({
  id: z.string(),
  url: z.string(),
  description: z.string().nullable(),
  event_types: z.array(z.string()).nullable(),
  enabled: z.boolean(),
  disabled_reason: z.string().nullable(),
  failing_since: isoDateTime.nullable(),
  created_at: isoDateTime,
  updated_at: isoDateTime,
});

export const createdWebhookEndpoint = webhookEndpoint.extend({ secret: z.string().startsWith('whsec_') });
export const webhookEndpointList = z.object({ data: z.array(webhookEndpoint) });
export const webhookEndpointSecret = z.object({ secret: z.string().startsWith('whsec_') });
export const deletedWebhookEndpoint = z.object({ id: z.string(), deleted: z.literal(true) });
export const rotatedWebhookSecret = z.object({ id: z.string(), secret: z.string().startsWith('whsec_'), previous_secret_expires_at: isoDateTime });
export const recoveredWebhookEndpoint = z.object({ endpoint_id: z.string(), requeued: z.number().int(), endpoint_enabled: z.boolean() });

const eventFields = {
  id: z.string(),
  event_type: z.string(),
  created_at: isoDateTime,
  team_id: z.string(),
  user_id: z.string().nullable(),
  client_user_id: z.string().nullable(),
  subject_id: z.string().nullable(),
  data: z.unknown(),
};

export const webhookEventListItem = z.object({
  ...eventFields,
  deliveries: z.array(z.object({ id: z.string(), endpoint_id: z.string(), status: z.string(), attempts: z.number().int() })),
});

export const webhookEventList = z.object({ data: z.array(webhookEventListItem), next_cursor: z.string().nullable() });

export const webhookDelivery = z.object({
  id: z.string(),
  endpoint_id: z.string(),
  status: z.string(),
  trigger: z.string(),
  attempts: z.number().int(),
  next_attempt_at: isoDateTime.nullable(),
  last_attempt_at: isoDateTime.nullable(),
  delivered_at: isoDateTime.nullable(),
  created_at: isoDateTime,
  attempt_log: z.array(
    z.object({
      attempted_at: isoDateTime,
      status_code: z.number().int().nullable(),
      duration_ms: z.number().nullable(),
      response_body: z.string().nullable(),
      error: z.string().nullable(),
    }),
  ),
});

export const webhookEvent = z.object({ ...eventFields, deliveries: z.array(webhookDelivery) });
export const resentWebhookEvent = z.object({ event_id: z.string(), endpoint_ids: z.array(z.string()) });
export const svixUrl = z.object({ url: z.string() });
