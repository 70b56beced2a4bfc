import { ApplicationFailure } from '@temporalio/common';
import { eq } from 'drizzle-orm';
import type { Db, DbOrTx } from '../../db/client.js';
import { appointmentView, latestAppointment } from '../../db/queries/appointments.js';
import { recordTeamEvent } from '../../db/queries/events.js';
import { appointmentChanges, appointments, orders, users } from '../../db/schema/index.js';
import { decodeBookingKey } from '../../domain/appointments/booking-key.js';
import { PHLEBOTOMY_ZIPS, PSC_SITES, findSite, sitesNear, ZIP_CENTRES } from '../../domain/appointments/sites.js';
import { PHLEBOTOMY_DAYS, PSC_DAYS, isSlotStart } from '../../domain/appointments/slots.js';
import { availableDays } from './availability.js';
import type { Logger } from '../../lib/logger.js';
import type { AppointmentChange } from '../../workflows/lab-order/definitions.js';
import { eventAnnouncer } from '../webhooks/announce.js';
import { SANDBOX_PROVIDERS } from './sandbox-provider.js';

/** A change the provider or the slot refuses: the caller learns why; the order is unchanged. */
export const refusedAppointment = (message: string) => ApplicationFailure.create({ message, type: 'AppointmentRefused', nonRetryable: true });

/** How many of the earliest open slots a simulated booking chooses from. */
const SPREAD = 16;

/** One of the first SPREAD open slots (those with a booking key), the same one for the same order and slots. */
export function spreadPick(slots: { booking_key?: string | null }[], orderId: string): string | null {
  const open = slots.flatMap((s) => (s.booking_key ? [s.booking_key] : [])).slice(0, SPREAD);
  if (open.length === 0) return null;
  const n = Number.parseInt(orderId.replace(/-/g, '').slice(-8), 16);
  return open[(Number.isFinite(n) ? n : 0) % open.length]!;
}

interface Deps {
  db: Db;
  logger: Logger;
  wakeEndpoints: (endpointIds: string[]) => Promise<void>;
  clock?: () => Date;
}

export interface ChangeAppointmentInput {
  /** Made by the workflow: the same change retried is applied once. */
  changeId: string;
  teamId: string;
  orderId: string;
  /** The order has no requisition yet: a booking is held (`reserved`) until it has. */
  beforeRequisition: boolean;
  change: AppointmentChange;
}

