import type { Vital } from '@tryvital/vital-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLabAccount } from '../../db/queries/lab-accounts.js';
import { CATALOG_LAB_TESTS, CATALOG_LABS, CATALOG_MARKERS, catalogLabTestId } from '../../db/seed/catalog-data.js';
import { testkitLabTest } from '../support/catalog-fixture.js';
import { newTeam, sdkFor, startTestStack, type TestStack } from '../support/harness.js';

let stack: TestStack;
beforeAll(async () => {
  stack = await startTestStack();
});
afterAll(async () => {
  await stack?.close();
});

const HBA1C_KIT = catalogLabTestId('northstar-hba1c-kit');
const WELLNESS = catalogLabTestId('meridian-essential-wellness');

async function setup() {
  const team = await newTeam(stack);
  return { ...team, client: sdkFor(stack, team.apiKey) };
}

async function labId(client: ReturnType<typeof sdkFor>, slug: string) {
  const lab = (await client.labTests.getLabs()).find((l) => l.slug === slug);
  expect(lab, slug).toBeDefined();
  return lab!.id;
}

/** Every page of GET /v3/lab_test, following next_cursor. */
async function allPages(client: ReturnType<typeof sdkFor>, request: Vital.LabTestsGetPaginatedRequest) {
  const seen: Vital.ClientFacingLabTest[] = [];
  let cursor: string | undefined;
  for (let pages = 1; ; pages++) {
    const page = await client.labTests.getPaginated({ ...request, ...(cursor ? { nextCursor: cursor } : {}) });
    expect(page.data.length).toBeLessThanOrEqual(request.labTestLimit ?? 50);
    seen.push(...page.data);
    if (!page.nextCursor) return { tests: seen, pages };
    cursor = page.nextCursor;
  }
}

