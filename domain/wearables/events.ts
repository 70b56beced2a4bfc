import { v5 as uuidv5 } from 'uuid';
import type { SampleRecord } from './adapter.js';

/**
 * Wearable webhook payloads (spec "Wearable data events", CONTRACT §11). Events stay under
 * MAX_EVENT_PAYLOAD_BYTES: a batch of samples larger than that is split over several events.
 */
export const MAX_EVENT_PAYLOAD_BYTES = 256 * 1024;
const NAMESPACE = '8f3a3f0e-96a2-4b8e-a2a6-1d3c9f5e7b21';

/** Stable event id: the same on every retry of the writing activity. */
export const wearableEventId = (...parts: string[]) => uuidv5(parts.join(':'), NAMESPACE);

/** Integer source ids (`$.data.source_id`). */
const SOURCE_IDS: Record<string, number> = { apple_health_kit: 1, fitbit: 2, oura: 3, freestyle_libre: 4 };
export const sourceIdOf = (provider: string) => SOURCE_IDS[provider] ?? 0;

const NAMES: Record<string, string> = { apple_health_kit: 'Apple HealthKit', fitbit: 'Fitbit', oura: 'Oura', freestyle_libre: 'Freestyle Libre' };
export function clientFacingSource(provider: string, sourceType: string, extra: Record<string, unknown> = {}) {
  return { provider, type: sourceType, slug: provider, name: NAMES[provider] ?? provider, logo: `https://logos.labflow.invalid/${provider}.png`, ...extra };
}

export function sampleJson(s: SampleRecord) {
  return {
    timestamp: s.timestamp.toISOString(),
    ...(s.end ? { start: s.timestamp.toISOString(), end: s.end.toISOString() } : {}),
    value: s.value,
    unit: s.unit,
    type: s.type ?? null,
    timezone_offset: s.timezoneOffset,
  };
}

/** Splits items into chunks whose JSON stays under `limit` bytes (leaving `overhead` for the envelope). */
export function chunkBySize<T>(items: T[], limit = MAX_EVENT_PAYLOAD_BYTES, overhead = 2048): T[][] {
  const chunks: T[][] = [];
  let current: T[] = [];
  let size = 0;
  for (const item of items) {
    const bytes = Buffer.byteLength(JSON.stringify(item)) + 1;
    if (current.length && size + bytes > limit - overhead) {
      chunks.push(current);
      current = [];
      size = 0;
    }
    current.push(item);
    size += bytes;
  }
  if (current.length) chunks.push(current);
  return chunks;
}
