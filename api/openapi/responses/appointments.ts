/** Wire shapes of the appointment routes (db/queries/appointments.ts appointmentView; SDK ClientFacingAppointment…). */
import { z } from 'zod';

const isoDateTime = z.iso.datetime({ offset: true });

export const appointment = z.object({
  id: z.string(),
  user_id: z.string(),
  order_id: z.string(),
  address: z.looseObject({}).nullable(),
  location: z.looseObject({}).nullable(),
  start_at: isoDateTime.nullable(),
  end_at: isoDateTime.nullable(),
  iana_timezone: z.string().nullable(),
  type: z.string(),
  provider: z.string(),
  status: z.string(),
  provider_id: z.string(),
  external_id: z.null(),
  can_reschedule: z.boolean(),
  event_status: z.string(),
  event_data: z.object({ notes: z.string().nullable(), access_notes: z.string().nullable(), cancellation_reason_id: z.string().nullable() }),
  events: z.array(z.looseObject({})),
});

export const cancellationReasons = z.array(z.object({ id: z.string(), name: z.string(), is_refundable: z.boolean() }));

/** Open slots by day (AppointmentAvailabilitySlots). */
export const availability = z.object({ timezone: z.string().nullable(), slots: z.array(z.looseObject({ date: z.string(), slots: z.array(z.looseObject({})) })) });

/** Walk-in sites of a lab near a ZIP code (LabResultsMetadata PSCInfo). */
export const pscInfo = z.object({
  lab_id: z.number().int(),
  slug: z.string(),
  patient_service_centers: z.array(
    z.object({
      metadata: z.looseObject({ name: z.string(), zip_code: z.string(), first_line: z.string() }),
      distance: z.number(),
      site_code: z.string(),
      supported_bill_types: z.array(z.string()),
      location: z.looseObject({}),
      capabilities: z.array(z.string()),
    }),
  ),
});

export const areaInfo = z.object({
  zip_code: z.string(),
  phlebotomy: z.object({ is_served: z.boolean(), providers: z.array(z.object({ name: z.string(), service_types: z.array(z.string()) })) }),
  central_labs: z.record(
    z.string(),
    z.object({
      patient_service_centers: z.object({ appointment_with_vital: z.boolean(), within_radius: z.number().int(), radius: z.string(), capabilities: z.array(z.string()) }),
      supported_bill_types: z.array(z.string()),
      lab_id: z.number().int(),
    }),
  ),
});
