import { Hono } from 'hono';
import type { Db } from '../../../db/client.js';
import { listPayors } from '../../../db/queries/insurance.js';
import { searchDiagnoses, validateIcdCodes } from '../../../domain/icd10/validate.js';
import { matchPayors, type Payor } from '../../../domain/insurance/payors.js';
import type { AppEnv } from '../../env.js';
import { parseJsonBody, parseQuery } from '../../validation.js';
import { diagnosisQuery, payorSearchBody, payorSearchQuery, validateIcdCodesBody } from './schemas.js';

/** ClientFacingPayorSearchResponse; the deprecated POST search names the code `code`. */
export function payorView(p: Payor, codeKey: 'payor_code' | 'code' = 'payor_code') {
  return {
    [codeKey]: p.payorCode,
    name: p.name,
    aliases: p.aliases,
    org_address: { ...p.address, second_line: p.address.second_line ?? null },
    source: p.source,
  };
}

/**
 * /v3/insurance/*: payor search (the service's payors and the team's own), diagnosis search and ICD-10
 * validation over the code table in domain/icd10.
 */
export function insuranceRoutes({ db }: { db: Db }) {
  const app = new Hono<AppEnv>({ strict: false });

  app.get('/search/payor', async (c) => {
    const q = parseQuery(c, payorSearchQuery);
    const payors = matchPayors(await listPayors(db, c.get('teamId')), {
      insuranceName: q.insurance_name,
      provider: q.provider,
      providerPayorId: q.provider_payor_id,
    });
    return c.json(payors.map((p) => payorView(p)));
  });

  app.post('/search/payor', async (c) => {
    const body = await parseJsonBody(c, payorSearchBody);
    const payors = matchPayors(await listPayors(db, c.get('teamId')), {
      insuranceName: body.insurance_name ?? undefined,
      provider: body.provider ?? undefined,
      providerPayorId: body.provider_id ?? undefined,
    });
    return c.json(payors.map((p) => payorView(p, 'code')));
  });

  app.get('/search/diagnosis', (c) => {
    const q = parseQuery(c, diagnosisQuery);
    return c.json(searchDiagnoses(q.diagnosis_query));
  });

  app.post('/validate_icd_codes', async (c) => {
    const body = await parseJsonBody(c, validateIcdCodesBody);
    return c.json(validateIcdCodes(body.codes));
  });

  return app;
}
