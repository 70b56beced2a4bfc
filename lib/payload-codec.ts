import { createCipheriv, createDecipheriv, createHash, hkdfSync, randomBytes } from 'node:crypto';
import type { Payload, PayloadCodec } from '@temporalio/common';
import { onceRetrying } from './once.js';

const ENCODING = 'binary/encrypted';
const enc = new TextEncoder();
const dec = new TextDecoder();

/**
 * Encrypts every Temporal payload (workflow inputs, activity arguments and results, signals, updates,
 * query answers) with AES-256-GCM before it leaves the process, so patient details never sit in the
 * Temporal server's history in clear. Payloads without our encoding (histories from before the codec)
 * pass through unchanged. The key is derived from the service's master key; `key-id` names it so a
 * later rotation can keep old keys for decoding.
 */
export class EncryptionCodec implements PayloadCodec {
  private readonly currentKey: () => Promise<{ id: string; bytes: Buffer }>;

  constructor(masterKey: () => Promise<Buffer>) {
    this.currentKey = onceRetrying(async () => {
      const bytes = Buffer.from(hkdfSync('sha256', await masterKey(), Buffer.alloc(0), 'labflow temporal payloads v1', 32));
      return { id: createHash('sha256').update(bytes).digest('hex').slice(0, 16), bytes };
    });
  }

  async encode(payloads: Payload[]): Promise<Payload[]> {
    const key = await this.currentKey();
    return payloads.map((p) => {
      const iv = randomBytes(12);
      const cipher = createCipheriv('aes-256-gcm', key.bytes, iv);
      // The whole payload (its metadata and data) is sealed; only our encoding marker stays readable.
      const plain = Buffer.from(JSON.stringify({ m: mapToB64(p.metadata), d: Buffer.from(p.data ?? new Uint8Array()).toString('base64') }));
      const sealed = Buffer.concat([iv, cipher.update(plain), cipher.final(), cipher.getAuthTag()]);
      return { metadata: { encoding: enc.encode(ENCODING), 'encryption-key-id': enc.encode(key.id) }, data: sealed };
    });
  }

  async decode(payloads: Payload[]): Promise<Payload[]> {
    if (!payloads.some(isEncrypted)) return payloads;
    const key = await this.currentKey();
    return payloads.map((p) => {
      if (!isEncrypted(p)) return p;
      const keyId = dec.decode(p.metadata?.['encryption-key-id'] ?? new Uint8Array());
      if (keyId !== key.id) throw new Error(`payload encrypted with key ${keyId}, not the current key ${key.id}`);
      const data = Buffer.from(p.data ?? new Uint8Array());
      const decipher = createDecipheriv('aes-256-gcm', key.bytes, data.subarray(0, 12));
      decipher.setAuthTag(data.subarray(data.length - 16));
      const plain = Buffer.concat([decipher.update(data.subarray(12, data.length - 16)), decipher.final()]);
      const { m, d } = JSON.parse(plain.toString('utf8')) as { m: Record<string, string>; d: string };
      return { metadata: b64ToMap(m), data: Buffer.from(d, 'base64') };
    });
  }
}

function isEncrypted(p: Payload): boolean {
  const e = p.metadata?.encoding;
  return e !== undefined && e !== null && dec.decode(e) === ENCODING;
}

function mapToB64(m: Payload['metadata']): Record<string, string> {
  return Object.fromEntries(Object.entries(m ?? {}).map(([k, v]) => [k, Buffer.from(v ?? new Uint8Array()).toString('base64')]));
}

function b64ToMap(m: Record<string, string>): Record<string, Uint8Array> {
  return Object.fromEntries(Object.entries(m).map(([k, v]) => [k, new Uint8Array(Buffer.from(v, 'base64'))]));
}

/** The data converter every Temporal client and worker of the service uses. */
export function serviceDataConverter(masterKey: () => Promise<Buffer>) {
  return { payloadCodecs: [new EncryptionCodec(masterKey)] };
}
