/**
 * Coverage added for issue 14 (LOINC matching): allergen-specific IgE, whole-blood/arterial blood-gas
 * analyser codes, RBC magnesium, the APTT ratio, AMH, and test names in further languages (Czech,
 * Turkish, Swedish, Polish, Portuguese, Italian, Spanish, Dutch) plus point-of-care analyser
 * abbreviations. Aliases are vocabulary: the names labs in that language or on that analyser use for the
 * analyte, not the names read off one report.
 */
import { type LoincEntry, row } from './entry.js';

/**
 * Allergen-specific IgE: [code, ImmunoCAP allergen code, names]. Reports print the allergen's name, its
 * Latin name or its ImmunoCAP code, often together ("Timothy grass (g6)"); each combination is an alias.
 */
const ALLERGENS: [string, string, string, string[]][] = [
  ['6095-4', 'd1', 'Dermatophagoides pteronyssinus IgE Ab [Units/volume] in Serum', ['House dust mite', 'Dust mite', 'D. pteronyssinus', 'Dermatophagoides pteronyssinus', 'Hausstaubmilbe', 'Acarien D. pteronyssinus']],
  ['6096-2', 'd2', 'Dermatophagoides farinae IgE Ab [Units/volume] in Serum', ['D. farinae', 'Dermatophagoides farinae', 'American house dust mite', 'Mehlmilbe']],
  ['6833-8', 'e1', 'Cat dander IgE Ab [Units/volume] in Serum', ['Cat dander', 'Cat epithelium', 'Cat epithelium and dander', 'Katzenepithelien', 'Squames de chat']],
  ['6098-8', 'e5', 'Dog dander IgE Ab [Units/volume] in Serum', ['Dog dander', 'Dog epithelium', 'Hundeepithelien', 'Squames de chien']],
  ['6265-3', 'g6', 'Timothy IgE Ab [Units/volume] in Serum', ['Timothy grass', 'Timothy', 'Phleum pratense', 'Lieschgras', 'Wiesenlieschgras', 'Fléole', 'Fléole des prés']],
  ['6025-1', 't3', 'Common Silver Birch IgE Ab [Units/volume] in Serum', ['Birch', 'Birch pollen', 'Silver birch', 'Betula verrucosa', 'Betula pendula', 'Birke', 'Birkenpollen', 'Bouleau']],
  ['6020-2', 'm6', 'Alternaria alternata IgE Ab [Units/volume] in Serum', ['Alternaria alternata', 'Alternaria', 'Alternaria tenuis', 'Mould Alternaria', 'Mold Alternaria']],
  ['6106-9', 'f1', 'Egg white IgE Ab [Units/volume] in Serum', ['Egg white', 'Hühnereiweiß', 'Eiklar', 'Blanc d’œuf', "Blanc d'oeuf"]],
  ['7258-7', 'f2', 'Cow milk IgE Ab [Units/volume] in Serum', ["Cow's milk", 'Cow milk', 'Kuhmilch', 'Lait de vache']],
  ['6206-7', 'f13', 'Peanut IgE Ab [Units/volume] in Serum', ['Peanut', 'Arachis hypogaea', 'Erdnuss', 'Arachide', 'Cacahuète']],
];

function allergenRow([code, cap, name, names]: [string, string, string, string[]]): LoincEntry {
  const aliases = [...names.flatMap((n) => [n, `${n} (${cap})`, `${n} IgE`, `${cap} ${n}`]), cap, `${cap} IgE`];
  return row(code, name, `${names[0]} IgE (${cap})`, 'Ser', 'kU/L|kUA/L|IU/mL', aliases.join('|'), '', '', 'immunology');
}

