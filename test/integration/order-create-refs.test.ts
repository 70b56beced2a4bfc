import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inject } from 'vitest';
import { checkOrderRefs } from '../../api/routes/orders/create.js';
import type { OrdersDeps } from '../../api/routes/orders/deps.js';
import { HttpError } from '../../api/errors.js';
import { createDb, type DbHandle } from '../../db/client.js';
import { markersOfLabTests } from '../../db/queries/catalog.js';
import { createLabAccount, findLabAccount, platformAccounts, resolveLabAccount } from '../../db/queries/lab-accounts.js';
import { findOrderRefs } from '../../db/queries/order-refs.js';
import { findIdempotencyKey, findVisibleLabTest } from '../../db/queries/orders.js';
import { createTeam } from '../../db/queries/teams.js';
import { findUser } from '../../db/queries/users.js';
import { idempotencyKeys, labTests, markers, users } from '../../db/schema/index.js';
import { chooseLabAccount } from '../../domain/lab-accounts/resolution.js';
import { testkitLabTest } from '../support/catalog-fixture.js';

// findOrderRefs (one statement) answers what the six reads order creation made before answered.

let handle: DbHandle;
beforeAll(() => {
  handle = createDb(inject('databaseUrl'), { max: 2 });
});
afterAll(async () => {
  await handle?.close();
});

const MISSING = '00000000-0000-4000-8000-000000000000';
const aoe = { questions: [{ id: 7, code: 'FASTHRS', value: 'Fasting hours', type: 'numeric', required: true, sequence: 1, answers: [] }] };

async function world() {
  const db = handle.db;
  const team = await createTeam(db, { name: 'refs', environment: 'sandbox', region: 'us' });
  const other = await createTeam(db, { name: 'refs other', environment: 'sandbox', region: 'us' });
  const { labTestId, labId } = await testkitLabTest(db, team.teamId);
  const foreign = await testkitLabTest(db, other.teamId);
  const [user] = await db.insert(users).values({ teamId: team.teamId, clientUserId: `u-${randomUUID()}` }).returning();
  const [gone] = await db.insert(users).values({ teamId: team.teamId, clientUserId: `g-${randomUUID()}`, deletedAt: new Date('2026-03-04T05:06:07.891Z') }).returning();
  const [strange] = await db.insert(users).values({ teamId: other.teamId, clientUserId: `s-${randomUUID()}` }).returning();
  // questions on one marker of the test, so the markers carry them
  const [first] = await markersOfLabTests(db, [labTestId]).then((m) => m.get(labTestId)!);
  await db.update(markers).set({ aoe: aoe as never }).where(eq(markers.id, first!.id));
  const active = await createLabAccount(db, {
    teamId: team.teamId, labId, name: 'Own', defaultComment: 'c1', delegatedFlow: 'order_delegated', delegatedAt: new Date('2026-02-03T04:05:06.789Z'),
    allowedBilling: { client_bill: ['*'], commercial_insurance: ['CA', 'TX'] }, providerAccountId: 'P-1', businessUnits: ['north', 'south'],
  });
  const pending = await createLabAccount(db, { teamId: team.teamId, labId: foreign.labId, name: 'Waiting', defaultComment: null, status: 'pending' });
  const theirs = await createLabAccount(db, { teamId: other.teamId, labId, name: 'Theirs', defaultComment: null });
  return { team, other, labTestId, labId, foreign, user: user!, gone: gone!, strange: strange!, active: active!, pending: pending!, theirs: theirs! };
}

