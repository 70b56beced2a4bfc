import { mkdtempSync, rmSync, statSync, utimesSync } from 'node:fs';
import { readdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { blobsOfJobs } from '../../db/queries/users.js';
import { FileBlobStore, sha256Hex } from '../../lib/blob-store.js';

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});
function store() {
  const dir = mkdtempSync(join(tmpdir(), 'labflow-blob-erasure-'));
  dirs.push(dir);
  return new FileBlobStore(dir);
}
const HOUR = 3600_000;
const backdate = (path: string, ms: number) => {
  const t = new Date(Date.now() - ms);
  utimesSync(path, t, t);
};

describe('blob store: touching and deleting', () => {
  it('put of bytes already stored marks the blob touched now', async () => {
    const blobs = store();
    const { sha256 } = await blobs.put(Buffer.from('same bytes'));
    backdate(blobs.pathOf(sha256), 2 * HOUR);
    expect(Date.now() - statSync(blobs.pathOf(sha256)).mtimeMs).toBeGreaterThan(HOUR);
    await blobs.put(Buffer.from('same bytes'));
    expect(Date.now() - statSync(blobs.pathOf(sha256)).mtimeMs).toBeLessThan(60_000);
  });

  it('deletes a blob untouched since the cutoff, keeps a recently touched one, and a second delete finds nothing', async () => {
    const blobs = store();
    const old = await blobs.put(Buffer.from('old'));
    const fresh = await blobs.put(Buffer.from('fresh'));
    backdate(blobs.pathOf(old.sha256), 2 * HOUR);
    const cutoff = new Date(Date.now() - HOUR);
    expect(await blobs.deleteUntouchedSince(old.sha256, cutoff)).toBe('deleted');
    expect(await blobs.has(old.sha256)).toBe(false);
    expect(await blobs.deleteUntouchedSince(old.sha256, cutoff)).toBe('missing');
    expect(await blobs.deleteUntouchedSince(fresh.sha256, cutoff)).toBe('recent');
    expect((await blobs.get(fresh.sha256)).toString()).toBe('fresh');
    expect(await blobs.deleteUntouchedSince(sha256Hex(Buffer.from('never stored')), cutoff)).toBe('missing');
    // nothing left behind in the temp dir
    expect(await readdir(join(blobs.root, 'tmp'))).toEqual([]);
  });

  it('an old blob stored again is kept; after the window it can go', async () => {
    const blobs = store();
    const { sha256 } = await blobs.put(Buffer.from('uploaded twice'));
    backdate(blobs.pathOf(sha256), 2 * HOUR);
    await blobs.put(Buffer.from('uploaded twice'));
    expect(await blobs.deleteUntouchedSince(sha256, new Date(Date.now() - HOUR))).toBe('recent');
    expect(await blobs.deleteUntouchedSince(sha256, new Date(Date.now() + 1000))).toBe('deleted');
    // and a later put writes it anew
    await blobs.put(Buffer.from('uploaded twice'));
    expect((await blobs.get(sha256)).toString()).toBe('uploaded twice');
  });

  it('rejects names that are not SHA-256 digests', async () => {
    await expect(store().deleteUntouchedSince('../etc/passwd', new Date())).rejects.toThrow(/not a SHA-256/);
  });
});

describe('blobsOfJobs', () => {
  it('lists every uploaded file and extracted text once, sorted', () => {
    const a = 'a'.repeat(64);
    const b = 'b'.repeat(64);
    const c = 'c'.repeat(64);
    expect(
      blobsOfJobs([
        { fileSha256s: [c, a], pagesSha256: b },
        { fileSha256s: [a], pagesSha256: null },
        { fileSha256s: [b], pagesSha256: b },
      ]),
    ).toEqual([a, b, c]);
    expect(blobsOfJobs([])).toEqual([]);
  });
});
