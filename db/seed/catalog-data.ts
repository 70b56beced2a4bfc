/**
 * The sandbox lab catalogue: three fictional US laboratories (a reference lab with patient service
 * centres and mobile phlebotomy, a regional lab that also collects on site, and an at-home kit lab),
 * their orderable markers (biomarkers and panels, each result LOINC-coded) and the lab tests built
 * from them. Names and addresses are made up; LOINC codes and units are the real ones (loinc-codes.ts).
 *
 * Every row has a stable business key (lab slug, (lab, provider id), LOINC code, lab test slug), so
 * seeding is an idempotent upsert; global lab test ids derive from their slugs (catalogLabTestId).
 */
import type { CollectionMethod } from '../../domain/orders/status.js';
import { uuidFrom } from '../../domain/orders/ids.js';
import type { LabTestSampleType } from '../queries/catalog.js';
import type { Aoe } from '../../domain/orders/aoe.js';
import { AOE } from './aoe-questions.js';
import { LOINC, type AnalyteKey } from './loinc-codes.js';

export interface SeedLab {
  slug: string;
  name: string;
  firstLineAddress: string;
  city: string;
  zipcode: string;
  collectionMethods: CollectionMethod[];
  sampleTypes: LabTestSampleType[];
}

export interface SeedResult {
  slug: AnalyteKey;
  name: string;
  loincCode: string;
  providerId: string;
  required: boolean;
}

export interface SeedMarker {
  labSlug: string;
  providerId: string;
  name: string;
  slug: string;
  description: string;
  type: 'biomarker' | 'panel';
  unit: string | null;
  price: string;
  aLaCarteEnabled: boolean;
  commonTatDays: number;
  worstCaseTatDays: number;
  results: SeedResult[];
  /** Ask-on-order-entry questions (aoe-questions.ts), null when the lab asks none. */
  aoe: Aoe | null;
}

export interface SeedLabTest {
  slug: string;
  name: string;
  description: string;
  labSlug: string;
  method: CollectionMethod;
  sampleType: LabTestSampleType;
  price: number;
  fasting: boolean;
  hasCollectionInstructions: boolean;
  /** Provider ids of the lab's markers. */
  markers: string[];
}

/** The id of a catalogue lab test: the same on every install, so docs and examples can name it. */
export const catalogLabTestId = (slug: string) => uuidFrom(`catalog-lab-test:${slug}`);

export const CATALOG_LABS: SeedLab[] = [
  {
    slug: 'meridian',
    name: 'Meridian Clinical Laboratories',
    firstLineAddress: '2200 Harborview Parkway',
    city: 'Baltimore',
    zipcode: '21230',
    collectionMethods: ['walk_in_test', 'at_home_phlebotomy'],
    sampleTypes: ['serum', 'urine'],
  },
  {
    slug: 'cascade',
    name: 'Cascade Diagnostic Laboratory',
    firstLineAddress: '1350 Alder Ridge Road',
    city: 'Tacoma',
    zipcode: '98402',
    collectionMethods: ['walk_in_test', 'at_home_phlebotomy', 'on_site_collection'],
    sampleTypes: ['serum', 'urine'],
  },
  {
    slug: 'northstar',
    name: 'Northstar Home Diagnostics',
    firstLineAddress: '8100 Lakeline Commons Drive, Suite 300',
    city: 'Austin',
    zipcode: '78717',
    collectionMethods: ['testkit'],
    sampleTypes: ['dried_blood_spot', 'arm_collector', 'saliva', 'urine'],
  },
];

type MarkerDef = Omit<SeedMarker, 'labSlug' | 'commonTatDays' | 'worstCaseTatDays' | 'aoe'> & { tat?: [number, number]; aoe?: Aoe };

/** A marker whose lab asks these questions when it is ordered. */
const asks = (aoe: Aoe, def: MarkerDef): MarkerDef => ({ ...def, aoe });

