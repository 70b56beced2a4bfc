/** Urinalysis (physical, dipstick, sediment microscopy) and urine chemistry. */
import { type LoincEntry, row } from './entry.js';

const UA = 'urinalysis';
const UCHEM = 'urine-chem';
const UGLU = ['Glucose|Urine glucose|Glucose urine|Glucose, urine|Sugar', 'Glukose|Glucose|Zucker|Glukose im Urin|Urin-Glukose', 'Glucose|Glycosurie|Glucose urinaire'] as const;
const UKET = ['Ketones|Ketone|Ketone bodies|Urine ketones|Acetone|Ketones, urine', 'Ketone|Ketonkörper|Aceton', 'Corps cétoniques|Cétones|Cétonurie|Acétone'] as const;
const UPROT = ['Protein|Urine protein|Protein, urine|Albumin (dipstick)|Total protein urine', 'Eiweiß|Protein|Eiweiss|Eiweiß im Urin', 'Protéines|Protéinurie|Protéines urinaires|Albumine'] as const;
const UROB = ['Urobilinogen|Urobilinogen, urine|UBG|URO', 'Urobilinogen|UBG', 'Urobilinogène|Urobiline'] as const;
const UCREA = ['Creatinine|Urine creatinine|Creatinine, urine|Creatinine random urine', 'Kreatinin|Kreatinin im Urin|Urin-Kreatinin', 'Créatinine|Créatinine urinaire|Créatininurie'] as const;
const UUREA = ['Urea|Urine urea|Urea, urine', 'Harnstoff|Harnstoff im Urin', 'Urée|Urée urinaire'] as const;
const UPHOS = ['Phosphorus|Phosphate|Urine phosphate', 'Phosphat|Phosphat im Urin', 'Phosphore|Phosphates urinaires'] as const;
const UURATE = ['Uric acid|Urine uric acid|Urate', 'Harnsäure|Harnsäure im Urin', 'Acide urique|Acide urique urinaire|Uricurie'] as const;

