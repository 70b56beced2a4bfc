/** Metabolic panel, kidney, electrolytes, liver, proteins, lipids, diabetes, iron studies. */
import { type LoincEntry, row } from './entry.js';

const GLU = ['Glucose|Blood glucose|Blood sugar|GLU|Plasma glucose|Serum glucose|Glucose random|Random glucose', 'Glukose|Glucose|Blutzucker|BZ|Glukose im Serum|Glucose im Plasma', 'Glycémie|Glucose|Glycemie|Glucose sanguine'] as const;
const GLU_FASTING = ['Fasting glucose|Glucose fasting|Fasting blood glucose|Fasting blood sugar|FBG|FBS|FPG|Fasting plasma glucose', 'Nüchternglukose|Glukose nüchtern|Nüchternblutzucker|Glucose nüchtern|Nüchtern-Glukose', 'Glycémie à jeun|Glucose à jeun'] as const;
const BUN = ['BUN|Urea nitrogen|Blood urea nitrogen|Urea N|UN', 'Harnstoff-Stickstoff|Harnstoff-N|BUN', 'Azote uréique|Urée azote|BUN'] as const;
const UREA = ['Urea|Serum urea|Blood urea', 'Harnstoff', 'Urée|Urémie'] as const;
const CREA = ['Creatinine|Creat|CREA|Serum creatinine|Creatinine serum', 'Kreatinin|Creatinin|Krea', 'Créatinine|Créatininémie|Creatinine'] as const;
const EGFR_DE = 'eGFR|GFR geschätzt|geschätzte GFR|Glomeruläre Filtrationsrate|GFR';
const EGFR_FR = 'DFG|DFG estimé|DFGe|Débit de filtration glomérulaire|eGFR';
const CA = ['Calcium|Ca|Calcium total|Total calcium', 'Calcium|Kalzium|Ca|Gesamtcalcium', 'Calcium|Calcémie|Ca'] as const;
const MG = ['Magnesium|Mg', 'Magnesium|Mg', 'Magnésium|Magnésémie|Mg'] as const;
const PHOS = ['Phosphorus|Phosphate|Inorganic phosphorus|Phos|PO4|Phosphorus inorganic', 'Phosphat|Anorganisches Phosphat|Phosphor', 'Phosphore|Phosphates|Phosphorémie|Phosphate'] as const;
const BILI_T = ['Bilirubin|Total bilirubin|Bilirubin total|T bili|TBIL|Bili total', 'Bilirubin|Gesamtbilirubin|Bilirubin gesamt|Bilirubin ges.', 'Bilirubine totale|Bilirubine|Bilirubinémie totale'] as const;
const BILI_D = ['Direct bilirubin|Bilirubin direct|Conjugated bilirubin|D bili|DBIL|Bilirubin conjugated', 'Direktes Bilirubin|Bilirubin direkt|Konjugiertes Bilirubin', 'Bilirubine conjuguée|Bilirubine directe'] as const;
const BILI_I = ['Indirect bilirubin|Bilirubin indirect|Unconjugated bilirubin|Bilirubin unconjugated', 'Indirektes Bilirubin|Bilirubin indirekt|Unkonjugiertes Bilirubin', 'Bilirubine libre|Bilirubine non conjuguée|Bilirubine indirecte'] as const;
const CHOL = ['Cholesterol|Total cholesterol|Cholesterol total|TC|Chol', 'Cholesterin|Gesamtcholesterin|Cholesterin gesamt|Cholesterol', 'Cholestérol total|Cholestérol|Cholesterol total'] as const;
const TRIG = ['Triglycerides|Triglyceride|TG|Trigs|TRIG', 'Triglyceride|Triglyzeride|TG', 'Triglycérides|TG'] as const;
const HDL = ['HDL cholesterol|HDL|HDL-C|Cholesterol HDL|HDL chol|High density lipoprotein cholesterol', 'HDL-Cholesterin|HDL|HDL Cholesterin|HDL-C', 'HDL-cholestérol|Cholestérol HDL|HDL|HDL-C'] as const;
// Which code a plain "LDL cholesterol" gets, when neither the name, the panel nor the range says
// "calc"/"berechnet"/"Friedewald" or "direct": where labs routinely compute LDL (Friedewald, NIH/Sampson,
// Martin-Hopkins) in the standard lipid panel — US, UK, India, France — the plain English and French names
// go to the calculated code 13457-7 (rank 1 below). German labs measure LDL-C directly (homogeneous assay)
// as their routine, so a plain German "LDL-Cholesterin" goes to 2089-1, the method-less LDL code: it does
// not claim "by calculation", and not "by Direct assay" either (18262-6 needs "direkt" on the report).
// A report that says calc/berechnet/calculé always gets the calculated code (see loinc-match.ts).
const LDL = ['LDL cholesterol|LDL|LDL-C|Cholesterol LDL|LDL chol|Low density lipoprotein cholesterol', 'LDL|LDL-C', 'LDL-cholestérol|Cholestérol LDL|LDL|LDL-C'] as const;
const LDL_DE = 'LDL-Cholesterin|LDL Cholesterin';
const LDL_CALC = ['LDL cholesterol calculated|LDL calculated|LDL-C calc|LDL Friedewald|LDL cholesterol (Friedewald)|LDL Chol Calc (NIH)|LDL cholesterol calc', 'LDL-Cholesterin berechnet|LDL berechnet|LDL (Friedewald)', 'LDL-cholestérol calculé|Cholestérol LDL calculé|LDL calculé'] as const;
const LDL_DIRECT = ['LDL cholesterol direct|Direct LDL|LDL direct|LDL-C direct', 'LDL-Cholesterin direkt|LDL direkt', 'LDL-cholestérol direct|LDL direct'] as const;
const IRON = ['Iron|Serum iron|Fe|Iron total', 'Eisen|Fe|Serumeisen', 'Fer|Fer sérique|Sidérémie'] as const;
const TIBC = ['TIBC|Total iron binding capacity|Iron binding capacity|Iron Bind.Cap.|Iron bind cap|Iron Bind.Cap.(TIBC)', 'TEBK|Totale Eisenbindungskapazität|Eisenbindungskapazität', 'CTF|Capacité totale de fixation du fer|CTFF'] as const;
const UIBC = ['UIBC|Unsaturated iron binding capacity', 'UEBK|Ungesättigte Eisenbindungskapazität|Latente Eisenbindungskapazität', 'CLF|Capacité latente de fixation du fer'] as const;
const SAT = ['Transferrin saturation|Iron saturation|% Saturation|Iron % saturation|TSAT|Saturation', 'Transferrinsättigung|Eisensättigung|TSAT', 'Coefficient de saturation de la transferrine|CST|Saturation de la transferrine|Coefficient de saturation'] as const;
const FERR = ['Ferritin|Serum ferritin', 'Ferritin', 'Ferritine'] as const;
const TRF = ['Transferrin', 'Transferrin', 'Transferrine|Sidérophiline'] as const;
const URATE = ['Uric acid|Urate|UA', 'Harnsäure|Urat', 'Acide urique|Uricémie'] as const;
const LPA = ['Lipoprotein(a)|Lp(a)|Lipoprotein a|LPA', 'Lipoprotein(a)|Lp(a)|Lipoprotein a', 'Lipoprotéine(a)|Lp(a)|Lipoprotéine a'] as const;
const NONHDL = ['Non-HDL cholesterol|Non HDL cholesterol|Non-HDL-C|Non HDL|Cholesterol non HDL', 'Non-HDL-Cholesterin|Nicht-HDL-Cholesterin|Non-HDL', 'Cholestérol non-HDL|Non-HDL cholestérol|Cholestérol non HDL'] as const;

