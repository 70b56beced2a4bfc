import { describe, expect, it } from 'vitest';
import { accountForRecreation, isDelegated, offeredByAccount, orderingPhysician, physicianRequiredFrom } from '../../domain/lab-accounts/delegation.js';
import { SERVICE_PHYSICIANS, isValidNpi, servicePhysicianFor } from '../../domain/lab-accounts/physicians.js';
import { platformAccount, platformAccountId } from '../../domain/lab-accounts/platform.js';
import { billingRefusal, chooseLabAccount } from '../../domain/lab-accounts/resolution.js';
import type { LabAccount } from '../../domain/lab-accounts/types.js';

const T0 = new Date('2026-10-01T00:00:00Z');
const DAY = 86_400_000;
let n = 0;
function account(over: Partial<LabAccount> = {}): LabAccount {
  n += 1;
  return {
    id: `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`,
    teamId: 'team',
    labId: 1,
    name: `Account ${n}`,
    status: 'active',
    delegatedFlow: 'not_delegated',
    delegatedAt: T0,
    allowedBilling: { client_bill: ['*'] },
    defaultComment: null,
    providerAccountId: `P${n}`,
    businessUnits: null,
    createdAt: T0,
    ...over,
  };
}
const platform = platformAccount({ id: 1, slug: 'meridian', name: 'Meridian' });
const client = { first_name: 'Gregory', last_name: 'House', npi: '1234567893' };

describe('rule 1: which accounts are delegated', () => {
  it('order_delegated and fully_delegated only', () => {
    expect(isDelegated('order_delegated')).toBe(true);
    expect(isDelegated('fully_delegated')).toBe(true);
    expect(isDelegated('result_delegated')).toBe(false);
    expect(isDelegated('not_delegated')).toBe(false);
  });
});

describe('rules 2 and 3: who orders', () => {
  const delegated = account({ delegatedFlow: 'order_delegated', delegatedAt: T0 });
  const policy = { graceDays: 30 };

  it('a delegated account uses the client physician', () => {
    const r = orderingPhysician({ account: delegated, physician: client, patientState: 'CA', now: new Date(T0.getTime() + 60 * DAY), policy });
    expect(r).toEqual({ ok: true, physician: client, source: 'client' });
  });

  it('without one: a service physician during the grace period, with a warning; refused after it', () => {
    const during = orderingPhysician({ account: delegated, physician: null, patientState: 'CA', now: new Date(T0.getTime() + 29 * DAY), policy });
    expect(during.ok && during.source).toBe('service');
    expect(during.ok && during.warning).toMatch(/refused from 2026-10-31/);
    const after = orderingPhysician({ account: delegated, physician: null, patientState: 'CA', now: new Date(T0.getTime() + 30 * DAY), policy });
    expect(after).toEqual({ ok: false, detail: `A physician is required for orders on lab account ${delegated.id}: its delegated_flow is order_delegated` });
  });

  it('grace period is configurable and counts from when the account became delegated', () => {
    expect(physicianRequiredFrom(delegated, { graceDays: 0 })).toEqual(T0);
    expect(physicianRequiredFrom(delegated, { graceDays: 7 })).toEqual(new Date(T0.getTime() + 7 * DAY));
    expect(physicianRequiredFrom(account({ delegatedFlow: 'result_delegated' }), { graceDays: 0 })).toBeNull();
    const r = orderingPhysician({ account: delegated, physician: undefined, patientState: 'CA', now: T0, policy: { graceDays: 0 } });
    expect(r.ok).toBe(false);
  });

  it('non-delegated and platform accounts order through a service physician licensed in the state', () => {
    for (const acc of [account(), platform]) {
      const r = orderingPhysician({ account: acc, physician: client, patientState: 'ny', now: T0 });
      expect(r.ok && r.source).toBe('service');
      expect(r.ok && r.physician.npi).toBe('1284053976');
    }
    expect(servicePhysicianFor('CA').last_name).toBe('Okafor');
    expect(servicePhysicianFor('TX').last_name).toBe('Ferreira');
  });

  it('service physicians have valid NPIs; malformed NPIs are caught', () => {
    for (const p of SERVICE_PHYSICIANS) expect(isValidNpi(p.npi)).toBe(true);
    expect(isValidNpi('1234567893')).toBe(true);
    expect(isValidNpi('1234567890')).toBe(false);
    expect(isValidNpi('123456789')).toBe(false);
    expect(isValidNpi('3234567893')).toBe(false);
  });
});

