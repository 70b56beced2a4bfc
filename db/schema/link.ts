import { boolean, index, integer, jsonb, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import type { BulkItemResult } from '../../domain/link/bulk.js';
import { teams } from './teams.js';
import { users } from './users.js';

const tz = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

/**
 * Link tokens (`POST /v2/link/token`) and link codes (`POST /v2/link/code/create`): one-time, expiring,
 * bound to one user of one team. Only a SHA-256 hash of the token is kept.
 */
export const linkTokens = pgTable(
  'link_tokens',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    teamId: uuid('team_id')
      .notNull()
      .references(() => teams.id, { onDelete: 'cascade' }),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** token: link widget; code: link code; sign_in: a user's sign-in token (opens the user portal once). */
    kind: text('kind', { enum: ['token', 'code', 'sign_in'] }).notNull(),
    tokenHash: text('token_hash').notNull().unique(),
    provider: text('provider'),
    redirectUrl: text('redirect_url'),
    filterOnProviders: jsonb('filter_on_providers').$type<string[]>(),
    expiresAt: tz('expires_at').notNull(),
    /** Set by the first successful connection made with the token. */
    consumedAt: tz('consumed_at'),
    createdAt: tz('created_at').notNull().defaultNow(),
  },
  (t) => [index('link_tokens_user_idx').on(t.userId)],
);

/** A team's link settings (`team.getLinkConfig`; `reject_duplicate_connection`). Absent row = defaults. */
export const teamLinkConfig = pgTable('team_link_config', {
  teamId: uuid('team_id')
    .primaryKey()
    .references(() => teams.id, { onDelete: 'cascade' }),
  rejectDuplicateConnection: boolean('reject_duplicate_connection').notNull().default(false),
  updatedAt: tz('updated_at').notNull().defaultNow(),
});

/**
 * Bulk link operations (`POST /v2/link/bulk_import`, `…/bulk_trigger_historical_pull`), listed by
 * `GET /v2/link/bulk_op`. Run by the bulk-op workflow; `results` holds each user's outcome by user id
 * (`{outcome, detail}`), so a retried step writes the same key again.
 */
export const linkBulkOps = pgTable(
  'link_bulk_ops',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    teamId: uuid('team_id')
      .notNull()
      .references(() => teams.id, { onDelete: 'cascade' }),
    /** The SDK's BulkOpType: `link_bulk_import`, `link_bulk_historical_trigger`. */
    type: text('type', { enum: ['link_bulk_import', 'link_bulk_historical_trigger'] }).notNull(),
    provider: text('provider').notNull(),
    /** The SDK's BulkOpStatus: `in_progress`, `success`, `failure`, `aborted`. */
    status: text('status', { enum: ['in_progress', 'success', 'failure', 'aborted'] }).notNull().default('in_progress'),
    total: integer('total').notNull(),
    results: jsonb('results').$type<Record<string, BulkItemResult>>().notNull().default({}),
    startedAt: tz('started_at').notNull().defaultNow(),
    endedAt: tz('ended_at'),
  },
  (t) => [index('link_bulk_ops_team_started_idx').on(t.teamId, t.startedAt, t.id)],
);