/** Activities of appointment changes, run by the order's workflow (one transaction each, webhook event included). */
export function createAppointmentActivities({ db, logger, wakeEndpoints, clock = () => new Date() }: Deps) {
  const announce = eventAnnouncer(db, wakeEndpoints);

  async function apply(tx: DbOrTx, input: ChangeAppointmentInput, now: Date): Promise<{ appointmentId: string; startAt: string | null; eventId: string | null }> {
    const [done] = await tx.select().from(appointmentChanges).where(eq(appointmentChanges.id, input.changeId));
    if (done) {
      const [again] = await tx.select({ startAt: appointments.startAt }).from(appointments).where(eq(appointments.id, done.appointmentId));
      return { appointmentId: done.appointmentId, startAt: again?.startAt?.toISOString() ?? null, eventId: null };
    }
    const [order] = await tx.select().from(orders).where(eq(orders.id, input.orderId));
    if (!order) throw refusedAppointment("This order doesn't exist.");
    const current = await latestAppointment(tx, input.teamId, input.orderId);
    const active = current && current.status !== 'cancelled' && current.status !== 'completed' ? current : null;
    const change = input.change;
    const at = now.toISOString();
    let row: typeof appointments.$inferSelect;
    let created = false;

    if (change.action === 'confirm') {
      if (!active || active.status !== 'reserved') throw refusedAppointment('There is no reserved appointment to confirm.');
    } else if (change.action === 'progress') {
      const from = change.status === 'in_progress' ? ['confirmed'] : ['confirmed', 'in_progress'];
      if (!active || !from.includes(active.status)) {
        throw refusedAppointment(active ? `This appointment is ${active.status}; it cannot become ${change.status}.` : "This order doesn't have an appointment yet.");
      }
    } else if (change.action === 'cancel' || change.action === 'reschedule') {
      if (!active) throw refusedAppointment(current?.status === 'cancelled' ? 'This appointment has already been cancelled.' : "This order doesn't have an appointment yet.");
    } else if (active) {
      throw refusedAppointment('This order already has an active appointment; reschedule or cancel it.');
    }
    const provider = (name: string) => SANDBOX_PROVIDERS[name as keyof typeof SANDBOX_PROVIDERS];

    if (change.action === 'book' || change.action === 'reschedule') {
      const key = decodeBookingKey(change.bookingKey);
      if (!key || key.type !== change.type) throw refusedAppointment('Invalid booking key format');
      if (Date.parse(key.expiresAt) <= now.getTime()) throw refusedAppointment('This booking key has expired; get new availability.');
      const p = provider(key.provider);
      const site = key.type === 'patient_service_center' ? findSite(key.place) : undefined;
      const timezone = site?.timezone ?? ZIP_CENTRES[key.place]?.timezone;
      if (!timezone || (key.type === 'patient_service_center' && !site)) throw refusedAppointment(`Location with site code ${key.place} not found`);
      const start = new Date(key.start);
      if (!isSlotStart(start, timezone, p.rules)) throw refusedAppointment('Invalid booking key format');
      if (change.action === 'reschedule' && active!.startAt?.getTime() === start.getTime()) throw refusedAppointment('The appointment is already at this time.');
      if (!(await p.book(tx, { place: key.place, start }))) throw refusedAppointment('This slot is no longer available; choose another one.');
      const end = new Date(start.getTime() + p.rules.slotMinutes * 60_000);
      const status = input.beforeRequisition ? 'reserved' : 'confirmed';
      const event = { created_at: at, status: status === 'confirmed' ? 'scheduled' : status, data: { start_at: start.toISOString() } };
      if (change.action === 'reschedule') {
        if (active!.startAt) await provider(active!.provider).release(tx, { place: active!.place, start: active!.startAt });
        [row] = await tx
          .update(appointments)
          .set({ startAt: start, endAt: end, status, notes: change.notes ?? active!.notes, accessNotes: change.accessNotes ?? active!.accessNotes, events: [...active!.events, event], updatedAt: now })
          .where(eq(appointments.id, active!.id))
          .returning() as [typeof row];
      } else {
        const address = site
          ? { first_line: site.firstLine, city: site.city, state: site.state, zip_code: site.zipCode }
          : { first_line: order.patientAddress?.first_line, second_line: order.patientAddress?.second_line ?? null, city: order.patientAddress?.city, state: order.patientAddress?.state, zip_code: order.patientAddress?.zip };
        const centre = site?.location ?? ZIP_CENTRES[key.place]!;
        [row] = await tx
          .insert(appointments)
          .values({
            id: input.changeId, teamId: input.teamId, orderId: input.orderId, userId: order.userId, type: key.type, provider: key.provider, status,
            place: key.place, address, location: { lng: centre.lng, lat: centre.lat }, startAt: start, endAt: end, timezone,
            notes: change.notes, accessNotes: change.accessNotes, events: [event], createdAt: now, updatedAt: now,
          })
          .returning() as [typeof row];
        created = true;
      }
    } else if (change.action === 'request') {
      const zip = String(change.address.zip_code ?? '');
      [row] = await tx
        .insert(appointments)
        .values({
          id: input.changeId, teamId: input.teamId, orderId: input.orderId, userId: order.userId, type: 'phlebotomy', provider: change.provider,
          status: 'pending', place: zip, address: change.address, location: { lng: ZIP_CENTRES[zip]?.lng ?? 0, lat: ZIP_CENTRES[zip]?.lat ?? 0 },
          timezone: ZIP_CENTRES[zip]?.timezone ?? null, notes: change.notes, accessNotes: change.accessNotes,
          events: [{ created_at: at, status: 'pending', data: null }], createdAt: now, updatedAt: now,
        })
        .returning() as [typeof row];
      created = true;
    } else if (change.action === 'cancel') {
      if (active!.startAt) await provider(active!.provider).release(tx, { place: active!.place, start: active!.startAt });
      [row] = await tx
        .update(appointments)
        .set({ status: 'cancelled', cancellationReasonId: change.reasonId, notes: change.notes ?? active!.notes, events: [...active!.events, { created_at: at, status: 'cancelled', data: { cancellation_reason_id: change.reasonId } }], updatedAt: now })
        .where(eq(appointments.id, active!.id))
        .returning() as [typeof row];
    } else if (change.action === 'confirm') {
      [row] = await tx
        .update(appointments)
        .set({ status: 'confirmed', events: [...active!.events, { created_at: at, status: 'scheduled', data: { start_at: active!.startAt?.toISOString() ?? null } }], updatedAt: now })
        .where(eq(appointments.id, active!.id))
        .returning() as [typeof row];
    } else if (change.action === 'progress') {
      [row] = await tx
        .update(appointments)
        .set({ status: change.status, notes: change.notes ?? active!.notes, events: [...active!.events, { created_at: at, status: change.status, data: null }], updatedAt: now })
        .where(eq(appointments.id, active!.id))
        .returning() as [typeof row];
    } else {
      throw refusedAppointment('Unknown appointment change.');
    }
    await tx.insert(appointmentChanges).values({ id: input.changeId, appointmentId: row.id, createdAt: now });
    const [user] = await tx.select({ clientUserId: users.clientUserId }).from(users).where(eq(users.id, row.userId));
    const eventId = input.changeId;
    await recordTeamEvent(tx, {
      id: eventId,
      teamId: input.teamId,
      userId: row.userId,
      clientUserId: user?.clientUserId ?? null,
      eventType: created ? 'labtest.appointment.created' : 'labtest.appointment.updated',
      data: appointmentView(row),
      subjectId: row.id,
      createdAt: now,
    });
    return { appointmentId: row.id, startAt: row.startAt?.toISOString() ?? null, eventId };
  }

  return {
    /**
     * Sandbox simulation: a booking key for an open slot near the order's patient (a PSC, or the
     * phlebotomist's ZIP): one of the first SPREAD open slots, chosen by the order id, so that orders
     * simulated at the same moment seldom reach for the same slot (one that loses the race asks again).
     */
    async sandboxBookingKey(input: { orderId: string; type: 'phlebotomy' | 'patient_service_center' }): Promise<string | null> {
      const [order] = await db.select().from(orders).where(eq(orders.id, input.orderId));
      const zip = String(order?.patientAddress?.zip ?? '');
      const now = clock();
      if (input.type === 'patient_service_center') {
        const site = (sitesNear(zip, 100) ?? []).find((s) => s.site.schedulingViaUs)?.site ?? PSC_SITES[0]!;
        const days = await availableDays(db, { provider: 'quest', place: site.siteCode, timeZone: site.timezone, startDate: null, days: PSC_DAYS, now });
        return spreadPick(days.flatMap((d) => d.slots), input.orderId);
      }
      const covered = PHLEBOTOMY_ZIPS[zip];
      const place = covered ? zip : '85004';
      const days = await availableDays(db, { provider: covered?.provider ?? 'getlabs', place, timeZone: ZIP_CENTRES[place]!.timezone, startDate: null, days: PHLEBOTOMY_DAYS, now });
      return spreadPick(days.flatMap((d) => d.slots), input.orderId);
    },

    /** Books, requests, reschedules or cancels the order's appointment with its provider, and announces it. */
    async changeAppointment(input: ChangeAppointmentInput): Promise<{ appointmentId: string; startAt: string | null }> {
      const result = await db.transaction((tx) => apply(tx, input, clock()));
      logger.info({ order_id: input.orderId, appointment_id: result.appointmentId, action: input.change.action }, 'appointment changed');
      if (result.eventId) await announce(result.eventId);
      return { appointmentId: result.appointmentId, startAt: result.startAt };
    },
  };
}
