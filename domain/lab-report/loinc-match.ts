/**
 * Rank LOINC codes for a test name as printed on a report.
 *
 * Scoring, in order: an exact alias hit (after folding case, accents and punctuation) is worth ~0.97;
 * the same after dropping qualifiers ("serum", "total", "(calc)", "S-" prefixes) ~0.93; otherwise
 * fuzzy token overlap (typo-tolerant, Dice) scaled to at most ~0.85. Then context moves candidates:
 * the unit's kind (mg/dL vs mmol/L vs % vs 10^3/µL) must agree with the code's property, the specimen
 * (urine panel, arterial blood gas) with its system, and the panel with its usual section. Codes of one
 * analyte that the context cannot separate keep the table's preference (rank) and lose a little
 * confidence, so a guess is never reported as sure.
 */
import { editDistance } from './edit-distance.js';
import { LOINC_TABLE, type LoincEntry, type LoincSystem } from './loinc-table.js';
import { panelTagsIn, quantityCueIn, type SpecimenHint, specimenHintIn } from './match-context.js';
import { foldText, trailingBracket } from './text.js';
import { type LoincMatch } from './types.js';
import { type UnitKind, unitKind } from './units.js';

export interface MatchOptions {
  /** Unit printed with the result. */
  unit?: string;
  /** Panel heading the result sits under. */
  panel?: string;
  /** Specimen named on the report for this result, if any. */
  specimen?: string;
  /** True when the value is qualitative (Negative, 1+, Yellow…): favours presence/ordinal codes. */
  qualitative?: boolean;
  /** Reference-range or note text printed with the result ("fasting: 70-99", "calculated (Friedewald)"). */
  rangeText?: string;
}

const MAX_MATCHES = 5;
const MIN_CONFIDENCE = 0.3;
const EXACT = 0.97;
const EXACT_STRIPPED = 0.93;
const FUZZY_CEILING = 0.85;

// Words that qualify a name without changing the analyte (dropped for the "stripped" comparison).
const QUALIFIERS = new Set([
  // Russian / Ukrainian "общий" (total), "в крови" (in blood); Greek "ολική" (total), "ορού" (of serum).
  'общий', 'общая', 'загальний', 'крови', 'ολικη', 'ολικο', 'ολικα', 'ορου',
  'serum', 'plasma', 'ser', 'plas', 'sp', 'total', 'tot', 'gesamt', 'ges', 'totale', 'totales', 'totaux',
  'level', 'levels', 'concentration', 'conc', 'test', 'result', 'value', 'quantitative', 'quant', 'qn',
  'calc', 'calculated', 'calculation', 'berechnet', 'calcule', 'calculee', 'measured', 'automated', 'auto',
  'im', 'in', 'i', 's', 'p', 'b', 'u', 'se', 'pl', 'fs', 'of', 'the', 'de', 'du', 'des', 'le', 'la',
  'serique', 'plasmatique', 'random', 'blood', 'sang', 'blut', 'whole', 'vollblut', 'capillary',
  'abs', 'absolute', 'absolut', 'absolu', 'absolue', 'count', 'rel', 'relative', 'relativ', 'percent',
  'pct', 'anzahl', 'nombre', 'urine', 'urin', 'harn', 'urinaire', 'urinaires', 'ua', 'arterial', 'arteriell',
  // Finnish specimen prefix: fasting plasma ("fP-Gluk"); Indonesian "darah" (blood), "sewaktu" (random)
  'fp', 'darah', 'sewaktu',
  // "total" in Polish, Czech, Swedish, Dutch, Turkish, Portuguese/Spanish
  'calkowity', 'calkowita', 'calkowite', 'celkovy', 'celkova', 'celkove', 'totalt', 'totaal', 'toplam', 'totais',
]);

/** One folded alias, with every entry that has it (mass and molar codes of an analyte share most). */
interface AliasKey {
  owners: { entry: LoincEntry; index: number }[];
  full: string;
  compact: string;
  stripped: string;
  tokens: string[];
}

/** A footnote or performing-site marker after a name ("Glucose ^A", "Creatinine ^1"): not part of the name. */
const FOOTNOTE_MARK = /\s*\^\s*[\p{L}\d]{1,2}(?![\p{L}\d])/gu;

/** Letters NFKD does not decompose: Polish ł, Turkish dotless ı, Scandinavian ø and æ, Croatian đ, French œ. */
const UNDECOMPOSED: Record<string, string> = { ł: 'l', ı: 'i', ø: 'o', đ: 'd', æ: 'ae', œ: 'oe' };

