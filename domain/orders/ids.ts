import { createHash, randomInt } from 'node:crypto';

const SAMPLE_ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789'; // no 0/O, 1/I: read off a kit by a person

/** The id printed on a kit's tube (and its barcode): 12 characters, unambiguous when read aloud. */
export function newSampleId(): string {
  let id = '';
  for (let i = 0; i < 12; i++) id += SAMPLE_ALPHABET[randomInt(SAMPLE_ALPHABET.length)];
  return id;
}

/** A UUID derived from text (same text, same UUID): orders created under an idempotency key get a stable id. */
export function uuidFrom(text: string): string {
  const h = createHash('sha256').update(text).digest('hex');
  const variant = ((parseInt(h[16]!, 16) & 0x3) | 0x8).toString(16);
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-5${h.slice(13, 16)}-${variant}${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

/** Canonical JSON (sorted keys) hashed: two requests are "the same" when their parsed bodies are. */
export function requestHash(body: unknown): string {
  const canonical = (v: unknown): unknown =>
    Array.isArray(v)
      ? v.map(canonical)
      : v && typeof v === 'object'
        ? Object.fromEntries(Object.entries(v).filter(([, x]) => x !== undefined).sort(([a], [b]) => a.localeCompare(b)).map(([k, x]) => [k, canonical(x)]))
        : v;
  return createHash('sha256').update(JSON.stringify(canonical(body))).digest('hex');
}

/** The id of the transaction an initial order opens (stable: a retried creation opens the same one). */
export const transactionIdOf = (initialOrderId: string): string => uuidFrom(`order-transaction:${initialOrderId}`);
