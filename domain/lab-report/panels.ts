/**
 * Panel headings: short lines without values that name a section ("COMPLETE BLOOD COUNT", "Lipid
 * Panel", "Klinische Chemie", "Hématologie", "CBC (continued)"). Whether a candidate really is a
 * heading is settled by the reader: only if result rows follow it closely.
 */
import { panelTagsIn } from './match-context.js';
import { foldText, squash } from './text.js';
import { isUnitToken } from './units.js';

const CONTINUED = /\s*[-–(]*\s*(continued|cont'?d\.?|cont\.|fortsetzung|forts\.|suite)\s*\)?\s*$/i;
const SECTION_WORDS = /\b(panel|profile|profil|count|studies|study|analysis|chemistry|chemie|hematology|haematology|hamatologie|hematologie|serology|serologie|immunology|immunologie|endocrinology|endokrinologie|biochimie|biochemistry|urinalysis|microscopy|mikroskopie|sediment|screen|function|funktion|bilan|examen|markers?|marker|gerinnung|coagulation|hemostase|blutbild|status|electrolytes?|elektrolyte|vitamins?|vitamine|hormones?|hormone|lipids?|lipide|iron|eisen|thyroid|schilddruse|liver|leber|kidney|renal|niere|cardiac|diabetes|infection|differential|diff)\b/;
// Lines that are sentences, signatures or report furniture rather than section names.
const NOT_HEADING = /\b(laborator\w*|labs?|labor|laboratoire|diagnostics?|clinic|hospital|klinik|praxis|medical|center|centre|page|seite|report|befundbericht|compte rendu|printed|final|preliminary|corrected|please|note|comment|kommentar|remarque|interpret\w*|reference|method|performed|director|signed|validated|valide|technische|approved|patient|physician|doctor|arzt|medecin|specimen|collected|received|www|tel|fax|phone)\b/;

export function panelTitle(text: string): string {
  return squash(text.replace(CONTINUED, '').replace(/[:]+\s*$/, ''));
}

export function isPanelHeading(text: string): boolean {
  const title = panelTitle(text);
  const folded = foldText(title);
  if (title.length < 3 || title.length > 60) return false;
  const words = title.split(/\s+/);
  if (words.length > 7 || /[.;]$/.test(title) || /\d{3,}/.test(title) || NOT_HEADING.test(folded)) return false;
  if (!/^\P{Ll}*\p{L}/u.test(title) || (title.match(/\p{L}/gu)?.length ?? 0) < title.length * 0.6) return false;
  const letters = title.replace(/[^\p{L}]/gu, '');
  const allCaps = letters.length >= 3 && letters === letters.toUpperCase();
  return allCaps || SECTION_WORDS.test(folded) || panelTagsIn(title).size > 0;
}

/**
 * The unit a panel heading gives all its rows, as reports without a unit column print it: at the heading's end in
 * brackets ("LIPID PROFILE (mg/dL)", "Electrolytes [mmol/L]") or after a "Units:" label ("ELECTROLYTES - Units:
 * mmol/L", "Einheit: mmol/l"). Undefined when the heading names none ("CBC (continued)", "Lipids (fasting)").
 */
export function headingUnit(title: string): string | undefined {
  const m = /[([]\s*([^()[\]\s]+)\s*[)\]]\s*$/.exec(title) ?? /(?:^|[\s,;–—-])(?:units?|unit[eé]s?|einheit(?:en)?|unidad(?:es)?|unità)\s*[:=]\s*(\S+)\s*$/iu.exec(title);
  return m && isUnitToken(m[1]!) ? m[1] : undefined;
}
