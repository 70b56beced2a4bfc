/**
 * Units as printed on lab reports (conventional US, SI, German and French spellings) → a canonical
 * spelling and the kind of quantity they measure. The kind is what the LOINC matcher compares: a
 * "Glucose" in mmol/L is the Moles/volume code, in mg/dL the Mass/volume code; a "Neutrophils" in %
 * is the /100 leukocytes code, in 10^3/uL the absolute count.
 */

export type UnitKind =
  | 'mass' // mass concentration: g/dL, mg/L, ng/mL …
  | 'moles' // substance concentration: mmol/L, µmol/L, mEq/L …
  | 'count' // number concentration: 10^3/µL, 10^9/L, G/L, /nL …
  | 'percent'
  | 'units' // enzyme or arbitrary units: U/L, IU/L, mIU/L, µIU/mL, U/mL, kUA/L (allergen-specific IgE) …
  | 'fl' // entitic volume (MCV, MPV)
  | 'pg' // entitic mass (MCH)
  | 'time' // seconds
  | 'rate' // mL/min/1.73 m²
  | 'esr' // mm/h
  | 'ratio' // INR, plain ratios
  | 'mass-ratio' // mg/g, mg/mmol (albumin/creatinine)
  | 'molar-ratio' // mmol/mol (HbA1c IFCC)
  | 'per-field' // /hpf, /lpf, /GF
  | 'osmolality'
  | 'mass-rate' // mg/24h (24-hour urine)
  | 'pressure' // mmHg, kPa
  | 'titer';

/**
 * Units as Russian, Ukrainian, Bulgarian and Serbian laboratories print them, in Cyrillic: "г/л", "ммоль/л",
 * "мкмоль/л", "10^9/л", "Ед/л", "мкМЕ/мл", "мм/ч", "фл", "пг". Each piece → its Latin symbol, longest first
 * (мкмоль before моль, мкг before г, мл before л); "Ед"/"ОД" (единица) → U, "МЕ" (международная единица) → IU.
 */
const CYRILLIC_UNIT_PIECES: [RegExp, string][] = [
  [/мкмоль/g, 'umol'], [/ммоль/g, 'mmol'], [/нмоль/g, 'nmol'], [/пмоль/g, 'pmol'], [/моль/g, 'mol'],
  [/мкМЕ|мкме/g, 'uIU'], [/мМЕ/g, 'mIU'], [/МЕ/g, 'IU'], [/Ед|ЕД|ед|ОД/g, 'U'],
  [/мкг/g, 'ug'], [/нг/g, 'ng'], [/пг/g, 'pg'], [/мг/g, 'mg'],
  [/мкл/g, 'uL'], [/мл/g, 'mL'], [/дл/g, 'dL'], [/фл/g, 'fL'], [/мм/g, 'mm'],
  [/г/g, 'g'], [/л/g, 'L'], [/ч(?:ас)?/g, 'h'], [/сек/g, 's'], [/тыс/g, 'thousand'], [/млн/g, 'million'],
];

/** A unit printed in Cyrillic, in Latin symbols ("ммоль/л" → "mmol/L"); other text unchanged. */
function latinUnit(u: string): string {
  if (!/\p{Script=Cyrillic}/u.test(u) || !/^[\p{Script=Cyrillic}\d^/%.,x×*µμ-]+$/u.test(u)) return u;
  let out = u;
  for (const [re, latin] of CYRILLIC_UNIT_PIECES) out = out.replace(re, latin);
  return /\p{Script=Cyrillic}/u.test(out) ? u : out;
}

/** Canonical spelling of a unit token: µ/μ/mc → u, ×10^9 variants → 10^9, Cyrillic symbols in Latin, case kept where it matters. */
export function canonicalUnit(raw: string): string {
  let u = latinUnit(raw.trim().replace(/^\[|\]$/g, '').replace(/^\(|\)$/g, ''));
  u = u.replace(/\b([A-Za-z])\.([A-Za-z])\.(?=\/)/g, '$1$2'); // "E.U./dL" → "EU/dL"
  u = u.replace(/[µμ]/g, 'u').replace(/\bmc(g|l|mol)\b/gi, 'u$1');
  u = u.replace(/\s+/g, '');
  u = u.replace(/²/g, '2').replace(/³/g, '3');
  u = u.replace(/^(?:x|×|\*)?10(?:\^|\*|e|E)?(\d{1,2})/, (_m, exp: string) => `10^${exp}`);
  u = u.replace(/^(?:(?:x|×|\*)10\^?[-−⁻]|10\^[-−⁻]|10⁻)(\d{1,2})/, (_m, exp: string) => `10^-${exp}`);
  // "E9/l", "E12/l": the power of ten as Finnish and Swedish laboratories print it (10^9/L).
  u = u.replace(/^E(\d{1,2})(?=\/)/, (_m, exp: string) => `10^${exp}`);
  return u;
}

