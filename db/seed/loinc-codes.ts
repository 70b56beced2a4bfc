/**
 * The LOINC observations the seeded catalogue's markers report, keyed by our short analyte key.
 *
 * Each `code` and `name` is the public LOINC code (with its mod-10 check digit) and long common name;
 * `unit` is the usual US reporting unit (UCUM-like spelling, as results print it). Codes are the ones
 * US reference labs attach to these results: serum/plasma codes for blood chemistry (dried blood spot
 * and capillary kits report serum-equivalent values), whole-blood codes for HbA1c and the CBC.
 */
export interface LoincFact {
  code: string;
  name: string;
  unit: string | null;
  /** Display name of the analyte, as a result line prints it. */
  display: string;
}

const l = (code: string, display: string, name: string, unit: string | null): LoincFact => ({ code, display, name, unit });

export const LOINC = {
  // Glucose metabolism
  glucose: l('2345-7', 'Glucose', 'Glucose [Mass/volume] in Serum or Plasma', 'mg/dL'),
  'hemoglobin-a1c': l('4548-4', 'Hemoglobin A1c', 'Hemoglobin A1c/Hemoglobin.total in Blood', '%'),
  insulin: l('20448-7', 'Insulin', 'Insulin [Units/volume] in Serum or Plasma', 'uIU/mL'),
  // Kidney and electrolytes
  bun: l('3094-0', 'Urea Nitrogen (BUN)', 'Urea nitrogen [Mass/volume] in Serum or Plasma', 'mg/dL'),
  creatinine: l('2160-0', 'Creatinine', 'Creatinine [Mass/volume] in Serum or Plasma', 'mg/dL'),
  egfr: l(
    '98979-8',
    'eGFR (CKD-EPI 2021)',
    'Glomerular filtration rate/1.73 sq M.predicted [Volume Rate/Area] in Serum, Plasma or Blood by Creatinine-based formula (CKD-EPI 2021)',
    'mL/min/1.73m2',
  ),
  sodium: l('2951-2', 'Sodium', 'Sodium [Moles/volume] in Serum or Plasma', 'mmol/L'),
  potassium: l('2823-3', 'Potassium', 'Potassium [Moles/volume] in Serum or Plasma', 'mmol/L'),
  chloride: l('2075-0', 'Chloride', 'Chloride [Moles/volume] in Serum or Plasma', 'mmol/L'),
  'carbon-dioxide': l('2028-9', 'Carbon Dioxide, Total', 'Carbon dioxide, total [Moles/volume] in Serum or Plasma', 'mmol/L'),
  calcium: l('17861-6', 'Calcium', 'Calcium [Mass/volume] in Serum or Plasma', 'mg/dL'),
  magnesium: l('19123-9', 'Magnesium', 'Magnesium [Mass/volume] in Serum or Plasma', 'mg/dL'),
  'uric-acid': l('3084-1', 'Uric Acid', 'Urate [Mass/volume] in Serum or Plasma', 'mg/dL'),
  // Liver and proteins
  'protein-total': l('2885-2', 'Protein, Total', 'Protein [Mass/volume] in Serum or Plasma', 'g/dL'),
  albumin: l('1751-7', 'Albumin', 'Albumin [Mass/volume] in Serum or Plasma', 'g/dL'),
  'bilirubin-total': l('1975-2', 'Bilirubin, Total', 'Bilirubin.total [Mass/volume] in Serum or Plasma', 'mg/dL'),
  'alkaline-phosphatase': l('6768-6', 'Alkaline Phosphatase', 'Alkaline phosphatase [Enzymatic activity/volume] in Serum or Plasma', 'U/L'),
  alt: l('1742-6', 'ALT (SGPT)', 'Alanine aminotransferase [Enzymatic activity/volume] in Serum or Plasma', 'U/L'),
  ast: l('1920-8', 'AST (SGOT)', 'Aspartate aminotransferase [Enzymatic activity/volume] in Serum or Plasma', 'U/L'),
  ggt: l('2324-2', 'GGT', 'Gamma glutamyl transferase [Enzymatic activity/volume] in Serum or Plasma', 'U/L'),
  // Lipids and cardiovascular risk
  'cholesterol-total': l('2093-3', 'Cholesterol, Total', 'Cholesterol [Mass/volume] in Serum or Plasma', 'mg/dL'),
  'hdl-cholesterol': l('2085-9', 'HDL Cholesterol', 'Cholesterol in HDL [Mass/volume] in Serum or Plasma', 'mg/dL'),
  'ldl-cholesterol-calculated': l('13457-7', 'LDL Cholesterol (calculated)', 'Cholesterol in LDL [Mass/volume] in Serum or Plasma by calculation', 'mg/dL'),
  'ldl-cholesterol': l('2089-1', 'LDL Cholesterol', 'Cholesterol in LDL [Mass/volume] in Serum or Plasma', 'mg/dL'),
  triglycerides: l('2571-8', 'Triglycerides', 'Triglyceride [Mass/volume] in Serum or Plasma', 'mg/dL'),
  'non-hdl-cholesterol': l('43396-1', 'Non-HDL Cholesterol', 'Cholesterol non HDL [Mass/volume] in Serum or Plasma', 'mg/dL'),
  'cholesterol-hdl-ratio': l('9830-1', 'Cholesterol/HDL Ratio', 'Cholesterol.total/Cholesterol in HDL [Mass Ratio] in Serum or Plasma', 'ratio'),
  'apolipoprotein-b': l('1884-6', 'Apolipoprotein B', 'Apolipoprotein B [Mass/volume] in Serum or Plasma', 'mg/dL'),
  'lipoprotein-a': l('10835-7', 'Lipoprotein(a)', 'Lipoprotein a [Mass/volume] in Serum or Plasma', 'mg/dL'),
  'hs-crp': l('30522-7', 'hs-CRP', 'C reactive protein [Mass/volume] in Serum or Plasma by High sensitivity method', 'mg/L'),
  homocysteine: l('13965-9', 'Homocysteine', 'Homocysteine [Moles/volume] in Serum or Plasma', 'umol/L'),
  // Iron studies and vitamins
  iron: l('2498-4', 'Iron, Total', 'Iron [Mass/volume] in Serum or Plasma', 'ug/dL'),
  tibc: l('2500-7', 'Iron Binding Capacity (TIBC)', 'Iron binding capacity [Mass/volume] in Serum or Plasma', 'ug/dL'),
  'iron-saturation': l('2502-3', 'Iron Saturation', 'Iron saturation [Mass Fraction] in Serum or Plasma', '%'),
  ferritin: l('2276-4', 'Ferritin', 'Ferritin [Mass/volume] in Serum or Plasma', 'ng/mL'),
  'vitamin-d-total': l('62292-8', 'Vitamin D, 25-Hydroxy, Total', '25-Hydroxyvitamin D2+25-Hydroxyvitamin D3 [Mass/volume] in Serum or Plasma', 'ng/mL'),
  'vitamin-d3': l('1989-3', 'Vitamin D3, 25-Hydroxy', '25-Hydroxyvitamin D3 [Mass/volume] in Serum or Plasma', 'ng/mL'),
  'vitamin-d2': l('49054-0', 'Vitamin D2, 25-Hydroxy', '25-Hydroxyvitamin D2 [Mass/volume] in Serum or Plasma', 'ng/mL'),
  'vitamin-b12': l('2132-9', 'Vitamin B12', 'Cobalamin (Vitamin B12) [Mass/volume] in Serum or Plasma', 'pg/mL'),
  folate: l('2284-8', 'Folate', 'Folate [Mass/volume] in Serum or Plasma', 'ng/mL'),
  // Thyroid
  tsh: l('3016-3', 'TSH', 'Thyrotropin [Units/volume] in Serum or Plasma', 'mIU/L'),
  'free-t4': l('3024-7', 'Free T4', 'Thyroxine (T4) free [Mass/volume] in Serum or Plasma', 'ng/dL'),
  'free-t3': l('3051-0', 'Free T3', 'Triiodothyronine (T3) free [Mass/volume] in Serum or Plasma', 'pg/mL'),
  'tpo-antibodies': l('8099-4', 'Thyroid Peroxidase Antibodies', 'Thyroperoxidase Ab [Units/volume] in Serum or Plasma', 'IU/mL'),
  // Hormones
  testosterone: l('2986-8', 'Testosterone, Total', 'Testosterone [Mass/volume] in Serum or Plasma', 'ng/dL'),
  'testosterone-free': l('2991-8', 'Testosterone, Free', 'Testosterone Free [Mass/volume] in Serum or Plasma', 'pg/mL'),
  estradiol: l('2243-4', 'Estradiol', 'Estradiol (E2) [Mass/volume] in Serum or Plasma', 'pg/mL'),
  shbg: l('13967-5', 'Sex Hormone Binding Globulin', 'Sex hormone binding globulin [Moles/volume] in Serum or Plasma', 'nmol/L'),
  'dhea-sulfate': l('2191-5', 'DHEA Sulfate', 'Dehydroepiandrosterone sulfate [Mass/volume] in Serum or Plasma', 'ug/dL'),
  cortisol: l('2143-6', 'Cortisol', 'Cortisol [Mass/volume] in Serum or Plasma', 'ug/dL'),
  'cortisol-saliva': l('2142-8', 'Cortisol, Saliva', 'Cortisol [Mass/volume] in Saliva (oral fluid)', 'ug/dL'),
  fsh: l('15067-2', 'FSH', 'Follitropin [Units/volume] in Serum or Plasma', 'mIU/mL'),
  lh: l('10501-5', 'LH', 'Lutropin [Units/volume] in Serum or Plasma', 'mIU/mL'),
  progesterone: l('2839-9', 'Progesterone', 'Progesterone [Mass/volume] in Serum or Plasma', 'ng/mL'),
  prolactin: l('2842-3', 'Prolactin', 'Prolactin [Mass/volume] in Serum or Plasma', 'ng/mL'),
  amh: l('38476-8', 'Anti-Mullerian Hormone', 'Mullerian inhibiting substance [Mass/volume] in Serum or Plasma', 'ng/mL'),
  psa: l('2857-1', 'PSA, Total', 'Prostate specific Ag [Mass/volume] in Serum or Plasma', 'ng/mL'),
  // Complete blood count
  wbc: l('6690-2', 'White Blood Cell Count', 'Leukocytes [#/volume] in Blood by Automated count', '10*3/uL'),
  rbc: l('789-8', 'Red Blood Cell Count', 'Erythrocytes [#/volume] in Blood by Automated count', '10*6/uL'),
  hemoglobin: l('718-7', 'Hemoglobin', 'Hemoglobin [Mass/volume] in Blood', 'g/dL'),
  hematocrit: l('4544-3', 'Hematocrit', 'Hematocrit [Volume Fraction] of Blood by Automated count', '%'),
  mcv: l('787-2', 'MCV', 'MCV [Entitic volume] by Automated count', 'fL'),
  mch: l('785-6', 'MCH', 'MCH [Entitic mass] by Automated count', 'pg'),
  mchc: l('786-4', 'MCHC', 'MCHC [Mass/volume] by Automated count', 'g/dL'),
  rdw: l('788-0', 'RDW', 'Erythrocyte distribution width [Ratio] by Automated count', '%'),
  platelets: l('777-3', 'Platelet Count', 'Platelets [#/volume] in Blood by Automated count', '10*3/uL'),
  // Urine
  'urine-albumin': l('14957-5', 'Microalbumin, Urine', 'Microalbumin [Mass/volume] in Urine', 'mg/L'),
  'urine-creatinine': l('2161-8', 'Creatinine, Urine', 'Creatinine [Mass/volume] in Urine', 'mg/dL'),
  'urine-albumin-creatinine-ratio': l('9318-7', 'Albumin/Creatinine Ratio, Urine', 'Albumin/Creatinine [Mass Ratio] in Urine', 'mg/g'),
  'urine-ph': l('5803-2', 'pH, Urine', 'pH of Urine by Test strip', 'pH'),
  'urine-specific-gravity': l('5811-5', 'Specific Gravity, Urine', 'Specific gravity of Urine by Test strip', null),
  'urine-protein': l('5804-0', 'Protein, Urine', 'Protein [Mass/volume] in Urine by Test strip', 'mg/dL'),
  'urine-glucose': l('5792-7', 'Glucose, Urine', 'Glucose [Mass/volume] in Urine by Test strip', 'mg/dL'),
  'urine-volume-24h': l('3167-4', 'Urine Volume, 24-Hour', 'Volume of 24 hour Urine', 'mL'),
  'urine-creatinine-24h': l('2162-6', 'Creatinine, 24-Hour Urine', 'Creatinine [Mass/time] in 24 hour Urine', 'g/(24.h)'),
  'creatinine-clearance': l('2164-2', 'Creatinine Clearance', 'Creatinine renal clearance in 24 hour Urine and Serum or Plasma', 'mL/min'),
  'urine-protein-24h': l('2889-4', 'Protein, 24-Hour Urine', 'Protein [Mass/time] in 24 hour Urine', 'mg/(24.h)'),
  chlamydia: l('21613-5', 'Chlamydia trachomatis, NAA', 'Chlamydia trachomatis DNA [Presence] in Specimen by NAA with probe detection', null),
  gonorrhea: l('24111-7', 'Neisseria gonorrhoeae, NAA', 'Neisseria gonorrhoeae DNA [Presence] in Specimen by NAA with probe detection', null),
} as const satisfies Record<string, LoincFact>;

export type AnalyteKey = keyof typeof LOINC;
