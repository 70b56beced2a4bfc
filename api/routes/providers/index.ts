import { Hono } from 'hono';
import { ALL_PROVIDERS, MANUAL_PROVIDERS, authTypeOf, resourcesOf } from '../../../domain/link/catalog.js';
import { providerDisplay } from '../../../domain/providers.js';
import type { AppEnv } from '../../env.js';
import { parseQuery } from '../../validation.js';
import { providersQuery } from '../link/schemas.js';

/** Numeric id of a provider in the catalogue (the SDK's `SourceLink.id`). */
export const providerNumericId = (slug: string): number => ALL_PROVIDERS.indexOf(slug) + 1;

export function describeProvider(slug: string): string {
  const { name } = providerDisplay(slug);
  const how = authTypeOf(slug);
  return how === 'sdk' ? `${name}, through the mobile SDK` : `${name}, linked by ${how}`;
}

/** The catalogue entry of a provider as `GET /v2/providers` lists it (CONTRACT §9). */
export function providerDetailed(slug: string) {
  return {
    ...providerDisplay(slug),
    description: describeProvider(slug),
    auth_type: authTypeOf(slug),
    supported_resources: [...resourcesOf(slug)],
  };
}

/** `GET /v2/providers` (team key): every data source a user can be linked to. */
export function providersRoutes() {
  const app = new Hono<AppEnv>({ strict: false });
  app.get('/', (c) => {
    const { source_type } = parseQuery(c, providersQuery);
    const slugs = ALL_PROVIDERS.filter((slug) => {
      if (!source_type) return true;
      const ble = (MANUAL_PROVIDERS as readonly string[]).includes(slug) && slug.endsWith('_ble');
      if (source_type === 'ble') return ble;
      if (source_type === 'app') return authTypeOf(slug) === 'sdk' && !ble;
      if (source_type === 'provider') return authTypeOf(slug) !== 'sdk';
      return false; // no lab or device sources are linked through this service
    });
    return c.json(slugs.map(providerDetailed));
  });
  return app;
}
