import type { MiddlewareHandler } from 'hono';
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

type Entry = { teamId: string; expiresAt: number };

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

  get mark(): number {
    return this.generation;
  }

  /** Caches a lookup begun at generation `mark`, unless something was dropped since. */
  set(hash: string, teamId: string, now: number, mark: number): void {
    if (mark !== this.generation || this.deaf) return;
    if (this.entries.size >= 10_000) this.entries.clear();
    this.entries.set(hash, { teamId, expiresAt: now + this.ttlMs });
  }

  drop(hash: string): void {
    this.generation++;
    this.entries.delete(hash);
  }

  clear(): void {
    this.generation++;
    this.entries.clear();
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

  return async (c, next) => {
    const key = c.req.header(API_KEY_HEADERS[0]) ?? c.req.header(API_KEY_HEADERS[1]);
    if (!key) throw new HttpError(401, 'Missing API key: send it in the x-service-api-key header.');
    const scope = checkKeyScope(key, options.environment, options.region);
    if (!scope.ok) throw new HttpError(401, scope.reason);

    const hash = hashApiKey(key);
    const now = Date.now();
    let teamId = cache?.get(hash, now)?.teamId;
    if (!teamId) {
      const mark = cache?.mark ?? 0;
      const found = await findTeamByKeyHash(options.db, hash);
      if (!found) throw new HttpError(401, 'Invalid API key.');
      teamId = found.teamId;
      cache?.set(hash, teamId, now, mark);
    }
    c.set('teamId', teamId);
    await next();
  };
}
