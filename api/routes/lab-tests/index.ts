import { Hono, type Context } from 'hono';
import type { z } from 'zod';
import type { Db } from '../../../db/client.js';
import {
  createTeamLabTest,
  decodeCursor,
  encodeCursor,
  findLab,
  findMarkerByProviderId,
  findVisibleLabTestRow,
  findVisibleLabTestRows,
  listLabTestIds,
  listLabs,
  listMarkers,
  markersOfLabTests,
  markersPage,
  updateTeamLabTest,
  type LabTestFilter,
  type LabTestSampleType,
  type LabRow,
} from '../../../db/queries/catalog.js';
import { findLabAccount } from '../../../db/queries/lab-accounts.js';
import { loadLabTestViews, toClientFacingLab } from '../../../db/queries/lab-test-view.js';
import { renderCollectionInstructionsPdf } from '../../../lib/pdf/collection-instructions-pdf.js';
import type { AppEnv } from '../../env.js';
import { HttpError, ValidationError, badRequest, notFound, type ValidationItem } from '../../errors.js';
import { parse, parseJsonBody } from '../../validation.js';
import { resolveMarkers } from './resolve.js';
import {
  REPEATABLE_QUERY_KEYS,
  createLabTestBody,
  labAccountQuery,
  labAndProviderParam,
  labTestIdParam,
  labTestMarkersQuery,
  listLabTestsQuery,
  listMarkersQuery,
  orderSetBody,
  pageOnlyQuery,
  paginatedLabTestsQuery,
  updateLabTestBody,
} from './schemas.js';

export interface LabTestsDeps {
  db: Db;
}

/** Query parameters, with the keys the SDK repeats (`?lab_id=1&lab_id=2`) kept as arrays. */
function queryOf(c: Context<AppEnv>): Record<string, string | string[]> {
  return Object.fromEntries(Object.entries(c.req.queries()).map(([k, v]) => [k, REPEATABLE_QUERY_KEYS.has(k) ? v : (v[v.length - 1] ?? '')]));
}

function filterOf(q: z.infer<typeof listLabTestsQuery>): LabTestFilter {
  return {
    generationMethod: q.generation_method,
    labSlug: q.lab_slug,
    collectionMethod: q.collection_method,
    status: q.status,
    markerIds: q.marker_ids,
    providerIds: q.provider_ids,
    name: q.name,
  };
}

/** The sample type a new lab test gets when the request names none: what the lab takes for that method. */
function defaultSampleType(lab: LabRow, method: string): LabTestSampleType | undefined {
  const offered = lab.sampleTypes as LabTestSampleType[];
  if (method === 'testkit') return offered.find((t) => t !== 'serum') ?? offered[0];
  return offered.includes('serum') ? 'serum' : offered[0];
}

/**
 * The lab catalogue (CONTRACT §3): /v3/lab_test, /v3/lab_tests*. Labs and markers are shared; lab
 * tests are the shared catalogue plus the team's own (another team's test is a 404).
 */