/** Fold and tokenise: letters and digits only, '%' and '#' dropped (they are read as cues). */
function keyOf(text: string): string {
  return (
    foldText(text)
      .replace(/[łıøđæœ]/g, (ch) => UNDECOMPOSED[ch]!)
      .replace(/\(([^)]*)\)/g, ' $1 ')
      // Cyrillic and Greek words are names too ("Глюкоза", "Γλυκόζη"; final sigma as any sigma); a Greek letter
      // or two on its own is a prefix ("γ-GT", "β2-microglobulin") or a micro sign, left out as before.
      .replace(/ς/g, 'σ')
      .replace(/[^a-z0-9\p{Script=Cyrillic}\p{Script=Greek}]+/gu, ' ')
      .replace(/(?<!\p{Script=Greek})\p{Script=Greek}{1,2}(?!\p{Script=Greek})/gu, ' ')
      .replace(/\s+/g, ' ')
      .trim()
  );
}

function strippedTokens(key: string): string[] {
  return key.split(' ').filter((t) => t !== '' && !QUALIFIERS.has(t));
}

const compactOf = (key: string): string => key.replace(/ /g, '');

function buildIndex(): AliasKey[] {
  const keys = new Map<string, AliasKey>();
  LOINC_TABLE.forEach((entry, index) => {
    const names = new Set([entry.display, ...entry.aliases.en, ...entry.aliases.de, ...entry.aliases.fr, ...(entry.aliases.other ?? [])]);
    const seen = new Set<string>();
    for (const name of names) {
      const full = keyOf(name);
      if (full === '' || seen.has(full)) continue;
      seen.add(full);
      let key = keys.get(full);
      if (!key) {
        const tokens = strippedTokens(full);
        key = { owners: [], full, compact: compactOf(full), stripped: tokens.join(' '), tokens };
        keys.set(full, key);
      }
      key.owners.push({ entry, index });
    }
  });
  return [...keys.values()];
}

const INDEX = buildIndex();

/** Tokens equal, or close enough for OCR slips on long words (short tokens and numbers must be exact). */
function tokensMatch(a: string, b: string): boolean {
  if (a === b) return true;
  if (/\d/.test(a) || /\d/.test(b) || a.length < 5 || b.length < 5) return false;
  return editDistance(a, b, a.length >= 9 ? 2 : 1) <= (a.length >= 9 ? 2 : 1);
}

/** Dice coefficient over tokens with typo-tolerant equality. */
function tokenSimilarity(q: string[], a: string[]): number {
  if (q.length === 0 || a.length === 0) return 0;
  const used = new Set<number>();
  let hits = 0;
  for (const qt of q) {
    const j = a.findIndex((at, k) => !used.has(k) && tokensMatch(qt, at));
    if (j >= 0) {
      used.add(j);
      hits += qt === a[j] ? 1 : 0.8; // a typo-tolerant hit counts for less than an exact one
    }
  }
  return (2 * hits) / (q.length + a.length);
}

interface QueryKey {
  full: string;
  compact: string;
  stripped: string;
  strippedCompact: string;
  tokens: string[];
}

function queryKey(name: string): QueryKey {
  const full = keyOf(name.replace(FOOTNOTE_MARK, ' '));
  const tokens = strippedTokens(full);
  const stripped = tokens.join(' ');
  return { full, compact: compactOf(full), stripped, strippedCompact: compactOf(stripped), tokens };
}

/** How well the name alone fits an alias: exact, exact after stripping qualifiers, or fuzzy. */
function nameScore(q: QueryKey, a: AliasKey): number {
  if (q.full === a.full || q.compact === a.compact) return EXACT;
  if (q.stripped !== '' && (q.stripped === a.stripped || q.strippedCompact === compactOf(a.stripped))) return EXACT_STRIPPED;
  const sim = tokenSimilarity(q.tokens, a.tokens);
  return sim >= 0.5 ? FUZZY_CEILING * sim : 0;
}

const URINE_SYSTEMS: LoincSystem[] = ['Urine', 'Urine sed', '24H Urine'];

function entryKinds(entry: LoincEntry): Set<UnitKind> {
  const kinds = new Set<UnitKind>();
  for (const u of entry.units) {
    const k = unitKind(u);
    if (k) kinds.add(k);
  }
  return kinds;
}

const KINDS = new Map(LOINC_TABLE.map((e) => [e.code, entryKinds(e)]));

/** Unit agreement: a matching kind confirms, a unitless (qualitative) code mildly disagrees, another kind contradicts. */
function unitAdjustment(entry: LoincEntry, kind: UnitKind | undefined): number {
  if (!kind) return 0;
  const kinds = KINDS.get(entry.code)!;
  if (kinds.has(kind)) return 0.02;
  // Hematocrit-style fractions are printed as % or as L/L; ratios are often printed without a unit.
  if (kinds.size === 0) return -0.15;
  return -0.35;
}

