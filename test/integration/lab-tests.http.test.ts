import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  clientFacingLab,
  clientFacingLabTest,
  clientFacingMarkerComplete,
  getMarkersResponse,
  labTestResourcesResponse,
} from '../../api/routes/lab-tests/responses.js';
import { createLabAccount } from '../../db/queries/lab-accounts.js';
import { labs, labTests, markers } from '../../db/schema/index.js';
import { catalogLabTestId } from '../../db/seed/catalog-data.js';
import { testkitLabTest } from '../support/catalog-fixture.js';
import { http, newTeam, startTestStack, type TestStack } from '../support/harness.js';

let stack: TestStack;
beforeAll(async () => {
  stack = await startTestStack();
});
afterAll(async () => {
  await stack?.close();
});

const MISSING = '00000000-0000-4000-8000-000000000000';
const HBA1C_KIT = catalogLabTestId('northstar-hba1c-kit');
const WELLNESS = catalogLabTestId('meridian-essential-wellness');

type Res = Awaited<ReturnType<typeof http>>;

function expect422(res: Res, locTail: string | number | null) {
  expect(res.status, JSON.stringify(res.json)).toBe(422);
  const detail = res.json.detail as { loc: unknown[]; msg: string; type: string }[];
  expect(Array.isArray(detail)).toBe(true);
  for (const d of detail) expect(typeof d.msg).toBe('string');
  if (locTail !== null) expect(detail.some((d) => d.loc.includes(locTail)), JSON.stringify(detail)).toBe(true);
}

async function labIdOf(slug: string) {
  const [lab] = await stack.db.db.select({ id: labs.id }).from(labs).where(eq(labs.slug, slug));
  return lab!.id;
}

async function markerId(slug: string, providerId: string) {
  const labId = await labIdOf(slug);
  const [m] = await stack.db.db.select({ id: markers.id, labId: markers.labId, providerId: markers.providerId }).from(markers).where(eq(markers.providerId, providerId));
  expect(m?.labId).toBe(labId);
  return m!.id;
}

/** The team's own lab tests, straight from Postgres (what a refused request must leave unchanged). */
async function ownTests(teamId: string) {
  return stack.db.db.select().from(labTests).where(eq(labTests.teamId, teamId));
}

describe('GET /v3/lab_test', () => {
  it('answers a page and a cursor that leads to the next one', async () => {
    const { apiKey } = await newTeam(stack);
    const first = await http(stack, 'GET', '/v3/lab_test?lab_test_limit=2&order_key=price&order_direction=asc', { apiKey });
    expect(first.status).toBe(200);
    const page1 = labTestResourcesResponse.parse(first.json);
    expect(page1.data).toHaveLength(2);
    expect(page1.next_cursor).toEqual(expect.any(String));
    const second = labTestResourcesResponse.parse(
      (await http(stack, 'GET', `/v3/lab_test?lab_test_limit=2&order_key=price&order_direction=asc&next_cursor=${page1.next_cursor}`, { apiKey })).json,
    );
    expect(second.data[0]!.price).toBeGreaterThanOrEqual(page1.data[1]!.price);
    expect(second.data.some((t) => page1.data.some((p) => p.id === t.id))).toBe(false);
    const last = labTestResourcesResponse.parse((await http(stack, 'GET', '/v3/lab_test?lab_test_limit=100', { apiKey })).json);
    expect(last.next_cursor).toBeNull();
  });

  it('refuses bad query values with 422', async () => {
    const { apiKey } = await newTeam(stack);
    const asc = labTestResourcesResponse.parse((await http(stack, 'GET', '/v3/lab_test?lab_test_limit=1', { apiKey })).json);
    const cases: [string, string][] = [
      ['lab_test_limit=0', 'lab_test_limit'],
      ['lab_test_limit=101', 'lab_test_limit'],
      ['lab_test_limit=ten', 'lab_test_limit'],
      ['next_cursor=not-a-cursor', 'next_cursor'],
      [`next_cursor=${asc.next_cursor}&order_direction=desc`, 'next_cursor'],
      [`next_cursor=${asc.next_cursor}&order_key=price`, 'next_cursor'],
      ['collection_method=by_pigeon', 'collection_method'],
      ['status=deleted', 'status'],
      ['generation_method=magic', 'generation_method'],
      ['order_key=name', 'order_key'],
      ['order_direction=up', 'order_direction'],
      ['marker_ids=1&marker_ids=x', 'marker_ids'],
    ];
    for (const [query, loc] of cases) expect422(await http(stack, 'GET', `/v3/lab_test?${query}`, { apiKey }), loc);
  });

  it('needs an API key', async () => {
    expect((await http(stack, 'GET', '/v3/lab_test')).status).toBe(401);
  });
});

