import { Hono } from 'hono';
import { z } from 'zod';
import type { Db } from '../../../db/client.js';
import { listLabs } from '../../../db/queries/catalog.js';
import { listLabAccounts } from '../../../db/queries/lab-accounts.js';
import { LAB_ACCOUNT_STATUSES } from '../../../domain/lab-accounts/types.js';
import type { AppEnv } from '../../env.js';
import { parse, queryInt4 } from '../../validation.js';
import { labAccountView } from './serialize.js';

export const listQuery = z.object({
  lab_account_id: z.guid('lab_account_id must be a UUID').optional(),
  status: z.array(z.enum(LAB_ACCOUNT_STATUSES)).max(10).optional(),
  lab_id: queryInt4(1).optional(),
});

/**
 * GET /v3/lab_test/lab_account: the accounts the team orders with (its own, and the service's platform
 * account at each lab where it has none), filters `lab_account_id`, `status` (repeatable), `lab_id`.
 * Answers `{data: [...]}`, each account with its `delegated_flow`.
 */
export function labAccountsRoutes({ db }: { db: Db }) {
  const app = new Hono<AppEnv>({ strict: false });

  app.get('/lab_test/lab_account', async (c) => {
    const raw = c.req.queries();
    const q = parse(
      listQuery,
      {
        ...(raw.lab_account_id ? { lab_account_id: raw.lab_account_id.at(-1) } : {}),
        ...(raw.status ? { status: raw.status.flatMap((s) => s.split(',')) } : {}),
        ...(raw.lab_id ? { lab_id: raw.lab_id.at(-1) } : {}),
      },
      'query',
    );
    const [accounts, labs] = await Promise.all([
      listLabAccounts(db, c.get('teamId'), { labAccountId: q.lab_account_id, status: q.status, labId: q.lab_id }),
      listLabs(db),
    ]);
    const slugs = new Map(labs.map((l) => [l.id, l.slug]));
    return c.json({ data: accounts.map((a) => labAccountView(a, slugs.get(a.labId) ?? String(a.labId))) });
  });

  return app;
}