function specimenAdjustment(entry: LoincEntry, hint: SpecimenHint | undefined): number {
  const isUrine = URINE_SYSTEMS.includes(entry.system);
  if (hint === 'urine') return isUrine ? 0.04 : -0.2;
  if (isUrine) return -0.06; // most results on a report are blood results
  if (hint === 'arterial') return entry.system === 'BldA' ? 0.04 : entry.system === 'Bld' ? 0.02 : -0.02;
  if (hint === 'blood') return entry.system === 'Bld' ? 0.03 : 0;
  if (hint === 'serum') return entry.system === 'Bld' ? -0.03 : 0;
  return 0;
}

function qualitativeAdjustment(entry: LoincEntry, qualitative: boolean | undefined): number {
  if (qualitative === undefined) return 0;
  const unitless = entry.units.length === 0;
  if (qualitative) return unitless ? 0.03 : -0.03;
  return 0;
}

interface Candidate {
  entry: LoincEntry;
  index: number;
  score: number;
}

function bestNameScores(q: QueryKey): Map<string, Candidate> {
  const best = new Map<string, Candidate>();
  for (const alias of INDEX) {
    const s = nameScore(q, alias);
    if (s === 0) continue;
    for (const { entry, index } of alias.owners) {
      const prev = best.get(entry.code);
      if (!prev || s > prev.score) best.set(entry.code, { entry, index, score: s });
    }
  }
  return best;
}

/**
 * Qualifiers some codes assert beyond the analyte: a fasting state (1558-6 "Fasting glucose") or a
 * calculation (13457-7 "LDL … by calculation"). Such a code is preferred when the name, the panel
 * heading or the range text says so ("Glucose" under "FASTING GLUCOSE", "LDL-Cholesterin" with
 * "berechnet nach Friedewald"), with the qualifier's words tried on the name when only the context has
 * them. A fasting state is never inferred: without a cue a fasting code loses to the plain one, also
 * when the name only resembles a fasting alias ("Glucose ^A" is not "Glucose à jeun"). A calculation
 * is not penalised when unsaid: a plain "LDL cholesterol" is calculated in routine lipid panels (see
 * loinc-table/chemistry.ts).
 */
interface AssertedQualifier {
  cue: RegExp;
  asserts: (entry: LoincEntry) => boolean;
  /** Words that name the qualifier in aliases ("Glucose fasting", "Glukose nüchtern", "Glucose à jeun"). */
  words: string[];
  /** Score change for an asserting code when nothing on the report says the qualifier. */
  unsaid: number;
}

const ASSERTED_QUALIFIERS: AssertedQualifier[] = [
  {
    // English, German, French; Dutch "nuchter", Turkish "açlık", Polish "na czczo", Czech "nalačno",
    // Swedish "fastande", Portuguese "jejum", Spanish "ayunas", Italian "digiuno".
    // Indonesian "puasa", Hungarian "éhgyomri".
    cue: /\b(fasting|fasted|nuchtern\w*|nuchter\w*|a jeun|fbg|fpg|fbs|ac[lı]\w*|na czczo|nalacno|fastande|faste\w*|jejum|ayunas|digiuno|puasa|ehgyomri)\b/,
    asserts: (e) => /^Fasting\b/.test(e.name),
    words: ['fasting', 'nüchtern', 'à jeun'],
    unsaid: -0.1,
  },
  {
    cue: /\b(calc|calcd|calculated|calculation|berechnet|calcule|calculee|friedewald|martin[- ]hopkins|sampson)\b/,
    asserts: (e) => /\bby calculation$/.test(e.name),
    words: ['calculated'],
    unsaid: 0,
  },
];
/** Score bonus for a code whose asserted qualifier the report states. */
const QUALIFIER_SAID = 0.06;

/** Name scores, raised for codes whose qualifier only the context states by scoring the name with its words. */
function scoresWithContext(name: string, q: QueryKey, context: string): Map<string, Candidate> {
  const best = bestNameScores(q);
  const foldedName = foldText(name);
  for (const qual of ASSERTED_QUALIFIERS) {
    if (qual.cue.test(foldedName) || !qual.cue.test(context)) continue;
    for (const word of qual.words) {
      for (const c of bestNameScores(queryKey(`${name} ${word}`)).values()) {
        if (!qual.asserts(c.entry)) continue;
        const prev = best.get(c.entry.code);
        if (!prev || c.score > prev.score) best.set(c.entry.code, c);
      }
    }
  }
  return best;
}

