/** Wire shapes of the wearable reads: timeseries samples, summaries, raw rows, streams, introspection, aggregation. */
import { z } from 'zod';

const isoDateTime = z.iso.datetime({ offset: true });

/** One timeseries sample (api/routes/vitals sampleJson): intervals also carry start and end. */
export const sample = z.object({
  timestamp: isoDateTime,
  start: isoDateTime.optional(),
  end: isoDateTime.optional(),
  value: z.number(),
  unit: z.string(),
  type: z.string().nullable(),
  timezone_offset: z.number().int().nullable(),
});

export const source = z.looseObject({ provider: z.string(), type: z.string(), slug: z.string(), name: z.string(), logo: z.string() });

export const groupedSamples = z.object({
  groups: z.record(z.string(), z.array(z.object({ source, data: z.array(sample) }))),
  next: z.string().nullable(),
  next_cursor: z.string().nullable(),
});

/** A summary as stored, with its ids and source (the resource's own keys vary: SDK ClientFacingSleep, …). */
export const summary = z.looseObject({ id: z.string().nullable(), user_id: z.string(), source, created_at: isoDateTime, updated_at: isoDateTime });

export const rawRow = z.object({
  id: z.string().nullable(),
  user_id: z.string(),
  timestamp: isoDateTime,
  data: z.looseObject({}),
  provider_id: z.string().nullable(),
  source_id: z.number().int(),
  priority_id: z.number().int(),
  source: z.object({ name: z.string(), slug: z.string(), logo: z.string() }),
  created_at: isoDateTime,
  updated_at: isoDateTime,
});

export const rawDevices = z.object({
  devices: z.array(
    z.object({
      id: z.string(), user_id: z.string(), provider_id: z.string(), source_id: z.number().int(),
      source: z.object({ name: z.string(), slug: z.string(), logo: z.string() }), data: z.looseObject({ provider: z.string(), status: z.string() }),
    }),
  ),
});

/** A workout's or sleep's stream, as the provider sent it (keys are the stream's series). */
export const stream = z.record(z.string(), z.unknown());

export const introspection = z.object({
  data: z.array(z.object({ user_id: z.string(), provider: z.record(z.string(), z.record(z.string(), z.unknown())) })),
  next: z.string().nullable(),
  next_cursor: z.string().nullable(),
});

export const aggregateResults = z.object({ results: z.array(z.object({ table: z.record(z.string(), z.array(z.unknown())) })) });
