import { sql } from 'drizzle-orm';
import { date, doublePrecision, index, integer, jsonb, pgTable, primaryKey, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { providerConnections, users } from './users.js';
import { teams } from './teams.js';

const tz = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

/**
 * Summaries (activity, sleep, workouts, body, profile, meal, menstrual_cycle, sleep_cycle,
 * electrocardiogram): one row per summary `id`; a newer version replaces the row (the spec's dedupe).
 * `data` is the client-facing object without the fields kept in columns; `stream` holds a workout's or
 * a sleep's stream.
 */
export const wearableSummaries = pgTable(
  'wearable_summaries',
  {
    id: uuid('id').primaryKey(),
    teamId: uuid('team_id')
      .notNull()
      .references(() => teams.id, { onDelete: 'cascade' }),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    connectionId: uuid('connection_id').references(() => providerConnections.id, { onDelete: 'set null' }),
    resource: text('resource').notNull(),
    provider: text('provider').notNull(),
    sourceType: text('source_type').notNull(),
    calendarDate: date('calendar_date', { mode: 'string' }).notNull(),
    data: jsonb('data').$type<Record<string, unknown>>().notNull(),
    stream: jsonb('stream').$type<Record<string, unknown>>(),
    createdAt: tz('created_at').notNull().defaultNow(),
    updatedAt: tz('updated_at').notNull().defaultNow(),
  },
  (t) => [index('wearable_summaries_user_resource_date_idx').on(t.userId, t.resource, t.calendarDate)],
);

/**
 * Timeseries samples. The migration makes this a table PARTITIONED BY RANGE ("timestamp"), one
 * partition per month (created ahead by the ingestion activity: `ensureSamplePartitions`). The primary
 * key is the dedupe key of the spec (user, resource, provider, source type, timestamp) ordered so that
 * it also serves every read: (user_id, resource, timestamp) prefix, then a range on timestamp. A BRIN
 * index on time would not help: rows of many users interleave in each block range.
 */
export const wearableSamples = pgTable(
  'wearable_samples',
  {
    userId: uuid('user_id').notNull(),
    resource: text('resource').notNull(),
    timestamp: tz('timestamp').notNull(),
    provider: text('provider').notNull(),
    sourceType: text('source_type').notNull(),
    value: doublePrecision('value').notNull(),
    /** Interval samples ([start, end)); null for instants. */
    end: tz('end'),
    unit: text('unit').notNull(),
    /** Sub-type (blood pressure: diastolic in `extra`; glucose: "automatic"…); null when none. */
    type: text('type'),
    timezoneOffset: integer('timezone_offset'),
    extra: jsonb('extra').$type<Record<string, unknown>>(),
    updatedAt: tz('updated_at').notNull().default(sql`now()`),
  },
  (t) => [primaryKey({ name: 'wearable_samples_pk', columns: [t.userId, t.resource, t.timestamp, t.provider, t.sourceType] })],
);

/** Per (user, provider, resource): the historical pull's state and the last daily pull (introspect). */
export const wearablePulls = pgTable(
  'wearable_pulls',
  {
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    teamId: uuid('team_id').notNull(),
    provider: text('provider').notNull(),
    resource: text('resource').notNull(),
    historicalStatus: text('historical_status').notNull(),
    historicalStart: tz('historical_start'),
    historicalEnd: tz('historical_end'),
    lastPullAt: tz('last_pull_at'),
    oldestData: tz('oldest_data'),
    newestData: tz('newest_data'),
    sampleCount: integer('sample_count').notNull().default(0),
  },
  (t) => [primaryKey({ name: 'wearable_pulls_pk', columns: [t.userId, t.provider, t.resource] })],
);