function qualifierAdjustment(entry: LoincEntry, said: Set<AssertedQualifier>): number {
  let adj = 0;
  for (const qual of ASSERTED_QUALIFIERS) if (qual.asserts(entry)) adj += said.has(qual) ? QUALIFIER_SAID : qual.unsaid;
  return adj;
}

const isBloodGasOnly = (entry: LoincEntry): boolean => entry.panels.length > 0 && entry.panels.every((p) => p === 'blood-gas');

/**
 * Scores above 0.9 can exceed 1 once context agrees; squeeze them smoothly towards 1 so that stronger
 * evidence still ranks (and reads) higher without ever claiming certainty.
 */
function confidenceOf(score: number): number {
  const s = score <= 0.9 ? Math.max(0, score) : 1 - 0.1 * Math.exp(-(score - 0.9) / 0.1);
  return Math.round(s * 1000) / 1000;
}

function toMatch(c: Candidate): LoincMatch {
  return {
    loinc_code: c.entry.code,
    loinc_name: c.entry.name,
    display_name: c.entry.display,
    aliases: c.entry.aliases.en.slice(0, 6),
    confidence_score: confidenceOf(c.score),
  };
}

/**
 * Up to five LOINC candidates for a printed test name, best first, each with a 0–1 confidence.
 * An empty list means nothing in the table resembles the name.
 */
export function matchLoinc(name: string, options: MatchOptions = {}): LoincMatch[] {
  // A report asks about the same name many times (rows, regions, proximity); the fuzzy scoring is most
  // of a parse's time. Pure in its inputs, so remembered (bounded); callers get their own copies.
  const key = JSON.stringify([name, options.unit, options.panel, options.specimen, options.qualitative, options.rangeText]);
  let found = remembered.get(key);
  if (!found) {
    if (remembered.size >= REMEMBERED_MAX) remembered.clear();
    found = withBracketedName(name, options, rankLoinc(name, options));
    remembered.set(key, found);
  }
  return found.map((m) => ({ ...m, ...(m.aliases ? { aliases: [...m.aliases] } : {}) }));
}

/** Below this, a name's own match is weak enough that the name in its brackets is asked too. */
const WEAK_MATCH = 0.5;

/**
 * "So luong bach cau (WBC)", "Huyet sac to (HGB)", "Duong huyet (Glucose)": a name in a language the table does
 * not hold, with the test's abbreviation or English name in brackets after it. When the whole name matches
 * weakly or not at all, the bracket's text is matched on its own, and its matches are taken if they score higher.
 */
function withBracketedName(name: string, options: MatchOptions, whole: LoincMatch[]): LoincMatch[] {
  if ((whole[0]?.confidence_score ?? 0) >= WEAK_MATCH) return whole;
  const inner = trailingBracket(name);
  if (!inner || !/\p{L}{2}/u.test(inner) || inner === name.trim()) return whole;
  const own = rankLoinc(inner, options);
  return (own[0]?.confidence_score ?? 0) > (whole[0]?.confidence_score ?? 0) ? own : whole;
}

const REMEMBERED_MAX = 20_000;
const remembered = new Map<string, LoincMatch[]>();

/**
 * "cK+", "cNa+", "cCa2+", "cCl-": a blood gas analyser's C-NPU notation puts "c" (concentration) before an
 * ion's chemical symbol and charge. The ion is the analyte ("cK+" is potassium, not CK).
 */
const ION_CONCENTRATION = /^c(?=\p{Lu}\p{Ll}?\d?[+-]{1,2}$)/u;

/**
 * Other C-NPU quantity symbols a blood gas / co-oximetry analyser prints: "c" (concentration) or "ct"
 * (total concentration) before a metabolite ("cGlu", "cLac", "ctHb", "cBase(Ecf)", "cHCO3-(P,st)"), and
 * "F" (fraction) before a haemoglobin species ("FCOHb", "FMetHb", "FO2Hb", "FHHb"). The prefix is read off
 * ("ct" keeps its "t": "tHb" is total haemoglobin) and the system in parentheses, "(P,st)", "(B)", "(aB)",
 * is dropped: the analyte is what remains.
 */
const CNPU_CONCENTRATION = /^c(?=(t?Hb|Glu|Lac|Base|HCO3|Crea|Urea|tBil|Bil|tCO2|Mg2\+|Ca2\+)(?![\p{Ll}]))/u;
const CNPU_FRACTION = /^F(?=(COHb|MetHb|O2Hb|HHb|HbF)$)/u;
const CNPU_SYSTEM = /\s*\((P|B|aB|vB|cB)(,\s*\w+)?\)$/;
/** A free divalent ion ("Ca2+", "Mg2+") is the ionised fraction, not the total. */
const FREE_ION: Record<string, string> = { 'Ca2+': 'Ionized calcium', 'Mg2+': 'Ionized magnesium' };