export const COVERAGE: LoincEntry[] = [
  ...ALLERGENS.map(allergenRow),

  // Blood-gas analyser (co-oximetry, metabolites) on whole arterial blood.
  row('30313-1', 'Hemoglobin [Mass/volume] in Arterial blood', 'Hemoglobin (arterial)', 'BldA', 'g/dL|g/L', 'Hemoglobin|Hb|tHb|Total hemoglobin|Hemoglobin arterial', 'Hämoglobin|Hb|tHb', 'Hémoglobine|Hb|tHb', 'blood-gas', 3),
  row('20563-3', 'Carboxyhemoglobin/Hemoglobin.total in Blood', 'Carboxyhemoglobin', 'Bld', '%', 'Carboxyhemoglobin|COHb|HbCO|Carboxyhaemoglobin|CO-Hb', 'Carboxyhämoglobin|COHb|CO-Hb', 'Carboxyhémoglobine|HbCO|COHb', 'blood-gas'),
  row('2614-6', 'Methemoglobin/Hemoglobin.total in Blood', 'Methemoglobin', 'Bld', '%', 'Methemoglobin|MetHb|Methaemoglobin|Met-Hb', 'Methämoglobin|MetHb|Met-Hb', 'Méthémoglobine|MetHb', 'blood-gas'),
  row('2518-9', 'Lactate [Moles/volume] in Arterial blood', 'Lactate (arterial)', 'BldA', 'mmol/L', 'Lactate|Lac|Lactate arterial|Arterial lactate', 'Laktat|Lac', 'Lactate|Lac', 'blood-gas', 3),

  // Magnesium in red cells (micronutrient panels).
  row('32510-0', 'Magnesium [Mass/volume] in Red Blood Cells', 'Magnesium (RBC)', 'RBC', 'mg/dL', 'Magnesium RBC|RBC magnesium|Red cell magnesium|Erythrocyte magnesium|Magnesium red blood cells|Magnesium erythrocytes|Intracellular magnesium', 'Magnesium Erythrozyten|Erythrozyten-Magnesium|Magnesium in Erythrozyten', 'Magnésium érythrocytaire|Magnésium globulaire', 'vitamin'),

  // Coagulation: the patient's APTT over the normal (mean normal or control) time.
  row('63561-5', 'aPTT in Platelet poor plasma by Coagulation assay --normalized', 'APTT ratio', 'PPP', 'ratio', 'APTT ratio|aPTT ratio|PTT ratio|APTT-R|APTTr|Activated partial thromboplastin time ratio', 'aPTT-Ratio|PTT-Ratio', 'Ratio TCA|TCA ratio|Rapport TCA|TCA patient/témoin', 'coag'),

  // Ovarian reserve.
  row('38476-8', 'Mullerian inhibiting substance [Mass/volume] in Serum or Plasma', 'AMH', 'Ser/Plas', 'ng/mL|ug/L', 'AMH|Anti-Mullerian hormone|Anti-Müllerian hormone|Mullerian inhibiting substance|MIS', 'AMH|Anti-Müller-Hormon', 'AMH|Hormone anti-müllérienne', 'hormone'),
];

/**
 * Names in further languages and analyser notations, by code ('|'-separated). Czech (cs), Turkish (tr),
 * Swedish (sv), Polish (pl), Portuguese (pt), Italian (it), Spanish (es), Dutch (nl), Lithuanian (lt), Croatian
 * and Serbian electrolytes (Natrij, Kalij); point-of-care
 * analyser abbreviations are listed with the English-language analytes they stand for.
 */