describe('rule 4: the account filters what is offered', () => {
  it('keeps only the items of the account lab; no account keeps all', () => {
    const items = [{ labId: 1, id: 'a' }, { labId: 2, id: 'b' }, { labId: null, id: 'c' }];
    expect(offeredByAccount(items, account({ labId: 2 })).map((i) => i.id)).toEqual(['b']);
    expect(offeredByAccount(items, null)).toHaveLength(3);
  });
});

describe('rule 5: recreation with update_reason=INCORRECT_LAB', () => {
  it('drops the first order account and resolves a fresh one', () => {
    expect(accountForRecreation({ updateReason: 'INCORRECT_LAB', previousLabAccountId: 'old', requestedLabAccountId: null })).toBeNull();
    expect(accountForRecreation({ updateReason: 'INCORRECT_LAB', previousLabAccountId: 'old', requestedLabAccountId: 'new' })).toBe('new');
    expect(accountForRecreation({ updateReason: null, previousLabAccountId: 'old', requestedLabAccountId: undefined })).toBe('old');
  });
});

describe('resolution when lab_account_id is omitted (BEHAVIOUR §6)', () => {
  it('no team account at the lab → the platform account', () => {
    const r = chooseLabAccount({ labId: 1, teamAccounts: [account({ labId: 2 })], platform });
    expect(r).toEqual({ ok: true, account: platform });
    expect(platform.id).toBe(platformAccountId('meridian'));
  });
  it('exactly one active → it, even beside suspended ones', () => {
    const one = account();
    const r = chooseLabAccount({ labId: 1, teamAccounts: [account({ status: 'suspended' }), one], platform });
    expect(r.ok && r.account.id).toBe(one.id);
  });
  it('several active → refused, naming lab_account_id', () => {
    const r = chooseLabAccount({ labId: 1, teamAccounts: [account(), account()], platform });
    expect(r.ok).toBe(false);
    expect(!r.ok && r.detail).toMatch(/give lab_account_id/);
  });
  it('accounts at the lab but none active → no platform fallback', () => {
    const r = chooseLabAccount({ labId: 1, teamAccounts: [account({ status: 'pending' })], platform });
    expect(r).toEqual({ ok: false, status: 400, detail: "None of your team's lab accounts at lab 1 is active" });
  });
  it('an import takes a pending account', () => {
    const pending = account({ status: 'pending' });
    expect(chooseLabAccount({ labId: 1, teamAccounts: [pending], platform, purpose: 'import' })).toEqual({ ok: true, account: pending });
    expect(chooseLabAccount({ labId: 1, teamAccounts: [pending], platform, requestedId: pending.id, purpose: 'import' }).ok).toBe(true);
    expect(chooseLabAccount({ labId: 1, teamAccounts: [pending], platform, requestedId: pending.id }).ok).toBe(false);
  });
  it('an explicit id: unknown → 404, inactive → 400, other lab → 400, platform id accepted', () => {
    const other = account({ labId: 2 });
    const suspended = account({ status: 'suspended' });
    const accounts = [other, suspended];
    expect(chooseLabAccount({ labId: 1, teamAccounts: accounts, platform, requestedId: 'nope' })).toMatchObject({ ok: false, status: 404 });
    expect(chooseLabAccount({ labId: 1, teamAccounts: accounts, platform, requestedId: suspended.id })).toEqual({ ok: false, status: 400, detail: `Lab account ${suspended.id} is not active` });
    expect(chooseLabAccount({ labId: 1, teamAccounts: accounts, platform, requestedId: other.id })).toMatchObject({ ok: false, status: 400 });
    expect(chooseLabAccount({ labId: 1, teamAccounts: accounts, platform, requestedId: platform.id })).toEqual({ ok: true, account: platform });
  });
});

describe('allowed_billing', () => {
  const acc = account({ allowedBilling: { client_bill: ['*'], commercial_insurance: ['CA', 'AZ'] } });
  it('accepts a listed billing type in a listed state (or everywhere with *)', () => {
    expect(billingRefusal(acc, 'client_bill', 'NY')).toBeNull();
    expect(billingRefusal(acc, 'commercial_insurance', 'ca')).toBeNull();
  });
  it('refuses another state or an unlisted type', () => {
    expect(billingRefusal(acc, 'commercial_insurance', 'NY')).toBe(`Billing type commercial_insurance is not allowed on lab account ${acc.id} for patients in NY`);
    expect(billingRefusal(acc, 'patient_bill', 'CA')).toBe(`Billing type patient_bill is not allowed on lab account ${acc.id}`);
    expect(billingRefusal(platform, 'patient_bill', 'CA')).toBeNull();
  });
});
