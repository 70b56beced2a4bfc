import type { MiddlewareHandler } from 'hono';
import { checkPartnerKeyScope, hashApiKey } from '../../domain/api-keys.js';
import type { ServiceEnvironment, ServiceRegion } from '../../domain/environment.js';
import type { Db } from '../../db/client.js';
import { findPartnerByKeyHash, type Partner } from '../../db/queries/partners.js';
import type { AppEnv } from '../env.js';
import { HttpError } from '../errors.js';

/** Request values on /partner/*: the calling partner instead of a team. */
export interface PartnerEnv {
  Variables: AppEnv['Variables'] & { partner: Partner };
}

export const PARTNER_KEY_HEADER = 'x-partner-api-key';

/**
 * Partner authentication (couriers, labs, operators). Reads only `x-partner-api-key`: team keys
 * (`sk_…`/`pk_…`, in any header) never authenticate here, and partner keys never pass team auth.
 * No cache: a revoked key stops working at once. The key itself is never logged or stored.
 */
export function partnerAuth(options: { db: Db; environment: ServiceEnvironment; region: ServiceRegion }): MiddlewareHandler<PartnerEnv> {
  return async (c, next) => {
    const key = c.req.header(PARTNER_KEY_HEADER);
    if (!key) throw new HttpError(401, `Missing partner API key: send it in the ${PARTNER_KEY_HEADER} header.`);
    const scope = checkPartnerKeyScope(key, options.environment, options.region);
    if (!scope.ok) throw new HttpError(401, scope.reason);
    const partner = await findPartnerByKeyHash(options.db, hashApiKey(key));
    if (!partner) throw new HttpError(401, 'Invalid partner API key.');
    c.set('partner', partner);
    c.set('log', c.get('log').child({ partner_key_id: partner.id, partner_kind: partner.kind }));
    await next();
  };
}
