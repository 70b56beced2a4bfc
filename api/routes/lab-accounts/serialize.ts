import { US_STATES, type AllowedBilling, type LabAccount } from '../../../domain/lab-accounts/types.js';

/** `allowed_billing` on the wire: each billing type with its states (`*` spelled out as every state). */
function wireBilling(allowed: AllowedBilling): Record<string, string[]> {
  return Object.fromEntries(Object.entries(allowed).map(([type, states]) => [type, states.includes('*') ? [...US_STATES] : [...states].sort()]));
}

/**
 * A lab account as GET /v3/lab_test/lab_account answers it (the hosted API's ClientFacingLabAccount
 * keys, plus `lab_id`, `name`, `team_id` and `is_platform`). A platform account has `org_id: null` and
 * an empty allowlist: it is the service's, shared by every team.
 */
export function labAccountView(account: LabAccount, labSlug: string) {
  const platform = account.teamId === null;
  return {
    id: account.id,
    lab: labSlug,
    lab_id: account.labId,
    org_id: account.teamId,
    team_id: account.teamId,
    is_platform: platform,
    status: account.status,
    delegated_flow: account.delegatedFlow,
    provider_account_id: account.providerAccountId,
    account_name: account.name,
    name: account.name,
    default_clinical_notes: account.defaultComment,
    business_units: account.businessUnits,
    allowed_billing: wireBilling(account.allowedBilling),
    team_id_allowlist: platform ? [] : [account.teamId],
    created_at: account.createdAt.toISOString(),
  };
}
