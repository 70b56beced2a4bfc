import type { MiddlewareHandler } from 'hono';
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
}

/** Header names accepted for the team API key; the second is what @tryvital/vital-node sends. */
export const API_KEY_HEADERS = ['x-service-api-key', 'x-vital-api-key'] as const;

/**
 * Team authentication. Only a hash of the presented key is compared with stored hashes; the key
 * itself is never logged or stored. Sets `teamId`, which every query of the request is scoped by.
 */
export function teamAuth(options: AuthOptions): MiddlewareHandler<AppEnv> {
  const cache = new Map<string, { teamId: string; expiresAt: number }>();
  const ttlMs = options.cacheTtlSeconds * 1000;

  return async (c, next) => {
    const key = c.req.header(API_KEY_HEADERS[0]) ?? c.req.header(API_KEY_HEADERS[1]);
    if (!key) throw new HttpError(401, 'Missing API key: send it in the x-service-api-key header.');
    const scope = checkKeyScope(key, options.environment, options.region);
    if (!scope.ok) throw new HttpError(401, scope.reason);

    const hash = hashApiKey(key);
    const now = Date.now();
    let teamId = ttlMs > 0 ? cache.get(hash) : undefined;
    if (!teamId || teamId.expiresAt <= now) {
      const found = await findTeamByKeyHash(options.db, hash);
      if (!found) {
        cache.delete(hash);
        throw new HttpError(401, 'Invalid API key.');
      }
      teamId = { teamId: found.teamId, expiresAt: now + ttlMs };
      if (ttlMs > 0) {
        if (cache.size > 10_000) cache.clear();
        cache.set(hash, teamId);
      }
    }
    c.set('teamId', teamId.teamId);
    await next();
  };
}
