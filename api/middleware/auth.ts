import type { Context, MiddlewareHandler, Next } from 'hono';
import type postgres from 'postgres';
import { checkKeyScope, hashApiKey } from '../../domain/api-keys.js';
import type { ServiceEnvironment, ServiceRegion } from '../../domain/environment.js';
import type { Db } from '../../db/client.js';
import { findTeamByKeyHash } from '../../db/queries/teams.js';
import type { AppEnv } from '../env.js';
import { HttpError } from '../errors.js';

export interface AuthOptions {
  db: Db;
  environment: ServiceEnvironment;
  region: ServiceRegion;
  /** Seconds a verified key is trusted without a database round trip; 0 disables. */
  cacheTtlSeconds: number;
  /**
   * The postgres.js client to LISTEN on (one more connection) for keys revoked in any process, so a revoked key
   * stops working in every API process at once. Without it a revoked key can work until its entry's TTL ends.
   */
  listen?: postgres.Sql;
  /** How often the listener checks it still hears the channel (default 5 s); tests shorten it. */
  heartbeatMs?: number;
}

/** Header names accepted for the team API key; the second is what @tryvital/vital-node sends. */
export const API_KEY_HEADERS = ['x-service-api-key', 'x-vital-api-key'] as const;

/** Postgres channel on which the api_keys trigger (migration 0016) announces the hash of a key revoked, rotated out or deleted. */
export const KEY_REVOKED_CHANNEL = 'labflow_api_key_revoked';
const PING = 'ping'; // never a key hash (64 hex digits)

type Entry = { teamId: string; expiresAt: number; hash: string };

/** Most presented keys remembered beside their hash (getByKey); past it they are all forgotten at once. */
const MAX_KEYS = 1_000;

/**
 * Verified keys by hash, each trusted for the TTL. With `follow`, revocations announced on KEY_REVOKED_CHANNEL
 * drop entries at once; every (re)subscription clears the whole cache (what was announced while the listener
 * was down is lost). A heartbeat (a ping on the channel through the pool) finds a listener that went deaf
 * (postgres.js subscribes again by itself after a close it sees, but not on a connection that silently stopped
 * delivering): then the cache is cleared and not used until the channel is heard again, and it subscribes anew.
 * The TTL stays the bound whatever happens to the listener.
 */
export class KeyCache {
  private readonly entries = new Map<string, Entry>();
  /**
   * The presented key of a verified entry, so a key seen again is found without hashing it (SHA-256 is most
   * of what a cached key costs). Its entry counts only while it is still the hash's entry in `entries`:
   * whatever drops or replaces that (revocation, clear, expiry) drops the key too. Keys pass through this
   * process's memory with every request anyway; a key kept here goes when it is next presented after its entry
   * ended, or when the cache is cleared (at most MAX_KEYS are kept). Never logged, like the header itself.
   */
  private readonly byKey = new Map<string, Entry>();
  /** Bumped by every drop: a lookup that raced with a revocation does not cache its (stale) answer. */
  private generation = 0;
  private stopHeartbeat: (() => void) | null = null;
  /** Following the channel but not hearing it (before the first subscription, or deaf): the cache is not used. */
  private deaf = false;

  constructor(private readonly ttlMs: number) {}

  get(hash: string, now: number): Entry | undefined {
    if (this.deaf) return undefined;
    const e = this.entries.get(hash);
    return e && e.expiresAt > now ? e : undefined;
  }

  /** The live entry of a key presented before (set with `key`), without hashing it. */
  getByKey(key: string, now: number): Entry | undefined {
    if (this.deaf) return undefined;
    const e = this.byKey.get(key);
    if (e === undefined) return undefined;
    if (e.expiresAt > now && this.entries.get(e.hash) === e) return e;
    this.byKey.delete(key);
    return undefined;
  }

  get mark(): number {
    return this.generation;
  }

  /** Caches a lookup begun at generation `mark`, unless something was dropped since. */
  set(hash: string, teamId: string, now: number, mark: number, key?: string): void {
    if (mark !== this.generation || this.deaf) return;
    if (this.entries.size >= 10_000) this.clearEntries();
    const entry = { teamId, expiresAt: now + this.ttlMs, hash };
    this.entries.set(hash, entry);
    if (key !== undefined) this.remember(key, entry);
  }

