import { and, eq } from 'drizzle-orm';
import { Hono } from 'hono';
import { z } from 'zod';
import { orders } from '../../../db/schema/index.js';
import { COLLECTION_METHODS } from '../../../domain/orders/status.js';
import type { AppEnv } from '../../env.js';
import { ValidationError, badRequest } from '../../errors.js';
import { parseJsonBody } from '../../validation.js';
import { checkOrderRefs, startOrder } from './create.js';
import { orderPhysician } from '../../../domain/physician.js';
import { checkOrderSurroundings } from '../lab-accounts/order-checks.js';
import type { OrdersDeps } from './deps.js';
import { patientAddress, patientDetails, physician } from './schemas.js';

/** ImportOrderBody (CONTRACT §4): an order whose requisition already exists with the lab. */
export const importOrderBody = z.object({
  user_id: z.string().uuid(),
  billing_type: z.enum(['client_bill', 'commercial_insurance', 'patient_bill_passthrough', 'patient_bill']),
  order_set: z.object({ lab_test_ids: z.array(z.string().uuid()).length(1, 'exactly one lab test'), lab_account_id: z.string().uuid().nullish() }),
  collection_method: z.enum(COLLECTION_METHODS),
  physician: physician.nullish(),
  patient_details: patientDetails,
  patient_address: patientAddress,
  /** The lab's requisition / control number (Labcorp) or lab reference id (Quest): unique. */
  sample_id: z.string().trim().regex(/^[A-Za-z0-9-]{4,40}$/, 'must be 4–40 letters, digits or dashes'),
  lab_account_id: z.string().uuid().nullish(),
});

/**
 * POST /v3/order/import (BEHAVIOUR §1): the order starts `requisition_bypassed` instead of
 * `requisition_created`, has no requisition PDF, and may use a lab account still `PENDING`.
 */
export function importOrderRoutes(deps: OrdersDeps) {
  const app = new Hono<AppEnv>({ strict: false });
  app.post('/order/import', async (c) => {
    const body = await parseJsonBody(c, importOrderBody);
    const teamId = c.get('teamId');
    const labTestId = body.order_set.lab_test_ids[0]!;
    const labAccountId = body.lab_account_id ?? body.order_set.lab_account_id ?? null;
    const { method, test } = await checkOrderRefs(deps, teamId, body.user_id, labTestId, labAccountId, { allowPendingAccount: true });
    if (body.collection_method !== method) {
      throw new ValidationError([{ loc: ['body', 'collection_method'], msg: `the lab test is collected by ${method}`, type: 'value_error' }]);
    }
    // The lab-account rules of POST /v3/order, for an import: a PENDING account is accepted, delegation and
    // billing are checked, and an order without a physician is signed by the service's own.
    const around = await checkOrderSurroundings(deps.db, {
      teamId,
      userId: body.user_id,
      labId: test.labId!,
      labAccountId,
      purpose: 'import',
      physician: body.physician ?? null,
      patientState: body.patient_address.state,
      billingType: body.billing_type,
      icdCodes: null,
      now: new Date(),
      network: deps.serviceNetwork,
    });
    const [taken] = await deps.db.select({ id: orders.id }).from(orders).where(and(eq(orders.sampleId, body.sample_id))).limit(1);
    if (taken) throw badRequest(`An order with sample_id ${body.sample_id} already exists`);
    const result = await startOrder(
      c,
      deps,
      {
        userId: body.user_id,
        labTestId,
        method,
        registrable: false,
        sampleId: body.sample_id,
        patientDetails: body.patient_details,
        patientAddress: body.patient_address,
        physician: body.physician ?? orderPhysician(around.physician),
        billingType: body.billing_type,
        labAccountId: around.account.id,
      },
      { registrable: false, idempotency: null, imported: true },
    );
    return c.json(result);
  });
  return app;
}