const GLU = 'Gluc|Glukóza|Glukoz|Glukos|Glukoza|Glicose|Glucose plasmática|Glicemia|Glucosa|Glucosio|Kan şekeri|Glukosa|Glukosa darah|Gula darah|Glükóz|Vércukor|Gluk|Gliukozė';
const GLU_FAST = 'Açlık kan şekeri|Glukoz açlık|Açlık glukoz|Glukóza nalačno|Fastande glukos|Fasteglukos|Glukoza na czczo|Glicose em jejum|Glicemia a digiuno|Glucosa en ayunas|Nuchtere glucose|Glucose nuchter|Glukosa darah puasa|Gula darah puasa|Glukosa puasa|Éhgyomri vércukor|Éhgyomri glükóz';
const CREA = 'Kreatinin|Kreatynina|Creatinina|Kreatinine|CRE|Krea|Kreatininas';
const UREA = 'Močovina|Urea|Üre|Mocznik|Ureia|Azotemia|Ureum|Karbamid|Karbamid-N|Ureum darah|Urea-N|Šlapalas';
const URATE = 'Kyselina močová|Ürik asit|Urat|Kwas moczowy|Ácido úrico|Acido urico|Urinezuur|Húgysav|Asam urat|Uraatti|Virtsahappo';
const NA = 'Sodík|Sodyum|Natrium|Sód|Sódio|Sodio|NA+|Natrij|Natrijum|Natris';
const K = 'Draslík|Potasyum|Kalium|Potas|Potássio|Potassio|Potasio|K+|Kalij|Kalijum|Kalis';
const CL = 'Chloridy|Klor|Klorür|Klorid|Chlorki|Cloreto|Cloro|Cloruro|Chloride|CL-|Kloridi';
const CA = 'Vápník|Kalsiyum|Kalcium|Wapń|Cálcio|Calcio';
const MG = 'Hořčík|Magnezyum|Magnez|Magnésio|Magnesio';
const PHOS = 'Fosfor|Fosfát|Fosfat|Fosfor nieorganiczny|Fósforo|Fosforo|Fosfato';
const CHOL = 'Celkový cholesterol|Cholesterol celkový|Total kolesterol|Kolesterol|Cholesterol całkowity|Colesterol total|Colesterol|Colesterolo totale|Colesterolo|Totaal cholesterol|Koleszterin|Összkoleszterin|Kolesterol total|Kol|Kolesteroli|Cholesterolis|Bendras cholesterolis';
const HDL = 'HDL cholesterol|HDL kolesterol|HDL-kolesterol|Cholesterol HDL|Colesterol HDL|Colesterolo HDL|HDL-cholesterol|DTL cholesterolis|DTL-cholesterolis';
const LDL = 'LDL cholesterol|LDL kolesterol|LDL-kolesterol|Cholesterol LDL|Colesterol LDL|Colesterolo LDL|LDL-cholesterol|MTL cholesterolis|MTL-cholesterolis';
const TRIG = 'Triacylglyceroly|Triglyceridy|Trigliserid|Triglycerid|Triglycerider|Triglicerydy|Triglicerídeos|Triglicéridos|Trigliceridi|Triglyceriden|Trigliceridai';
const BILI_T = 'Bilirubin celkový|Total bilirubin|Bilirubin total|Bilirubina całkowita|Bilirrubina total|Bilirubina totale|Bilirubina total|Totaal bilirubine|Bilirubine totaal';
const IRON = 'Železo|Demir|Järn|Żelazo|Ferro|Hierro|Ijzer';
const TP = 'Celková bílkovina|Total protein|Totalt protein|Białko całkowite|Proteínas totais|Proteine totali|Proteínas totales|Totaal eiwit';
const ALB = 'Albumin|Albumina|Albúmina|Albumine';
const ALP = 'ALP|Alkalická fosfatáza|Alkalen fosfataz|Fosfataza alkaliczna|Fosfatase alcalina|Fosfatasi alcalina|Fosfatasa alcalina|Alkalisch fosfatase|Alkalische fosfatase';
const AMY = 'AMY|Amyláza|Amilaz|Amylas|Amylaza|Amilase|Amilasi|Amilasa';
const TBIL = 'TBIL|T.BIL';
const WBC = 'Leukocyty|Lökosit|Leukocyter|B-LPK|LPK|Leucócitos|Leucociti|Globuli bianchi|Leucocitos|Leukocyten|Witte bloedcellen|Leukosit|Leuk|Leukosyytit|Fehérvérsejt|Fehérvérsejtszám|Leukocitai';
const RBC = 'Erytrocyty|Eritrosit|Erytrocyter|Hemácias|Eritrócitos|Eritrociti|Globuli rossi|Hematíes|Eritrocitos|Erytrocyten|Rode bloedcellen|Eryt|Erytrosyytit|Vörösvértest|Vörösvértestszám|Eritrocitai';
const HGB = 'Hemoglobin|Hemoglobina|Emoglobina|Hemoglobine|Hæmoglobin|Hemoglobiini|Hemoglobin darah|Hemoglobinas';
const HCT = 'Hematokrit|Hematokryt|Hematócrito|Ematocrito|Hematocrito|EVF|B-EVF|Erytrocytvolymfraktion|Hematokritas';
const PLT = 'Trombocyty|Trombosit|Trombocyter|B-TPK|TPK|Płytki krwi|Płytki|Plaquetas|Piastrine|Trombocyten|Trom|Trombosyytit|Vérlemezke|Vérlemezkeszám|Trombocitai';
const MCV = 'VCM|MCV|Volume corpuscular médio|Volume corpuscolare medio|Volumen corpuscular medio';
const MCH = 'HCM|MCH|Hemoglobina corpuscular média|Emoglobina corpuscolare media|Hemoglobina corpuscular media';
const MCHC = 'CHCM|MCHC|Concentração de hemoglobina corpuscular média|Concentrazione emoglobinica corpuscolare media|Concentración de hemoglobina corpuscular media';
const NEUT = 'Neutrofily|Nötrofil|Neutrofiler|Neutrofile|Neutrófilos|Neutrofili|Neutrófilos segmentados|Neutrofielen';
const LYMPH = 'Lymfocyty|Lenfosit|Lymfocyter|Limfocyty|Linfócitos|Linfociti|Linfocitos|Lymfocyten';
const MONO = 'Monocyty|Monosit|Monocyter|Monócitos|Monociti|Monocitos|Monocyten';
const EOS = 'Eozinofily|Eozinofil|Eosinofiler|Eozynofile|Eosinófilos|Eosinofili|Eosinofielen|EO|Eosinofil';
const BASO = 'Bazofily|Bazofil|Basofiler|Bazofile|Basófilos|Basofili|Basofielen';
const FT4 = 'Serbest T4|sT4|Fritt T4|Vrij T4|Volný T4|Wolna tyroksyna|T4 livre|T4 libero|T4 libre|Tiroxina livre|Tiroxina libre|Laisvasis T4|LT4';