describe('GET /v3/lab_tests', () => {
  it('answers every visible test as a list, and 422 for bad filters', async () => {
    const { apiKey } = await newTeam(stack);
    const res = await http(stack, 'GET', '/v3/lab_tests/?collection_method=on_site_collection', { apiKey });
    expect(res.status).toBe(200);
    const list = clientFacingLabTest.array().parse(res.json);
    expect(list.map((t) => t.slug).sort()).toEqual(['cascade-urine-albumin', 'cascade-workplace-screening']);
    expect422(await http(stack, 'GET', '/v3/lab_tests?status=archived', { apiKey }), 'status');
    expect422(await http(stack, 'GET', '/v3/lab_tests?order_key=slug', { apiKey }), 'order_key');
  });
});

describe('GET /v3/lab_tests/{lab_test_id}', () => {
  it('answers a catalogue test and the team its own; 422 for a bad id; 404 for unknown or another team\'s', async () => {
    const team = await newTeam(stack);
    const other = await newTeam(stack);
    const { labTestId: theirs } = await testkitLabTest(stack.db.db, other.teamId);
    const { labTestId: mine } = await testkitLabTest(stack.db.db, team.teamId);
    const res = await http(stack, 'GET', `/v3/lab_tests/${HBA1C_KIT}`, { apiKey: team.apiKey });
    expect(clientFacingLabTest.parse(res.json).slug).toBe('northstar-hba1c-kit');
    expect((await http(stack, 'GET', `/v3/lab_tests/${mine}`, { apiKey: team.apiKey })).status).toBe(200);
    expect422(await http(stack, 'GET', '/v3/lab_tests/not-a-uuid', { apiKey: team.apiKey }), 'lab_test_id');
    const unknown = await http(stack, 'GET', `/v3/lab_tests/${MISSING}`, { apiKey: team.apiKey });
    expect(unknown.status).toBe(404);
    expect(unknown.json.detail).toBe('Lab test not found');
    expect((await http(stack, 'GET', `/v3/lab_tests/${theirs}`, { apiKey: team.apiKey })).status).toBe(404);
  });

  it('checks lab_account_id: a UUID (422), the team\'s own (404), at the test\'s lab (400)', async () => {
    const team = await newTeam(stack);
    const other = await newTeam(stack);
    const atNorthstar = await createLabAccount(stack.db.db, { teamId: team.teamId, labId: await labIdOf('northstar'), name: 'N', defaultComment: null });
    const atMeridian = await createLabAccount(stack.db.db, { teamId: team.teamId, labId: await labIdOf('meridian'), name: 'M', defaultComment: null });
    const othersAccount = await createLabAccount(stack.db.db, { teamId: other.teamId, labId: await labIdOf('northstar'), name: 'O', defaultComment: null });
    const get = (q: string) => http(stack, 'GET', `/v3/lab_tests/${HBA1C_KIT}?${q}`, { apiKey: team.apiKey });
    expect((await get(`lab_account_id=${atNorthstar!.id}`)).status).toBe(200);
    expect422(await get('lab_account_id=acct-1'), 'lab_account_id');
    expect((await get(`lab_account_id=${othersAccount!.id}`)).status).toBe(404);
    expect((await get(`lab_account_id=${atMeridian!.id}`)).status).toBe(400);
  });
});

describe('GET /v3/lab_tests/labs', () => {
  it('answers the labs (not read as a lab test id), and 401 without a key', async () => {
    const { apiKey } = await newTeam(stack);
    const res = await http(stack, 'GET', '/v3/lab_tests/labs', { apiKey });
    expect(res.status).toBe(200);
    const list = clientFacingLab.array().parse(res.json);
    expect(list.map((l) => l.slug)).toEqual(expect.arrayContaining(['meridian', 'cascade', 'northstar']));
    expect((await http(stack, 'GET', '/v3/lab_tests/labs')).status).toBe(401);
  });
});