/** The analyte a C-NPU symbol names, or undefined when the name is not in that notation. */
function cnpuAnalyte(printed: string): string | undefined {
  const name = printed.trim();
  let rest: string | undefined;
  if (ION_CONCENTRATION.test(name)) rest = name.replace(ION_CONCENTRATION, '');
  else if (CNPU_CONCENTRATION.test(name)) rest = name.replace(CNPU_CONCENTRATION, '').replace(CNPU_SYSTEM, '');
  else if (CNPU_FRACTION.test(name)) rest = name.replace(CNPU_FRACTION, '');
  if (rest === undefined) return undefined;
  return FREE_ION[rest] ?? rest;
}

/**
 * A C-NPU symbol is printed by a blood gas analyser measuring whole (usually arterial) blood: its codes
 * are the whole-blood ones ("cK+" is 6298-4, not the serum 2823-3).
 */
function analyserAdjustment(entry: LoincEntry): number {
  return entry.system === 'Bld' || entry.system === 'BldA' ? 0.05 : -0.05;
}

/**
 * The unit's kind for matching. "G/l" and "T/l" (Swiss and French reports, giga/tera per litre with a
 * lower-case litre) are counts like "G/L": an upper-case G or T is never grams or tonnes on a lab report,
 * while "g/l" stays a mass.
 */
function matchUnitKind(unit: string): UnitKind | undefined {
  if (/^\s*[GT]\s*\/\s*l\s*$/.test(unit)) return 'count';
  return unitKind(unit);
}

/**
 * A laboratory's own test number before the name ("4123 fP-Gluk", "2474 B-Leuk": Finnish laboratories
 * number their tests): four digits or more, then the name. Not part of the name; shorter numbers are
 * ("25 OH vitamin D", "17-OH progesterone").
 */
const TEST_NUMBER = /^\d{4,}\s+(?=\p{L})/u;

function rankLoinc(printed: string, options: MatchOptions): LoincMatch[] {
  const cnpu = cnpuAnalyte(printed);
  const name = cnpu ?? printed.replace(TEST_NUMBER, '');
  const q = queryKey(name);
  if (q.full === '') return [];
  const kind = (options.unit ? matchUnitKind(options.unit) : undefined) ?? quantityCueIn(name);
  const hint = cnpu !== undefined ? 'arterial' : (specimenHintIn(options.specimen) ?? specimenHintIn(name) ?? specimenHintIn(options.panel));
  const panelTags = panelTagsIn(options.panel);
  const context = foldText(`${options.panel ?? ''} ${options.rangeText ?? ''}`);
  const said = new Set(ASSERTED_QUALIFIERS.filter((qual) => qual.cue.test(foldText(name)) || qual.cue.test(context)));

  const candidates = [...scoresWithContext(name, q, context).values()].map((c) => {
    let score = c.score;
    score += qualifierAdjustment(c.entry, said);
    score += unitAdjustment(c.entry, kind);
    score += specimenAdjustment(c.entry, hint);
    score += qualitativeAdjustment(c.entry, options.qualitative);
    if (cnpu !== undefined) score += analyserAdjustment(c.entry);
    if (c.entry.panels.some((p) => panelTags.has(p))) score += 0.03;
    else if (isBloodGasOnly(c.entry) && hint !== 'arterial') score -= 0.07; // pH, pCO2… outside a blood gas
    score -= 0.02 * (c.entry.rank - 1);
    return { ...c, score };
  });
  candidates.sort((a, b) => b.score - a.score || a.index - b.index);

  const top = candidates.filter((c) => c.score >= MIN_CONFIDENCE).slice(0, MAX_MATCHES);
  discountUnresolvedTie(top);
  return top.map(toMatch);
}

/** Highest score a pick that rests on the table's order alone may keep: below the 0.9 of a sure match. */
const UNRESOLVED_CEILING = 0.89;

/**
 * When the two best codes score the same (e.g. "Glucose" or "Lipoprotein (a)" with no unit: mass or
 * moles?), the pick rests on the table's order alone; say so with a lower confidence, never read as sure
 * (all shifted alike, so the order holds).
 */
function discountUnresolvedTie(top: Candidate[]): void {
  const [first, second] = top;
  if (!first || !second || Math.abs(first.score - second.score) >= 0.005) return;
  const shift = Math.max(0.1, first.score - UNRESOLVED_CEILING);
  for (const c of top) c.score -= shift;
}
