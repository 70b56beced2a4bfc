/**
 * Which lab account an order uses (BEHAVIOUR §6, D:/lab/overview/lab-accounts), as a pure choice over
 * the team's accounts and the service's platform account at the lab:
 * - an explicit id must be the team's (or the lab's platform account), at the ordered lab, and active
 *   (an import also takes a `pending` account);
 * - omitted: no team account at the lab → the platform account; exactly one usable → it; several → the
 *   caller must choose; accounts at the lab but none usable → no fallback, the order cannot be placed.
 */
import type { BillingType, LabAccount, LabAccountStatus } from './types.js';

export type Purpose = 'order' | 'import';

export type Resolution = { ok: true; account: LabAccount } | { ok: false; status: 400 | 404; detail: string };

const usableStatuses = (purpose: Purpose): LabAccountStatus[] => (purpose === 'import' ? ['active', 'pending'] : ['active']);

export function chooseLabAccount(input: {
  labId: number;
  /** The team's accounts (at any lab). */
  teamAccounts: LabAccount[];
  /** The service's account at this lab, if it has one. */
  platform: LabAccount | null;
  requestedId?: string | null | undefined;
  purpose?: Purpose;
}): Resolution {
  const purpose = input.purpose ?? 'order';
  const usable = usableStatuses(purpose);
  if (input.requestedId) {
    const id = input.requestedId;
    const account = input.teamAccounts.find((a) => a.id === id) ?? (input.platform?.id === id ? input.platform : null);
    if (!account) return { ok: false, status: 404, detail: 'Lab account not found' };
    if (!usable.includes(account.status)) return { ok: false, status: 400, detail: `Lab account ${id} is not active` };
    if (account.labId !== input.labId) return { ok: false, status: 400, detail: `Lab account ${id} is not at the lab of the lab test` };
    return { ok: true, account };
  }
  const atLab = input.teamAccounts.filter((a) => a.labId === input.labId);
  if (atLab.length === 0) {
    if (input.platform) return { ok: true, account: input.platform };
    return { ok: false, status: 400, detail: `No lab account is available for lab ${input.labId}` };
  }
  const active = atLab.filter((a) => a.status === 'active');
  if (active.length === 1) return { ok: true, account: active[0]! };
  if (active.length > 1) {
    return { ok: false, status: 400, detail: `Several active lab accounts of your team are at lab ${input.labId}: give lab_account_id` };
  }
  const pending = atLab.filter((a) => usable.includes(a.status));
  if (pending.length === 1) return { ok: true, account: pending[0]! };
  if (pending.length > 1) {
    return { ok: false, status: 400, detail: `Several pending lab accounts of your team are at lab ${input.labId}: give lab_account_id` };
  }
  return { ok: false, status: 400, detail: `None of your team's lab accounts at lab ${input.labId} is active` };
}

/** Whether the account accepts this billing type for a patient in this state (null: yes; else why not). */
export function billingRefusal(account: Pick<LabAccount, 'id' | 'allowedBilling'>, billingType: BillingType, patientState: string): string | null {
  const states = account.allowedBilling[billingType];
  if (!states || states.length === 0) return `Billing type ${billingType} is not allowed on lab account ${account.id}`;
  if (states.includes('*') || states.includes(patientState.toUpperCase())) return null;
  return `Billing type ${billingType} is not allowed on lab account ${account.id} for patients in ${patientState.toUpperCase()}`;
}
