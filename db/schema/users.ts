import { sql } from 'drizzle-orm';
import { date, index, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { teams } from './teams.js';

const tz = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

export const users = pgTable(
  'users',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    teamId: uuid('team_id')
      .notNull()
      .references(() => teams.id, { onDelete: 'cascade' }),
    clientUserId: text('client_user_id').notNull(),
    createdOn: tz('created_on').notNull().defaultNow(),
    fallbackTimeZone: text('fallback_time_zone'),
    fallbackTimeZoneUpdatedAt: tz('fallback_time_zone_updated_at'),
    fallbackBirthDate: date('fallback_birth_date', { mode: 'string' }),
    fallbackBirthDateUpdatedAt: tz('fallback_birth_date_updated_at'),
    ingestionStart: date('ingestion_start', { mode: 'string' }),
    ingestionEnd: date('ingestion_end', { mode: 'string' }),
    /** Set by DELETE /v2/user/{id}; the user-deletion workflow erases the row once the grace period ends. */
    deletedAt: tz('deleted_at'),
  },
  (t) => [
    uniqueIndex('users_team_client_user_id_uq').on(t.teamId, t.clientUserId),
    // The operations dashboard finds orders by client_user_id across teams.
    index('users_client_user_id_idx').on(t.clientUserId),
    index('users_team_created_idx').on(t.teamId, t.createdOn, t.id).where(sql`${t.deletedAt} is null`),
  ],
);

/** A user's link to a third-party data source (filled by the provider-linking work). */
export const providerConnections = pgTable(
  'provider_connections',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    provider: text('provider').notNull(),
    externalUserId: text('external_user_id'),
    /** `connected`, `error` (see error_type) or `paused`; rows of abandoned link attempts are never written. */
    status: text('status').notNull().default('connected'),
    createdAt: tz('created_at').notNull().defaultNow(),
    /** Password providers: `{username, password, region}` sealed with the service master key (lib/secret-box). */
    sealedCredentials: text('sealed_credentials'),
    /** How the connection was made: password, demo, manual, oauth, email. */
    method: text('method').notNull().default('manual'),
    errorType: text('error_type'),
    errorMessage: text('error_message'),
    erroredAt: tz('errored_at'),
    updatedAt: tz('updated_at').notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('provider_connections_user_provider_uq').on(t.userId, t.provider),
    index('provider_connections_provider_external_idx').on(t.provider, t.externalUserId),
  ],
);

/** A user's demographics (`PATCH /v2/user/{id}/info`): personal data, so kept sealed with the service master key. */
export const userInfo = pgTable('user_info', {
  userId: uuid('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  sealed: text('sealed').notNull(),
  updatedAt: tz('updated_at').notNull().defaultNow(),
});