export function labTestsRoutes({ db }: LabTestsDeps) {
  const app = new Hono<AppEnv>({ strict: false });

  /** The lab of the team's lab account named in a request (markers and tests are filtered to it). */
  async function labOfAccount(teamId: string, labAccountId: string | null | undefined): Promise<number | undefined> {
    if (!labAccountId) return undefined;
    const account = await findLabAccount(db, teamId, labAccountId);
    if (!account) throw notFound('Lab account not found');
    if (account.status !== 'active') throw badRequest(`Lab account ${labAccountId} is not active`);
    return account.labId;
  }

  async function views(teamId: string, ids: string[]) {
    const byId = await loadLabTestViews(db, teamId, ids);
    return ids.flatMap((id) => byId.get(id) ?? []);
  }

  async function requireLabTest(teamId: string, labTestId: string, labAccountId?: string | null) {
    const test = await findVisibleLabTestRow(db, teamId, labTestId);
    if (!test) throw notFound('Lab test not found');
    const accountLab = await labOfAccount(teamId, labAccountId);
    if (accountLab !== undefined && accountLab !== test.labId) {
      throw badRequest(`Lab account ${labAccountId} is not at the lab of lab test ${labTestId}`);
    }
    return test;
  }

  // Paginated list (the spec's replacement for GET /v3/lab_tests): keyset cursor over (order key, id).
  app.get('/lab_test', async (c) => {
    const q = parse(paginatedLabTestsQuery, queryOf(c), 'query');
    const after = q.next_cursor === undefined ? null : decodeCursor(q.next_cursor);
    if (q.next_cursor !== undefined && (!after || after.key !== q.order_key || after.direction !== q.order_direction)) {
      throw new ValidationError([
        {
          loc: ['query', 'next_cursor'],
          msg: after ? 'next_cursor belongs to a listing with another order_key or order_direction' : 'next_cursor is not a cursor this service gave out',
          type: 'value_error',
          input: q.next_cursor,
        },
      ]);
    }
    const teamId = c.get('teamId');
    const { ids, next } = await listLabTestIds(db, teamId, filterOf(q), { key: q.order_key, direction: q.order_direction }, { limit: q.lab_test_limit, after });
    return c.json({ data: await views(teamId, ids), next_cursor: next ? encodeCursor(next) : null });
  });

  // Deprecated by the spec (GET /v3/lab_test), still served: every match, unpaginated.
  app.get('/lab_tests', async (c) => {
    const q = parse(listLabTestsQuery, queryOf(c), 'query');
    const teamId = c.get('teamId');
    const { ids } = await listLabTestIds(db, teamId, filterOf(q), { key: q.order_key, direction: q.order_direction });
    return c.json(await views(teamId, ids));
  });

  // Static paths before /lab_tests/:lab_test_id, which would otherwise read them as ids.
  app.get('/lab_tests/labs', async (c) => c.json((await listLabs(db)).map(toClientFacingLab)));

  app.get('/lab_tests/markers', async (c) => {
    const q = parse(listMarkersQuery, queryOf(c), 'query');
    const page = { page: q.page, size: q.size };
    const accountLab = await labOfAccount(c.get('teamId'), q.lab_account_id);
    let labIds = q.lab_id;
    if (accountLab !== undefined) {
      labIds = labIds?.length ? labIds.filter((id) => id === accountLab) : [accountLab];
      if (labIds.length === 0) return c.json(await markersPage(db, [], 0, page));
    }
    const { rows, total } = await listMarkers(db, { labIds, labSlug: q.lab_slug, name: q.name, aLaCarteEnabled: q.a_la_carte_enabled }, page);
    return c.json(await markersPage(db, rows, total, page));
  });

  // The markers an order would carry: those of its lab tests plus add-ons, all at one lab.
  app.post('/lab_tests/list_order_set_markers', async (c) => {
    const { page, size } = parse(pageOnlyQuery, queryOf(c), 'query');
    const body = await parseJsonBody(c, orderSetBody);
    const teamId = c.get('teamId');
    const testIds = [...new Set(body.lab_test_ids ?? [])];
    const tests = await findVisibleLabTestRows(db, teamId, testIds);
    const unknown = testIds.find((id) => !tests.has(id));
    if (unknown) throw notFound(`Lab test ${unknown} not found`);
    const labs = new Set([...tests.values()].flatMap((t) => (t.labId === null ? [] : [t.labId])));
    const accountLab = await labOfAccount(teamId, body.lab_account_id);
    if (accountLab !== undefined) labs.add(accountLab);
    if (labs.size > 1) {
      throw new ValidationError([{ loc: ['body', 'lab_test_ids'], msg: 'the lab tests (and lab account) of an order set must be at one lab', type: 'value_error' }]);
    }
    const addOn = await resolveMarkers(
      db,
      { markerIds: body.add_on?.marker_ids, providerIds: body.add_on?.provider_ids },
      { knownLabId: [...labs][0], loc: ['body', 'add_on'], ambiguityHint: 'give lab_test_ids or lab_account_id to name the lab' },
    );
    const ofTests = await markersOfLabTests(db, testIds);
    const all = new Map<number, (typeof addOn.markers)[number]>();
    for (const m of [...testIds.flatMap((id) => ofTests.get(id) ?? []), ...addOn.markers]) all.set(m.id, m);
    const rows = [...all.values()];
    return c.json(await markersPage(db, rows.slice((page - 1) * size, page * size), rows.length, { page, size }));
  });

  // A team's own lab test from markers of one lab.
  app.post('/lab_tests', async (c) => {
    const body = await parseJsonBody(c, createLabTestBody);
    const teamId = c.get('teamId');
    if (body.lab_id != null && !(await findLab(db, body.lab_id))) {
      throw new ValidationError([{ loc: ['body', 'lab_id'], msg: `lab ${body.lab_id} does not exist`, type: 'value_error', input: body.lab_id }]);
    }
    const { labId, markers } = await resolveMarkers(
      db,
      { markerIds: body.marker_ids, providerIds: body.provider_ids },
      { knownLabId: body.lab_id ?? undefined, loc: ['body'], ambiguityHint: 'give lab_id to name the lab' },
    );
    const lab = labId === undefined ? null : await findLab(db, labId);
    if (!lab) throw new ValidationError([{ loc: ['body', 'marker_ids'], msg: 'the markers name no lab', type: 'value_error' }]);
    const issues: ValidationItem[] = [];
    const notOrderable = markers.filter((m) => !m.isOrderable);
    if (notOrderable.length > 0) {
      issues.push({ loc: ['body', 'marker_ids'], msg: `markers ${notOrderable.map((m) => m.id).join(', ')} cannot be ordered`, type: 'value_error' });
    }
    if (!lab.collectionMethods.includes(body.method)) {
      issues.push({ loc: ['body', 'method'], msg: `${lab.name} collects by ${lab.collectionMethods.join(', ')}, not ${body.method}`, type: 'value_error', input: body.method });
    }
    const sampleType = body.sample_type ?? defaultSampleType(lab, body.method);
    if (!sampleType || !lab.sampleTypes.includes(sampleType)) {
      issues.push({ loc: ['body', 'sample_type'], msg: `${lab.name} takes ${lab.sampleTypes.join(', ')} samples`, type: 'value_error', input: sampleType });
    }
    if (issues.length > 0) throw new ValidationError(issues);
    const id = await createTeamLabTest(db, {
      teamId,
      name: body.name,
      description: body.description,
      method: body.method,
      sampleType: sampleType!,
      fasting: body.fasting ?? false,
      labId: lab.id,
      markers,
    });
    const [view] = await views(teamId, [id]);
    return c.json(view);
  });

  app.get('/lab_tests/:lab_test_id/markers', async (c) => {
    const { lab_test_id } = parse(labTestIdParam, c.req.param(), 'path');
    const q = parse(labTestMarkersQuery, queryOf(c), 'query');
    const teamId = c.get('teamId');
    await requireLabTest(teamId, lab_test_id, q.lab_account_id);
    const rows = (await markersOfLabTests(db, [lab_test_id])).get(lab_test_id) ?? [];
    return c.json(await markersPage(db, rows.slice((q.page - 1) * q.size, q.page * q.size), rows.length, { page: q.page, size: q.size }));
  });

  app.get('/lab_tests/:lab_id/markers/:provider_id', async (c) => {
    const { lab_id, provider_id } = parse(labAndProviderParam, c.req.param(), 'path');
    const q = parse(labAccountQuery, queryOf(c), 'query');
    const accountLab = await labOfAccount(c.get('teamId'), q.lab_account_id);
    if (accountLab !== undefined && accountLab !== lab_id) throw badRequest(`Lab account ${q.lab_account_id} is not at lab ${lab_id}`);
    const marker = await findMarkerByProviderId(db, lab_id, provider_id);
    if (!marker) throw notFound('Marker not found');
    const { markers } = await markersPage(db, [marker], 1, { page: 1, size: 1 });
    return c.json(markers[0]);
  });

  app.get('/lab_tests/:lab_test_id', async (c) => {
    const { lab_test_id } = parse(labTestIdParam, c.req.param(), 'path');
    const q = parse(labAccountQuery, queryOf(c), 'query');
    const teamId = c.get('teamId');
    await requireLabTest(teamId, lab_test_id, q.lab_account_id);
    const [view] = await views(teamId, [lab_test_id]);
    return c.json(view);
  });

  // The lab test's general collection instructions (labTests.getLabTestCollectionInstructionPdf); an
  // order's own (with its sample id) is GET /v3/order/{id}/collection_instruction_pdf.
  app.get('/lab_test/:lab_test_id/collection_instruction_pdf', async (c) => {
    const { lab_test_id } = parse(labTestIdParam, c.req.param(), 'path');
    const teamId = c.get('teamId');
    await requireLabTest(teamId, lab_test_id);
    const [view] = (await views(teamId, [lab_test_id])) as { name: string; method: string; sample_type: string; fasting?: boolean | null; lab?: { name: string } | null }[];
    if (!view) throw notFound('Lab test not found');
    const bytes = await renderCollectionInstructionsPdf({
      orderId: null,
      sampleId: null,
      method: view.method,
      labTestName: view.name,
      labName: view.lab?.name ?? '',
      sampleType: view.sample_type,
      fasting: view.fasting ?? false,
    });
    return c.body(Uint8Array.from(bytes), 200, {
      'content-type': 'application/pdf',
      'content-disposition': `inline; filename="collection-instructions-${lab_test_id}.pdf"`,
      'cache-control': 'no-store',
    });
  });

  // Teams change their own tests; the shared catalogue is the seed's (db/seed) and read-only here.
  app.patch('/lab_tests/:lab_test_id', async (c) => {
    const { lab_test_id } = parse(labTestIdParam, c.req.param(), 'path');
    const body = await parseJsonBody(c, updateLabTestBody);
    const teamId = c.get('teamId');
    const test = await requireLabTest(teamId, lab_test_id);
    if (test.teamId === null) throw new HttpError(403, 'Lab tests of the shared catalogue cannot be changed; create your own with POST /v3/lab_tests');
    const status = body.status ?? (body.active == null ? undefined : body.active ? 'active' : 'inactive');
    const patch = {
      ...(body.name != null ? { name: body.name } : {}),
      ...(body.description != null ? { description: body.description } : {}),
      ...(status ? { status } : {}),
    };
    if (Object.keys(patch).length > 0) await updateTeamLabTest(db, teamId, lab_test_id, patch);
    const [view] = await views(teamId, [lab_test_id]);
    return c.json(view);
  });

  return app;
}