describe('GET /v3/lab_tests/markers', () => {
  it('answers a page of markers, filtered by the spec\'s lab_slug', async () => {
    const { apiKey } = await newTeam(stack);
    const res = await http(stack, 'GET', '/v3/lab_tests/markers?lab_slug=cascade&a_la_carte_enabled=true&size=5&page=2', { apiKey });
    expect(res.status).toBe(200);
    const page = getMarkersResponse.parse(res.json);
    expect(page).toMatchObject({ page: 2, size: 5, total: 17, pages: 4 });
    expect(page.markers).toHaveLength(5);
    const empty = getMarkersResponse.parse((await http(stack, 'GET', '/v3/lab_tests/markers?lab_slug=nowhere', { apiKey })).json);
    expect(empty).toMatchObject({ markers: [], total: 0 });
  });

  it('refuses bad query values with 422, and an unknown lab account with 404', async () => {
    const { apiKey } = await newTeam(stack);
    for (const [query, loc] of [
      ['page=0', 'page'],
      ['size=0', 'size'],
      ['size=101', 'size'],
      ['page=first', 'page'],
      ['lab_id=abc', 'lab_id'],
      ['lab_id=1&lab_id=x', 'lab_id'],
      ['a_la_carte_enabled=maybe', 'a_la_carte_enabled'],
      ['lab_account_id=12', 'lab_account_id'],
    ] as const) {
      expect422(await http(stack, 'GET', `/v3/lab_tests/markers?${query}`, { apiKey }), loc);
    }
    const res = await http(stack, 'GET', `/v3/lab_tests/markers?lab_account_id=${MISSING}`, { apiKey });
    expect(res.status).toBe(404);
    expect(res.json.detail).toBe('Lab account not found');
  });
});

describe('GET /v3/lab_tests/{lab_test_id}/markers', () => {
  it('answers the markers of a visible test; 422 for bad input; 404 for unknown or another team\'s test', async () => {
    const team = await newTeam(stack);
    const other = await newTeam(stack);
    const { labTestId: theirs } = await testkitLabTest(stack.db.db, other.teamId);
    const page = getMarkersResponse.parse((await http(stack, 'GET', `/v3/lab_tests/${WELLNESS}/markers?size=2`, { apiKey: team.apiKey })).json);
    expect(page).toMatchObject({ total: 5, size: 2, pages: 3 });
    expect422(await http(stack, 'GET', '/v3/lab_tests/nope/markers', { apiKey: team.apiKey }), 'lab_test_id');
    expect422(await http(stack, 'GET', `/v3/lab_tests/${WELLNESS}/markers?page=0`, { apiKey: team.apiKey }), 'page');
    expect422(await http(stack, 'GET', `/v3/lab_tests/${WELLNESS}/markers?size=500`, { apiKey: team.apiKey }), 'size');
    expect((await http(stack, 'GET', `/v3/lab_tests/${MISSING}/markers`, { apiKey: team.apiKey })).status).toBe(404);
    expect((await http(stack, 'GET', `/v3/lab_tests/${theirs}/markers`, { apiKey: team.apiKey })).status).toBe(404);
  });
});

describe('GET /v3/lab_tests/{lab_id}/markers/{provider_id}', () => {
  it('answers the marker; 422 for a lab id that is not a number; 404 for an unknown marker', async () => {
    const { apiKey } = await newTeam(stack);
    const meridian = await labIdOf('meridian');
    const res = await http(stack, 'GET', `/v3/lab_tests/${meridian}/markers/701020`, { apiKey });
    expect(res.status).toBe(200);
    const marker = clientFacingMarkerComplete.parse(res.json);
    expect(marker).toMatchObject({ name: 'Lipid Panel', type: 'panel', lab_id: meridian });
    expect422(await http(stack, 'GET', '/v3/lab_tests/meridian/markers/701020', { apiKey }), 'lab_id');
    expect((await http(stack, 'GET', `/v3/lab_tests/${meridian}/markers/NS-101`, { apiKey })).status).toBe(404);
    expect((await http(stack, 'GET', '/v3/lab_tests/999999/markers/701020', { apiKey })).status).toBe(404);
  });
});