  /** Lets `key` find `entry` (one `get` just returned for its hash) without hashing it next time. */
  remember(key: string, entry: Entry): void {
    if (this.byKey.size >= MAX_KEYS) this.byKey.clear();
    this.byKey.set(key, entry);
  }

  drop(hash: string): void {
    this.generation++;
    this.entries.delete(hash); // its key, if kept, no longer finds its entry there (getByKey)
  }

  clear(): void {
    this.generation++;
    this.clearEntries();
  }

  private clearEntries(): void {
    this.entries.clear();
    this.byKey.clear();
  }

  /** LISTENs on `sql` for revoked keys until the client is ended. */
  follow(sql: postgres.Sql, heartbeatMs = 5_000): void {
    this.deaf = true;
    let heardAt = Date.now();
    const heard = () => {
      heardAt = Date.now();
      this.deaf = false;
    };
    let handle: { unlisten(): Promise<void> } | null = null;
    let subscribing = false;
    // After a deaf spell both this and postgres.js's own re-subscription may register: notices are then handled
    // twice, which is harmless (dropping and hearing are idempotent).
    const subscribe = () => {
      if (subscribing) return;
      subscribing = true;
      const old = handle;
      handle = null;
      void (old ? old.unlisten().catch(() => {}) : Promise.resolve())
        .then(() =>
          sql.listen(
            KEY_REVOKED_CHANNEL,
            (payload) => (payload === PING ? heard() : this.drop(payload)),
            // Also called when postgres.js subscribes again by itself after its connection dropped.
            () => {
              this.clear();
              heard();
            },
          ),
        )
        .then((h) => (handle = h))
        .catch(() => {}) // Postgres unreachable: the heartbeat tries again
        .finally(() => (subscribing = false));
    };
    subscribe();
    const timer = setInterval(() => {
      if (Date.now() - heardAt > 2.5 * heartbeatMs) {
        this.deaf = true; // whatever it missed must not be trusted, nor what it would miss now
        this.clear();
        heardAt = Date.now();
        subscribe();
      }
      sql`select pg_notify(${KEY_REVOKED_CHANNEL}, ${PING})`.catch((err: unknown) => {
        if ((err as { code?: string }).code === 'CONNECTION_ENDED') this.stopHeartbeat?.(); // the pool was closed
      });
    }, heartbeatMs);
    timer.unref();
    this.stopHeartbeat = () => clearInterval(timer);
  }
}

/**
 * Team authentication. Only a hash of the presented key is compared with stored hashes; the key
 * itself is never logged or stored. Sets `teamId`, which every query of the request is scoped by.
 */
export function teamAuth(options: AuthOptions): MiddlewareHandler<AppEnv> {
  const ttlMs = options.cacheTtlSeconds * 1000;
  const cache = ttlMs > 0 ? new KeyCache(ttlMs) : null;
  if (cache && options.listen) cache.follow(options.listen, options.heartbeatMs);

  /** A key not found by getByKey: its scope, its hash, then the cache by hash or the database. */
  const verify = async (c: Context<AppEnv>, next: Next, key: string, now: number): ReturnType<Next> => {
    const scope = checkKeyScope(key, options.environment, options.region);
    if (!scope.ok) throw new HttpError(401, scope.reason);

    const hash = hashApiKey(key);
    const cached = cache?.get(hash, now);
    let teamId: string;
    if (cached) {
      cache!.remember(key, cached);
      teamId = cached.teamId;
    } else {
      const mark = cache?.mark ?? 0;
      const found = await findTeamByKeyHash(options.db, hash);
      if (!found) throw new HttpError(401, 'Invalid API key.');
      teamId = found.teamId;
      cache?.set(hash, teamId, now, mark, key);
    }
    c.set('teamId', teamId);
    return next();
  };

  // Not async: a key verified before (same string, entry live) passes on without hashing and without a promise.
  return (c, next) => {
    const key = c.req.header(API_KEY_HEADERS[0]) ?? c.req.header(API_KEY_HEADERS[1]);
    if (!key) throw new HttpError(401, 'Missing API key: send it in the x-service-api-key header.');
    const now = Date.now();
    const known = cache?.getByKey(key, now);
    if (known === undefined) return verify(c, next, key, now);
    c.set('teamId', known.teamId);
    return next();
  };
}
