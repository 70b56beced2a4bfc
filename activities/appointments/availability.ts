import type { DbOrTx } from '../../db/client.js';
import { KEY_LIFETIME_BEFORE_START_MS, encodeBookingKey } from '../../domain/appointments/booking-key.js';
import type { ProviderName } from '../../domain/appointments/provider.js';
import { localDate } from '../../domain/appointments/slots.js';
import { SANDBOX_PROVIDERS } from './sandbox-provider.js';

/** TimeSlot (CONTRACT §6) with a fresh booking key per call (older keys stay bookable until they expire). */
export interface TimeSlotJson {
  booking_key: string | null;
  start: string;
  end: string;
  expires_at: string | null;
  price: number;
  is_priority: boolean;
  num_appointments_available: number;
}

/** A provider's slots at a place, from `startDate` (default: today at the place), as the availability routes answer them. */
export async function availableDays(
  db: DbOrTx,
  q: { provider: ProviderName; place: string; timeZone: string; startDate: string | null; days: number; now: Date },
): Promise<{ date: string; slots: TimeSlotJson[] }[]> {
  const p = SANDBOX_PROVIDERS[q.provider];
  const startDate = q.startDate ?? localDate(q.now, q.timeZone);
  const days = await p.availability(db, { place: q.place, timeZone: q.timeZone, startDate, days: q.days, now: q.now });
  return days.map((d) => ({
    date: d.date,
    slots: d.slots.map((s) => {
      const expiresAt = new Date(s.start.getTime() - KEY_LIFETIME_BEFORE_START_MS);
      const bookable = s.available > 0 && expiresAt.getTime() > q.now.getTime();
      return {
        booking_key: bookable
          ? encodeBookingKey({ v: 1, type: p.type, provider: p.name, place: q.place, start: s.start.toISOString(), expiresAt: expiresAt.toISOString() })
          : null,
        start: s.start.toISOString(),
        end: s.end.toISOString(),
        expires_at: bookable ? expiresAt.toISOString() : null,
        price: p.rules.price,
        is_priority: false,
        num_appointments_available: s.available,
      };
    }),
  }));
}
