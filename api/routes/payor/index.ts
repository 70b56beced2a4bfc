import { Hono } from 'hono';
import type { Db } from '../../../db/client.js';
import { createTeamPayor } from '../../../db/queries/insurance.js';
import type { AppEnv } from '../../env.js';
import { ValidationError } from '../../errors.js';
import { parseJsonBody } from '../../validation.js';
import { payorView } from '../insurance/index.js';
import { createPayorBody } from '../insurance/schemas.js';

/** POST /v3/payor (payor.createPayor): a team's own payor, found by the team's payor searches only. */
export function payorRoutes({ db }: { db: Db }) {
  const app = new Hono<AppEnv>({ strict: false });

  app.post('/', async (c) => {
    const body = await parseJsonBody(c, createPayorBody);
    if ((body.provider == null) !== (body.provider_payor_id == null)) {
      throw new ValidationError([
        { loc: ['body', body.provider == null ? 'provider' : 'provider_payor_id'], msg: 'provider and provider_payor_id go together', type: 'value_error' },
      ]);
    }
    const payor = await createTeamPayor(db, {
      teamId: c.get('teamId'),
      name: body.name,
      address: body.address,
      provider: body.provider ?? null,
      providerPayorId: body.provider_payor_id ?? null,
    });
    return c.json(payorView(payor));
  });

  return app;
}