describe('lab catalogue through @tryvital/vital-node', () => {
  it('lists the seeded labs with their collection methods and sample types', async () => {
    const { client } = await setup();
    const labs = await client.labTests.getLabs();
    for (const seeded of CATALOG_LABS) {
      const lab = labs.find((l) => l.slug === seeded.slug);
      expect(lab, seeded.slug).toMatchObject({
        name: seeded.name,
        firstLineAddress: seeded.firstLineAddress,
        city: seeded.city,
        zipcode: seeded.zipcode,
        collectionMethods: seeded.collectionMethods,
        sampleTypes: seeded.sampleTypes,
      });
    }
  });

  it('pages through the catalogue with lab_test_limit and next_cursor, every test once, with its lab and markers', async () => {
    const { client } = await setup();
    const { tests, pages } = await allPages(client, { labTestLimit: 4 });
    expect(pages).toBeGreaterThan(CATALOG_LAB_TESTS.length / 4 - 1);
    const ids = tests.map((t) => t.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const seeded of CATALOG_LAB_TESTS) {
      const test = tests.find((t) => t.id === catalogLabTestId(seeded.slug));
      expect(test, seeded.slug).toBeDefined();
      expect(test).toMatchObject({ slug: seeded.slug, name: seeded.name, method: seeded.method, sampleType: seeded.sampleType, price: seeded.price, status: 'active', isActive: true });
      expect(test!.lab?.slug).toBe(seeded.labSlug);
      expect(test!.markers?.map((m) => m.providerId).sort()).toEqual([...seeded.markers].sort());
    }
    // Default order: creation, oldest first; the catalogue keeps the data's order.
    const catalogue = ids.filter((id) => CATALOG_LAB_TESTS.some((t) => catalogLabTestId(t.slug) === id));
    expect(catalogue).toEqual(CATALOG_LAB_TESTS.map((t) => catalogLabTestId(t.slug)));
  });

  it('filters and orders the paginated list', async () => {
    const { client } = await setup();
    const northstar = await allPages(client, { labSlug: 'northstar', labTestLimit: 3 });
    expect(northstar.tests.length).toBe(CATALOG_LAB_TESTS.filter((t) => t.labSlug === 'northstar').length);
    expect(northstar.tests.every((t) => t.method === 'testkit' && t.lab?.slug === 'northstar')).toBe(true);

    const walkIn = await allPages(client, { collectionMethod: 'walk_in_test' });
    expect(walkIn.tests.length).toBeGreaterThan(0);
    expect(walkIn.tests.every((t) => t.method === 'walk_in_test')).toBe(true);

    const byName = await client.labTests.getPaginated({ name: 'THYROID' });
    expect(byName.data.map((t) => t.slug).sort()).toEqual(['meridian-thyroid-complete', 'northstar-thyroid-kit']);

    const withTsh = await allPages(client, { providerIds: ['NS-102', 'NS-103'] });
    expect(withTsh.tests.map((t) => t.slug)).toEqual(['northstar-thyroid-kit']);
    const [a1c] = (await client.labTests.getById(HBA1C_KIT)).markers!;
    const withA1c = await allPages(client, { markerIds: [a1c!.id] });
    expect(withA1c.tests.map((t) => t.slug).sort()).toEqual(['northstar-hba1c-kit', 'northstar-heart-kit', 'northstar-wellness-arm-kit']);

    const byPrice = await allPages(client, { orderKey: 'price', orderDirection: 'desc', labTestLimit: 5 });
    const prices = byPrice.tests.map((t) => t.price);
    expect(prices).toEqual([...prices].sort((x, y) => y - x));
    expect(byPrice.tests[0]!.slug).toBe('cascade-longevity');
  });

  it('serves the older GET /v3/lab_tests list with the same filters', async () => {
    const { client } = await setup();
    const all = await client.labTests.get();
    expect(all.length).toBeGreaterThanOrEqual(CATALOG_LAB_TESTS.length);
    const urine = await client.labTests.get({ labSlug: 'meridian', status: 'active' });
    expect(urine.every((t) => t.lab?.slug === 'meridian')).toBe(true);
    expect(urine.map((t) => t.slug)).toContain('meridian-kidney-urine');
    expect(await client.labTests.get({ generationMethod: 'auto' })).toEqual([]);
  });

  it('reads one lab test by its stable catalogue id', async () => {
    const { client } = await setup();
    const test = await client.labTests.getById(HBA1C_KIT);
    expect(test).toMatchObject({ id: HBA1C_KIT, slug: 'northstar-hba1c-kit', method: 'testkit', sampleType: 'dried_blood_spot', hasCollectionInstructions: true });
    expect(test.markers).toHaveLength(1);
    expect(test.markers![0]).toMatchObject({ name: 'Hemoglobin A1c', providerId: 'NS-101', type: 'biomarker', unit: '%' });
    expect(test.commonTatDays).toBeGreaterThan(0);
    expect(test.worstCaseTatDays).toBeGreaterThanOrEqual(test.commonTatDays!);
  });

  it('lists markers with LOINC-coded expected results, paged and filtered', async () => {
    const { client } = await setup();
    const first = await client.labTests.getMarkers({ size: 10 });
    expect(first.markers).toHaveLength(10);
    expect(first).toMatchObject({ page: 1, size: 10 });
    expect(first.total).toBeGreaterThanOrEqual(CATALOG_MARKERS.length);
    expect(first.pages).toBe(Math.ceil(first.total! / 10));
    const second = await client.labTests.getMarkers({ size: 10, page: 2 });
    expect(second.markers.map((m) => m.id).some((id) => first.markers.some((m) => m.id === id))).toBe(false);

    const meridian = await labId(client, 'meridian');
    const tsh = await client.labTests.getMarkers({ labId: meridian, name: 'tsh' });
    expect(tsh.markers).toHaveLength(1);
    expect(tsh.markers[0]).toMatchObject({ providerId: '702003', labId: meridian, unit: 'mIU/L' });
    expect(tsh.markers[0]!.expectedResults).toHaveLength(1);
    expect(tsh.markers[0]!.expectedResults[0]!.loinc).toMatchObject({ code: '3016-3', name: 'Thyrotropin [Units/volume] in Serum or Plasma', unit: 'mIU/L' });

    // A test code works as the name filter too; the spec's lab_slug filters by lab.
    const byCode = await client.labTests.getMarkers({ name: '701020' });
    expect(byCode.markers.map((m) => m.name)).toEqual(['Lipid Panel']);
    const lipids = byCode.markers[0]!;
    expect(lipids.type).toBe('panel');
    expect(lipids.expectedResults.map((r) => r.loinc?.code)).toEqual(['2093-3', '2085-9', '2571-8', '13457-7', '43396-1', '9830-1']);
    const northstar = await client.labTests.getMarkers({ size: 100 }, { queryParams: { lab_slug: 'northstar' } });
    expect(northstar.total).toBe(CATALOG_MARKERS.filter((m) => m.labSlug === 'northstar').length);
    expect(new Set(northstar.markers.map((m) => m.providerId?.slice(0, 3)))).toEqual(new Set(['NS-']));
    const twoLabs = await client.labTests.getMarkers({ labId: [meridian, await labId(client, 'cascade')], name: 'ferritin' });
    expect(twoLabs.markers.map((m) => m.providerId).sort()).toEqual(['702007', '8205']);
  });

  it("filters markers to a lab account's lab", async () => {
    const { client, teamId } = await setup();
    const cascade = await labId(client, 'cascade');
    const account = await createLabAccount(stack.db.db, { teamId, labId: cascade, name: 'Acme at Cascade', defaultComment: null });
    const markers = await client.labTests.getMarkers({ labAccountId: account!.id, size: 100 });
    expect(markers.total).toBe(CATALOG_MARKERS.filter((m) => m.labSlug === 'cascade').length);
    expect(markers.markers.every((m) => m.labId === cascade)).toBe(true);
  });

  it("pages a lab test's markers", async () => {
    const { client } = await setup();
    const page1 = await client.labTests.getMarkersForLabTest(WELLNESS, { size: 3 });
    expect(page1).toMatchObject({ total: 5, page: 1, size: 3, pages: 2 });
    const page2 = await client.labTests.getMarkersForLabTest(WELLNESS, { size: 3, page: 2 });
    expect([...page1.markers, ...page2.markers].map((m) => m.providerId).sort()).toEqual(['701010', '701020', '701030', '702001', '702003']);
    const cmp = page1.markers.find((m) => m.providerId === '701010')!;
    expect(cmp.expectedResults.map((r) => r.loinc?.code)).toContain('2345-7');
    expect(cmp.expectedResults.every((r) => r.required && r.labId === cmp.labId)).toBe(true);
  });

  it('lists the markers of an order set: its lab tests plus add-ons at the same lab', async () => {
    const { client } = await setup();
    const thyroid = catalogLabTestId('northstar-thyroid-kit');
    const res = await client.labTests.getMarkersForOrderSet({
      body: { labTestIds: [HBA1C_KIT, thyroid], addOn: { providerIds: ['NS-114', 'NS-101'] } },
    });
    expect(res.markers.map((m) => m.providerId)).toEqual(['NS-101', 'NS-102', 'NS-103', 'NS-104', 'NS-114']);
    expect(res.total).toBe(5);
    const paged = await client.labTests.getMarkersForOrderSet({ page: 2, size: 2, body: { labTestIds: [HBA1C_KIT, thyroid] } });
    expect(paged).toMatchObject({ total: 4, page: 2, size: 2, pages: 2 });
    expect(paged.markers.map((m) => m.providerId)).toEqual(['NS-103', 'NS-104']);
  });

  it('finds a marker by lab and provider id', async () => {
    const { client } = await setup();
    const northstar = await labId(client, 'northstar');
    const marker = await client.labTests.getMarkersByLabAndProviderId('NS-112', northstar);
    expect(marker).toMatchObject({ labId: northstar, providerId: 'NS-112', type: 'biomarker', slug: 'chlamydia' });
  });

  it("creates the team's own lab test, changes it, and keeps it from other teams", async () => {
    const { client } = await setup();
    const created = await client.labTests.create({
      name: 'Metabolic Kit Plus',
      method: 'testkit',
      description: 'HbA1c and hs-CRP from one card.',
      providerIds: ['NS-101', 'NS-109'],
      fasting: true,
    });
    expect(created).toMatchObject({
      name: 'Metabolic Kit Plus',
      slug: 'metabolic-kit-plus',
      method: 'testkit',
      sampleType: 'dried_blood_spot',
      status: 'active',
      fasting: true,
      price: 29,
      autoGenerated: false,
    });
    expect(created.lab?.slug).toBe('northstar');
    expect(created.markers?.map((m) => m.providerId)).toEqual(['NS-101', 'NS-109']);
    expect(await client.labTests.getById(created.id)).toEqual(created);

    const renamed = await client.labTests.updateLabTest(created.id, { name: 'Metabolic Kit Plus (2026)', active: false });
    expect(renamed).toMatchObject({ id: created.id, name: 'Metabolic Kit Plus (2026)', status: 'inactive', isActive: false, slug: 'metabolic-kit-plus' });
    const inactive = await client.labTests.get({ status: 'inactive' });
    expect(inactive.map((t) => t.id)).toEqual([created.id]);

    // By marker ids too; the same name again gets its own slug.
    const markers = created.markers!.map((m) => m.id);
    const again = await client.labTests.create({ name: 'Metabolic Kit Plus', method: 'testkit', description: '', markerIds: markers });
    expect(again.slug).toMatch(/^metabolic-kit-plus-[0-9a-f]{8}$/);

    const other = await setup();
    const theirs = await other.client.labTests.get();
    expect(theirs.some((t) => t.id === created.id || t.id === again.id)).toBe(false);
    expect(theirs.length).toBe(CATALOG_LAB_TESTS.length);
  });

  it("lists a team's fixture lab test beside the catalogue", async () => {
    const { client, teamId } = await setup();
    const { labTestId } = await testkitLabTest(stack.db.db, teamId);
    const { tests } = await allPages(client, { labTestLimit: 50 });
    expect(tests.map((t) => t.id)).toContain(labTestId);
    expect(tests.length).toBe(CATALOG_LAB_TESTS.length + 1);
  });

  it('orders a catalogue testkit by its stable id', async () => {
    const { client } = await setup();
    const { userId } = await client.user.create({ clientUserId: `patient-${Date.now()}` });
    const created = await client.testkit.createOrder({
      userId,
      labTestId: HBA1C_KIT,
      shippingDetails: { receiverName: 'Jane Doe', firstLine: '123 Main St', city: 'Austin', state: 'TX', zip: '78701', country: 'US', phoneNumber: '+15125550123' },
    });
    expect(created.order.labTest).toMatchObject({ name: 'HbA1c Test Kit', method: 'testkit' });
  });
});