const resultOf = (key: AnalyteKey, providerId: string, required = true): SeedResult => ({
  slug: key,
  name: LOINC[key].display,
  loincCode: LOINC[key].code,
  providerId,
  required,
});

/** A single-analyte marker: its one expected result carries the analyte's LOINC code. */
function biomarker(providerId: string, key: AnalyteKey, price: string, tat?: [number, number]): MarkerDef {
  const fact = LOINC[key];
  return {
    providerId,
    name: fact.display,
    slug: key,
    description: fact.name,
    type: 'biomarker',
    unit: fact.unit,
    price,
    aLaCarteEnabled: true,
    results: [resultOf(key, providerId)],
    ...(tat ? { tat } : {}),
  };
}

/** A panel: several results, numbered `<provider id>-NN` as the lab reports them. */
function panel(providerId: string, slug: string, name: string, description: string, keys: AnalyteKey[], price: string, tat?: [number, number]): MarkerDef {
  return {
    providerId,
    name,
    slug,
    description,
    type: 'panel',
    unit: null,
    price,
    aLaCarteEnabled: true,
    results: keys.map((k, i) => resultOf(k, `${providerId}-${String(i + 1).padStart(2, '0')}`)),
    ...(tat ? { tat } : {}),
  };
}

function atLab(labSlug: string, defaultTat: [number, number], defs: MarkerDef[]): SeedMarker[] {
  return defs.map(({ tat, aoe, ...m }) => ({
    ...m,
    labSlug,
    commonTatDays: (tat ?? defaultTat)[0],
    worstCaseTatDays: (tat ?? defaultTat)[1],
    aoe: aoe ?? null,
  }));
}

const CMP: AnalyteKey[] = [
  'glucose', 'bun', 'creatinine', 'egfr', 'sodium', 'potassium', 'chloride', 'carbon-dioxide', 'calcium',
  'protein-total', 'albumin', 'bilirubin-total', 'alkaline-phosphatase', 'alt', 'ast',
];
const LIPIDS: AnalyteKey[] = ['cholesterol-total', 'hdl-cholesterol', 'triglycerides', 'ldl-cholesterol-calculated', 'non-hdl-cholesterol', 'cholesterol-hdl-ratio'];
const CBC: AnalyteKey[] = ['wbc', 'rbc', 'hemoglobin', 'hematocrit', 'mcv', 'mch', 'mchc', 'rdw', 'platelets'];
const IRON: AnalyteKey[] = ['iron', 'tibc', 'iron-saturation'];
const UACR: AnalyteKey[] = ['urine-albumin', 'urine-creatinine', 'urine-albumin-creatinine-ratio'];
const CMP_TEXT = 'Glucose, kidney function (BUN, creatinine, eGFR), electrolytes, calcium, proteins and liver enzymes.';
const LIPID_TEXT = 'Total, HDL and calculated LDL cholesterol, triglycerides, non-HDL cholesterol and the cholesterol/HDL ratio.';
const CBC_TEXT = 'Red and white cell counts, hemoglobin, hematocrit, red cell indices and platelets.';

