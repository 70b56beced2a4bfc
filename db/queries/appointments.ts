import { and, desc, eq } from 'drizzle-orm';
import type { DbOrTx } from '../client.js';
import { appointments } from '../schema/index.js';

export type AppointmentRow = typeof appointments.$inferSelect;

/** `event_status` is `status` except that a confirmed appointment shows `scheduled` (CONTRACT AppointmentEventStatus). */
const eventStatusOf = (status: string) => (status === 'confirmed' ? 'scheduled' : status);

/** ClientFacingAppointment (CONTRACT §6): the shape of GET, book, reschedule, cancel and the appointment webhooks. */
export function appointmentView(a: AppointmentRow) {
  return {
    id: a.id,
    user_id: a.userId,
    order_id: a.orderId,
    address: a.address,
    location: a.location,
    start_at: a.startAt?.toISOString() ?? null,
    end_at: a.endAt?.toISOString() ?? null,
    iana_timezone: a.timezone,
    type: a.type,
    provider: a.provider,
    status: a.status,
    provider_id: `${a.provider}-${a.id.slice(0, 8)}`,
    external_id: null,
    can_reschedule: a.status === 'confirmed' || a.status === 'reserved',
    event_status: eventStatusOf(a.status),
    event_data: { notes: a.notes, access_notes: a.accessNotes, cancellation_reason_id: a.cancellationReasonId },
    events: a.events,
  };
}

export async function latestAppointment(db: DbOrTx, teamId: string, orderId: string): Promise<AppointmentRow | null> {
  const [row] = await db
    .select()
    .from(appointments)
    .where(and(eq(appointments.teamId, teamId), eq(appointments.orderId, orderId)))
    .orderBy(desc(appointments.createdAt))
    .limit(1);
  return row ?? null;
}
