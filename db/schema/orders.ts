import { sql } from 'drizzle-orm';
import { boolean, date, index, integer, jsonb, pgTable, primaryKey, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import type { AoeAnswer } from '../../domain/orders/aoe.js';
import { labTests } from './catalog.js';
import { teams } from './teams.js';
import { users } from './users.js';

const tz = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

export interface ShipmentData {
  id: string;
  outbound_courier: string | null;
  outbound_tracking_number: string | null;
  outbound_tracking_url: string | null;
  inbound_courier: string | null;
  inbound_tracking_number: string | null;
  inbound_tracking_url: string | null;
  notes: string | null;
  created_at: string;
  updated_at: string;
}

/**
 * One per initial order (`origin: initial`); redraws and recreations join their initial order's
 * transaction. Its status is derived from its orders (db/queries/order-transactions.ts).
 */
export const orderTransactions = pgTable(
  'order_transactions',
  {
    id: uuid('id').primaryKey(),
    teamId: uuid('team_id')
      .notNull()
      .references(() => teams.id, { onDelete: 'cascade' }),
    createdAt: tz('created_at').notNull(),
  },
  (t) => [index('order_transactions_team_idx').on(t.teamId)],
);

/**
 * The read model of a lab order. The order's workflow owns every change after creation; the API
 * reads this table (and order_events) and never asks the workflow for state.
 */
export const orders = pgTable(
  'orders',
  {
    id: uuid('id').primaryKey(),
    teamId: uuid('team_id')
      .notNull()
      .references(() => teams.id, { onDelete: 'cascade' }),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    labTestId: uuid('lab_test_id')
      .notNull()
      .references(() => labTests.id),
    /** Collection method: testkit, walk_in_test, at_home_phlebotomy, on_site_collection. */
    method: text('method').notNull(),
    /** Testkit created unregistered (POST /v3/order/testkit): waits for POST /v3/order/testkit/register. */
    registrable: boolean('registrable').notNull().default(false),
    status: text('status').notNull(),
    lowLevelStatus: text('low_level_status').notNull(),
    lowLevelStatusCreatedAt: tz('low_level_status_created_at').notNull(),
    sampleId: text('sample_id'),
    origin: text('origin').notNull().default('initial'),
    transactionId: uuid('transaction_id')
      .notNull()
      .references(() => orderTransactions.id, { onDelete: 'cascade' }),
    /** The order a redraw or recreation was made from. */
    parentId: uuid('parent_id'),
    /** A redraw order draws only the markers its initial order missed (their result slugs); null: the whole lab test. */
    redrawMarkerSlugs: text('redraw_marker_slugs').array(),
    /** Id of the method-specific details record (`details.data.id`). */
    detailsId: uuid('details_id').notNull(),
    shipment: jsonb('shipment').$type<ShipmentData>(),
    patientDetails: jsonb('patient_details').$type<Record<string, unknown>>(),
    patientAddress: jsonb('patient_address').$type<Record<string, unknown>>(),
    shippingDetails: jsonb('shipping_details').$type<Record<string, unknown>>(),
    physician: jsonb('physician').$type<Record<string, unknown>>(),
    consents: jsonb('consents').$type<unknown[]>(),
    healthInsurance: jsonb('health_insurance').$type<Record<string, unknown>>(),
    activateBy: date('activate_by', { mode: 'string' }),
    passthrough: text('passthrough'),
    priority: boolean('priority').notNull().default(false),
    billingType: text('billing_type').notNull().default('client_bill'),
    icdCodes: text('icd_codes').array(),
    clinicalNotes: text('clinical_notes'),
    /** Answers to the markers' ask-on-order-entry questions (`aoe_answers`), checked by domain/orders/aoe.ts. */
    aoeAnswers: jsonb('aoe_answers').$type<AoeAnswer[]>(),
    labAccountId: uuid('lab_account_id'),
    notes: text('notes'),
    interpretation: text('interpretation'),
    hasMissingResults: boolean('has_missing_results'),
    expectedResultByDate: date('expected_result_by_date', { mode: 'string' }),
    worstCaseResultByDate: date('worst_case_result_by_date', { mode: 'string' }),
    workflowId: text('workflow_id').notNull(),
    createdAt: tz('created_at').notNull(),
    updatedAt: tz('updated_at').notNull(),
  },
  (t) => [
    index('orders_team_created_idx').on(t.teamId, t.createdAt, t.id),
    index('orders_team_user_idx').on(t.teamId, t.userId),
    index('orders_team_status_idx').on(t.teamId, t.lowLevelStatus),
    uniqueIndex('orders_sample_id_uq').on(t.sampleId),
    index('orders_transaction_idx').on(t.transactionId, t.createdAt),
    // The operations dashboard (api/dashboard): keyset pages across teams, by status or method, and
    // patient-name prefix search.
    index('orders_created_idx').on(t.createdAt, t.id),
    index('orders_status_created_idx').on(t.status, t.createdAt, t.id),
    index('orders_method_created_idx').on(t.method, t.createdAt, t.id),
    index('orders_patient_last_name_idx').on(sql`lower(${t.patientDetails}->>'last_name') text_pattern_ops`),
    index('orders_patient_first_name_idx').on(sql`lower(${t.patientDetails}->>'first_name') text_pattern_ops`),
  ],
);

/** Order history: `id` counts from 1 per order; the (order_id, id) key makes appends idempotent. */
export const orderEvents = pgTable(
  'order_events',
  {
    orderId: uuid('order_id')
      .notNull()
      .references(() => orders.id, { onDelete: 'cascade' }),
    id: integer('id').notNull(),
    status: text('status').notNull(),
    statusDetail: text('status_detail'),
    createdAt: tz('created_at').notNull(),
  },
  (t) => [primaryKey({ columns: [t.orderId, t.id] })],
);

/** Lab results of an order (partial until final). */
export const orderResults = pgTable('order_results', {
  orderId: uuid('order_id')
    .primaryKey()
    .references(() => orders.id, { onDelete: 'cascade' }),
  status: text('status', { enum: ['partial', 'final'] }).notNull(),
  metadata: jsonb('metadata').$type<Record<string, unknown>>().notNull(),
  results: jsonb('results').$type<unknown[]>().notNull(),
  missingResults: jsonb('missing_results').$type<unknown[]>().notNull().default([]),
  interpretation: text('interpretation').notNull(),
  createdAt: tz('created_at').notNull(),
  updatedAt: tz('updated_at').notNull(),
});

/** Stored outcomes of `X-Idempotency-Key` requests to POST /v3/order. */
export const idempotencyKeys = pgTable(
  'idempotency_keys',
  {
    teamId: uuid('team_id')
      .notNull()
      .references(() => teams.id, { onDelete: 'cascade' }),
    key: text('key').notNull(),
    requestHash: text('request_hash').notNull(),
    orderId: uuid('order_id').notNull(),
    createdAt: tz('created_at').notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.teamId, t.key] })],
);
