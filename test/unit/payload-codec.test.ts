import { DefaultPayloadConverter } from '@temporalio/common';
import { describe, expect, it } from 'vitest';
import { EncryptionCodec } from '../../lib/payload-codec.js';

const converter = new DefaultPayloadConverter();
const key = (fill: number) => async () => Buffer.alloc(32, fill);
const patient = { first_name: 'Ada', last_name: 'Lovelace', dob: '1985-12-10' };

describe('payload encryption codec', () => {
  it('round-trips payloads and hides their content and metadata', async () => {
    const codec = new EncryptionCodec(key(1));
    const payload = converter.toPayload(patient);
    const [sealed] = await codec.encode([payload]);
    expect(Buffer.from(sealed!.data!).toString('latin1')).not.toContain('Lovelace');
    expect(Object.keys(sealed!.metadata!)).toEqual(['encoding', 'encryption-key-id']);
    expect(new TextDecoder().decode(sealed!.metadata!.encoding)).toBe('binary/encrypted');
    const [opened] = await codec.decode([sealed!]);
    expect(converter.fromPayload(opened!)).toEqual(patient);
  });

  it('passes payloads from before the codec through unchanged', async () => {
    const plain = converter.toPayload({ legacy: true });
    expect(await new EncryptionCodec(key(1)).decode([plain])).toEqual([plain]);
  });

  it('refuses payloads sealed with another key, and tampered ones', async () => {
    const [sealed] = await new EncryptionCodec(key(1)).encode([converter.toPayload(patient)]);
    await expect(new EncryptionCodec(key(2)).decode([sealed!])).rejects.toThrow(/not the current key/);
    const tampered = { ...sealed!, data: Buffer.from(sealed!.data!).map((b, i) => (i === 20 ? b ^ 1 : b)) };
    await expect(new EncryptionCodec(key(1)).decode([tampered])).rejects.toThrow();
  });

  it('asks for the master key again after a failure to load it', async () => {
    let calls = 0;
    const codec = new EncryptionCodec(async () => {
      calls++;
      if (calls === 1) throw new Error('database down');
      return Buffer.alloc(32, 3);
    });
    await expect(codec.encode([converter.toPayload(1)])).rejects.toThrow('database down');
    await expect(codec.encode([converter.toPayload(1)])).resolves.toHaveLength(1);
  });
});