const MERIDIAN = atLab('meridian', [1, 3], [
  asks(AOE.fasting, panel('701010', 'comprehensive-metabolic-panel', 'Comprehensive Metabolic Panel (CMP)', CMP_TEXT, CMP, '14.00')),
  asks(AOE.fasting, panel('701020', 'lipid-panel', 'Lipid Panel', LIPID_TEXT, LIPIDS, '12.00')),
  panel('701030', 'complete-blood-count', 'CBC (Hemogram) without Differential', CBC_TEXT, CBC, '11.00'),
  panel('701040', 'iron-and-tibc', 'Iron and Total Iron Binding Capacity', 'Serum iron, TIBC and transferrin (iron) saturation.', IRON, '16.00'),
  panel('701050', 'urine-albumin-creatinine-ratio', 'Microalbumin/Creatinine Ratio, Random Urine', 'Urine albumin and creatinine with their ratio.', UACR, '18.00'),
  panel('701060', 'urinalysis-dipstick', 'Urinalysis, Dipstick', 'Urine pH, specific gravity, protein and glucose by test strip.', ['urine-ph', 'urine-specific-gravity', 'urine-protein', 'urine-glucose'], '9.00', [1, 2]),
  biomarker('702001', 'hemoglobin-a1c', '10.00'),
  asks(AOE.fasting, biomarker('702002', 'insulin', '22.00', [2, 4])),
  biomarker('702003', 'tsh', '15.00'),
  biomarker('702004', 'free-t4', '16.00'),
  biomarker('702005', 'free-t3', '18.00'),
  biomarker('702006', 'tpo-antibodies', '24.00', [2, 5]),
  biomarker('702007', 'ferritin', '14.00'),
  asks(AOE.vitaminD, biomarker('702008', 'vitamin-d-total', '29.00', [2, 4])),
  biomarker('702009', 'vitamin-b12', '17.00'),
  biomarker('702010', 'folate', '17.00'),
  biomarker('702011', 'testosterone', '21.00', [2, 4]),
  biomarker('702012', 'testosterone-free', '34.00', [3, 6]),
  asks(AOE.cycleHormone, biomarker('702013', 'estradiol', '26.00', [2, 4])),
  biomarker('702014', 'shbg', '28.00', [2, 5]),
  biomarker('702015', 'dhea-sulfate', '24.00', [2, 4]),
  asks(AOE.cortisol, biomarker('702016', 'cortisol', '19.00')),
  asks(AOE.cycleHormone, biomarker('702017', 'fsh', '19.00')),
  asks(AOE.cycleHormone, biomarker('702018', 'lh', '19.00')),
  asks(AOE.cycleHormone, biomarker('702019', 'progesterone', '22.00')),
  biomarker('702020', 'prolactin', '20.00'),
  biomarker('702021', 'amh', '58.00', [3, 7]),
  biomarker('702022', 'psa', '20.00'),
  biomarker('702023', 'hs-crp', '16.00'),
  biomarker('702024', 'homocysteine', '32.00', [2, 5]),
  biomarker('702025', 'apolipoprotein-b', '30.00', [2, 5]),
  biomarker('702026', 'lipoprotein-a', '35.00', [3, 6]),
  biomarker('702027', 'uric-acid', '9.00'),
  biomarker('702028', 'magnesium', '9.00'),
  biomarker('702029', 'ggt', '9.00'),
  asks(
    AOE.creatinineClearance,
    panel('701070', 'creatinine-clearance-24h-urine', 'Creatinine Clearance, 24-Hour Urine', 'Serum and 24-hour urine creatinine with the clearance computed from them and the urine volume.',
      ['urine-volume-24h', 'urine-creatinine-24h', 'creatinine', 'creatinine-clearance'], '24.00', [2, 4]),
  ),
  asks(
    AOE.urineVolume,
    panel('701080', 'protein-24h-urine', 'Protein, Total, 24-Hour Urine', 'Total protein excreted in a 24-hour urine collection.', ['urine-volume-24h', 'urine-protein-24h'], '18.00', [2, 4]),
  ),
]);

const CASCADE = atLab('cascade', [2, 4], [
  asks(AOE.fasting, panel('8100', 'comprehensive-metabolic-panel', 'Metabolic Panel, Comprehensive', CMP_TEXT, CMP, '15.00')),
  asks(AOE.fasting, panel('8110', 'lipid-panel', 'Lipid Panel with Ratios', LIPID_TEXT, LIPIDS, '13.00')),
  panel('8120', 'complete-blood-count', 'Complete Blood Count', CBC_TEXT, CBC, '12.00'),
  panel('8130', 'iron-panel', 'Iron Panel', 'Serum iron, TIBC and iron saturation.', IRON, '17.00'),
  panel('8140', 'urine-albumin-creatinine-ratio', 'Albumin/Creatinine Ratio, Urine', 'Urine albumin and creatinine with their ratio.', UACR, '19.00'),
  biomarker('8200', 'hemoglobin-a1c', '11.00'),
  asks(AOE.fasting, biomarker('8201', 'glucose', '6.00', [1, 2])),
  biomarker('8202', 'tsh', '16.00'),
  biomarker('8203', 'free-t4', '17.00'),
  asks(AOE.vitaminD, biomarker('8204', 'vitamin-d-total', '31.00', [3, 5])),
  biomarker('8205', 'ferritin', '15.00'),
  biomarker('8206', 'vitamin-b12', '18.00'),
  biomarker('8207', 'folate', '18.00'),
  biomarker('8208', 'testosterone', '23.00', [3, 5]),
  biomarker('8209', 'psa', '21.00'),
  biomarker('8210', 'hs-crp', '17.00'),
  biomarker('8211', 'apolipoprotein-b', '32.00', [3, 6]),
]);

