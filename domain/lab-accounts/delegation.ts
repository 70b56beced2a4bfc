/**
 * The spec's rules for lab account delegation, as pure functions (no I/O, no clock: `now` is given).
 *
 * 1. An account whose `delegated_flow` is `order_delegated` or `fully_delegated` is delegated.
 * 2. Orders on a delegated account must name a physician, once the account's grace period is over.
 * 3. Orders on non-delegated accounts are placed by the service's physicians.
 * 4. With a `lab_account_id`, the panels and markers on offer are those of that account's lab.
 * 5. An order recreated with `update_reason=INCORRECT_LAB` resolves a fresh lab account.
 */
import { servicePhysicianFor, type NetworkPhysician, type Physician } from './physicians.js';
import type { DelegatedFlow, LabAccount } from './types.js';

/** Rule 1. */
export function isDelegated(flow: DelegatedFlow): boolean {
  return flow === 'order_delegated' || flow === 'fully_delegated';
}

export interface DelegationPolicy {
  /** Days after an account became delegated during which an order without a physician still falls back to the service's. */
  graceDays: number;
}

export const DEFAULT_DELEGATION_POLICY: DelegationPolicy = { graceDays: 30 };

const DAY_MS = 86_400_000;

/** When rule 2 starts to apply to this account (null: never, the account is not delegated). */
export function physicianRequiredFrom(account: Pick<LabAccount, 'delegatedFlow' | 'delegatedAt'>, policy: DelegationPolicy): Date | null {
  if (!isDelegated(account.delegatedFlow)) return null;
  return new Date(account.delegatedAt.getTime() + policy.graceDays * DAY_MS);
}

export type OrderingPhysician =
  | { ok: true; physician: Physician; source: 'client' | 'service'; warning?: string }
  | { ok: false; detail: string };

/**
 * Rules 2 and 3: who orders. A delegated account uses the client's physician; without one it falls
 * back to a service physician during its grace period and refuses the order after it. A non-delegated
 * (or platform) account always orders through a service physician licensed in the patient's state.
 */
export function orderingPhysician(input: {
  account: Pick<LabAccount, 'id' | 'delegatedFlow' | 'delegatedAt'>;
  physician: Physician | null | undefined;
  patientState: string;
  now: Date;
  policy?: DelegationPolicy;
  /** The service's physicians (domain/physician.ts); the sandbox network by default. */
  network?: readonly NetworkPhysician[];
}): OrderingPhysician {
  const { account, physician, now } = input;
  const requiredFrom = physicianRequiredFrom(account, input.policy ?? DEFAULT_DELEGATION_POLICY);
  if (requiredFrom === null) return { ok: true, physician: servicePhysicianFor(input.patientState, input.network), source: 'service' };
  if (physician) return { ok: true, physician, source: 'client' };
  if (now.getTime() >= requiredFrom.getTime()) {
    return { ok: false, detail: `A physician is required for orders on lab account ${account.id}: its delegated_flow is ${account.delegatedFlow}` };
  }
  return {
    ok: true,
    physician: servicePhysicianFor(input.patientState, input.network),
    source: 'service',
    warning: `lab account ${account.id} is delegated: orders without a physician are refused from ${requiredFrom.toISOString()}`,
  };
}

/** Rule 4: of these markers (or panels, or lab tests), those the account's lab performs. */
export function offeredByAccount<T extends { labId: number | null }>(items: T[], account: Pick<LabAccount, 'labId'> | null): T[] {
  return account ? items.filter((i) => i.labId === account.labId) : items;
}

export const UPDATE_REASONS = ['INCORRECT_LAB'] as const;
export type UpdateReason = (typeof UPDATE_REASONS)[number];

/**
 * Rule 5: the lab account to resolve for an order recreated from another one. An incorrect lab means
 * the first order's account was wrong: it is not reused, and a fresh one is resolved (null = resolve as
 * if none were given) unless the new request names one itself. Otherwise the first order's account carries over.
 */
export function accountForRecreation(input: {
  updateReason: UpdateReason | null | undefined;
  previousLabAccountId: string | null;
  requestedLabAccountId: string | null | undefined;
}): string | null {
  if (input.requestedLabAccountId) return input.requestedLabAccountId;
  if (input.updateReason === 'INCORRECT_LAB') return null;
  return input.previousLabAccountId;
}