describe('POST /v3/lab_tests/list_order_set_markers', () => {
  it('answers the order set\'s markers; 422 for bad bodies or labs that differ; 404 for unknown or another team\'s test', async () => {
    const team = await newTeam(stack);
    const other = await newTeam(stack);
    const { labTestId: theirs } = await testkitLabTest(stack.db.db, other.teamId);
    const post = (body: unknown, query = '') => http(stack, 'POST', `/v3/lab_tests/list_order_set_markers${query}`, { apiKey: team.apiKey, body });
    const ok = await post({ lab_test_ids: [HBA1C_KIT], add_on: { marker_ids: [await markerId('northstar', 'NS-111')] } });
    expect(ok.status).toBe(200);
    expect(getMarkersResponse.parse(ok.json).markers.map((m) => m.provider_id)).toEqual(['NS-101', 'NS-111']);

    expect422(await post({}), 'lab_test_ids');
    expect422(await post({ lab_test_ids: ['x'] }), 0);
    expect422(await post({ lab_test_ids: [HBA1C_KIT] }, '?page=0'), 'page');
    expect422(await post({ lab_test_ids: [HBA1C_KIT, WELLNESS] }), 'lab_test_ids');
    expect422(await post({ lab_test_ids: [HBA1C_KIT], add_on: { marker_ids: [2147483000] } }), 0);
    expect422(await post({ lab_test_ids: [HBA1C_KIT], add_on: { marker_ids: [await markerId('meridian', '702001')] } }), 'marker_ids');
    expect422(await post({ lab_test_ids: [HBA1C_KIT], add_on: { provider_ids: ['701010'] } }), 'provider_ids');
    expect422(await post({ add_on: { marker_ids: ['one'] } }), 0);
    expect422(await http(stack, 'POST', '/v3/lab_tests/list_order_set_markers', { apiKey: team.apiKey, rawBody: '{"lab_test_ids": [', headers: { 'content-type': 'application/json' } }), null);
    expect((await post({ lab_test_ids: [MISSING] })).status).toBe(404);
    expect((await post({ lab_test_ids: [theirs] })).status).toBe(404);
  });
});

describe('POST /v3/lab_tests', () => {
  const valid = { name: 'My kit', method: 'testkit', description: 'A1c', provider_ids: ['NS-101'] };

  it('creates a test; refuses invalid bodies with 422 and creates nothing', async () => {
    const { apiKey, teamId } = await newTeam(stack);
    const meridianA1c = await markerId('meridian', '702001');
    const cases: [unknown, string | number | null][] = [
      [{ ...valid, name: '   ' }, 'name'],
      [{ ...valid, name: undefined }, 'name'],
      [{ ...valid, name: 'x'.repeat(201) }, 'name'],
      [{ ...valid, method: 'by_drone' }, 'method'],
      [{ ...valid, description: undefined }, 'description'],
      [{ ...valid, provider_ids: [] }, 'marker_ids'],
      [{ ...valid, provider_ids: undefined }, 'marker_ids'],
      [{ ...valid, provider_ids: ['NO-SUCH-CODE'] }, 'provider_ids'],
      [{ ...valid, marker_ids: [2147483000] }, 0],
      [{ ...valid, marker_ids: ['1'] }, 0],
      [{ ...valid, marker_ids: [meridianA1c] }, 'provider_ids'], // the marker is at Meridian, NS-101 is not
      [{ ...valid, method: 'walk_in_test' }, 'method'], // northstar only ships kits
      [{ ...valid, sample_type: 'serum' }, 'sample_type'], // nor takes serum
      [{ ...valid, sample_type: 'plasma' }, 'sample_type'],
      [{ ...valid, fasting: 'yes' }, 'fasting'],
      [{ ...valid, lab_id: 999999 }, 'lab_id'],
      [{ ...valid, lab_id: await labIdOf('cascade') }, 'provider_ids'],
      [[valid], null],
    ];
    for (const [body, loc] of cases) expect422(await http(stack, 'POST', '/v3/lab_tests', { apiKey, body }), loc);
    expect422(await http(stack, 'POST', '/v3/lab_tests', { apiKey, rawBody: '{"name":', headers: { 'content-type': 'application/json' } }), null);
    expect422(await http(stack, 'POST', '/v3/lab_tests', { apiKey }), null);
    expect(await ownTests(teamId)).toEqual([]);

    const res = await http(stack, 'POST', '/v3/lab_tests', { apiKey, body: { ...valid, sample_type: 'arm_collector' } });
    expect(res.status).toBe(200);
    expect(clientFacingLabTest.parse(res.json)).toMatchObject({ name: 'My kit', sample_type: 'arm_collector', method: 'testkit' });
    expect(await ownTests(teamId)).toHaveLength(1);
  });

  it('asks for lab_id when provider ids alone name several labs', async () => {
    const { apiKey, teamId } = await newTeam(stack);
    const tag = randomUUID().slice(0, 8);
    const twoLabs = await stack.db.db
      .insert(labs)
      .values([1, 2].map((n) => ({ slug: `dup-${n}-${tag}`, name: `Dup ${n}`, firstLineAddress: '1 Way', city: 'Reno', zipcode: '89501', collectionMethods: ['walk_in_test'], sampleTypes: ['serum'] })))
      .returning();
    await stack.db.db.insert(markers).values(twoLabs.map((l) => ({ labId: l.id, name: 'Shared code', slug: 'shared', providerId: `DUP-${tag}`, type: 'biomarker' as const, price: '5.00' })));
    const body = { name: 'Dup', method: 'walk_in_test', description: '', provider_ids: [`DUP-${tag}`] };
    expect422(await http(stack, 'POST', '/v3/lab_tests', { apiKey, body }), 'provider_ids');
    expect(await ownTests(teamId)).toEqual([]);
    const res = await http(stack, 'POST', '/v3/lab_tests', { apiKey, body: { ...body, lab_id: twoLabs[1]!.id } });
    expect(clientFacingLabTest.parse(res.json)).toMatchObject({ sample_type: 'serum', price: 5, lab: { id: twoLabs[1]!.id } });
  });
});

