/**
 * Test names OCR misread by one look-alike character ("Het" for Hct, "HbAic" for HbA1c, "Hemoglobin
 * Alc"): short words are where this hurts, since a one-letter slip in a three-letter abbreviation
 * leaves nothing to match on. A name is changed only when it is not a known test and one swap inside
 * one short word makes it a known test name (an alias of the LOINC table), and no other swap makes a
 * different one: like units, names are repaired only into what the table knows.
 */
import { editDistance } from './edit-distance.js';
import { matchLoinc } from './loinc-match.js';
import { LOINC_TABLE } from './loinc-table.js';
import { foldText } from './text.js';

/**
 * "W711 un", "I} 1": from OCR, a name with no run of three letters that the LOINC table cannot even half match
 * is specks and a garbled word, not a test (the short names labs print, "K", "Na", "Hb", "pH", "T4", are
 * known to the table, and a misread one such as "y-GT" for γ-GT is still half matched). Such a row's value
 * belongs to a test whose name OCR lost.
 */
const GARBLED = 0.5;
export function garbledOcrName(name: string, confidence: number): boolean {
  return confidence < GARBLED && !/\p{L}{3}/u.test(name);
}

/**
 * A name OCR garbled past repair, that only its row's other fields can still name: a garbled one (garbledOcrName),
 * or letters only ("Plaqvctsts") that the table cannot half match either. A name with digits or signs among its
 * letters ("cHCO3-(P,st)") is a real name the table lacks, never one of these.
 */
export function unreadableOcrName(name: string, confidence: number): boolean {
  return garbledOcrName(name, confidence) || (confidence < GARBLED && /^[\p{L} .:]+$/u.test(name));
}

/** Whether most of a text's letters are of a script other than Latin (a Russian or Greek report). */
export function mostlyNonLatin(text: string): boolean {
  const letters = text.match(/\p{L}/gu)?.length ?? 0;
  const latin = text.match(/\p{Script=Latin}/gu)?.length ?? 0;
  return letters > 0 && latin * 2 < letters;
}

/**
 * "Imoxoza" for Глюкоза: on an OCR page printed mostly in another script (Cyrillic, Greek), a name written all
 * in Latin letters, with a word of four letters or more in lower case, that the LOINC table cannot even half
 * match is a word of that script that OCR read as Latin look-alikes, not a test's name. The Latin names such
 * reports print are abbreviations in capitals ("HGB", "ALT") or names the table knows ("HbA1c"), which stay.
 */
export function wrongScriptName(name: string, confidence: number): boolean {
  if (confidence >= GARBLED || !/\p{L}/u.test(name) || /[^\P{L}\p{Script=Latin}]/u.test(name)) return false;
  return name.split(/[^\p{L}]+/u).some((word) => word.length >= 4 && /\p{Ll}/u.test(word));
}

/** What OCR read → what may have been printed, for the shapes tesseract confuses in print. */
const LOOK_ALIKES: [string, string][] = [
  ['e', 'c'],
  ['c', 'e'],
  ['l', '1'],
  ['i', '1'],
  ['I', '1'],
  ['1', 'l'],
  ['1', 'I'],
  ['l', 'I'],
  ['I', 'l'],
  ['0', 'O'],
  ['O', '0'],
  ['o', '0'],
  ['5', 'S'],
  ['S', '5'],
  ['8', 'B'],
  ['B', '8'],
  ['rn', 'm'],
  ['m', 'rn'],
  ['cl', 'd'],
  ['d', 'cl'],
  // Letters of one height and open shape read for each other in small print ("ci" for Cl, "Plc" for
  // Plt, "Glug" for Gluc).
  ['i', 'l'],
  ['c', 't'],
  ['g', 'c'],
  // Capitals of one stem ("APTI" for APTT), round capitals ("HOM" for HCM, "ROW" for RDW), a B whose bowls
  // opened ("WEC" for WBC), and a 2 read as the letter of its shape ("coz" for CO2).
  ['I', 'T'],
  ['O', 'C'],
  ['O', 'D'],
  ['E', 'B'],
  ['z', '2'],
  ['Z', '2'],
  // A 3 whose left ends faded, read as the bracket of its shape ("HCO)" for HCO3).
  [')', '3'],
];

/** A test name the table knows as printed (an alias, with or without qualifiers). */
const KNOWN = 0.93;
/**
 * A one-word name of three to five letters may also be repaired into an abbreviation the table knows
 * with less confidence ("Glug" → Gluc), when no swap gives a name it knows as printed and only one
 * test is reached so.
 */
const ABBREVIATION = 0.85;
/** Short words only: in a longer word one wrong letter still leaves the name recognisable. */
const MAX_WORD = 5;

const cache = new Map<string, string>();

export function repairOcrName(name: string): string {
  const hit = cache.get(name);
  if (hit !== undefined) return hit;
  const words = name.split(' ');
  let repaired = name;
  if (words.length <= 4 && (matchLoinc(name)[0]?.confidence_score ?? 0) < 0.8) {
    const found = new Map<string, string>(); // LOINC code → repaired name
    const abbreviations = new Map<string, string>(); // likewise, for a one-word name known as an abbreviation
    words.forEach((word, w) => {
      if (word.length > MAX_WORD) return;
      for (let i = 0; i < word.length; i++) {
        for (const [from, to] of LOOK_ALIKES) {
          if (!word.startsWith(from, i)) continue;
          const variant = [...words.slice(0, w), word.slice(0, i) + to + word.slice(i + from.length), ...words.slice(w + 1)].join(' ');
          const top = matchLoinc(variant)[0];
          if (top && top.confidence_score >= KNOWN && !found.has(top.loinc_code)) found.set(top.loinc_code, variant);
          else if (top && words.length === 1 && word.length >= 3 && top.confidence_score >= ABBREVIATION && !abbreviations.has(top.loinc_code)) abbreviations.set(top.loinc_code, variant);
        }
      }
    });
    if (found.size === 1) repaired = [...found.values()][0]!;
    else if (found.size === 0 && abbreviations.size === 1) repaired = [...abbreviations.values()][0]!;
    else if (found.size === 0) repaired = nearestLongName(name) ?? name;
  }
  cache.set(name, repaired);
  return repaired;
}

