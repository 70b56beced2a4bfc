import { and, eq, gte, lt, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.js';
import { appointmentSlots } from '../../db/schema/index.js';
import type { AppointmentType, ProviderName, SchedulingProvider } from '../../domain/appointments/provider.js';
import { PHLEBOTOMY_RULES, PSC_RULES, daySlots, type SlotRules } from '../../domain/appointments/slots.js';

/**
 * A sandbox scheduling provider that behaves like a real one: business hours in the site's time zone,
 * 20-minute slots, capacity per slot that decreases when booked, persisted in Postgres (survives
 * restarts, shared by every API and worker process).
 */
function sandboxProvider(name: ProviderName, type: AppointmentType, rules: SlotRules): SchedulingProvider<DbOrTx> {
  return {
    name,
    type,
    rules,
    async availability(db, q) {
      const from = new Date(Date.parse(`${q.startDate}T00:00:00Z`) - 86_400_000);
      const to = new Date(Date.parse(`${q.startDate}T00:00:00Z`) + (q.days + 1) * 86_400_000);
      const rows = await db
        .select({ startAt: appointmentSlots.startAt, booked: appointmentSlots.booked })
        .from(appointmentSlots)
        .where(and(eq(appointmentSlots.provider, name), eq(appointmentSlots.place, q.place), gte(appointmentSlots.startAt, from), lt(appointmentSlots.startAt, to)));
      const booked = new Map(rows.map((r) => [r.startAt.toISOString(), r.booked]));
      return daySlots(q.startDate, q.days, q.timeZone, rules, q.now, booked);
    },
    async book(tx, slot) {
      const rows = await tx
        .insert(appointmentSlots)
        .values({ provider: name, place: slot.place, startAt: slot.start, booked: 1 })
        .onConflictDoUpdate({
          target: [appointmentSlots.provider, appointmentSlots.place, appointmentSlots.startAt],
          set: { booked: sql`${appointmentSlots.booked} + 1` },
          setWhere: sql`${appointmentSlots.booked} < ${rules.capacity}`,
        })
        .returning({ booked: appointmentSlots.booked });
      return rows.length > 0;
    },
    async release(tx, slot) {
      await tx
        .update(appointmentSlots)
        .set({ booked: sql`greatest(${appointmentSlots.booked} - 1, 0)` })
        .where(and(eq(appointmentSlots.provider, name), eq(appointmentSlots.place, slot.place), eq(appointmentSlots.startAt, slot.start)));
    },
  };
}

export const SANDBOX_PROVIDERS: Readonly<Record<ProviderName, SchedulingProvider<DbOrTx>>> = {
  getlabs: sandboxProvider('getlabs', 'phlebotomy', PHLEBOTOMY_RULES),
  phlebfinders: sandboxProvider('phlebfinders', 'phlebotomy', PHLEBOTOMY_RULES),
  quest: sandboxProvider('quest', 'patient_service_center', PSC_RULES),
};