describe('PATCH /v3/lab_tests/{lab_test_id}', () => {
  it('changes the team\'s own test; 422 for bad bodies (nothing changes); 404 unknown or another team\'s; 403 for the catalogue', async () => {
    const team = await newTeam(stack);
    const other = await newTeam(stack);
    const { labTestId: theirs } = await testkitLabTest(stack.db.db, other.teamId);
    const created = clientFacingLabTest.parse((await http(stack, 'POST', '/v3/lab_tests', { apiKey: team.apiKey, body: { name: 'Mine', method: 'testkit', description: 'd', provider_ids: ['NS-102'] } })).json);
    const patch = (id: string, body: unknown) => http(stack, 'PATCH', `/v3/lab_tests/${id}`, { apiKey: team.apiKey, body });
    const before = await ownTests(team.teamId);
    for (const [body, loc] of [
      [{ name: '' }, 'name'],
      [{ name: 42 }, 'name'],
      [{ active: 'yes' }, 'active'],
      [{ status: 'pending_approval' }, 'status'],
      [{ status: 'inactive', active: true }, 'status'],
      [{ description: 'x'.repeat(2001) }, 'description'],
    ] as const) {
      expect422(await patch(created.id, body), loc);
    }
    expect422(await http(stack, 'PATCH', `/v3/lab_tests/${created.id}`, { apiKey: team.apiKey, rawBody: 'nope', headers: { 'content-type': 'application/json' } }), null);
    expect(await ownTests(team.teamId)).toEqual(before);

    expect422(await patch('nope', { name: 'x' }), 'lab_test_id');
    expect((await patch(MISSING, { name: 'x' })).status).toBe(404);
    expect((await patch(theirs, { name: 'x' })).status).toBe(404);
    const catalogue = await patch(HBA1C_KIT, { name: 'Hijacked' });
    expect(catalogue.status).toBe(403);
    expect((await http(stack, 'GET', `/v3/lab_tests/${HBA1C_KIT}`, { apiKey: team.apiKey })).json.name).toBe('HbA1c Test Kit');

    const ok = await patch(created.id, { description: 'New words', status: 'inactive', name: null });
    expect(clientFacingLabTest.parse(ok.json)).toMatchObject({ name: 'Mine', description: 'New words', status: 'inactive', is_active: false });
    const back = await patch(created.id, { active: true });
    expect(clientFacingLabTest.parse(back.json).status).toBe('active');
  });
});
