/**
 * A small ICD-10-CM table: codes commonly given as the reason for lab work (FY2026 code set), with
 * whether each is billable (a full, most specific code) and its Excludes1 / Excludes2 notes among the
 * codes listed here. Category headers (E11, N18.3, …) are listed as non-billable so that a request
 * naming one learns to use a more specific code. Excludes notes name code prefixes.
 */
export interface Icd10Entry {
  description: string;
  billable: boolean;
  /** Only as a secondary diagnosis (e.g. BMI, long-term drug use). */
  secondaryOnly?: boolean;
  /** Excludes1: never coded together with these (prefixes). */
  excludes1?: string[];
  /** Excludes2: not part of this condition, but may be coded together (prefixes). */
  excludes2?: string[];
}

export const ICD10: Readonly<Record<string, Icd10Entry>> = {
  'D50.9': { description: 'Iron deficiency anemia, unspecified', billable: true },
  'D51.0': { description: 'Vitamin B12 deficiency anemia due to intrinsic factor deficiency', billable: true },
  'D64.9': { description: 'Anemia, unspecified', billable: true },
  'D68.9': { description: 'Coagulation defect, unspecified', billable: true },
  'E02': { description: 'Subclinical iodine-deficiency hypothyroidism', billable: true },
  'E03.9': { description: 'Hypothyroidism, unspecified', billable: true, excludes1: ['E00', 'E01', 'E02'] },
  'E04.2': { description: 'Nontoxic multinodular goiter', billable: true },
  'E05.90': { description: 'Thyrotoxicosis, unspecified without thyrotoxic crisis or storm', billable: true },
  'E07.9': { description: 'Disorder of thyroid, unspecified', billable: true },
  'E10.9': { description: 'Type 1 diabetes mellitus without complications', billable: true },
  'E10': { description: 'Type 1 diabetes mellitus', billable: false },
  'E11': { description: 'Type 2 diabetes mellitus', billable: false },
  'E11.9': { description: 'Type 2 diabetes mellitus without complications', billable: true, excludes1: ['E10', 'E08', 'E09', 'E13', 'O24', 'R73'] },
  'E11.65': { description: 'Type 2 diabetes mellitus with hyperglycemia', billable: true, excludes1: ['E10', 'E08', 'E09', 'E13', 'O24', 'R73'] },
  'E11.22': { description: 'Type 2 diabetes mellitus with diabetic chronic kidney disease', billable: true, excludes1: ['E10', 'E08', 'E09', 'E13', 'O24', 'R73'] },
  'E28.2': { description: 'Polycystic ovarian syndrome', billable: true },
  'E55.9': { description: 'Vitamin D deficiency, unspecified', billable: true },
  'E53.8': { description: 'Deficiency of other specified B group vitamins', billable: true },
  'E61.1': { description: 'Iron deficiency', billable: true, excludes1: ['D50'] },
  'E66.9': { description: 'Obesity, unspecified', billable: true },
  'E66.01': { description: 'Morbid (severe) obesity due to excess calories', billable: true },
  'E78.00': { description: 'Pure hypercholesterolemia, unspecified', billable: true },
  'E78.1': { description: 'Pure hyperglyceridemia', billable: true },
  'E78.2': { description: 'Mixed hyperlipidemia', billable: true },
  'E78.5': { description: 'Hyperlipidemia, unspecified', billable: true },
  'E83.110': { description: 'Hereditary hemochromatosis', billable: true },
  'E87.6': { description: 'Hypokalemia', billable: true },
  'E88.81': { description: 'Metabolic syndrome', billable: true },
  'F17.210': { description: 'Nicotine dependence, cigarettes, uncomplicated', billable: true },
  'I10': { description: 'Essential (primary) hypertension', billable: true, excludes1: ['O10', 'O11', 'O13', 'O16'] },
  'I25.10': { description: 'Atherosclerotic heart disease of native coronary artery without angina pectoris', billable: true },
  'I48.91': { description: 'Unspecified atrial fibrillation', billable: true },
  'K21.9': { description: 'Gastro-esophageal reflux disease without esophagitis', billable: true },
  'K76.0': { description: 'Fatty (change of) liver, not elsewhere classified', billable: true, excludes2: ['K75.81'] },
  'K75.81': { description: 'Nonalcoholic steatohepatitis (NASH)', billable: true },
  'K90.0': { description: 'Celiac disease', billable: true },
  'M10.9': { description: 'Gout, unspecified', billable: true },
  'M06.9': { description: 'Rheumatoid arthritis, unspecified', billable: true },
  'M81.0': { description: 'Age-related osteoporosis without current pathological fracture', billable: true },
  'N18.3': { description: 'Chronic kidney disease, stage 3 (moderate)', billable: false },
  'N18.30': { description: 'Chronic kidney disease, stage 3 unspecified', billable: true },
  'N18.31': { description: 'Chronic kidney disease, stage 3a', billable: true },
  'N18.32': { description: 'Chronic kidney disease, stage 3b', billable: true },
  'N18.9': { description: 'Chronic kidney disease, unspecified', billable: true },
  'N39.0': { description: 'Urinary tract infection, site not specified', billable: true },
  'N52.9': { description: 'Male erectile dysfunction, unspecified', billable: true },
  'N91.2': { description: 'Amenorrhea, unspecified', billable: true },
  'N95.1': { description: 'Menopausal and female climacteric states', billable: true },
  'N97.9': { description: 'Female infertility, unspecified', billable: true },
  'R53.83': { description: 'Other fatigue', billable: true },
  'R63.4': { description: 'Abnormal weight loss', billable: true },
  'R73.01': { description: 'Impaired fasting glucose', billable: true, excludes1: ['E08', 'E09', 'E10', 'E11', 'E13'] },
  'R73.03': { description: 'Prediabetes', billable: true, excludes1: ['E08', 'E09', 'E10', 'E11', 'E13'] },
  'R73.09': { description: 'Other abnormal glucose', billable: true, excludes1: ['E08', 'E09', 'E10', 'E11', 'E13'] },
  'R74.01': { description: 'Elevation of levels of liver transaminase levels', billable: true },
  'R79.89': { description: 'Other specified abnormal findings of blood chemistry', billable: true },
  'R94.6': { description: 'Abnormal results of thyroid function studies', billable: true },
  'Z00.00': { description: 'Encounter for general adult medical examination without abnormal findings', billable: true, excludes1: ['Z00.01'] },
  'Z00.01': { description: 'Encounter for general adult medical examination with abnormal findings', billable: true, excludes1: ['Z00.00'] },
  'Z01.812': { description: 'Encounter for preprocedural laboratory examination', billable: true },
  'Z11.3': { description: 'Encounter for screening for infections with a predominantly sexual mode of transmission', billable: true },
  'Z11.4': { description: 'Encounter for screening for human immunodeficiency virus [HIV]', billable: true },
  'Z11.59': { description: 'Encounter for screening for other viral diseases', billable: true },
  'Z13.1': { description: 'Encounter for screening for diabetes mellitus', billable: true },
  'Z13.220': { description: 'Encounter for screening for lipoid disorders', billable: true },
  'Z13.29': { description: 'Encounter for screening for other suspected endocrine disorder', billable: true },
  'Z13.6': { description: 'Encounter for screening for cardiovascular disorders', billable: true },
  'Z12.5': { description: 'Encounter for screening for malignant neoplasm of prostate', billable: true },
  'Z31.41': { description: 'Encounter for fertility testing', billable: true },
  'Z34.90': { description: 'Encounter for supervision of normal pregnancy, unspecified, unspecified trimester', billable: true },
  'Z68.30': { description: 'Body mass index [BMI] 30.0-30.9, adult', billable: true, secondaryOnly: true },
  'Z68.35': { description: 'Body mass index [BMI] 35.0-35.9, adult', billable: true, secondaryOnly: true },
  'Z79.4': { description: 'Long term (current) use of insulin', billable: true, secondaryOnly: true },
  'Z79.899': { description: 'Other long term (current) drug therapy', billable: true, secondaryOnly: true },
  'Z83.3': { description: 'Family history of diabetes mellitus', billable: true, secondaryOnly: true },
  'Z83.42': { description: 'Family history of familial hypercholesterolemia', billable: true, secondaryOnly: true },
};
