import { index, integer, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { labs } from './catalog.js';
import { teams } from './teams.js';

const tz = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

/**
 * A team's account at a lab (the `lab_account_id` of orders). Its default comment is printed on
 * every requisition form, after the order's own comment. Delegation settings come with that issue.
 */
export const labAccounts = pgTable(
  'lab_accounts',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    teamId: uuid('team_id')
      .notNull()
      .references(() => teams.id, { onDelete: 'cascade' }),
    labId: integer('lab_id')
      .notNull()
      .references(() => labs.id),
    name: text('name').notNull(),
    defaultComment: text('default_comment'),
    status: text('status', { enum: ['active', 'inactive'] }).notNull().default('active'),
    createdAt: tz('created_at').notNull().defaultNow(),
  },
  (t) => [index('lab_accounts_team_idx').on(t.teamId)],
);

/**
 * Keys of partners (couriers, labs, operators) who report shipments, sample receipt, results and
 * failures for orders. Not team keys: a partner key opens only /partner/*. Stored as SHA-256 hashes.
 * A key bound to a lab may only report for orders whose lab test is at that lab.
 */
export const partnerKeys = pgTable('partner_keys', {
  id: uuid('id').primaryKey().defaultRandom(),
  name: text('name').notNull(),
  kind: text('kind', { enum: ['courier', 'lab', 'operator'] }).notNull(),
  labId: integer('lab_id').references(() => labs.id),
  keyHash: text('key_hash').notNull().unique(),
  hint: text('hint').notNull(),
  createdAt: tz('created_at').notNull().defaultNow(),
  revokedAt: tz('revoked_at'),
});

/**
 * Server-side secrets the service makes for itself on first use (e.g. the key that signs document
 * URLs), so every API instance of a deployment shares them. An environment variable may override.
 */
export const serviceSecrets = pgTable('service_secrets', {
  name: text('name').primaryKey(),
  value: text('value').notNull(),
  createdAt: tz('created_at').notNull().defaultNow(),
});