const NORTHSTAR = atLab('northstar', [3, 7], [
  biomarker('NS-101', 'hemoglobin-a1c', '14.00'),
  biomarker('NS-102', 'tsh', '16.00'),
  biomarker('NS-103', 'free-t4', '16.00'),
  biomarker('NS-104', 'tpo-antibodies', '22.00', [4, 8]),
  asks(AOE.vitaminD, panel('NS-105', 'vitamin-d-25-hydroxy-fractionated', 'Vitamin D, 25-Hydroxy (D2, D3)', 'Total 25-hydroxyvitamin D with its D2 and D3 fractions (LC/MS-MS).', ['vitamin-d-total', 'vitamin-d3', 'vitamin-d2'], '28.00', [4, 8])),
  biomarker('NS-106', 'testosterone', '22.00', [4, 8]),
  asks(AOE.cycleHormone, biomarker('NS-107', 'estradiol', '24.00', [4, 8])),
  biomarker('NS-108', 'shbg', '26.00', [4, 8]),
  biomarker('NS-109', 'hs-crp', '15.00'),
  asks(AOE.fasting, panel('NS-110', 'lipid-panel', 'Lipid Panel (capillary)', 'Total, HDL and LDL cholesterol and triglycerides from a capillary sample.', ['cholesterol-total', 'hdl-cholesterol', 'triglycerides', 'ldl-cholesterol'], '18.00')),
  asks(AOE.salivaCortisol, biomarker('NS-111', 'cortisol-saliva', '25.00', [5, 9])),
  asks(AOE.sti, biomarker('NS-112', 'chlamydia', '30.00', [2, 5])),
  asks(AOE.sti, biomarker('NS-113', 'gonorrhea', '30.00', [2, 5])),
  biomarker('NS-114', 'ferritin', '15.00'),
  biomarker('NS-115', 'dhea-sulfate', '22.00', [4, 8]),
]);

export const CATALOG_MARKERS: SeedMarker[] = [...MERIDIAN, ...CASCADE, ...NORTHSTAR];

const test = (t: Omit<SeedLabTest, 'hasCollectionInstructions'> & { hasCollectionInstructions?: boolean }): SeedLabTest => ({
  hasCollectionInstructions: t.method === 'testkit',
  ...t,
});

