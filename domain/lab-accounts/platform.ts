/**
 * The service's own account at each lab ("platform account", `org_id: null`): what an order uses when
 * its team has no account at the lab. Not stored: one per lab, derived from the lab, the same id on
 * every install. Not delegated (the service's physicians order), every billing type in every state.
 */
import { uuidFrom } from '../orders/ids.js';
import { ALL_BILLING, type LabAccount } from './types.js';

/** Fixed creation time of platform accounts (they exist as long as the lab does). */
const PLATFORM_EPOCH = new Date('2026-01-01T00:00:00Z');

export const platformAccountId = (labSlug: string) => uuidFrom(`platform-lab-account:${labSlug}`);

export function platformAccount(lab: { id: number; slug: string; name: string }): LabAccount {
  return {
    id: platformAccountId(lab.slug),
    teamId: null,
    labId: lab.id,
    name: `${lab.name} (platform account)`,
    status: 'active',
    delegatedFlow: 'not_delegated',
    delegatedAt: PLATFORM_EPOCH,
    allowedBilling: ALL_BILLING,
    defaultComment: null,
    providerAccountId: `PLT-${lab.slug.toUpperCase()}`,
    businessUnits: null,
    createdAt: PLATFORM_EPOCH,
  };
}
