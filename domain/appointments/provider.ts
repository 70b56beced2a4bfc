import type { Slot, SlotRules } from './slots.js';

export type AppointmentType = 'phlebotomy' | 'patient_service_center';
export type ProviderName = 'getlabs' | 'phlebfinders' | 'quest';

/**
 * A scheduling provider as the order workflow's activities and the availability routes see it. The
 * sandbox providers (activities/appointments/sandbox-provider.ts) keep capacity in Postgres; a production
 * provider calls its API here and reports status changes through the partner API.
 */
export interface SchedulingProvider<Tx> {
  readonly name: ProviderName;
  readonly type: AppointmentType;
  readonly rules: SlotRules;
  /** Open slots at `place` for `days` local days from `startDate`, with the capacity left. */
  availability(db: Tx, query: { place: string; timeZone: string; startDate: string; days: number; now: Date }): Promise<{ date: string; slots: Slot[] }[]>;
  /** Takes one place in the slot; false when it is full. */
  book(tx: Tx, slot: { place: string; start: Date }): Promise<boolean>;
  /** Gives the place back (cancel, or the old slot of a reschedule). */
  release(tx: Tx, slot: { place: string; start: Date }): Promise<void>;
}
