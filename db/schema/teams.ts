import { boolean, doublePrecision, index, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';

export const teams = pgTable('teams', {
  id: uuid('id').primaryKey().defaultRandom(),
  name: text('name').notNull(),
  /** The environment and region the team's keys are minted for (`sandbox`/`production`, `us`/`eu`). */
  environment: text('environment', { enum: ['sandbox', 'production'] }).notNull(),
  region: text('region', { enum: ['us', 'eu'] }).notNull(),
  /** Team configuration: send `labtest.order.updated` for partial results too (off by default). */
  partialWebhooksEnabled: boolean('partial_webhooks_enabled').notNull().default(false),
  createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
});

/** Team API keys, stored only as SHA-256 hashes; `hint` is a non-secret fragment for humans. */
export const apiKeys = pgTable(
  'api_keys',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    teamId: uuid('team_id')
      .notNull()
      .references(() => teams.id, { onDelete: 'cascade' }),
    keyHash: text('key_hash').notNull().unique(),
    hint: text('hint').notNull(),
    label: text('label').notNull().default('default'),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
    revokedAt: timestamp('revoked_at', { withTimezone: true, mode: 'date' }),
  },
  (t) => [index('api_keys_team_idx').on(t.teamId)],
);

/**
 * Shared request budgets of the Postgres rate limiter (api/middleware/rate-limit.ts, RATE_LIMIT_STORE=postgres):
 * one row per bucket key (`team:<id>`, `ip:<address>`) holding its GCRA theoretical arrival time in epoch
 * milliseconds. A row whose `tat` is past means a full bucket, the same as no row, so rows in the past are
 * deleted freely. UNLOGGED (migration 0015): budgets need no crash safety and skip the WAL.
 */
export const rateLimitBuckets = pgTable('rate_limit_buckets', {
  key: text('key').primaryKey(),
  tat: doublePrecision('tat').notNull(),
});