// Finnish short names after the specimen prefix ("fP-Ferrit", "S-Ferrit"), Hungarian, Indonesian, Romanian
// and Japanese names of further analytes.
const FERR = 'Ferrit|Ferritiini|Feritin|Ferritina';
const ESR = 'Laju endap darah|LED|VSH|Viteza de sedimentare a hematiilor|Süllyedés|Westergren süllyedés';
const GGT = 'γ-GTP|Gamma-GTP|GTP|γ-GT|Gamma-glutamiltranszferáz';

/**
 * Names in Cyrillic (Russian, Ukrainian) and Greek, by code, as the laboratories of those countries print them:
 * the analyte's word, with the short form they use ("АЛТ", "СОЭ", "ТТГ") and the long name written with it
 * ("АЛТ (аланинаминотрансфераза)", as English reports write "ALT (SGPT)"). Merged into OTHER_ALIASES.
 */
const CYRILLIC_GREEK: Record<string, string> = {
  glucose: 'Глюкоза|Глюкоза крови|Глюкоза в крови|Глюкоза (натощак)|Γλυκόζη|Σάκχαρο|Σάκχαρο αίματος',
  creatinine: 'Креатинин|Креатинін|Κρεατινίνη',
  urea: 'Мочевина|Сечовина|Ουρία',
  urate: 'Мочевая кислота|Сечова кислота|Ουρικό οξύ',
  sodium: 'Натрий|Натрій|Νάτριο', potassium: 'Калий|Калій|Κάλιο', chloride: 'Хлор|Хлориды|Хлор (Cl)|Χλώριο',
  calcium: 'Кальций|Кальций общий|Кальцій|Ασβέστιο', magnesium: 'Магний|Магній|Μαγνήσιο', phosphate: 'Фосфор|Фосфор неорганический|Φώσφορος',
  cholesterol: 'Холестерин|Холестерин общий|Общий холестерин|Холестерол|Χοληστερόλη|Χοληστερίνη|Χοληστερόλη ολική|Ολική χοληστερόλη',
  hdl: 'Холестерин ЛПВП|ЛПВП|Холестерин-ЛПВП|HDL χοληστερόλη|HDL-χοληστερόλη', ldl: 'Холестерин ЛПНП|ЛПНП|Холестерин-ЛПНП|LDL χοληστερόλη|LDL-χοληστερόλη',
  trig: 'Триглицериды|Тригліцериди|Τριγλυκερίδια',
  bilirubin: 'Билирубин общий|Общий билирубин|Білірубін загальний|Χολερυθρίνη|Χολερυθρίνη ολική|Ολική χολερυθρίνη',
  iron: 'Железо|Железо сывороточное|Залізо|Σίδηρος|Σίδηρος ορού', protein: 'Общий белок|Белок общий|Загальний білок|Ολικά λευκώματα', albumin: 'Альбумин|Альбумін|Λευκωματίνη',
  alp: 'Щелочная фосфатаза|Лужна фосфатаза|Αλκαλική φωσφατάση', amylase: 'Амилаза|Альфа-амилаза|Αμυλάση',
  alt: 'АЛТ|АлАТ|Аланинаминотрансфераза|АЛТ (аланинаминотрансфераза)|Аланинаминотрансфераза (АЛТ)|Аланінамінотрансфераза',
  ast: 'АСТ|АсАТ|Аспартатаминотрансфераза|АСТ (аспартатаминотрансфераза)|Аспартатаминотрансфераза (АСТ)|Аспартатамінотрансфераза',
  ggt: 'ГГТ|Гамма-ГТ|ГГТП|Гамма-глутамилтрансфераза|Γ-GT|γ-GT',
  crp: 'С-реактивный белок|СРБ|С-реактивний білок|C-αντιδρώσα πρωτεΐνη|CRP (C-αντιδρώσα πρωτεΐνη)',
  tsh: 'ТТГ|Тиреотропный гормон|ТТГ (тиреотропный гормон)|Тиреотропный гормон (ТТГ)|Тиреотропний гормон|Θυρεοειδοτρόπος ορμόνη',
  ft4: 'Т4 свободный|Свободный Т4|Тироксин свободный|Т4 вільний|Ελεύθερη T4|Ελεύθερη θυροξίνη',
  ferritin: 'Ферритин|Феритин|Φερριτίνη|Φεριττίνη',
  esr: 'СОЭ|СОЭ (по Вестергрену)|Скорость оседания эритроцитов|ШОЕ|ΤΚΕ|Ταχύτητα καθίζησης ερυθρών',
  hba1c: 'Гликированный гемоглобин|Гликозилированный гемоглобин|Глікований гемоглобін|Γλυκοζυλιωμένη αιμοσφαιρίνη',
  wbc: 'Лейкоциты|Лейкоцити|Λευκά αιμοσφαίρια|Λευκοκύτταρα', rbc: 'Эритроциты|Еритроцити|Ερυθρά αιμοσφαίρια|Ερυθροκύτταρα',
  hgb: 'Гемоглобин|Гемоглобін|Αιμοσφαιρίνη', hct: 'Гематокрит|Αιματοκρίτης', plt: 'Тромбоциты|Тромбоцити|Αιμοπετάλια',
  neut: 'Нейтрофилы|Нейтрофіли|Ουδετερόφιλα', lymph: 'Лимфоциты|Лімфоцити|Λεμφοκύτταρα', mono: 'Моноциты|Моноцити|Μονοκύτταρα',
  eos: 'Эозинофилы|Еозинофіли|Ηωσινόφιλα', baso: 'Базофилы|Базофіли|Βασεόφιλα',
};
const CG = CYRILLIC_GREEK;
const CYRILLIC_GREEK_BY_CODE: Record<string, string> = {
  '2345-7': CG.glucose!, '14749-6': CG.glucose!, '2160-0': CG.creatinine!, '14682-9': CG.creatinine!,
  '3091-6': CG.urea!, '22664-7': CG.urea!, '3084-1': CG.urate!, '14933-6': CG.urate!,
  '2951-2': CG.sodium!, '2823-3': CG.potassium!, '2075-0': CG.chloride!, '17861-6': CG.calcium!, '2000-8': CG.calcium!,
  '19123-9': CG.magnesium!, '2601-3': CG.magnesium!, '2777-1': CG.phosphate!, '14879-1': CG.phosphate!,
  '2093-3': CG.cholesterol!, '14647-2': CG.cholesterol!, '2085-9': CG.hdl!, '14646-4': CG.hdl!, '13457-7': CG.ldl!, '39469-2': CG.ldl!,
  '2571-8': CG.trig!, '14927-8': CG.trig!, '1975-2': CG.bilirubin!, '14631-6': CG.bilirubin!,
  '2498-4': CG.iron!, '14798-3': CG.iron!, '2885-2': CG.protein!, '1751-7': CG.albumin!, '6768-6': CG.alp!, '1798-8': CG.amylase!,
  '1742-6': CG.alt!, '1920-8': CG.ast!, '2324-2': CG.ggt!, '1988-5': CG.crp!, '3016-3': CG.tsh!, '3024-7': CG.ft4!, '14920-3': CG.ft4!,
  '2276-4': CG.ferritin!, '4537-7': CG.esr!, '30341-2': CG.esr!, '4548-4': CG.hba1c!,
  '6690-2': CG.wbc!, '26464-8': CG.wbc!, '789-8': CG.rbc!, '26453-1': CG.rbc!, '718-7': CG.hgb!, '59260-0': CG.hgb!,
  '4544-3': CG.hct!, '20570-8': CG.hct!, '777-3': CG.plt!, '26515-7': CG.plt!,
  '751-8': CG.neut!, '770-8': CG.neut!, '731-0': CG.lymph!, '736-9': CG.lymph!, '742-7': CG.mono!, '5905-5': CG.mono!,
  '711-2': CG.eos!, '713-8': CG.eos!, '704-7': CG.baso!, '706-2': CG.baso!,
};

