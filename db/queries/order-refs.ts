/**
 * What a new order refers to, read in one statement (issue 16): the user, the lab test (visible to the
 * team), the lab test's markers with their questions, the team's lab accounts, the labs whose platform
 * accounts the order may use and the request's idempotency key. Order creation read these with up to seven
 * statements before (findIdempotencyKey, findUser, findVisibleLabTest, markersOfLabTests, findLabAccount,
 * and resolveLabAccount's two reads); each read
 * cost the API a round trip and drizzle's rendering, and Postgres a statement. The answers are the same
 * rows those functions return (test/integration/order-create-refs.test.ts compares them), so every check
 * and every refusal built on them stays as it was.
 *
 * Text and values go to postgres.js directly (`runBound`, prepared once per connection): nothing here is
 * rendered per call.
 */
import { platformAccount } from '../../domain/lab-accounts/platform.js';
import type { LabAccount } from '../../domain/lab-accounts/types.js';
import type { AoeMarker } from '../../domain/orders/aoe.js';
import type { DbOrTx } from '../client.js';
import { runBound } from './compiled.js';
import { labAccounts } from '../schema/index.js';
import { rowFromJson } from './json-rows.js';
import { toLabAccount } from './lab-accounts.js';

export interface OrderRefs {
  /** The user of the team with this id (deleted or not), or null. */
  user: { id: string; deletedAt: Date | null } | null;
  /** The lab test, from the shared catalogue or the team's own, or null (as `findVisibleLabTest`). */
  test: { id: string; method: string; status: string; labId: number | null } | null;
  /** The lab test's markers in id order (as `markersOfLabTests`); empty when the test is not visible. */
  markers: AoeMarker[];
  /** Every lab account of the team, oldest first (as resolution reads them). */
  teamAccounts: LabAccount[];
  /** The platform account of the lab test's lab, or null (no lab, or a lab test not visible). */
  platform: LabAccount | null;
  /** The platform accounts of every lab: only when asked for (`allLabs`), else empty. */
  allPlatform: LabAccount[];
  /** The team's idempotency key asked for (`idempotencyKey`), as `findIdempotencyKey` finds it, or null. */
  idempotency: { orderId: string; requestHash: string } | null;
}

// $1 team, $2 user, $3 lab test, $4 whether every lab's platform account is wanted (a lab_account_id given),
// $5 the request's idempotency key (null: none).
const TEXT = `with t as (
  select "id", "method", "status", "lab_id" from "lab_tests" where "id" = $3 and ("team_id" is null or "team_id" = $1) limit 1
)
select
  (select json_build_object('id', u."id", 'deleted_at', u."deleted_at") from "users" u where u."team_id" = $1 and u."id" = $2 limit 1) as "user",
  (select json_build_object('id', t."id", 'method', t."method", 'status', t."status", 'lab_id', t."lab_id") from t) as "test",
  (select coalesce(json_agg(json_build_object('id', m."id", 'name', m."name", 'aoe', m."aoe") order by m."id"), '[]')
     from t join "lab_test_markers" ltm on ltm."lab_test_id" = t."id" join "markers" m on m."id" = ltm."marker_id") as "markers",
  (select coalesce(json_agg(a order by a."created_at", a."id"), '[]') from "lab_accounts" a where a."team_id" = $1) as "accounts",
  (select coalesce(json_agg(json_build_object('id', l."id", 'slug', l."slug", 'name', l."name") order by l."id"), '[]')
     from "labs" l where $4::boolean or l."id" = (select "lab_id" from t)) as "labs",
  (select json_build_object('order_id', k."order_id", 'request_hash', k."request_hash") from "idempotency_keys" k
     where k."team_id" = $1 and k."key" = $5::text limit 1) as "idempotency"`;

interface Row extends Record<string, unknown> {
  user: { id: string; deleted_at: string | null } | null;
  test: { id: string; method: string; status: string; lab_id: number | null } | null;
  markers: AoeMarker[];
  /** `lab_accounts` rows as `json_agg` writes them (column names as keys). */
  accounts: Record<string, unknown>[];
  labs: { id: number; slug: string; name: string }[];
  idempotency: { order_id: string; request_hash: string } | null;
}

const date = (v: string | null): Date | null => (v === null ? null : new Date(v));

export async function findOrderRefs(
  db: DbOrTx,
  teamId: string,
  userId: string,
  labTestId: string,
  options: { allLabs?: boolean; idempotencyKey?: string | null } = {},
): Promise<OrderRefs> {
  const params = [teamId, userId, labTestId, options.allLabs ?? false, options.idempotencyKey ?? null];
  const [row] = await runBound<Row>(db, { text: TEXT, params });
  const r = row!;
  const test = r.test ? { id: r.test.id, method: r.test.method, status: r.test.status, labId: r.test.lab_id } : null;
  const labs = r.labs.map((lab) => ({ lab, account: platformAccount(lab) }));
  const atLab = test?.labId == null ? undefined : labs.find((l) => l.lab.id === test.labId);
  return {
    user: r.user ? { id: r.user.id, deletedAt: date(r.user.deleted_at) } : null,
    test,
    markers: r.markers,
    teamAccounts: r.accounts.map((a) => toLabAccount(rowFromJson(labAccounts, a))),
    platform: atLab?.account ?? null,
    allPlatform: options.allLabs ? labs.map((l) => l.account) : [],
    idempotency: r.idempotency ? { orderId: r.idempotency.order_id, requestHash: r.idempotency.request_hash } : null,
  };
}
