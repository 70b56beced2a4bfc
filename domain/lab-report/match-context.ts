/**
 * What the words around a test name tell the LOINC matcher: the specimen (urine, whole blood, arterial
 * blood, serum), whether the result is a fraction (%) or an absolute count, and which report section
 * (panel) it sits in. Reports say these things in names ("Neutrophils, Absolute", "U-Protein",
 * "Glucose (urine)") and in panel headings ("URINALYSIS", "Blutbild", "Bilan lipidique").
 */
import { type PanelTag } from './loinc-table.js';
import { foldText } from './text.js';
import { type UnitKind } from './units.js';

export type SpecimenHint = 'urine' | 'blood' | 'arterial' | 'serum';

const URINE_WORDS = /\b(urine?s?|urin|harn|urinaire?s?|urinalysis|urinanalyse|ua|ecbu|sediment|sedimento?|bandelette|teststreifen|harnstatus|urinstatus|dipstick|micro(scopy|scopic)? urine)\b/;
const ARTERIAL_WORDS = /\b(arterial|arteriell|arteriel(le)?|abg|blood gas(es)?|blutgas(e|analyse)?|gaz du sang|gazometrie)\b/;
const WHOLE_BLOOD_WORDS = /\b(whole blood|vollblut|sang total|capillary|kapillar|capillaire)\b/;
const SERUM_WORDS = /\b(serum|plasma|serique|plasmatique)\b/;

/** Specimen named in a free text (test name, panel heading or specimen label), if any. */
export function specimenHintIn(text: string | undefined): SpecimenHint | undefined {
  if (!text) return undefined;
  const t = foldText(text);
  if (/^(u|su|pu|ur)[-_ ]/.test(t) || URINE_WORDS.test(t)) return 'urine';
  if (ARTERIAL_WORDS.test(t)) return 'arterial';
  if (WHOLE_BLOOD_WORDS.test(t) || /^(b|vb|cb)[-_ ]/.test(t)) return 'blood';
  if (SERUM_WORDS.test(t) || /^(s|p|se|pl|fs|sp)[-_ ]/.test(t)) return 'serum';
  return undefined;
}

/** "%" / "relative" in a name means a fraction; "#" / "absolute" / "count" an absolute count. */
export function quantityCueIn(name: string): UnitKind | undefined {
  const t = foldText(name);
  if (/%|\b(percent|pct|rel|relative?|relativ|pourcentage)\b/.test(t)) return 'percent';
  if (/#|\b(abs|absolute?|absolut|absolu(e|es)?|count|anzahl|nombre)\b/.test(t)) return 'count';
  return undefined;
}

// Panel headings in English, German and French → the coarse sections of the LOINC table.
const PANEL_WORDS: [RegExp, PanelTag[]][] = [
  [/\b(cbc|complete blood count|full blood count|fbc|hemogram|haemogram|blood count|blutbild|hamatologie|hematolog(y|ie)|haematology|hemogramme|nfs|numeration|formule sanguine|kleines blutbild|grosses blutbild)\b/, ['cbc', 'diff']],
  [/\b(differential|diff|differentialblutbild|formule leucocytaire|leukocyte differential)\b/, ['diff', 'cbc']],
  [/\b(lipid|lipids|lipid panel|lipide|fettstoffwechsel|bilan lipidique|lipidogramme|exploration d'une anomalie lipidique)\b/, ['lipid']],
  [/\b(thyroid|schilddruse|schilddrusenwerte|thyroide|bilan thyroidien|tsh panel)\b/, ['thyroid']],
  [/\b(liver|hepatic|lft|leber|leberwerte|hepatique|bilan hepatique)\b/, ['liver']],
  [/\b(metabolic|cmp|bmp|chemistry|chem|klinische chemie|biochimie|biochemistry|chimie)\b/, ['chem', 'electrolyte', 'renal', 'liver']],
  [/\b(electrolytes?|elektrolyte|ionogramme)\b/, ['electrolyte']],
  [/\b(renal|kidney|niere|nierenwerte|nierenfunktion|renale?|fonction renale)\b/, ['renal']],
  [/\b(iron|eisen|eisenstoffwechsel|bilan martial|fer)\b/, ['iron']],
  [/\b(coag\w*|gerinnung|hemostase|haemostasis|hemostasis)\b/, ['coag']],
  [/\b(blood gas(es)?|blutgas\w*|gaz du sang|abg)\b/, ['blood-gas']],
  [/\b(urin\w*|harn\w*|sediment|ua)\b/, ['urinalysis', 'urine-chem']],
  [/\b(diabetes|glucose|glycemic|zuckerstoffwechsel|diabete)\b/, ['diabetes']],
  [/\b(hormones?|hormon\w*|endocrin\w*|fertility|fertilite)\b/, ['hormone']],
  [/\b(vitamins?|vitamine?|mineral\w*|trace elements?|spurenelemente|oligo-?elements)\b/, ['vitamin']],
  [/\b(tumou?r|tumormarker|marqueurs tumoraux|oncology)\b/, ['tumor']],
  [/\b(serolog\w*|infectious|infektion\w*|hepatitis|hiv|virolog\w*)\b/, ['serology']],
  [/\b(immunolog\w*|autoimmun\w*|rheuma\w*|proteins?|immunoglobulins?)\b/, ['immunology']],
  [/\b(cardiac|heart|herz\w*|cardiaque|cardiolog\w*)\b/, ['cardiac']],
  [/\b(inflammation|entzundung\w*|inflammatoire)\b/, ['inflammation']],
];

export function panelTagsIn(text: string | undefined): Set<PanelTag> {
  const tags = new Set<PanelTag>();
  if (!text) return tags;
  const t = foldText(text);
  for (const [re, panelTags] of PANEL_WORDS) if (re.test(t)) panelTags.forEach((p) => tags.add(p));
  return tags;
}