export const CATALOG_LAB_TESTS: SeedLabTest[] = [
  // Meridian: patient service centres and mobile phlebotomy
  test({
    slug: 'meridian-essential-wellness', name: 'Essential Wellness Panel', labSlug: 'meridian', method: 'walk_in_test', sampleType: 'serum', price: 89, fasting: true,
    description: 'Annual check-up bloodwork: metabolic panel, lipids, blood count, HbA1c and TSH. Fast for 10-12 hours.',
    markers: ['701010', '701020', '701030', '702001', '702003'],
  }),
  test({
    slug: 'meridian-thyroid-complete', name: 'Thyroid Complete', labSlug: 'meridian', method: 'walk_in_test', sampleType: 'serum', price: 69, fasting: false,
    description: 'TSH, free T4, free T3 and thyroid peroxidase antibodies.',
    markers: ['702003', '702004', '702005', '702006'],
  }),
  test({
    slug: 'meridian-mens-health', name: "Men's Health Panel", labSlug: 'meridian', method: 'at_home_phlebotomy', sampleType: 'serum', price: 149, fasting: false,
    description: 'Total and free testosterone, estradiol, SHBG, PSA and a blood count, drawn at home. Best collected before 10 am.',
    markers: ['702011', '702012', '702013', '702014', '702022', '701030'],
  }),
  test({
    slug: 'meridian-womens-hormones', name: "Women's Hormone Panel", labSlug: 'meridian', method: 'at_home_phlebotomy', sampleType: 'serum', price: 159, fasting: false,
    description: 'Estradiol, FSH, LH, progesterone, prolactin, DHEA-S and TSH, drawn at home.',
    markers: ['702013', '702017', '702018', '702019', '702020', '702015', '702003'],
  }),
  test({
    slug: 'meridian-fertility', name: 'Fertility Hormone Panel', labSlug: 'meridian', method: 'walk_in_test', sampleType: 'serum', price: 99, fasting: false,
    description: 'Anti-Mullerian hormone with FSH and estradiol (ovarian reserve). Draw on cycle day 2-5.',
    markers: ['702021', '702017', '702013'],
  }),
  test({
    slug: 'meridian-advanced-heart', name: 'Advanced Heart Health', labSlug: 'meridian', method: 'walk_in_test', sampleType: 'serum', price: 129, fasting: true,
    description: 'Lipid panel with ApoB, Lp(a), hs-CRP and homocysteine. Fast for 10-12 hours.',
    markers: ['701020', '702025', '702026', '702023', '702024'],
  }),
  test({
    slug: 'meridian-kidney-urine', name: 'Kidney Health, Urine', labSlug: 'meridian', method: 'walk_in_test', sampleType: 'urine', price: 39, fasting: false,
    description: 'Urine albumin/creatinine ratio and a dipstick urinalysis from a random urine sample.',
    markers: ['701050', '701060'],
  }),
  test({
    slug: 'meridian-kidney-24h-urine', name: 'Kidney Function, 24-Hour Urine', labSlug: 'meridian', method: 'walk_in_test', sampleType: 'urine', price: 59, fasting: false,
    description: 'Creatinine clearance and total protein from a 24-hour urine collection with a blood draw. Height, weight and the total urine volume are asked at ordering.',
    markers: ['701070', '701080'],
  }),
  test({
    slug: 'meridian-energy-nutrients', name: 'Energy and Nutrient Panel', labSlug: 'meridian', method: 'at_home_phlebotomy', sampleType: 'serum', price: 119, fasting: false,
    description: 'Iron studies, ferritin, vitamin B12, folate, vitamin D, magnesium and a blood count.',
    markers: ['701040', '702007', '702009', '702010', '702008', '702028', '701030'],
  }),
  // Cascade: patient service centres, mobile phlebotomy, workplace collection events
  test({
    slug: 'cascade-metabolic-health', name: 'Metabolic Health Panel', labSlug: 'cascade', method: 'at_home_phlebotomy', sampleType: 'serum', price: 99, fasting: true,
    description: 'Comprehensive metabolic panel, lipids and HbA1c, drawn at home. Fast for 10-12 hours.',
    markers: ['8100', '8110', '8200'],
  }),
  test({
    slug: 'cascade-workplace-screening', name: 'Workplace Biometric Screening', labSlug: 'cascade', method: 'on_site_collection', sampleType: 'serum', price: 45, fasting: true,
    description: 'Lipid panel, glucose and HbA1c collected at an on-site wellness event.',
    markers: ['8110', '8201', '8200'],
  }),
  test({
    slug: 'cascade-iron-status', name: 'Iron Status', labSlug: 'cascade', method: 'walk_in_test', sampleType: 'serum', price: 59, fasting: false,
    description: 'Iron panel, ferritin and a complete blood count.',
    markers: ['8130', '8205', '8120'],
  }),
  test({
    slug: 'cascade-urine-albumin', name: 'Urine Albumin Screening', labSlug: 'cascade', method: 'on_site_collection', sampleType: 'urine', price: 29, fasting: false,
    description: 'Urine albumin/creatinine ratio collected on site (diabetes kidney screening).',
    markers: ['8140'],
  }),
  test({
    slug: 'cascade-longevity', name: 'Longevity Panel', labSlug: 'cascade', method: 'walk_in_test', sampleType: 'serum', price: 199, fasting: true,
    description: 'A broad baseline: metabolic, lipid and blood count panels, HbA1c, thyroid, vitamins, ferritin, hs-CRP, ApoB, testosterone and PSA.',
    markers: ['8100', '8110', '8120', '8200', '8202', '8203', '8204', '8206', '8207', '8205', '8210', '8211', '8208', '8209'],
  }),
  // Northstar: kits collected at home and mailed back
  test({
    slug: 'northstar-hba1c-kit', name: 'HbA1c Test Kit', labSlug: 'northstar', method: 'testkit', sampleType: 'dried_blood_spot', price: 29, fasting: false,
    description: 'Average blood sugar over the last three months from a finger-prick dried blood spot.',
    markers: ['NS-101'],
  }),
  test({
    slug: 'northstar-thyroid-kit', name: 'Thyroid Test Kit', labSlug: 'northstar', method: 'testkit', sampleType: 'dried_blood_spot', price: 59, fasting: false,
    description: 'TSH, free T4 and TPO antibodies from a dried blood spot.',
    markers: ['NS-102', 'NS-103', 'NS-104'],
  }),
  test({
    slug: 'northstar-heart-kit', name: 'Heart Health Test Kit', labSlug: 'northstar', method: 'testkit', sampleType: 'dried_blood_spot', price: 69, fasting: true,
    description: 'Lipid panel, hs-CRP and HbA1c from a dried blood spot. Collect in the morning before eating.',
    markers: ['NS-110', 'NS-109', 'NS-101'],
  }),
  test({
    slug: 'northstar-vitamin-d-kit', name: 'Vitamin D Test Kit', labSlug: 'northstar', method: 'testkit', sampleType: 'dried_blood_spot', price: 39, fasting: false,
    description: '25-hydroxyvitamin D (D2 and D3) from a dried blood spot.',
    markers: ['NS-105'],
  }),
  test({
    slug: 'northstar-hormone-kit', name: 'Hormone Balance Test Kit', labSlug: 'northstar', method: 'testkit', sampleType: 'dried_blood_spot', price: 89, fasting: false,
    description: 'Testosterone, estradiol, SHBG and DHEA-S from a dried blood spot.',
    markers: ['NS-106', 'NS-107', 'NS-108', 'NS-115'],
  }),
  test({
    slug: 'northstar-stress-kit', name: 'Cortisol Stress Test Kit', labSlug: 'northstar', method: 'testkit', sampleType: 'saliva', price: 49, fasting: false,
    description: 'Salivary cortisol. Collect within 30 minutes of waking, before eating or brushing teeth.',
    markers: ['NS-111'],
  }),
  test({
    slug: 'northstar-sti-kit', name: 'Chlamydia and Gonorrhea Test Kit', labSlug: 'northstar', method: 'testkit', sampleType: 'urine', price: 79, fasting: false,
    description: 'Chlamydia trachomatis and Neisseria gonorrhoeae by nucleic acid amplification from a first-catch urine sample.',
    markers: ['NS-112', 'NS-113'],
  }),
  test({
    slug: 'northstar-wellness-arm-kit', name: 'Wellness Test Kit (arm collector)', labSlug: 'northstar', method: 'testkit', sampleType: 'arm_collector', price: 99, fasting: true,
    description: 'Lipid panel, HbA1c, ferritin and vitamin D from a painless upper-arm blood collector.',
    markers: ['NS-110', 'NS-101', 'NS-114', 'NS-105'],
  }),
];
