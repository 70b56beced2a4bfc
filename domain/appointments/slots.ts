/**
 * Slots as real scheduling providers offer them: 20-minute slots in business hours of the site's time
 * zone, a lead time before the first bookable slot, a capacity per slot. Pure: the booked counts come
 * from the caller (Postgres), the clock too.
 */

export interface SlotRules {
  /** Business hours, local time of the site: [openHour, closeHour). */
  openHour: number;
  closeHour: number;
  slotMinutes: number;
  /** Appointments per slot (phlebotomists on shift, PSC chairs). */
  capacity: number;
  /** No slot starts sooner than this after now. */
  leadMinutes: number;
  /** Price of a slot in USD. */
  price: number;
}

/** Quest PSC sandbox: 7 AM–12 PM local, 20-minute slots (BEHAVIOUR §2); three chairs. */
export const PSC_RULES: SlotRules = { openHour: 7, closeHour: 12, slotMinutes: 20, capacity: 3, leadMinutes: 60, price: 0 };
/** Getlabs (appointment-ready phlebotomy): 8 AM–4 PM local, booked ≥48 h ahead (BEHAVIOUR §5); one phlebotomist. */
export const PHLEBOTOMY_RULES: SlotRules = { openHour: 8, closeHour: 16, slotMinutes: 20, capacity: 1, leadMinutes: 48 * 60, price: 0 };

export const PHLEBOTOMY_DAYS = 14;
export const PSC_DAYS = 7;

/** The UTC instant of a local wall-clock time in `timeZone` (DST-correct via Intl). */
export function zonedInstant(date: string, hour: number, minute: number, timeZone: string): Date {
  const guess = new Date(`${date}T${String(hour).padStart(2, '0')}:${String(minute).padStart(2, '0')}:00Z`);
  const offset = (at: Date) => {
    const parts = Object.fromEntries(
      new Intl.DateTimeFormat('en-US', { timeZone, hourCycle: 'h23', year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', second: '2-digit' })
        .formatToParts(at)
        .map((p) => [p.type, p.value]),
    );
    const asUtc = Date.UTC(Number(parts.year), Number(parts.month) - 1, Number(parts.day), Number(parts.hour), Number(parts.minute), Number(parts.second));
    return asUtc - at.getTime();
  };
  const first = new Date(guess.getTime() - offset(guess));
  return new Date(guess.getTime() - offset(first));
}

/** The local calendar date (YYYY-MM-DD) of an instant in `timeZone`. */
export function localDate(at: Date, timeZone: string): string {
  return new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(at);
}

const addDays = (date: string, n: number) => new Date(Date.parse(`${date}T00:00:00Z`) + n * 86_400_000).toISOString().slice(0, 10);

export interface Slot {
  start: Date;
  end: Date;
  available: number;
}

/**
 * The slots of `days` days from `startDate` (local dates), without those already started or within the
 * lead time, each with the capacity left (`booked` counts by start ISO instant). Weekends are closed.
 */
export function daySlots(startDate: string, days: number, timeZone: string, rules: SlotRules, now: Date, booked: ReadonlyMap<string, number>): { date: string; slots: Slot[] }[] {
  const earliest = now.getTime() + rules.leadMinutes * 60_000;
  const out: { date: string; slots: Slot[] }[] = [];
  for (let d = 0; d < days; d++) {
    const date = addDays(startDate, d);
    const weekday = new Date(`${date}T12:00:00Z`).getUTCDay();
    const slots: Slot[] = [];
    if (weekday !== 0 && weekday !== 6) {
      for (let m = rules.openHour * 60; m + rules.slotMinutes <= rules.closeHour * 60; m += rules.slotMinutes) {
        const start = zonedInstant(date, Math.floor(m / 60), m % 60, timeZone);
        if (start.getTime() < earliest) continue;
        const available = rules.capacity - (booked.get(start.toISOString()) ?? 0);
        slots.push({ start, end: new Date(start.getTime() + rules.slotMinutes * 60_000), available: Math.max(0, available) });
      }
    }
    out.push({ date, slots });
  }
  return out;
}

/** Whether `start` is the start of a slot under `rules` in `timeZone` (a booking key cannot name another time). */
export function isSlotStart(start: Date, timeZone: string, rules: SlotRules): boolean {
  const date = localDate(start, timeZone);
  const weekday = new Date(`${date}T12:00:00Z`).getUTCDay();
  if (weekday === 0 || weekday === 6) return false;
  for (let m = rules.openHour * 60; m + rules.slotMinutes <= rules.closeHour * 60; m += rules.slotMinutes) {
    if (zonedInstant(date, Math.floor(m / 60), m % 60, timeZone).getTime() === start.getTime()) return true;
  }
  return false;
}