export const CHEMISTRY: LoincEntry[] = [
  // Glucose and diabetes
  row('2345-7', 'Glucose [Mass/volume] in Serum or Plasma', 'Glucose', 'Ser/Plas', 'mg/dL|g/L', ...GLU, 'chem|diabetes'),
  row('14749-6', 'Glucose [Moles/volume] in Serum or Plasma', 'Glucose', 'Ser/Plas', 'mmol/L', ...GLU, 'chem|diabetes'),
  // A glucose the report calls fasting has the fasting codes, in mass and in mol units alike (see loinc-match.ts).
  row('1558-6', 'Fasting glucose [Mass/volume] in Serum or Plasma', 'Fasting glucose', 'Ser/Plas', 'mg/dL|g/L', ...GLU_FASTING, 'chem|diabetes'),
  row('14771-0', 'Fasting glucose [Moles/volume] in Serum or Plasma', 'Fasting glucose', 'Ser/Plas', 'mmol/L', ...GLU_FASTING, 'chem|diabetes'),
  row('2339-0', 'Glucose [Mass/volume] in Blood', 'Glucose (blood)', 'Bld', 'mg/dL', 'Glucose whole blood|Whole blood glucose|Blood glucose|Glucose', 'Glukose Vollblut|Blutzucker|Glukose kapillär', 'Glycémie capillaire|Glucose sang total', 'diabetes', 3),
  row('15074-8', 'Glucose [Moles/volume] in Blood', 'Glucose (blood)', 'Bld', 'mmol/L', 'Glucose whole blood|Whole blood glucose|Blood glucose|Glucose', 'Glukose Vollblut|Blutzucker|Glukose kapillär', 'Glycémie capillaire|Glucose sang total', 'diabetes', 3),
  row('4548-4', 'Hemoglobin A1c/Hemoglobin.total in Blood', 'HbA1c', 'Bld', '%', 'Hemoglobin A1c|HbA1c|A1c|Hb A1c|Glycated hemoglobin|Glycohemoglobin|Glycosylated hemoglobin|Haemoglobin A1c|Glycated haemoglobin|HgbA1c|Hemoglobin A1c (NGSP)', 'HbA1c|Hämoglobin A1c|Glykiertes Hämoglobin|Glykohämoglobin|HbA1c (DCCT)|HbA1c (NGSP)', 'HbA1c|Hémoglobine glyquée|Hémoglobine A1c|Hémoglobine glycosylée', 'diabetes'),
  row('17856-6', 'Hemoglobin A1c/Hemoglobin.total in Blood by HPLC', 'HbA1c (HPLC)', 'Bld', '%', 'Hemoglobin A1c HPLC|HbA1c HPLC|HbA1c by HPLC', 'HbA1c HPLC', 'HbA1c HPLC|Hémoglobine glyquée HPLC', 'diabetes', 2),
  row('59261-8', 'Hemoglobin A1c/Hemoglobin.total in Blood by IFCC protocol', 'HbA1c (IFCC)', 'Bld', 'mmol/mol', 'Hemoglobin A1c|HbA1c|HbA1c IFCC|A1c IFCC|Glycated hemoglobin|Glycated haemoglobin|Haemoglobin A1c', 'HbA1c|HbA1c (IFCC)|HbA1c IFCC|Hämoglobin A1c', 'HbA1c|HbA1c IFCC|Hémoglobine glyquée', 'diabetes'),
  row('27353-2', 'Glucose mean value [Mass/volume] in Blood Estimated from glycated hemoglobin', 'Estimated average glucose', 'Bld', 'mg/dL', 'Estimated average glucose|eAG|Average glucose|Mean plasma glucose', 'Geschätzte mittlere Glukose|eAG|Mittlere Glukose', 'Glycémie moyenne estimée|eAG', 'diabetes'),
  row('53553-4', 'Glucose mean value [Moles/volume] in Blood Estimated from glycated hemoglobin', 'Estimated average glucose', 'Bld', 'mmol/L', 'Estimated average glucose|eAG|Average glucose', 'Geschätzte mittlere Glukose|eAG', 'Glycémie moyenne estimée|eAG', 'diabetes'),
  row('20448-7', 'Insulin [Units/volume] in Serum or Plasma', 'Insulin', 'Ser/Plas', 'uIU/mL|mIU/L|mU/L|uU/mL', 'Insulin|Insulin fasting|Fasting insulin|Serum insulin', 'Insulin|Insulin nüchtern', 'Insuline|Insulinémie', 'diabetes|hormone'),
  row('14796-7', 'Insulin [Moles/volume] in Serum or Plasma', 'Insulin', 'Ser/Plas', 'pmol/L', 'Insulin|Insulin fasting|Fasting insulin', 'Insulin', 'Insuline|Insulinémie', 'diabetes|hormone'),
  row('1986-9', 'C peptide [Mass/volume] in Serum or Plasma', 'C-peptide', 'Ser/Plas', 'ng/mL|ug/L', 'C-peptide|C peptide|Connecting peptide', 'C-Peptid', 'Peptide C', 'diabetes|hormone'),
  row('14633-2', 'C peptide [Moles/volume] in Serum or Plasma', 'C-peptide', 'Ser/Plas', 'pmol/L|nmol/L', 'C-peptide|C peptide', 'C-Peptid', 'Peptide C', 'diabetes|hormone'),

  // Kidney
  row('3094-0', 'Urea nitrogen [Mass/volume] in Serum or Plasma', 'BUN', 'Ser/Plas', 'mg/dL', ...BUN, 'chem|renal'),
  row('14937-7', 'Urea nitrogen [Moles/volume] in Serum or Plasma', 'BUN', 'Ser/Plas', 'mmol/L', ...BUN, 'chem|renal', 2),
  row('3091-6', 'Urea [Mass/volume] in Serum or Plasma', 'Urea', 'Ser/Plas', 'mg/dL|g/L', ...UREA, 'chem|renal'),
  row('22664-7', 'Urea [Moles/volume] in Serum or Plasma', 'Urea', 'Ser/Plas', 'mmol/L', ...UREA, 'chem|renal'),
  row('2160-0', 'Creatinine [Mass/volume] in Serum or Plasma', 'Creatinine', 'Ser/Plas', 'mg/dL|mg/L', ...CREA, 'chem|renal'),
  row('14682-9', 'Creatinine [Moles/volume] in Serum or Plasma', 'Creatinine', 'Ser/Plas', 'umol/L', ...CREA, 'chem|renal'),
  row('38483-4', 'Creatinine [Mass/volume] in Blood', 'Creatinine (blood)', 'Bld', 'mg/dL', 'Creatinine whole blood|Creatinine', 'Kreatinin Vollblut', 'Créatinine sang total', 'renal', 3),
  row('3097-3', 'Urea nitrogen/Creatinine [Mass Ratio] in Serum or Plasma', 'BUN/Creatinine ratio', 'Ser/Plas', 'ratio', 'BUN/Creatinine ratio|BUN/Creat ratio|Urea nitrogen/Creatinine ratio|BUN creatinine ratio', 'Harnstoff-N/Kreatinin-Quotient|BUN/Kreatinin-Ratio', 'Rapport urée/créatinine', 'chem|renal'),
  row('98979-8', 'Glomerular filtration rate/1.73 sq M.predicted [Volume Rate/Area] in Serum, Plasma or Blood by Creatinine-based formula (CKD-EPI 2021)', 'eGFR (CKD-EPI 2021)', 'Ser/Plas/Bld', 'mL/min/1.73m2', 'eGFR|Estimated GFR|GFR estimated|Glomerular filtration rate|eGFR CKD-EPI 2021|eGFR (CKD-EPI)|Estimated glomerular filtration rate|GFR', `${EGFR_DE}|eGFR (CKD-EPI)|GFR nach CKD-EPI`, `${EGFR_FR}|DFG CKD-EPI`, 'chem|renal'),
  row('62238-1', 'Glomerular filtration rate/1.73 sq M.predicted [Volume Rate/Area] in Serum, Plasma or Blood by Creatinine-based formula (CKD-EPI)', 'eGFR (CKD-EPI)', 'Ser/Plas/Bld', 'mL/min/1.73m2', 'eGFR CKD-EPI|eGFR (CKD-EPI)|GFR CKD-EPI|eGFR|Estimated GFR', `${EGFR_DE}|GFR nach CKD-EPI`, `${EGFR_FR}|DFG CKD-EPI`, 'chem|renal', 2),
  row('33914-3', 'Glomerular filtration rate/1.73 sq M.predicted [Volume Rate/Area] in Serum or Plasma by Creatinine-based formula (MDRD)', 'eGFR (MDRD)', 'Ser/Plas', 'mL/min/1.73m2', 'eGFR MDRD|eGFR (MDRD)|GFR MDRD|eGFR|Estimated GFR', `${EGFR_DE}|GFR nach MDRD|eGFR (MDRD)`, `${EGFR_FR}|DFG MDRD`, 'chem|renal', 2),
  row('88294-4', 'Glomerular filtration rate/1.73 sq M.predicted among non-blacks [Volume Rate/Area] in Serum, Plasma or Blood by Creatinine-based formula (CKD-EPI)', 'eGFR non-African American', 'Ser/Plas/Bld', 'mL/min/1.73m2', 'eGFR non-African American|eGFR non-Afr. American|eGFR if non-African American|eGFR non-black|eGFR if NonAfricn Am|eGFR Non-Afr American', '', '', 'chem|renal'),
  row('88293-6', 'Glomerular filtration rate/1.73 sq M.predicted among blacks [Volume Rate/Area] in Serum, Plasma or Blood by Creatinine-based formula (CKD-EPI)', 'eGFR African American', 'Ser/Plas/Bld', 'mL/min/1.73m2', 'eGFR African American|eGFR Afr. American|eGFR if African American|eGFR black|eGFR if Africn Am|eGFR Afr American', '', '', 'chem|renal'),
  row('48642-3', 'Glomerular filtration rate/1.73 sq M.predicted among non-blacks [Volume Rate/Area] in Serum, Plasma or Blood by Creatinine-based formula (MDRD)', 'eGFR non-African American (MDRD)', 'Ser/Plas/Bld', 'mL/min/1.73m2', 'eGFR non-African American MDRD|eGFR non-black MDRD', '', '', 'renal', 2),
  row('48643-1', 'Glomerular filtration rate/1.73 sq M.predicted among blacks [Volume Rate/Area] in Serum, Plasma or Blood by Creatinine-based formula (MDRD)', 'eGFR African American (MDRD)', 'Ser/Plas/Bld', 'mL/min/1.73m2', 'eGFR African American MDRD|eGFR black MDRD', '', '', 'renal', 2),
  row('50210-4', 'Glomerular filtration rate/1.73 sq M.predicted [Volume Rate/Area] in Serum, Plasma or Blood by Cystatin-based formula', 'eGFR (cystatin C)', 'Ser/Plas/Bld', 'mL/min/1.73m2', 'eGFR cystatin C|eGFR cystatin|GFR cystatin C', 'eGFR Cystatin C|GFR (Cystatin C)', 'DFG cystatine C', 'renal'),
  row('33863-2', 'Cystatin C [Mass/volume] in Serum or Plasma', 'Cystatin C', 'Ser/Plas', 'mg/L', 'Cystatin C|Cystatin-C', 'Cystatin C|Cystatin-C', 'Cystatine C', 'renal'),

  // Electrolytes and minerals
  row('2951-2', 'Sodium [Moles/volume] in Serum or Plasma', 'Sodium', 'Ser/Plas', 'mmol/L|mEq/L', 'Sodium|Na|Na+|Serum sodium', 'Natrium|Na', 'Sodium|Natrémie|Na', 'chem|electrolyte'),
  row('2947-0', 'Sodium [Moles/volume] in Blood', 'Sodium (blood)', 'Bld', 'mmol/L|mEq/L', 'Sodium whole blood|Sodium|Na', 'Natrium Vollblut|Natrium', 'Sodium sang total', 'blood-gas', 3),
  row('2823-3', 'Potassium [Moles/volume] in Serum or Plasma', 'Potassium', 'Ser/Plas', 'mmol/L|mEq/L', 'Potassium|K|K+|Serum potassium', 'Kalium|K', 'Potassium|Kaliémie|K', 'chem|electrolyte'),
  row('6298-4', 'Potassium [Moles/volume] in Blood', 'Potassium (blood)', 'Bld', 'mmol/L|mEq/L', 'Potassium whole blood|Potassium|K', 'Kalium Vollblut|Kalium', 'Potassium sang total', 'blood-gas', 3),
  row('2075-0', 'Chloride [Moles/volume] in Serum or Plasma', 'Chloride', 'Ser/Plas', 'mmol/L|mEq/L', 'Chloride|Cl|Cl-|Serum chloride', 'Chlorid|Cl', 'Chlore|Chlorures|Chlorémie|Cl', 'chem|electrolyte'),
  row('2069-3', 'Chloride [Moles/volume] in Blood', 'Chloride (blood)', 'Bld', 'mmol/L|mEq/L', 'Chloride whole blood|Chloride|Cl', 'Chlorid Vollblut|Chlorid', 'Chlore sang total', 'blood-gas', 3),
  row('2028-9', 'Carbon dioxide, total [Moles/volume] in Serum or Plasma', 'CO2, total', 'Ser/Plas', 'mmol/L|mEq/L', 'Carbon dioxide|CO2|Total CO2|Carbon dioxide total|TCO2|CO2 content', 'CO2 gesamt|Gesamt-CO2|Kohlendioxid', 'CO2 total|Dioxyde de carbone total|Réserve alcaline', 'chem|electrolyte'),
  row('1963-8', 'Bicarbonate [Moles/volume] in Serum or Plasma', 'Bicarbonate', 'Ser/Plas', 'mmol/L|mEq/L', 'Bicarbonate|HCO3|HCO3-|Bicarb|Serum bicarbonate', 'Bicarbonat|Hydrogencarbonat|HCO3', 'Bicarbonates|HCO3', 'chem|electrolyte'),
  row('33037-3', 'Anion gap in Serum or Plasma', 'Anion gap', 'Ser/Plas', 'mmol/L|mEq/L', 'Anion gap|AG|Anion gap (calc)', 'Anionenlücke', 'Trou anionique', 'chem|electrolyte'),
  row('17861-6', 'Calcium [Mass/volume] in Serum or Plasma', 'Calcium', 'Ser/Plas', 'mg/dL|mg/L', ...CA, 'chem|electrolyte'),
  row('2000-8', 'Calcium [Moles/volume] in Serum or Plasma', 'Calcium', 'Ser/Plas', 'mmol/L', ...CA, 'chem|electrolyte'),
  row('1995-0', 'Calcium.ionized [Moles/volume] in Serum or Plasma', 'Ionized calcium', 'Ser/Plas', 'mmol/L', 'Ionized calcium|Calcium ionized|iCa|Free calcium|Calcium ionised|Ionised calcium', 'Ionisiertes Calcium|Calcium ionisiert|Freies Calcium|iCa', 'Calcium ionisé|Ca ionisé', 'electrolyte|blood-gas'),
  row('1994-3', 'Calcium.ionized [Moles/volume] in Blood', 'Ionized calcium (blood)', 'Bld', 'mmol/L', 'Ionized calcium|Calcium ionized|iCa', 'Ionisiertes Calcium|Calcium ionisiert', 'Calcium ionisé', 'blood-gas', 3),
  row('19123-9', 'Magnesium [Mass/volume] in Serum or Plasma', 'Magnesium', 'Ser/Plas', 'mg/dL|mg/L', ...MG, 'chem|electrolyte'),
  row('2601-3', 'Magnesium [Moles/volume] in Serum or Plasma', 'Magnesium', 'Ser/Plas', 'mmol/L|mEq/L', ...MG, 'chem|electrolyte'),
  row('2777-1', 'Phosphate [Mass/volume] in Serum or Plasma', 'Phosphate', 'Ser/Plas', 'mg/dL|mg/L', ...PHOS, 'chem|electrolyte'),
  row('14879-1', 'Phosphate [Moles/volume] in Serum or Plasma', 'Phosphate', 'Ser/Plas', 'mmol/L', ...PHOS, 'chem|electrolyte'),
  row('2692-2', 'Osmolality of Serum or Plasma', 'Osmolality', 'Ser/Plas', 'mOsm/kg', 'Osmolality|Serum osmolality|Osmolality serum|Osmolality calculated', 'Osmolalität|Serumosmolalität', 'Osmolalité|Osmolalité plasmatique', 'chem|electrolyte'),

  // Liver and enzymes
  row('1742-6', 'Alanine aminotransferase [Enzymatic activity/volume] in Serum or Plasma', 'ALT', 'Ser/Plas', 'U/L|IU/L|ukat/L', 'ALT|Alanine aminotransferase|SGPT|ALT (SGPT)|GPT|Alanine transaminase|ALAT|ALT/SGPT', 'ALT|GPT|ALAT|ALT (GPT)|GPT (ALT)|Alanin-Aminotransferase', 'ALAT|ALT|TGP|SGPT|Alanine aminotransférase|Transaminases ALAT|ALAT (TGP)', 'chem|liver'),
  row('1920-8', 'Aspartate aminotransferase [Enzymatic activity/volume] in Serum or Plasma', 'AST', 'Ser/Plas', 'U/L|IU/L|ukat/L', 'AST|Aspartate aminotransferase|SGOT|AST (SGOT)|GOT|Aspartate transaminase|ASAT|AST/SGOT', 'AST|GOT|ASAT|AST (GOT)|GOT (AST)|Aspartat-Aminotransferase', 'ASAT|AST|TGO|SGOT|Aspartate aminotransférase|Transaminases ASAT|ASAT (TGO)', 'chem|liver'),
  row('6768-6', 'Alkaline phosphatase [Enzymatic activity/volume] in Serum or Plasma', 'Alkaline phosphatase', 'Ser/Plas', 'U/L|IU/L|ukat/L', 'Alkaline phosphatase|ALP|Alk phos|Alk phosphatase|ALKP|Phosphatase alkaline|Alkaline phosphatase total', 'Alkalische Phosphatase|AP|ALP|Alk. Phosphatase', 'Phosphatases alcalines|PAL|Phosphatase alcaline|ALP', 'chem|liver'),
  row('2324-2', 'Gamma glutamyl transferase [Enzymatic activity/volume] in Serum or Plasma', 'GGT', 'Ser/Plas', 'U/L|IU/L|ukat/L', 'GGT|Gamma-glutamyl transferase|Gamma GT|GGTP|Gamma glutamyl transpeptidase|Gamma-GT', 'Gamma-GT|GGT|γ-GT|Gamma-Glutamyltransferase|GGT (Gamma-GT)', 'Gamma GT|GGT|Gamma-glutamyl transférase|γGT', 'chem|liver'),
  row('2532-0', 'Lactate dehydrogenase [Enzymatic activity/volume] in Serum or Plasma', 'LDH', 'Ser/Plas', 'U/L|IU/L|ukat/L', 'LDH|Lactate dehydrogenase|LD|Lactic dehydrogenase|LDH total', 'LDH|Laktatdehydrogenase|Lactatdehydrogenase', 'LDH|Lactate déshydrogénase|Lacticodéshydrogénase|LDH totale', 'chem|liver'),
  row('14804-9', 'Lactate dehydrogenase [Enzymatic activity/volume] in Serum or Plasma by Lactate to pyruvate reaction', 'LDH (L→P)', 'Ser/Plas', 'U/L|IU/L', 'LDH|Lactate dehydrogenase|LD', 'LDH|Laktatdehydrogenase', 'LDH|Lactate déshydrogénase', 'chem|liver', 2),
  row('1798-8', 'Amylase [Enzymatic activity/volume] in Serum or Plasma', 'Amylase', 'Ser/Plas', 'U/L|IU/L|ukat/L', 'Amylase|Serum amylase|Amylase total', 'Amylase|Alpha-Amylase|Gesamt-Amylase', 'Amylase|Amylasémie', 'chem|liver'),
  row('3040-3', 'Lipase [Enzymatic activity/volume] in Serum or Plasma', 'Lipase', 'Ser/Plas', 'U/L|IU/L|ukat/L', 'Lipase|Serum lipase', 'Lipase', 'Lipase|Lipasémie', 'chem|liver'),
  row('2157-6', 'Creatine kinase [Enzymatic activity/volume] in Serum or Plasma', 'CK', 'Ser/Plas', 'U/L|IU/L|ukat/L', 'CK|Creatine kinase|CPK|Creatine phosphokinase|CK total|Total CK', 'CK|Kreatinkinase|Creatinkinase|CK gesamt', 'CK|CPK|Créatine kinase|Créatine phosphokinase|CPK totale', 'chem|cardiac'),
  row('32673-6', 'Creatine kinase.MB [Enzymatic activity/volume] in Serum or Plasma', 'CK-MB', 'Ser/Plas', 'U/L|IU/L', 'CK-MB|CKMB|Creatine kinase MB|CK MB activity', 'CK-MB|Kreatinkinase MB', 'CK-MB|CPK-MB', 'cardiac'),
  row('2885-2', 'Protein [Mass/volume] in Serum or Plasma', 'Total protein', 'Ser/Plas', 'g/dL|g/L', 'Total protein|Protein total|Protein|TP|Serum protein|Protein, total', 'Gesamteiweiß|Gesamtprotein|Eiweiß gesamt|Protein gesamt|Eiweiss', 'Protéines totales|Protides totaux|Protéinémie|Protéines', 'chem|liver'),
  row('1751-7', 'Albumin [Mass/volume] in Serum or Plasma', 'Albumin', 'Ser/Plas', 'g/dL|g/L', 'Albumin|ALB|Serum albumin', 'Albumin', 'Albumine|Albuminémie', 'chem|liver'),
  row('10834-0', 'Globulin [Mass/volume] in Serum by calculation', 'Globulin', 'Ser', 'g/dL|g/L', 'Globulin|Globulins|Total globulin|Globulin calculated', 'Globuline|Globulin', 'Globulines', 'chem|liver'),
  row('1759-0', 'Albumin/Globulin [Mass Ratio] in Serum or Plasma', 'A/G ratio', 'Ser/Plas', 'ratio', 'A/G ratio|Albumin/Globulin ratio|AG ratio|Albumin globulin ratio', 'Albumin/Globulin-Quotient|A/G-Quotient', 'Rapport albumine/globulines|Rapport A/G', 'chem|liver'),
  row('1975-2', 'Bilirubin.total [Mass/volume] in Serum or Plasma', 'Bilirubin, total', 'Ser/Plas', 'mg/dL|mg/L', ...BILI_T, 'chem|liver'),
  row('14631-6', 'Bilirubin.total [Moles/volume] in Serum or Plasma', 'Bilirubin, total', 'Ser/Plas', 'umol/L', ...BILI_T, 'chem|liver'),
  row('1968-7', 'Bilirubin.direct [Mass/volume] in Serum or Plasma', 'Bilirubin, direct', 'Ser/Plas', 'mg/dL|mg/L', ...BILI_D, 'liver'),
  row('14629-0', 'Bilirubin.direct [Moles/volume] in Serum or Plasma', 'Bilirubin, direct', 'Ser/Plas', 'umol/L', ...BILI_D, 'liver'),
  row('1971-1', 'Bilirubin.indirect [Mass/volume] in Serum or Plasma', 'Bilirubin, indirect', 'Ser/Plas', 'mg/dL|mg/L', ...BILI_I, 'liver'),
  row('14630-8', 'Bilirubin.indirect [Moles/volume] in Serum or Plasma', 'Bilirubin, indirect', 'Ser/Plas', 'umol/L', ...BILI_I, 'liver'),
  row('16362-6', 'Ammonia [Moles/volume] in Plasma', 'Ammonia', 'Plas', 'umol/L', 'Ammonia|NH3|Ammonium', 'Ammoniak|NH3', 'Ammoniémie|Ammoniaque|NH3', 'liver'),
  row('2524-7', 'Lactate [Moles/volume] in Serum or Plasma', 'Lactate', 'Ser/Plas', 'mmol/L', 'Lactate|Lactic acid', 'Laktat|Lactat|Milchsäure', 'Lactate|Acide lactique|Lactates', 'chem|blood-gas'),
  row('14118-4', 'Lactate [Mass/volume] in Serum or Plasma', 'Lactate', 'Ser/Plas', 'mg/dL', 'Lactate|Lactic acid', 'Laktat|Lactat', 'Lactate|Acide lactique', 'chem'),
  row('32693-4', 'Lactate [Moles/volume] in Blood', 'Lactate (blood)', 'Bld', 'mmol/L', 'Lactate whole blood|Lactate|Lactic acid', 'Laktat Vollblut|Laktat', 'Lactate sang total|Lactate', 'blood-gas', 3),
  row('3084-1', 'Urate [Mass/volume] in Serum or Plasma', 'Uric acid', 'Ser/Plas', 'mg/dL|mg/L', ...URATE, 'chem|renal'),
  row('14933-6', 'Urate [Moles/volume] in Serum or Plasma', 'Uric acid', 'Ser/Plas', 'umol/L|mmol/L', ...URATE, 'chem|renal'),

  // Lipids
  row('2093-3', 'Cholesterol [Mass/volume] in Serum or Plasma', 'Cholesterol, total', 'Ser/Plas', 'mg/dL|g/L', ...CHOL, 'lipid'),
  row('14647-2', 'Cholesterol [Moles/volume] in Serum or Plasma', 'Cholesterol, total', 'Ser/Plas', 'mmol/L', ...CHOL, 'lipid'),
  row('2571-8', 'Triglyceride [Mass/volume] in Serum or Plasma', 'Triglycerides', 'Ser/Plas', 'mg/dL|g/L', ...TRIG, 'lipid'),
  row('14927-8', 'Triglyceride [Moles/volume] in Serum or Plasma', 'Triglycerides', 'Ser/Plas', 'mmol/L', ...TRIG, 'lipid'),
  row('2085-9', 'Cholesterol in HDL [Mass/volume] in Serum or Plasma', 'HDL cholesterol', 'Ser/Plas', 'mg/dL|g/L', ...HDL, 'lipid'),
  row('14646-4', 'Cholesterol in HDL [Moles/volume] in Serum or Plasma', 'HDL cholesterol', 'Ser/Plas', 'mmol/L', ...HDL, 'lipid'),
  row('13457-7', 'Cholesterol in LDL [Mass/volume] in Serum or Plasma by calculation', 'LDL cholesterol (calc)', 'Ser/Plas', 'mg/dL|g/L', `${LDL[0]}|${LDL_CALC[0]}`, `${LDL[1]}|${LDL_CALC[1]}`, `${LDL[2]}|${LDL_CALC[2]}`, 'lipid'),
  row('39469-2', 'Cholesterol in LDL [Moles/volume] in Serum or Plasma by calculation', 'LDL cholesterol (calc)', 'Ser/Plas', 'mmol/L', `${LDL[0]}|${LDL_CALC[0]}`, `${LDL[1]}|${LDL_CALC[1]}`, `${LDL[2]}|${LDL_CALC[2]}`, 'lipid'),
  row('2089-1', 'Cholesterol in LDL [Mass/volume] in Serum or Plasma', 'LDL cholesterol', 'Ser/Plas', 'mg/dL|g/L', LDL[0], `${LDL_DE}|${LDL[1]}`, LDL[2], 'lipid', 2),
  row('22748-8', 'Cholesterol in LDL [Moles/volume] in Serum or Plasma', 'LDL cholesterol', 'Ser/Plas', 'mmol/L', LDL[0], `${LDL_DE}|${LDL[1]}`, LDL[2], 'lipid', 2),
  row('18262-6', 'Cholesterol in LDL [Mass/volume] in Serum or Plasma by Direct assay', 'LDL cholesterol (direct)', 'Ser/Plas', 'mg/dL|g/L', ...LDL_DIRECT, 'lipid'),
  row('69419-0', 'Cholesterol in LDL [Moles/volume] in Serum or Plasma by Direct assay', 'LDL cholesterol (direct)', 'Ser/Plas', 'mmol/L', ...LDL_DIRECT, 'lipid'),
  row('13458-5', 'Cholesterol in VLDL [Mass/volume] in Serum or Plasma by calculation', 'VLDL cholesterol', 'Ser/Plas', 'mg/dL', 'VLDL cholesterol|VLDL|VLDL-C|VLDL cholesterol calc|VLDL Cholesterol Cal', 'VLDL-Cholesterin|VLDL', 'VLDL-cholestérol|VLDL', 'lipid'),
  row('43396-1', 'Cholesterol non HDL [Mass/volume] in Serum or Plasma', 'Non-HDL cholesterol', 'Ser/Plas', 'mg/dL|g/L', ...NONHDL, 'lipid'),
  row('70204-3', 'Cholesterol non HDL [Moles/volume] in Serum or Plasma', 'Non-HDL cholesterol', 'Ser/Plas', 'mmol/L', ...NONHDL, 'lipid'),
  row('9830-1', 'Cholesterol.total/Cholesterol in HDL [Mass Ratio] in Serum or Plasma', 'Cholesterol/HDL ratio', 'Ser/Plas', 'ratio', 'Cholesterol/HDL ratio|Chol/HDL ratio|Total cholesterol/HDL ratio|TC/HDL ratio|Cholesterol HDL ratio|Chol/HDLC ratio|Risk ratio', 'Cholesterin/HDL-Quotient|Gesamtcholesterin/HDL-Quotient|Chol/HDL', 'Rapport cholestérol total/HDL|Rapport CT/HDL', 'lipid'),
  row('11054-4', 'Cholesterol in LDL/Cholesterol in HDL [Mass Ratio] in Serum or Plasma', 'LDL/HDL ratio', 'Ser/Plas', 'ratio', 'LDL/HDL ratio|LDL/HDL|LDL-C/HDL-C ratio|LDL HDL ratio|LDL cholesterol/HDL cholesterol ratio', 'LDL/HDL-Quotient|LDL/HDL', 'Rapport LDL/HDL', 'lipid'),
  // Lp(a) with no unit printed: mass or moles is a guess (the tie lowers its confidence, loinc-match.ts);
  // the molar code comes first because the EAS consensus (2022) and the IFCC recommend reporting Lp(a) in
  // nmol/L, and labs increasingly do. A printed unit decides.
  row('43583-4', 'Lipoprotein a [Moles/volume] in Serum or Plasma', 'Lipoprotein(a)', 'Ser/Plas', 'nmol/L', ...LPA, 'lipid'),
  row('10835-7', 'Lipoprotein a [Mass/volume] in Serum or Plasma', 'Lipoprotein(a)', 'Ser/Plas', 'mg/dL|mg/L|g/L', ...LPA, 'lipid'),
  row('1884-6', 'Apolipoprotein B [Mass/volume] in Serum or Plasma', 'Apolipoprotein B', 'Ser/Plas', 'mg/dL|g/L', 'Apolipoprotein B|ApoB|Apo B|Apo B-100|Apolipoprotein B-100', 'Apolipoprotein B|ApoB|Apo B', 'Apolipoprotéine B|ApoB|Apo B', 'lipid'),
  row('1869-7', 'Apolipoprotein A-I [Mass/volume] in Serum or Plasma', 'Apolipoprotein A1', 'Ser/Plas', 'mg/dL|g/L', 'Apolipoprotein A1|Apolipoprotein A-I|ApoA1|Apo A1|Apo A-I|ApoA-I', 'Apolipoprotein A1|Apolipoprotein A-I|ApoA1|Apo A1', 'Apolipoprotéine A1|ApoA1|Apo A1', 'lipid'),

  // Iron studies
  row('2498-4', 'Iron [Mass/volume] in Serum or Plasma', 'Iron', 'Ser/Plas', 'ug/dL|ug/L|mg/L', ...IRON, 'iron'),
  row('14798-3', 'Iron [Moles/volume] in Serum or Plasma', 'Iron', 'Ser/Plas', 'umol/L', ...IRON, 'iron'),
  row('2500-7', 'Iron binding capacity [Mass/volume] in Serum or Plasma', 'TIBC', 'Ser/Plas', 'ug/dL', ...TIBC, 'iron'),
  row('14800-7', 'Iron binding capacity [Moles/volume] in Serum or Plasma', 'TIBC', 'Ser/Plas', 'umol/L', ...TIBC, 'iron'),
  row('2501-5', 'Iron binding capacity.unsaturated [Mass/volume] in Serum or Plasma', 'UIBC', 'Ser/Plas', 'ug/dL', ...UIBC, 'iron'),
  row('22753-8', 'Iron binding capacity.unsaturated [Moles/volume] in Serum or Plasma', 'UIBC', 'Ser/Plas', 'umol/L', ...UIBC, 'iron'),
  row('2502-3', 'Iron saturation [Mass Fraction] in Serum or Plasma', 'Transferrin saturation', 'Ser/Plas', '%', ...SAT, 'iron'),
  row('14801-5', 'Iron saturation [Molar fraction] in Serum or Plasma', 'Transferrin saturation', 'Ser/Plas', '%', ...SAT, 'iron', 2),
  row('2276-4', 'Ferritin [Mass/volume] in Serum or Plasma', 'Ferritin', 'Ser/Plas', 'ng/mL|ug/L', ...FERR, 'iron'),
  row('14723-1', 'Ferritin [Moles/volume] in Serum or Plasma', 'Ferritin', 'Ser/Plas', 'pmol/L', ...FERR, 'iron'),
  row('3034-6', 'Transferrin [Mass/volume] in Serum or Plasma', 'Transferrin', 'Ser/Plas', 'mg/dL|g/L', ...TRF, 'iron'),
  row('22674-6', 'Transferrin [Moles/volume] in Serum or Plasma', 'Transferrin', 'Ser/Plas', 'umol/L', ...TRF, 'iron'),
  row('4542-7', 'Haptoglobin [Mass/volume] in Serum or Plasma', 'Haptoglobin', 'Ser/Plas', 'mg/dL|g/L', 'Haptoglobin', 'Haptoglobin', 'Haptoglobine', 'iron'),

  // Therapeutic drug levels and toxicology (serum or plasma; tacrolimus in whole blood)
  row('14334-7', 'Lithium [Moles/volume] in Serum or Plasma', 'Lithium', 'Ser/Plas', 'mmol/L|mEq/L', 'Lithium|Lithium level|Serum lithium', 'Lithium', 'Lithium|Lithémie', 'chem'),
  row('10535-3', 'Digoxin [Mass/volume] in Serum or Plasma', 'Digoxin', 'Ser/Plas', 'ng/mL|ug/L', 'Digoxin|Digoxin level', 'Digoxin', 'Digoxine|Digoxinémie', 'chem'),
  row('3968-5', 'Phenytoin [Mass/volume] in Serum or Plasma', 'Phenytoin', 'Ser/Plas', 'ug/mL|mg/L', 'Phenytoin|Phenytoin, total|Phenytoin total|Dilantin', 'Phenytoin', 'Phénytoïne', 'chem'),
  row('4086-5', 'Valproate [Mass/volume] in Serum or Plasma', 'Valproate', 'Ser/Plas', 'ug/mL|mg/L', 'Valproic acid|Valproate|Valproic acid level', 'Valproinsäure|Valproat', 'Acide valproïque|Valproate', 'chem'),
  row('3432-2', 'Carbamazepine [Mass/volume] in Serum or Plasma', 'Carbamazepine', 'Ser/Plas', 'ug/mL|mg/L', 'Carbamazepine|Carbamazepine level', 'Carbamazepin', 'Carbamazépine', 'chem'),
  row('4049-3', 'Theophylline [Mass/volume] in Serum or Plasma', 'Theophylline', 'Ser/Plas', 'ug/mL|mg/L', 'Theophylline|Theophylline level', 'Theophyllin', 'Théophylline', 'chem'),
  row('4092-3', 'Vancomycin [Mass/volume] in Serum or Plasma --trough', 'Vancomycin (trough)', 'Ser/Plas', 'ug/mL|mg/L', 'Vancomycin trough|Vancomycin, trough|Vancomycin pre-dose', 'Vancomycin Talspiegel', 'Vancomycine résiduelle|Vancomycine vallée', 'chem'),
  row('20578-1', 'Vancomycin [Mass/volume] in Serum or Plasma', 'Vancomycin', 'Ser/Plas', 'ug/mL|mg/L', 'Vancomycin|Vancomycin level|Vancomycin random', 'Vancomycin', 'Vancomycine', 'chem', 2),
  row('11253-2', 'Tacrolimus [Mass/volume] in Blood', 'Tacrolimus', 'Bld', 'ng/mL|ug/L', 'Tacrolimus|FK506|Tacrolimus trough|Tacrolimus level', 'Tacrolimus', 'Tacrolimus', 'chem'),
  row('5643-2', 'Ethanol [Mass/volume] in Serum or Plasma', 'Ethanol', 'Ser/Plas', 'mg/dL|g/L', 'Ethanol|Alcohol|Ethyl alcohol|Blood alcohol', 'Ethanol|Alkohol', 'Éthanol|Alcoolémie', 'chem'),
  row('3298-7', 'Acetaminophen [Mass/volume] in Serum or Plasma', 'Acetaminophen', 'Ser/Plas', 'ug/mL|mg/L', 'Acetaminophen|Paracetamol|Tylenol', 'Paracetamol', 'Paracétamol', 'chem'),
  row('4024-6', 'Salicylates [Mass/volume] in Serum or Plasma', 'Salicylate', 'Ser/Plas', 'mg/dL|mg/L', 'Salicylate|Salicylates|Aspirin level', 'Salicylat|Salicylate', 'Salicylate|Salicylémie', 'chem'),
];
