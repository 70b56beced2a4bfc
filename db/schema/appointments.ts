import { index, integer, jsonb, pgTable, primaryKey, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { orders } from './orders.js';
import { teams } from './teams.js';

const tz = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

export interface AppointmentEventData {
  created_at: string;
  status: string;
  data: Record<string, unknown> | null;
}

/** An order's appointments (one active at a time); written by the order's workflow only. */
export const appointments = pgTable(
  'appointments',
  {
    id: uuid('id').primaryKey(),
    teamId: uuid('team_id')
      .notNull()
      .references(() => teams.id, { onDelete: 'cascade' }),
    orderId: uuid('order_id')
      .notNull()
      .references(() => orders.id, { onDelete: 'cascade' }),
    userId: uuid('user_id').notNull(),
    /** phlebotomy | patient_service_center */
    type: text('type').notNull(),
    /** getlabs | phlebfinders | quest */
    provider: text('provider').notNull(),
    /** pending | reserved | confirmed | in_progress | completed | cancelled */
    status: text('status').notNull(),
    /** PSC site code, or the ZIP code a phlebotomist serves. */
    place: text('place').notNull(),
    address: jsonb('address').$type<Record<string, unknown>>().notNull(),
    location: jsonb('location').$type<{ lng: number; lat: number }>().notNull(),
    startAt: tz('start_at'),
    endAt: tz('end_at'),
    timezone: text('timezone'),
    notes: text('notes'),
    accessNotes: text('access_notes'),
    cancellationReasonId: text('cancellation_reason_id'),
    events: jsonb('events').$type<AppointmentEventData[]>().notNull(),
    createdAt: tz('created_at').notNull(),
    updatedAt: tz('updated_at').notNull(),
  },
  (t) => [index('appointments_order_idx').on(t.orderId, t.createdAt)],
);

/** Booked appointments per provider slot: the sandbox providers' capacity, shared by every process. */
export const appointmentSlots = pgTable(
  'appointment_slots',
  {
    provider: text('provider').notNull(),
    place: text('place').notNull(),
    startAt: tz('start_at').notNull(),
    booked: integer('booked').notNull(),
  },
  (t) => [primaryKey({ columns: [t.provider, t.place, t.startAt] })],
);

/** Each change applied once (the workflow's change id): an activity retried after a crash changes nothing twice. */
export const appointmentChanges = pgTable('appointment_changes', {
  id: uuid('id').primaryKey(),
  appointmentId: uuid('appointment_id').notNull(),
  createdAt: tz('created_at').notNull(),
});
