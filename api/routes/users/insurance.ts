import { Hono, type Context } from 'hono';
import type { Db } from '../../../db/client.js';
import { createUserInsurance, findPayor, latestUserInsurance, type UserInsuranceRow } from '../../../db/queries/insurance.js';
import { findUser } from '../../../db/queries/users.js';
import type { Payor } from '../../../domain/insurance/payors.js';
import type { AppEnv } from '../../env.js';
import { ValidationError, notFound } from '../../errors.js';
import { parse, parseJsonBody, parseQuery } from '../../validation.js';
import { createInsuranceBody, latestInsuranceQuery, userIdParam } from '../insurance/schemas.js';

/** ClientFacingInsurance: the insurance with its payor as `company`. */
function insuranceView(row: UserInsuranceRow, payor: Payor | null) {
  return {
    id: row.id,
    member_id: row.memberId,
    payor_code: row.payorCode,
    group_id: row.groupId,
    relationship: row.relationship,
    insured: row.insured,
    guarantor: row.guarantor,
    is_primary: row.isPrimary,
    // CompanyDetails is required on the wire; a payor is never deleted, the fallback only guards the shape.
    company: payor
      ? { name: payor.name, address: { ...payor.address, second_line: payor.address.second_line ?? null } }
      : { name: row.payorCode, address: (row.insured as { address?: unknown }).address ?? null },
    created_at: row.createdAt.toISOString(),
  };
}

/** POST /v2/user/{user_id}/insurance and GET /v2/user/{user_id}/insurance/latest (user.createInsurance, user.getLatestInsurance). */
export function userInsuranceRoutes({ db }: { db: Db }) {
  const app = new Hono<AppEnv>({ strict: false });

  async function liveUser(c: Context<AppEnv>) {
    const { user_id } = parse(userIdParam, c.req.param(), 'path');
    const user = await findUser(db, c.get('teamId'), user_id);
    if (!user || user.deletedAt) throw notFound('User does not exist on this team');
    return user;
  }

  app.post('/:user_id/insurance', async (c) => {
    const user = await liveUser(c);
    const body = await parseJsonBody(c, createInsuranceBody);
    const teamId = c.get('teamId');
    const payor = await findPayor(db, teamId, body.payor_code);
    if (!payor) {
      throw new ValidationError([{ loc: ['body', 'payor_code'], msg: `unknown payor_code ${body.payor_code}: find one with GET /v3/insurance/search/payor`, type: 'value_error', input: body.payor_code }]);
    }
    const row = await createUserInsurance(db, {
      teamId,
      userId: user.id,
      payorCode: body.payor_code,
      memberId: body.member_id,
      groupId: body.group_id ?? null,
      relationship: body.relationship,
      insured: body.insured,
      guarantor: body.guarantor ?? null,
      isPrimary: body.is_primary ?? true,
    });
    return c.json(insuranceView(row, payor));
  });

  app.get('/:user_id/insurance/latest', async (c) => {
    const user = await liveUser(c);
    const q = parseQuery(c, latestInsuranceQuery);
    const row = await latestUserInsurance(db, c.get('teamId'), user.id, q.is_primary === undefined ? undefined : q.is_primary === 'true');
    if (!row) throw notFound('No insurance found for this user');
    return c.json(insuranceView(row, await findPayor(db, c.get('teamId'), row.payorCode)));
  });

  return app;
}
