import { index, jsonb, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { teams } from './teams.js';

/**
 * The outgoing event log (transactional outbox): every webhook event is written here in the same
 * transaction as the state change it announces, with a stable id and timestamp that never change on
 * retry or replay. Delivery to endpoints reads from here.
 */
export const outboxEvents = pgTable(
  'outbox_events',
  {
    id: uuid('id').primaryKey(),
    teamId: uuid('team_id')
      .notNull()
      .references(() => teams.id, { onDelete: 'cascade' }),
    userId: uuid('user_id'),
    clientUserId: text('client_user_id'),
    eventType: text('event_type').notNull(),
    /** The resource the event is about, e.g. an order id (for per-order replay). */
    subjectId: uuid('subject_id'),
    data: jsonb('data').$type<Record<string, unknown>>().notNull(),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull(),
  },
  (t) => [index('outbox_team_created_idx').on(t.teamId, t.createdAt), index('outbox_subject_idx').on(t.subjectId, t.createdAt)],
);
