import { z } from 'zod';
import { isRealDate } from '../../../domain/users.js';

const text = (max: number) => z.string().trim().min(1).max(max);
const notes = z.string().max(1000).optional().nullable();
const date = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'must be a date YYYY-MM-DD').refine(isRealDate, 'must be a real date');

/** UsAddress (CONTRACT §6). */
export const usAddress = z.object({
  first_line: text(200),
  second_line: z.string().max(200).optional().nullable(),
  city: text(100),
  state: z.string().regex(/^[A-Z]{2}$/, 'must be a two-letter state code'),
  zip_code: z.string().regex(/^\d{5}(-\d{4})?$/, 'must be a US ZIP code'),
  unit: z.string().max(50).optional().nullable(),
});

export const startDateQuery = z.object({ start_date: date.optional() });

export const bookingBody = z.object({
  booking_key: z.string().min(1).max(1024),
  appointment_notes: notes,
  access_notes: notes,
  async_confirmation: z.boolean().optional(),
  sync_confirmation_timeout_millisecond: z.number().int().min(1000).max(10000).optional(),
  async_confirmation_timeout_millisecond: z.number().int().min(60_000).max(172_800_000).optional(),
});

export const requestBody = z.object({
  address: usAddress,
  provider: z.enum(['getlabs', 'phlebfinders']),
  appointment_notes: notes,
  access_notes: notes,
});

/** Phlebotomy cancel: snake_case. */
export const phlebotomyCancelBody = z.object({ cancellation_reason_id: z.string().min(1).max(100), notes });
/** PSC cancel: camelCase on the wire (CONTRACT §6). */
export const pscCancelBody = z.object({ cancellationReasonId: z.string().min(1).max(100), note: notes });

export const RADII = ['10', '20', '25', '50', '100'] as const;
export const pscAvailabilityQuery = z.object({
  lab: z.literal('quest', { message: 'lab must be quest' }),
  start_date: date.optional(),
  site_codes: z.array(z.string().min(1).max(16)).optional(),
  zip_code: z.string().regex(/^\d{5}$/, 'must be a five-digit ZIP code').optional(),
  radius: z.enum(RADII).optional(),
  allow_stale: z.enum(['true', 'false']).optional(),
});
