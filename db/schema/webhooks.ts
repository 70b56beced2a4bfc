import { bigserial, boolean, index, integer, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { outboxEvents } from './events.js';
import { teams } from './teams.js';

const tz = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

/**
 * A team's webhook receiver. `event_types` filters what it gets: exact types, or prefixes ending
 * with a dot (`labtest.`); empty means every event. Secrets are stored encrypted (lib/secret-box.ts);
 * after a rotation the previous secret also signs until `previous_secret_expires_at`.
 */
export const webhookEndpoints = pgTable(
  'webhook_endpoints',
  {
    id: uuid('id').primaryKey(),
    teamId: uuid('team_id')
      .notNull()
      .references(() => teams.id, { onDelete: 'cascade' }),
    url: text('url').notNull(),
    description: text('description').notNull().default(''),
    eventTypes: text('event_types').array().notNull().default([]),
    enabled: boolean('enabled').notNull().default(true),
    disabledReason: text('disabled_reason'),
    secretEnc: text('secret_enc').notNull(),
    previousSecretEnc: text('previous_secret_enc'),
    previousSecretExpiresAt: tz('previous_secret_expires_at'),
    /** First failure of the current unbroken run of failures; cleared by any success. */
    failingSince: tz('failing_since'),
    createdAt: tz('created_at').notNull(),
    updatedAt: tz('updated_at').notNull(),
  },
  (t) => [index('webhook_endpoints_team_idx').on(t.teamId, t.createdAt)],
);

/**
 * One event to one endpoint. `pending` deliveries are due at `next_attempt_at`; a resend or a
 * recovery makes a new delivery (the event, its id and its payload stay the same).
 */
export const webhookDeliveries = pgTable(
  'webhook_deliveries',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    eventId: uuid('event_id')
      .notNull()
      .references(() => outboxEvents.id, { onDelete: 'cascade' }),
    endpointId: uuid('endpoint_id')
      .notNull()
      .references(() => webhookEndpoints.id, { onDelete: 'cascade' }),
    teamId: uuid('team_id').notNull(),
    status: text('status', { enum: ['pending', 'delivered', 'failed'] }).notNull(),
    /** Why this delivery exists: the event itself, a resend of one event, or an endpoint recovery. */
    trigger: text('trigger', { enum: ['event', 'resend', 'recover'] }).notNull().default('event'),
    attempts: integer('attempts').notNull().default(0),
    nextAttemptAt: tz('next_attempt_at'),
    lastAttemptAt: tz('last_attempt_at'),
    deliveredAt: tz('delivered_at'),
    createdAt: tz('created_at').notNull(),
  },
  (t) => [
    index('webhook_deliveries_due_idx').on(t.endpointId, t.status, t.nextAttemptAt),
    index('webhook_deliveries_event_idx').on(t.eventId),
  ],
);

/** Every HTTP attempt of a delivery: when, the answer (status, first 1 KB of the body) or the error, how long. */
export const webhookAttempts = pgTable(
  'webhook_attempts',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    deliveryId: uuid('delivery_id')
      .notNull()
      .references(() => webhookDeliveries.id, { onDelete: 'cascade' }),
    attemptedAt: tz('attempted_at').notNull(),
    statusCode: integer('status_code'),
    durationMs: integer('duration_ms').notNull(),
    responseBody: text('response_body'),
    error: text('error'),
  },
  (t) => [index('webhook_attempts_delivery_idx').on(t.deliveryId, t.attemptedAt)],
);

/**
 * Endpoints with a delivery round under way (activities/webhooks: set as a round starts, deleted before its last
 * look for due deliveries). A writer that finds its endpoint here after its commit sends no wake-up signal: the
 * round sees the new deliveries (it looks again after deleting its row; lib/webhook-wake.ts). `active_until`
 * bounds a row left by a worker that died mid-round (its round is retried by Temporal anyway). UNLOGGED
 * (migration 0018): rows need no crash safety; an empty table only means more signals.
 */
export const webhookEndpointRounds = pgTable('webhook_endpoint_rounds', {
  endpointId: uuid('endpoint_id').primaryKey(),
  activeUntil: timestamp('active_until', { withTimezone: true }).notNull(),
});