// ---------- long one-word names ----------

/** Letters print shapes make OCR read for each other, in folded lower case; a swap between them costs half an edit. */
const SHAPES = ['eco', 'oa', 'au', 'ae', 'lti', 'tf', 'hb', 'nu', 'so', 'l1', 'o0', 's5', 'b8', 'gqy'];
const ALIKE = new Set(SHAPES.flatMap((g) => [...g].flatMap((a) => [...g].filter((b) => b !== a).map((b) => a + b))));
/** Two letters read as one and one as two ("rn" for m, "cl" for d), at half an edit. */
const SPLITS = new Map([
  ['rn', 'm'],
  ['cl', 'd'],
  ['in', 'm'],
  ['ri', 'n'],
  ['vv', 'w'],
  // "Cakium" for Calcium: an l and a c printed close read as one k.
  ['lc', 'k'],
]);

/** Edit distance where a look-alike swap or split costs 0.5, stopping once past `max`. */
const shapeDistance = (a: string, b: string, max: number): number =>
  editDistance(a, b, max, { substitution: (x, y) => (ALIKE.has(x + y) ? 0.5 : 1), merges: SPLITS, mergeCost: 0.5 });

const fold = (s: string) => foldText(s).toLowerCase().replace(/ł/g, 'l');

/** The one-word names the LOINC table knows (display and aliases), of seven letters or more, folded: name and codes. */
let longNames: Map<string, { name: string; codes: Set<string> }> | undefined;
function longNamesOf(): Map<string, { name: string; codes: Set<string> }> {
  if (!longNames) {
    longNames = new Map();
    for (const e of LOINC_TABLE) {
      for (const n of [e.display, ...e.aliases.en, ...e.aliases.de, ...e.aliases.fr, ...(e.aliases.other ?? [])]) {
        const key = fold(n);
        if (!/^[a-z]{7,}$/.test(key)) continue;
        const known = longNames.get(key) ?? { name: n, codes: new Set<string>() };
        known.codes.add(e.code);
        longNames.set(key, known);
      }
    }
    for (const word of RESULT_WORDS) longNames.set(word, { name: word[0]!.toUpperCase() + word.slice(1), codes: new Set([`label:${word}`]) });
  }
  return longNames;
}

/**
 * "Resultado: 155 mg/dL" under an exam's heading: the word for "result" names the exam above it
 * (parse.ts, GENERIC_RESULT), so a misreading of it ("Resaltado") is repaired like a test's name.
 */
const RESULT_WORDS = ['resultado', 'resultat', 'ergebnis', 'risultato'];

/** At most this share of a long name's letters may be misread (look-alike swaps counting half). */
const LONG_SHARE = 0.15;

/**
 * "Hernalécrito" for Hematócrito, "NeutrSfilos" for Neutrófilos: a one-word name of seven letters or
 * more (dot leaders and a colon after it set aside) that is within a few look-alike misreadings of a
 * long name the LOINC table knows, and clearly nearer to it than to any name of another test (a name of
 * the same test in another language, "hematocrite", may be as near). Undefined when no one test is that near.
 */
function nearestLongName(name: string): string | undefined {
  const word = fold(name.replace(/[.…:]+$/, '').trim());
  // Six letters may be a seven-letter name with two letters read as one ("Cakium").
  if (!/^[a-z][a-z0-9]{5,}$/.test(word)) return undefined;
  const scored: { name: string; codes: Set<string>; cost: number }[] = [];
  for (const [key, known] of longNamesOf()) {
    const max = Math.max(1, LONG_SHARE * key.length);
    const cost = shapeDistance(word, key, max + 1);
    if (cost <= max + 1) scored.push({ ...known, cost });
  }
  scored.sort((a, b) => a.cost - b.cost);
  const best = scored[0];
  if (!best || best.cost > Math.max(1, LONG_SHARE * fold(best.name).length)) return undefined;
  const rival = scored.find((s) => ![...s.codes].some((c) => best.codes.has(c)));
  if (rival && rival.cost - best.cost < 1) return undefined;
  return best.name;
}

// ---------- labels ----------

/**
 * "Valores de refcréncin", "Descjével": a label OCR misread in a few letters is the one of `phrases` (folded,
 * lower case) it is within LONG_SHARE look-alike misreadings of (at least one edit, spaces kept), when no other
 * phrase is as near. Labels of eight letters or more only; `text` is returned folded as it came otherwise.
 */
export function nearestLabel(text: string, phrases: readonly string[]): string {
  const folded = fold(text).replace(/\s+/g, ' ').trim();
  if (folded.replace(/[^a-z]/g, '').length < 8) return folded;
  let best: { phrase: string; cost: number } | undefined;
  let tie = false;
  for (const phrase of phrases) {
    const max = Math.max(1, LONG_SHARE * phrase.length);
    const cost = shapeDistance(folded, phrase, max + 1);
    if (cost > max) continue;
    if (!best || cost < best.cost) [best, tie] = [{ phrase, cost }, false];
    else if (cost === best.cost && phrase !== best.phrase) tie = true;
  }
  return best && !tie ? best.phrase : folded;
}
