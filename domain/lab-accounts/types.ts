/**
 * Lab accounts: a team's (or the service's own "platform") account at a lab, the `lab_account_id`
 * of orders. Enums live here once; the schema, the queries, the routes and order creation use them.
 */

/** `delegated_flow` (OAS `LabAccountDelegatedFlow`): who orders (the client's physicians or the service's) and who follows criticals. */
export const DELEGATED_FLOWS = ['order_delegated', 'result_delegated', 'fully_delegated', 'not_delegated'] as const;
export type DelegatedFlow = (typeof DELEGATED_FLOWS)[number];

/** `status` (OAS `LabAccountStatus`), plus `inactive` for accounts closed by an operator. */
export const LAB_ACCOUNT_STATUSES = ['active', 'pending', 'suspended', 'ready_to_launch', 'inactive'] as const;
export type LabAccountStatus = (typeof LAB_ACCOUNT_STATUSES)[number];

/** `billing_type` of orders (CONTRACT §4 `Billing`). */
export const BILLING_TYPES = ['client_bill', 'commercial_insurance', 'patient_bill_passthrough', 'patient_bill'] as const;
export type BillingType = (typeof BILLING_TYPES)[number];

/** The 50 states and DC, as two-letter codes. */
export const US_STATES = [
  'AL', 'AK', 'AZ', 'AR', 'CA', 'CO', 'CT', 'DE', 'DC', 'FL', 'GA', 'HI', 'ID', 'IL', 'IN', 'IA', 'KS',
  'KY', 'LA', 'ME', 'MD', 'MA', 'MI', 'MN', 'MS', 'MO', 'MT', 'NE', 'NV', 'NH', 'NJ', 'NM', 'NY', 'NC',
  'ND', 'OH', 'OK', 'OR', 'PA', 'RI', 'SC', 'SD', 'TN', 'TX', 'UT', 'VT', 'VA', 'WA', 'WV', 'WI', 'WY',
] as const;

/** Billing types an account accepts, each with the patient states it accepts them in (`*`: every state). */
export type AllowedBilling = Partial<Record<BillingType, string[]>>;

/** A lab account as the rules see it (a stored team account or a platform account). */
export interface LabAccount {
  id: string;
  /** Null for a platform account (the service's own account at the lab, shared by every team). */
  teamId: string | null;
  labId: number;
  name: string;
  status: LabAccountStatus;
  delegatedFlow: DelegatedFlow;
  allowedBilling: AllowedBilling;
  defaultComment: string | null;
  /** When the account became delegated (its creation for accounts delegated from the start): the grace period counts from here. */
  delegatedAt: Date;
  providerAccountId: string;
  businessUnits: string[] | null;
  createdAt: Date;
}

/** Every billing type in every state: what platform accounts accept. */
export const ALL_BILLING: AllowedBilling = Object.fromEntries(BILLING_TYPES.map((b) => [b, ['*']]));