interface KindRule {
  kind: UnitKind;
  test: RegExp;
}

// Order matters: more specific patterns first (mg/mmol before mmol, pg/mL before pg).
const KIND_RULES: KindRule[] = [
  { kind: 'rate', test: /^ml\/min(\/1[.,]73(m2|m\^2|qm)?)?$|^ml\/min\/1[.,]73/i },
  { kind: 'molar-ratio', test: /^mmol\/mol$/i },
  { kind: 'mass-ratio', test: /^(mg|ug|g)\/(g|mg|mmol)(creat(inine?)?)?$/i },
  { kind: 'mass-rate', test: /^(m|u|k)?g\/\(?24\.?h(r|rs)?\)?$|^(m|u|k)?g\/(d|day|24h|j)$/i },
  { kind: 'osmolality', test: /^m?osm(ol)?\/kg(h2o)?$/i },
  { kind: 'pressure', test: /^(mmhg|kpa)$/i },
  // The hour in other languages: "mm/jam" (Indonesian, Malay), "mm/t" and "mm/tim" (Danish, Norwegian, Swedish), "mm/ora", "mm/hora", "mm/godz".
  { kind: 'esr', test: /^mm\/(h|hr|hour|1h|1sth|std|jam|t|tim|time|ora|hora|godz)$/i },
  { kind: 'per-field', test: /^\/?(hpf|lpf|gf|gsf|champ|field|hpf\(?s?\)?)$|^(cells|per)\/?(hpf|lpf)$/i },
  { kind: 'count', test: /^(10\^\d{1,2}|g|t|giga|tera|k|m|thou|thousand|million|billion|tsd|mio|mill|tys|mln|cells?|x?10\^?\d)?\/(u?l|nl|pl|mm3|cumm|cmm|ul|cu\.?mm)$/i },
  // "milhões/mm³", "millones/mm3": the multiplier in Portuguese or Spanish.
  // "juta/µL", "ribu/µL": million and thousand in Indonesian and Malay; "milyon", "bin" in Turkish.
  { kind: 'count', test: /^(lakhs?|lacs?|millions?|thousands?|milh(õ|o)es|millones|milhares|miles|juta|ribu|rb|milyon|bin)\/(cu\.?mm|cmm|mm3|u?l)$/i },
  { kind: 'count', test: /^(10\^\d{1,2}\/(u?l|l)|k\/ul|m\/ul|\/ul|\/nl|\/pl|\/mm3|t\/l|tsd\/ul|mio\/ul|cells\/ul)$/i },
  { kind: 'moles', test: /^(m|u|n|p|f)?mol\/(l|dl|ml)$|^m?e(q|val)\/l$/i },
  { kind: 'mass', test: /^(k|m|u|n|p)?g\/(l|dl|ml|100ml)$/i },
  { kind: 'mass', test: /^gms?\/(l|dl|ml|100ml)$/i }, // "gm/dL": grams, as Indian and older US reports write it
  { kind: 'units', test: /^(m|u|k|n)?(i?u|ui|e|ie|eu|au|ua|u\[iu\]|\[iu\])\/(l|ml|dl)$|^(m|u|k)?iu\/(l|ml)$|^ukat\/l$|^(u|e)\/l$/i },
  { kind: 'percent', test: /^%$|^percent$|^l\/l$/i },
  { kind: 'fl', test: /^(fl|um3|µm3|femtoliters?)$/i },
  { kind: 'pg', test: /^(pg|fmol)$/i },
  { kind: 'time', test: /^(s|sec|secs|seconds?|sek|min)$/i },
  { kind: 'ratio', test: /^(ratio|index|inr|\{ratio\}|sg)$/i },
  { kind: 'titer', test: /^titer|^titre$/i },
];

/**
 * Kind of quantity a unit measures, or undefined for units we do not know. "G/L" is Giga/L (a count) on
 * French and German blood counts, never grams per litre: grams are written g/L.
 */
export function unitKind(raw: string): UnitKind | undefined {
  const u = canonicalUnit(raw);
  if (u === '') return undefined;
  if (u === 'G/L' || u === 'T/L' || u === 'Giga/L' || u === 'Tera/L') return 'count';
  // "10^-3IU/L": a negative power of ten scales the unit after it; the quantity is that unit's.
  const scaled = /^10\^-\d{1,2}(\D.*)$/.exec(u);
  if (scaled) return unitKind(scaled[1]!);
  for (const rule of KIND_RULES) {
    if (rule.kind === 'count' && /^g\/l$/i.test(u)) continue; // lower-case g/L is grams
    if (rule.test.test(u)) return rule.kind;
  }
  return undefined;
}

/** True when the token looks like a unit we recognise (used to split "95 mg/dL" and to find unit columns). */
export function isUnitToken(raw: string): boolean {
  return unitKind(raw) !== undefined;
}