/** Lithuanian names of tests that have no Latin-script alias list above: C-reactive protein (CRB) and TSH (TTH). */
const CRP_LT = 'CRB|C reaktyvusis baltymas';
const TSH_LT = 'TTH|Tirotropinis hormonas|Tireotropinis hormonas';

const LATIN_ALIASES: Record<string, string> = {
  '1988-5': CRP_LT, '3016-3': TSH_LT,
  '2345-7': GLU, '14749-6': GLU,
  '1558-6': GLU_FAST, '14771-0': GLU_FAST,
  '2160-0': CREA, '14682-9': CREA,
  '3091-6': UREA, '22664-7': UREA,
  '3084-1': URATE, '14933-6': URATE,
  '2951-2': NA, '2823-3': K, '2075-0': CL,
  '17861-6': CA, '2000-8': CA,
  '19123-9': MG, '2601-3': MG,
  '2777-1': PHOS, '14879-1': PHOS,
  '2093-3': CHOL, '14647-2': CHOL,
  '2085-9': HDL, '14646-4': HDL,
  '13457-7': LDL, '39469-2': LDL,
  '2571-8': TRIG, '14927-8': TRIG,
  '1975-2': `${BILI_T}|${TBIL}`, '14631-6': BILI_T,
  '2498-4': IRON, '14798-3': IRON,
  '2885-2': TP, '1751-7': ALB, '6768-6': ALP, '1798-8': AMY,
  '6690-2': WBC, '26464-8': WBC,
  '789-8': RBC, '26453-1': RBC,
  '718-7': HGB, '59260-0': HGB,
  '4544-3': HCT, '20570-8': HCT,
  '777-3': PLT, '26515-7': PLT,
  '787-2': MCV, '30428-7': MCV,
  '785-6': MCH, '28539-5': MCH,
  '786-4': MCHC, '28540-3': MCHC,
  '751-8': NEUT, '26499-4': NEUT, '770-8': NEUT, '26511-6': NEUT,
  '731-0': LYMPH, '26474-7': LYMPH, '736-9': LYMPH, '26478-8': LYMPH,
  '742-7': MONO, '26484-6': MONO, '5905-5': MONO, '26485-3': MONO,
  '711-2': EOS, '26449-9': EOS, '713-8': EOS, '26450-7': EOS,
  '704-7': BASO, '26444-0': BASO, '706-2': BASO, '30180-4': BASO,
  '3024-7': FT4, '14920-3': FT4,
  '2276-4': FERR, '4537-7': ESR, '30341-2': ESR, '2324-2': GGT,
  // Blood-gas analyser (C-NPU) short names, once the "c"/"ct"/"F" prefix is read off (loinc-match.ts).
  '15074-8': 'Glu', '2339-0': 'Glu',
  '1925-7': 'Base(Ecf)|Base Ecf|BE(ecf)|Base excess ecf|SBE|Standard base excess',
  '11555-0': 'Base(B)|BE(B)|Base excess blood|ABE',
};

export const OTHER_ALIASES: Record<string, string> = Object.fromEntries(
  [...new Set([...Object.keys(LATIN_ALIASES), ...Object.keys(CYRILLIC_GREEK_BY_CODE)])].map((code) => [
    code,
    [LATIN_ALIASES[code], CYRILLIC_GREEK_BY_CODE[code]].filter((a) => a !== undefined).join('|'),
  ]),
);
