import { index, integer, jsonb, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { DELEGATED_FLOWS, LAB_ACCOUNT_STATUSES, type AllowedBilling } from '../../domain/lab-accounts/types.js';
import { labs } from './catalog.js';
import { teams } from './teams.js';

const tz = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

/**
 * A team's account at a lab (the `lab_account_id` of orders). Its default comment is printed on
 * every requisition form, after the order's own comment. `delegated_flow` decides who orders
 * (domain/lab-accounts/delegation.ts); `allowed_billing` which billing types it takes in which states.
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
    status: text('status', { enum: LAB_ACCOUNT_STATUSES }).notNull().default('active'),
    delegatedFlow: text('delegated_flow', { enum: DELEGATED_FLOWS }).notNull().default('not_delegated'),
    /** When the account became delegated; the physician grace period counts from here (null: its creation). */
    delegatedAt: tz('delegated_at'),
    allowedBilling: jsonb('allowed_billing').$type<AllowedBilling>().notNull().default({ client_bill: ['*'] }),
    /** The lab's own number for the account (printed on requisitions by real labs). */
    providerAccountId: text('provider_account_id'),
    businessUnits: text('business_units').array(),
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
