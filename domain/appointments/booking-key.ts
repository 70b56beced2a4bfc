import { z } from 'zod';

/**
 * A booking key names one slot at one place with one provider, and when it stops being bookable. Keys do
 * not hold capacity (BEHAVIOUR §5): booking checks the slot's capacity again. Sandbox keys stay bookable
 * until they expire, one hour before the slot starts.
 */
const keySchema = z.object({
  v: z.literal(1),
  type: z.enum(['phlebotomy', 'patient_service_center']),
  provider: z.enum(['getlabs', 'phlebfinders', 'quest']),
  /** PSC site code, or the ZIP code a phlebotomist serves. */
  place: z.string().min(1).max(16),
  start: z.string().datetime(),
  expiresAt: z.string().datetime(),
});
export type BookingKey = z.infer<typeof keySchema>;

export const encodeBookingKey = (key: BookingKey): string => Buffer.from(JSON.stringify(key)).toString('base64url');

/** The key, or null when it is not one of ours (`Invalid booking key format`). */
export function decodeBookingKey(text: string): BookingKey | null {
  if (!/^[A-Za-z0-9_-]{16,512}$/.test(text)) return null;
  try {
    const parsed = keySchema.safeParse(JSON.parse(Buffer.from(text, 'base64url').toString('utf8')));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

export const KEY_LIFETIME_BEFORE_START_MS = 3600_000;