export const URINE: LoincEntry[] = [
  // Physical examination
  row('5778-6', 'Color of Urine', 'Color', 'Urine', '', 'Color|Colour|Urine color|Urine colour|Color, urine', 'Farbe|Urinfarbe', 'Couleur|Aspect couleur', UA),
  row('5767-9', 'Appearance of Urine', 'Appearance', 'Urine', '', 'Appearance|Urine appearance|Appearance, urine|Aspect', 'Aussehen|Trübung|Klarheit', 'Aspect|Limpidité', UA),
  row('32167-9', 'Clarity of Urine', 'Clarity', 'Urine', '', 'Clarity|Urine clarity|Turbidity|Clarity, urine', 'Klarheit|Trübung', 'Limpidité|Turbidité', UA, 2),
  row('5811-5', 'Specific gravity of Urine by Test strip', 'Specific gravity', 'Urine', '', 'Specific gravity|SG|Sp gravity|Spec grav|Specific gravity, urine|Urine specific gravity', 'Spezifisches Gewicht|Spez. Gewicht|Dichte', 'Densité|Densité urinaire', UA),
  row('2965-2', 'Specific gravity of Urine', 'Specific gravity', 'Urine', '', 'Specific gravity|SG|Specific gravity, urine', 'Spezifisches Gewicht|Dichte', 'Densité', UA, 2),
  row('5803-2', 'pH of Urine by Test strip', 'pH', 'Urine', '', 'pH|Urine pH|pH, urine|Reaction', 'pH|pH-Wert|Urin-pH', 'pH|pH urinaire', UA),
  row('2756-5', 'pH of Urine', 'pH', 'Urine', '', 'pH|Urine pH|pH, urine', 'pH|pH-Wert', 'pH|pH urinaire', UA, 2),

  // Dipstick chemistry
  row('5804-0', 'Protein [Mass/volume] in Urine by Test strip', 'Protein (dipstick)', 'Urine', 'mg/dL|g/L', ...UPROT, UA),
  row('20454-5', 'Protein [Presence] in Urine by Test strip', 'Protein (dipstick)', 'Urine', '', ...UPROT, UA),
  row('5792-7', 'Glucose [Mass/volume] in Urine by Test strip', 'Glucose (dipstick)', 'Urine', 'mg/dL|g/L', ...UGLU, UA),
  row('22705-8', 'Glucose [Moles/volume] in Urine by Test strip', 'Glucose (dipstick)', 'Urine', 'mmol/L', ...UGLU, UA),
  row('25428-4', 'Glucose [Presence] in Urine by Test strip', 'Glucose (dipstick)', 'Urine', '', ...UGLU, UA),
  row('2514-8', 'Ketones [Presence] in Urine by Test strip', 'Ketones (dipstick)', 'Urine', '', ...UKET, UA),
  row('5797-6', 'Ketones [Mass/volume] in Urine by Test strip', 'Ketones (dipstick)', 'Urine', 'mg/dL', ...UKET, UA),
  row('22702-5', 'Ketones [Moles/volume] in Urine by Test strip', 'Ketones (dipstick)', 'Urine', 'mmol/L', ...UKET, UA),
  row('5794-3', 'Hemoglobin [Presence] in Urine by Test strip', 'Blood (dipstick)', 'Urine', '', 'Blood|Occult blood|Hemoglobin|Haemoglobin|Urine blood|Blood, urine|Heme', 'Blut|Hämoglobin|Erythrozyten (Streifen)|Blut im Urin', 'Sang|Hémoglobine|Hématurie|Sang (bandelette)', UA),
  row('5770-3', 'Bilirubin.total [Presence] in Urine by Test strip', 'Bilirubin (dipstick)', 'Urine', '', 'Bilirubin|Urine bilirubin|Bilirubin, urine', 'Bilirubin', 'Bilirubine|Pigments biliaires', UA),
  row('20405-7', 'Urobilinogen [Mass/volume] in Urine by Test strip', 'Urobilinogen (dipstick)', 'Urine', 'mg/dL|EU/dL', ...UROB, UA),
  row('34928-2', 'Urobilinogen [Moles/volume] in Urine by Test strip', 'Urobilinogen (dipstick)', 'Urine', 'umol/L', ...UROB, UA),
  row('5802-4', 'Nitrite [Presence] in Urine by Test strip', 'Nitrite', 'Urine', '', 'Nitrite|Nitrites|Urine nitrite|Nitrite, urine', 'Nitrit', 'Nitrites|Nitrite', UA),
  row('5799-2', 'Leukocyte esterase [Presence] in Urine by Test strip', 'Leukocyte esterase', 'Urine', '', 'Leukocyte esterase|Leukocytes|Leucocyte esterase|LE|WBC esterase|Leukocyte esterase, urine', 'Leukozytenesterase|Leukozyten', 'Leucocytes (bandelette)|Estérase leucocytaire|Leucocytes', UA),
  row('20408-1', 'Leukocytes [#/volume] in Urine by Test strip', 'Leukocytes (dipstick)', 'Urine', '/uL|cells/uL|Leu/uL', 'Leukocytes|WBC|Leucocytes', 'Leukozyten|Leukos', 'Leucocytes', UA, 2),

  // Sediment microscopy
  row('5821-4', 'Leukocytes [#/area] in Urine sediment by Microscopy high power field', 'WBC (sediment)', 'Urine sed', '/hpf', 'WBC|Leukocytes|White blood cells|WBC urine|Pus cells|WBC/HPF|Leucocytes', 'Leukozyten|Leukozyten im Sediment|Leukos', 'Leucocytes|Leucocytes (sédiment)|Globules blancs', UA),
  row('13945-1', 'Erythrocytes [#/area] in Urine sediment by Microscopy high power field', 'RBC (sediment)', 'Urine sed', '/hpf', 'RBC|Erythrocytes|Red blood cells|RBC urine|RBC/HPF', 'Erythrozyten|Erythrozyten im Sediment|Erys', 'Hématies|Hématies (sédiment)|Globules rouges', UA),
  row('5769-5', 'Bacteria [#/area] in Urine sediment by Microscopy high power field', 'Bacteria (sediment)', 'Urine sed', '/hpf', 'Bacteria|Bacteria urine', 'Bakterien', 'Bactéries|Flore bactérienne', UA),
  row('25145-4', 'Bacteria [Presence] in Urine sediment by Light microscopy', 'Bacteria (sediment)', 'Urine sed', '', 'Bacteria|Bacteria urine', 'Bakterien', 'Bactéries|Flore bactérienne', UA),
  row('5796-8', 'Hyaline casts [#/area] in Urine sediment by Microscopy low power field', 'Hyaline casts', 'Urine sed', '/lpf', 'Hyaline casts|Hyaline cast', 'Hyaline Zylinder', 'Cylindres hyalins', UA),
  row('9842-6', 'Casts [#/area] in Urine sediment by Microscopy low power field', 'Casts', 'Urine sed', '/lpf', 'Casts|Cast|Urine casts', 'Zylinder', 'Cylindres', UA),

  // Urine chemistry (random specimen unless said otherwise)
  row('2161-8', 'Creatinine [Mass/volume] in Urine', 'Creatinine (urine)', 'Urine', 'mg/dL|g/L', ...UCREA, UCHEM),
  row('14683-7', 'Creatinine [Moles/volume] in Urine', 'Creatinine (urine)', 'Urine', 'mmol/L|umol/L', ...UCREA, UCHEM),
  row('1754-1', 'Albumin [Mass/volume] in Urine', 'Albumin (urine)', 'Urine', 'mg/L|mg/dL', 'Albumin|Urine albumin|Albumin, urine', 'Albumin|Albumin im Urin|Urin-Albumin', 'Albumine|Albuminurie|Albumine urinaire', UCHEM),
  row('14957-5', 'Microalbumin [Mass/volume] in Urine', 'Microalbumin', 'Urine', 'mg/L|ug/mL|mg/dL', 'Microalbumin|Micro albumin|Microalbumin, urine|Urine microalbumin', 'Mikroalbumin|Mikroalbumin im Urin', 'Microalbumine|Microalbuminurie', UCHEM),
  row('14959-1', 'Microalbumin/Creatinine [Mass Ratio] in Urine', 'Microalbumin/creatinine ratio', 'Urine', 'mg/g|ug/mg', 'Microalbumin/creatinine ratio|Microalb/Creat ratio|Microalbumin creatinine ratio|Microalbumin/creatinine', 'Mikroalbumin/Kreatinin-Quotient|Mikroalbumin/Kreatinin', 'Rapport microalbumine/créatinine', UCHEM),
  row('9318-7', 'Albumin/Creatinine [Mass Ratio] in Urine', 'Albumin/creatinine ratio', 'Urine', 'mg/g|mg/mmol|ug/mg', 'Albumin/creatinine ratio|ACR|UACR|Urine albumin/creatinine ratio|Albumin creatinine ratio|Alb/Creat ratio', 'Albumin/Kreatinin-Quotient|Albumin/Kreatinin-Ratio|ACR|Albumin/Kreatinin', 'Rapport albumine/créatinine|RAC|Rapport albuminurie/créatininurie', UCHEM),
  row('2888-6', 'Protein [Mass/volume] in Urine', 'Protein (urine)', 'Urine', 'mg/dL|g/L|mg/L', 'Urine protein|Protein, urine|Total protein urine|Protein', 'Eiweiß im Urin|Gesamteiweiß im Urin|Protein im Urin|Eiweiß', 'Protéinurie|Protéines urinaires|Protéines', UCHEM),
  row('2889-4', 'Protein [Mass/time] in 24 hour Urine', 'Protein (24h urine)', '24H Urine', 'mg/(24.h)|g/(24.h)|mg/24h|g/24h', '24 hour urine protein|Protein 24h|Protein, 24 hour urine|Urine protein 24 hr', 'Eiweiß im 24h-Urin|Proteinurie 24h', 'Protéinurie des 24 heures|Protéines urinaires 24h', UCHEM),
  row('2890-2', 'Protein/Creatinine [Mass Ratio] in Urine', 'Protein/creatinine ratio', 'Urine', 'mg/g|mg/mg|g/g|mg/mmol', 'Protein/creatinine ratio|UPCR|PCR|Urine protein/creatinine ratio|Protein creatinine ratio', 'Protein/Kreatinin-Quotient|Eiweiß/Kreatinin-Quotient|UPCR', 'Rapport protéines/créatinine|RPC|Rapport protéinurie/créatininurie', UCHEM),
  row('2350-7', 'Glucose [Mass/volume] in Urine', 'Glucose (urine)', 'Urine', 'mg/dL|g/L', ...UGLU, UCHEM, 2),
  row('15076-3', 'Glucose [Moles/volume] in Urine', 'Glucose (urine)', 'Urine', 'mmol/L', ...UGLU, UCHEM, 2),
  row('2349-9', 'Glucose [Presence] in Urine', 'Glucose (urine)', 'Urine', '', ...UGLU, UA, 2),
  row('2955-3', 'Sodium [Moles/volume] in Urine', 'Sodium (urine)', 'Urine', 'mmol/L|mEq/L', 'Sodium|Urine sodium|Sodium, urine|Na', 'Natrium|Natrium im Urin', 'Sodium|Natriurèse|Sodium urinaire', UCHEM),
  row('2828-2', 'Potassium [Moles/volume] in Urine', 'Potassium (urine)', 'Urine', 'mmol/L|mEq/L', 'Potassium|Urine potassium|Potassium, urine|K', 'Kalium|Kalium im Urin', 'Potassium|Kaliurèse|Potassium urinaire', UCHEM),
  row('2078-4', 'Chloride [Moles/volume] in Urine', 'Chloride (urine)', 'Urine', 'mmol/L|mEq/L', 'Chloride|Urine chloride|Chloride, urine|Cl', 'Chlorid|Chlorid im Urin', 'Chlore|Chlorures urinaires', UCHEM),
  row('3092-4', 'Urea [Mass/volume] in Urine', 'Urea (urine)', 'Urine', 'mg/dL|g/L', ...UUREA, UCHEM),
  row('22700-9', 'Urea [Moles/volume] in Urine', 'Urea (urine)', 'Urine', 'mmol/L', ...UUREA, UCHEM),
  row('2778-9', 'Phosphate [Mass/volume] in Urine', 'Phosphate (urine)', 'Urine', 'mg/dL|g/L', ...UPHOS, UCHEM),
  row('13539-2', 'Phosphate [Moles/volume] in Urine', 'Phosphate (urine)', 'Urine', 'mmol/L', ...UPHOS, UCHEM),
  row('3086-6', 'Urate [Mass/volume] in Urine', 'Uric acid (urine)', 'Urine', 'mg/dL|g/L', ...UURATE, UCHEM),
  row('14934-4', 'Urate [Moles/volume] in Urine', 'Uric acid (urine)', 'Urine', 'umol/L|mmol/L', ...UURATE, UCHEM),
  row('2695-5', 'Osmolality of Urine', 'Osmolality (urine)', 'Urine', 'mOsm/kg', 'Osmolality|Urine osmolality|Osmolality, urine', 'Osmolalität|Urinosmolalität', 'Osmolalité urinaire|Osmolalité', UCHEM),
  row('2106-3', 'Choriogonadotropin (pregnancy test) [Presence] in Urine', 'Pregnancy test (urine)', 'Urine', '', 'Pregnancy test|Urine hCG|hCG urine|Urine pregnancy test|HCG, urine, qualitative', 'Schwangerschaftstest|hCG im Urin', 'Test de grossesse|hCG urinaire', UCHEM),
];
