/**
 * Test names OCR misread by one look-alike character ("Het" for Hct, "HbAic" for HbA1c, "Hemoglobin
 * Alc"): short words are where this hurts, since a one-letter slip in a three-letter abbreviation
 * leaves nothing to match on. A name is changed only when it is not a known test and one swap inside
 * one short word makes it a known test name (an alias of the LOINC table), and no other swap makes a
 * different one: like units, names are repaired only into what the table knows.
 */
import { matchLoinc } from './loinc-match.js';

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
  // Capitals of one stem ("APTI" for APTT).
  ['I', 'T'],
];

/** A test name the table knows as printed (an alias, with or without qualifiers). */
const KNOWN = 0.93;
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
    words.forEach((word, w) => {
      if (word.length > MAX_WORD) return;
      for (let i = 0; i < word.length; i++) {
        for (const [from, to] of LOOK_ALIKES) {
          if (!word.startsWith(from, i)) continue;
          const variant = [...words.slice(0, w), word.slice(0, i) + to + word.slice(i + from.length), ...words.slice(w + 1)].join(' ');
          const top = matchLoinc(variant)[0];
          if (top && top.confidence_score >= KNOWN && !found.has(top.loinc_code)) found.set(top.loinc_code, variant);
        }
      }
    });
    if (found.size === 1) repaired = [...found.values()][0]!;
  }
  cache.set(name, repaired);
  return repaired;
}