describe('findOrderRefs', () => {
  it('answers the user, lab test, markers and lab accounts as the separate reads do', async () => {
    const db = handle.db;
    const w = await world();
    for (const userId of [w.user.id, w.gone.id, w.strange.id, MISSING]) {
      for (const labTestId of [w.labTestId, w.foreign.labTestId, MISSING]) {
        for (const allLabs of [false, true]) {
          const refs = await findOrderRefs(db, w.team.teamId, userId, labTestId, { allLabs });
          const user = await findUser(db, w.team.teamId, userId);
          expect(refs.user).toEqual(user ? { id: user.id, deletedAt: user.deletedAt } : null);
          const test = await findVisibleLabTest(db, w.team.teamId, labTestId);
          expect(refs.test).toEqual(test);
          if (test) {
            const ms = (await markersOfLabTests(db, [labTestId])).get(labTestId)!;
            expect(refs.markers).toEqual(ms.map((m) => ({ id: m.id, name: m.name, aoe: m.aoe })));
            expect(refs.platform).toEqual((await platformAccounts(db, [test.labId!])).get(test.labId!) ?? null);
            // resolution from these accounts answers as resolveLabAccount, for every id asked and none
            for (const requestedId of [null, w.active.id, w.pending.id, w.theirs.id, refs.platform!.id, MISSING]) {
              for (const purpose of ['order', 'import'] as const) {
                const mine = chooseLabAccount({ labId: test.labId!, teamAccounts: refs.teamAccounts, platform: refs.platform, requestedId, purpose });
                expect(mine).toEqual(await resolveLabAccount(db, w.team.teamId, test.labId!, { labAccountId: requestedId, purpose }));
              }
            }
          } else {
            expect(refs.markers).toEqual([]);
            expect(refs.platform).toBeNull();
          }
          expect(refs.teamAccounts.map((a) => a.id)).toEqual([w.active.id, w.pending.id]);
          expect(refs.teamAccounts[0]).toEqual(await findLabAccount(db, w.team.teamId, w.active.id));
          expect(refs.teamAccounts[1]).toEqual(await findLabAccount(db, w.team.teamId, w.pending.id));
          if (allLabs) {
            expect(new Map(refs.allPlatform.map((a) => [a.id, a]))).toEqual(new Map([...(await platformAccounts(db)).values()].map((a) => [a.id, a])));
          } else {
            expect(refs.allPlatform).toEqual([]);
          }
        }
      }
    }
    // the request's idempotency key, as findIdempotencyKey finds it (the team's own only)
    const orderId = randomUUID();
    await db.insert(idempotencyKeys).values({ teamId: w.team.teamId, key: 'k-1', requestHash: 'h-1', orderId });
    for (const [teamId, key] of [[w.team.teamId, 'k-1'], [w.team.teamId, 'k-2'], [w.other.teamId, 'k-1'], [w.team.teamId, null]] as const) {
      const refs = await findOrderRefs(db, teamId, w.user.id, w.labTestId, { idempotencyKey: key });
      const found = key === null ? null : await findIdempotencyKey(db, teamId, key);
      expect(refs.idempotency).toEqual(found ? { orderId: found.orderId, requestHash: found.requestHash } : null);
    }
    expect((await findOrderRefs(db, w.team.teamId, w.user.id, w.labTestId, { idempotencyKey: 'k-1' })).idempotency).toEqual({ orderId, requestHash: 'h-1' });
    // another team's accounts are never among the team's
    const theirs = await findOrderRefs(db, w.other.teamId, w.strange.id, w.foreign.labTestId);
    expect(theirs.teamAccounts.map((a) => a.id)).toEqual([w.theirs.id]);
    expect(theirs.test?.id).toBe(w.foreign.labTestId);
  });

  it('refuses in checkOrderRefs as the separate reads did: the first refusal, the same answer', async () => {
    const db = handle.db;
    const w = await world();
    const deps = { db } as unknown as OrdersDeps;
    const refusal = (p: Promise<unknown>) => p.then(() => null, (e: unknown) => (e instanceof HttpError ? [e.status, e.message] : e));
    const check = (userId: string, labTestId: string, labAccountId?: string | null, allowPendingAccount = false) =>
      refusal(checkOrderRefs(deps, w.team.teamId, userId, labTestId, labAccountId, { allowPendingAccount }));
    const noUser = [404, 'User does not exist on this team'];
    expect(await check(MISSING, MISSING)).toEqual(noUser);
    expect(await check(w.gone.id, w.labTestId)).toEqual(noUser);
    expect(await check(w.strange.id, w.labTestId)).toEqual(noUser);
    expect(await check(w.user.id, MISSING)).toEqual([404, 'Lab test not found']);
    expect(await check(w.user.id, w.foreign.labTestId)).toEqual([404, 'Lab test not found']);
    expect(await check(w.user.id, w.labTestId, MISSING)).toEqual([404, 'Lab account not found']);
    expect(await check(w.user.id, w.labTestId, w.theirs.id)).toEqual([404, 'Lab account not found']);
    expect(await check(w.user.id, w.labTestId, w.pending.id)).toEqual([400, `Lab account ${w.pending.id} is not active`]);
    expect(await check(w.user.id, w.labTestId, w.pending.id, true)).toEqual([400, `Lab account ${w.pending.id} is not at the lab of lab test ${w.labTestId}`]);
    const elsewhere = [...(await platformAccounts(db)).values()].find((a) => a.labId !== w.labId)!;
    expect(await check(w.user.id, w.labTestId, elsewhere.id)).toEqual([400, `Lab account ${elsewhere.id} is not at the lab of lab test ${w.labTestId}`]);
    expect(await check(w.user.id, w.labTestId, w.active.id)).toBeNull();
    const here = (await platformAccounts(db, [w.labId])).get(w.labId)!;
    expect(await check(w.user.id, w.labTestId, here.id)).toBeNull();
    await db.update(labTests).set({ status: 'inactive' }).where(eq(labTests.id, w.labTestId));
    expect(await check(w.user.id, w.labTestId)).toEqual([400, `Lab test ${w.labTestId} is not active`]);
    await db.update(labTests).set({ status: 'active', method: 'carrier_pigeon' }).where(eq(labTests.id, w.labTestId));
    expect(await check(w.user.id, w.labTestId)).toEqual([400, `Lab test ${w.labTestId} has an unknown collection method carrier_pigeon`]);
  });
});
