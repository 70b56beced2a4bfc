import { randomUUID } from 'node:crypto';
import type { Db } from '../../db/client.js';
import { labTestMarkers, labTests, labs, loincCodes, markerResults, markers } from '../../db/schema/index.js';

/** A lab with a testkit lab test of the team's own (two markers, LOINC-coded), isolated per test. */
export async function testkitLabTest(db: Db, teamId: string, method = 'testkit') {
  const tag = randomUUID().slice(0, 8);
  const [lab] = await db
    .insert(labs)
    .values({
      slug: `fixture-lab-${tag}`,
      name: `Fixture Lab ${tag}`,
      firstLineAddress: '1 Lab Way',
      city: 'Austin',
      zipcode: '78701',
      collectionMethods: ['testkit'],
      sampleTypes: ['dried_blood_spot'],
    })
    .returning();
  const loinc = await db
    .insert(loincCodes)
    .values([
      { code: '4548-4', name: 'Hemoglobin A1c/Hemoglobin.total in Blood', slug: 'hemoglobin-a1c', unit: '%' },
      { code: '2093-3', name: 'Cholesterol [Mass/volume] in Serum or Plasma', slug: 'cholesterol-total', unit: 'mg/dL' },
    ])
    .onConflictDoUpdate({ target: loincCodes.code, set: { slug: loincCodes.slug } })
    .returning();
  const ms = await db
    .insert(markers)
    .values([
      { labId: lab!.id, name: 'Hemoglobin A1c', slug: 'hba1c', providerId: `A1C-${tag}`, type: 'biomarker', unit: '%' },
      { labId: lab!.id, name: 'Total Cholesterol', slug: 'cholesterol', providerId: `CHOL-${tag}`, type: 'biomarker', unit: 'mg/dL' },
    ])
    .returning();
  await db.insert(markerResults).values(
    ms.map((m, i) => ({ markerId: m.id, name: m.name, slug: m.slug, providerId: m.providerId, loincId: loinc[i]!.id })),
  );
  const [test] = await db
    .insert(labTests)
    .values({
      teamId,
      slug: `fixture-kit-${tag}`,
      name: `Fixture ${method} ${tag}`,
      sampleType: 'dried_blood_spot',
      method,
      price: 49,
      labId: lab!.id,
      commonTatDays: 3,
      worstCaseTatDays: 7,
    })
    .returning();
  await db.insert(labTestMarkers).values(ms.map((m) => ({ labTestId: test!.id, markerId: m.id })));
  return { labTestId: test!.id, labId: lab!.id };
}
