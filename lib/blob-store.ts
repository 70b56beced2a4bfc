import { createHash, randomUUID } from 'node:crypto';
import { mkdir, open, readFile, rename, rm, stat, utimes } from 'node:fs/promises';
import { join, resolve } from 'node:path';

/**
 * Content-addressed storage of files (uploaded lab reports, extracted pages): a blob is named by the
 * SHA-256 of its bytes, so storing the same bytes twice is a no-op and a name always means the same
 * content. Workflows carry only the hash, never the bytes. Only FileBlobStore exists; an object store
 * (S3-compatible) would implement the same interface, but none is written (there was no S3 server to test one).
 *
 * Deleting: one blob may belong to several jobs (the same bytes uploaded twice), and an upload stores its
 * blob before anything in the database names it. So every `put` marks the blob as touched now, even when
 * it was there already, and `deleteUntouchedSince` leaves a blob alone when it was touched after the
 * cutoff: the caller checks that no job names the blob, and the cutoff (e.g. an hour ago) covers any
 * upload whose job row may not exist yet.
 */
export interface BlobStore {
  /** Stores the bytes (idempotent; an existing blob is marked touched now) and returns their hash and size. */
  put(bytes: Uint8Array): Promise<{ sha256: string; size: number }>;
  /** The bytes stored under `sha256`; throws BlobNotFoundError when there are none. */
  get(sha256: string): Promise<Buffer>;
  has(sha256: string): Promise<boolean>;
  /**
   * Deletes the blob unless a `put` touched it at or after `cutoff`. `recent` when kept for that reason;
   * `missing` when there was no such blob (deleting twice is harmless).
   */
  deleteUntouchedSince(sha256: string, cutoff: Date): Promise<'deleted' | 'missing' | 'recent'>;
}

export class BlobNotFoundError extends Error {
  constructor(readonly sha256: string) {
    super(`blob ${sha256} not found`);
    this.name = 'BlobNotFoundError';
  }
}

export const sha256Hex = (bytes: Uint8Array): string => createHash('sha256').update(bytes).digest('hex');

const HASH = /^[0-9a-f]{64}$/;

/**
 * Blobs as files under `<root>/<sha256[0:2]>/<sha256>`. Writes go to a temp file in `<root>/tmp`, are
 * flushed to disk, then renamed into place: a reader sees a whole blob or none, and a crash mid-write
 * leaves only a temp file behind.
 *
 * Several processes (every API and worker, on one or more machines) share one store by mounting the same
 * `root`: a local directory, a Docker volume, or NFS/EFS across machines. What it relies on there: `rename`
 * atomic within `root` (tmp/ is inside it, so never across filesystems), `fsync` before the rename, and mtimes
 * set by `utimes` read back by `stat` (deleteUntouchedSince; servers' clocks in sync). Every read checks the
 * SHA-256, so a copy that is torn or stale (an NFS cache) is an error, never wrong content.
 */
export class FileBlobStore implements BlobStore {
  readonly root: string;

  constructor(root: string) {
    this.root = resolve(root);
  }

  /** Where a blob lives (or would live). */
  pathOf(sha256: string): string {
    if (!HASH.test(sha256)) throw new Error(`not a SHA-256 hex digest: ${sha256}`);
    return join(this.root, sha256.slice(0, 2), sha256);
  }

  async put(bytes: Uint8Array): Promise<{ sha256: string; size: number }> {
    const sha256 = sha256Hex(bytes);
    const target = this.pathOf(sha256);
    // Already there: its mtime is the "touched" time deleteUntouchedSince respects. Touching through the
    // path (not a handle) matters: a blob being deleted is first moved aside, and then this finds nothing.
    if (await touch(target)) return { sha256, size: bytes.byteLength };
    const tmpDir = join(this.root, 'tmp');
    await mkdir(tmpDir, { recursive: true });
    await mkdir(join(this.root, sha256.slice(0, 2)), { recursive: true });
    const tmp = join(tmpDir, `${sha256}.${randomUUID()}`);
    try {
      const fh = await open(tmp, 'wx', 0o600);
      try {
        await fh.writeFile(bytes);
        await fh.sync();
      } finally {
        await fh.close();
      }
      // Atomic on one filesystem; two writers of the same content both end with the same file.
      await rename(tmp, target);
    } catch (err) {
      await rm(tmp, { force: true });
      throw err;
    }
    return { sha256, size: bytes.byteLength };
  }

  async get(sha256: string): Promise<Buffer> {
    let bytes: Buffer;
    try {
      bytes = await readFile(this.pathOf(sha256));
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') throw new BlobNotFoundError(sha256);
      throw err;
    }
    // A damaged file must not pass for the content its name promises.
    if (sha256Hex(bytes) !== sha256) throw new Error(`blob ${sha256} is corrupt on disk`);
    return bytes;
  }

  /**
   * Race-free with `put`: the blob is moved aside (atomic rename into `<root>/tmp`) and its mtime read
   * again there. A put that touched it before the move shows on the moved file, which is put back; a put
   * after the move finds no file and writes the blob anew.
   */
  async deleteUntouchedSince(sha256: string, cutoff: Date): Promise<'deleted' | 'missing' | 'recent'> {
    const target = this.pathOf(sha256);
    const before = await mtimeOf(target);
    if (before === null) return 'missing';
    if (before >= cutoff.getTime()) return 'recent';
    const tmpDir = join(this.root, 'tmp');
    await mkdir(tmpDir, { recursive: true });
    const aside = join(tmpDir, `${sha256}.deleting.${randomUUID()}`);
    try {
      await rename(target, aside);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return 'missing';
      throw err;
    }
    const after = await mtimeOf(aside);
    if (after !== null && after >= cutoff.getTime()) {
      // Touched meanwhile: back in place (a put that wrote it anew in between wrote the same bytes).
      await rename(aside, target);
      return 'recent';
    }
    await rm(aside, { force: true });
    return 'deleted';
  }

  async has(sha256: string): Promise<boolean> {
    try {
      return (await stat(this.pathOf(sha256))).isFile();
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return false;
      throw err;
    }
  }
}

/** Sets a file's mtime to now; false when there is no such file. */
async function touch(path: string): Promise<boolean> {
  const now = new Date();
  try {
    await utimes(path, now, now);
    return true;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return false;
    throw err;
  }
}

async function mtimeOf(path: string): Promise<number | null> {
  try {
    return (await stat(path)).mtimeMs;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw err;
  }
}

/** The service's blob store: files under `$DATA_DIR/blobs`. */
export const blobStoreFor = (dataDir: string): FileBlobStore => new FileBlobStore(join(dataDir, 'blobs'));
