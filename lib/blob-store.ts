import { createHash, randomUUID } from 'node:crypto';
import { mkdir, open, readFile, rename, rm, stat } from 'node:fs/promises';
import { join, resolve } from 'node:path';

/**
 * Content-addressed storage of files (uploaded lab reports, extracted pages): a blob is named by the
 * SHA-256 of its bytes, so storing the same bytes twice is a no-op and a name always means the same
 * content. Workflows carry only the hash, never the bytes. A later S3 store implements the same interface.
 */
export interface BlobStore {
  /** Stores the bytes (idempotent) and returns their hash and size. */
  put(bytes: Uint8Array): Promise<{ sha256: string; size: number }>;
  /** The bytes stored under `sha256`; throws BlobNotFoundError when there are none. */
  get(sha256: string): Promise<Buffer>;
  has(sha256: string): Promise<boolean>;
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
    if (await this.has(sha256)) return { sha256, size: bytes.byteLength };
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

  async has(sha256: string): Promise<boolean> {
    try {
      return (await stat(this.pathOf(sha256))).isFile();
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return false;
      throw err;
    }
  }
}

/** The service's blob store: files under `$DATA_DIR/blobs`. */
export const blobStoreFor = (dataDir: string): FileBlobStore => new FileBlobStore(join(dataDir, 'blobs'));
