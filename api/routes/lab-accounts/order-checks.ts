/**
 * What order creation checks around the order itself (h7; called from api/routes/orders/create.ts):
 * the lab account (given or resolved, BEHAVIOUR §6), who orders (delegation rules 2–3), the billing type
 * against the account's `allowed_billing`, insurance for `commercial_insurance`, and `icd_codes`.
 * Refusals are thrown as HttpError ({detail}); nothing is written.
 */
import type { DbOrTx } from '../../../db/client.js';
import { findPayor, latestUserInsurance } from '../../../db/queries/insurance.js';
import { resolveLabAccount } from '../../../db/queries/lab-accounts.js';
import { normalizeIcd10, validateIcdCodes } from '../../../domain/icd10/validate.js';
import { orderingPhysician, type DelegationPolicy } from '../../../domain/lab-accounts/delegation.js';
import { isValidNpi, type NetworkPhysician, type Physician } from '../../../domain/lab-accounts/physicians.js';
import { billingRefusal, chooseLabAccount, type Purpose } from '../../../domain/lab-accounts/resolution.js';
import type { BillingType, LabAccount } from '../../../domain/lab-accounts/types.js';
import { HttpError, ValidationError } from '../../errors.js';

export interface OrderSurroundingsInput {
  teamId: string;
  userId: string;
  /** The lab of the order's lab test(s). */
  labId: number;
  labAccountId?: string | null | undefined;
  purpose?: Purpose;
  physician?: Physician | null | undefined;
  /** The patient's state (`patient_address.state`): billing rules and the service physician's licence. */
  patientState: string;
  billingType: BillingType;
  icdCodes?: string[] | null | undefined;
  healthInsurance?: { payor_code?: string | null | undefined } | null | undefined;
  now: Date;
  policy?: DelegationPolicy;
  /** The service's physicians (domain/physician.ts), for orders they sign. */
  network?: readonly NetworkPhysician[];
  /**
   * The accounts resolution chooses from, when the caller read them already (order creation reads them
   * with the user and lab test in one statement: db/queries/order-refs.ts); else they are read here.
   */
  accounts?: { team: LabAccount[]; platform: LabAccount | null };
}

export interface OrderSurroundings {
  account: LabAccount;
  /** The ordering physician to record on the order. */
  physician: Physician;
  physicianSource: 'client' | 'service';
  /** `icd_codes` normalised (`e119` → `E11.9`), or null when none were given. */
  icdCodes: string[] | null;
  /** The user's insurance on file that a `commercial_insurance` order bills (null otherwise, or when the body carries its own). */
  healthInsuranceId: string | null;
  warnings: string[];
}

export async function checkOrderSurroundings(db: DbOrTx, input: OrderSurroundingsInput): Promise<OrderSurroundings> {
  if (input.physician && !isValidNpi(input.physician.npi)) {
    throw new ValidationError([{ loc: ['body', 'physician', 'npi'], msg: 'npi must be a valid 10-digit National Provider Identifier', type: 'value_error', input: input.physician.npi }]);
  }
  // An imported order was placed with the lab already: its diagnosis codes and insurance are the lab's business.
  const imported = input.purpose === 'import';
  const icd = imported ? null : checkIcdCodes(input.icdCodes, input.billingType);

  const resolved = input.accounts
    ? chooseLabAccount({ labId: input.labId, teamAccounts: input.accounts.team, platform: input.accounts.platform, requestedId: input.labAccountId, purpose: input.purpose ?? 'order' })
    : await resolveLabAccount(db, input.teamId, input.labId, { labAccountId: input.labAccountId, purpose: input.purpose ?? 'order' });
  if (!resolved.ok) throw new HttpError(resolved.status, resolved.detail);
  const { account } = resolved;

  const billing = billingRefusal(account, input.billingType, input.patientState);
  if (billing) throw new HttpError(400, billing);

  const who = orderingPhysician({ account, physician: input.physician, patientState: input.patientState, now: input.now, ...(input.policy ? { policy: input.policy } : {}), ...(input.network ? { network: input.network } : {}) });
  if (!who.ok) throw new HttpError(400, who.detail);

  let healthInsuranceId: string | null = null;
  if (input.billingType === 'commercial_insurance' && !imported) {
    const payorCode = input.healthInsurance?.payor_code;
    if (payorCode) {
      if (!(await findPayor(db, input.teamId, payorCode))) {
        throw new ValidationError([{ loc: ['body', 'health_insurance', 'payor_code'], msg: `unknown payor_code ${payorCode}`, type: 'value_error', input: payorCode }]);
      }
    } else {
      const onFile = await latestUserInsurance(db, input.teamId, input.userId, true);
      if (!onFile) {
        throw new HttpError(400, 'billing_type commercial_insurance needs health_insurance.payor_code or an insurance on file for the user (POST /v2/user/{user_id}/insurance)');
      }
      healthInsuranceId = onFile.id;
    }
  }
  return { account, physician: who.physician, physicianSource: who.source, icdCodes: icd, healthInsuranceId, warnings: who.warning ? [who.warning] : [] };
}

/** `icd_codes` of an order: each a known, billable ICD-10-CM code, no Excludes1 pair; required to bill insurance. */
export function checkIcdCodes(codes: string[] | null | undefined, billingType: BillingType): string[] | null {
  if (!codes || codes.length === 0) {
    if (billingType === 'commercial_insurance') {
      throw new ValidationError([{ loc: ['body', 'icd_codes'], msg: 'orders billed to insurance need at least one ICD-10 diagnosis code', type: 'missing' }]);
    }
    return null;
  }
  const result = validateIcdCodes(codes);
  if (!result.valid) {
    const msgs = [...result.errors, ...result.violations.map((v) => `${v.code} may not be coded with ${v.conflicts_with} (${v.type})`)];
    throw new ValidationError(msgs.map((msg) => ({ loc: ['body', 'icd_codes'], msg, type: 'value_error', input: codes })));
  }
  return codes.map((c) => normalizeIcd10(c) ?? c);
}
