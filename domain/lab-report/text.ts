/**
 * Small text helpers shared by the parser and the LOINC matcher: accent folding, whitespace, and the
 * words that mean "this line is written in German / French / English".
 */

/**
 * Lower-case, strip accents (é → e, ü → u, ß → ss), unify dashes and quotes. The Nordic letters that are not
 * an accented letter to Unicode fold as their readers transliterate them: ø → o, æ → ae ("Fødselsdato" →
 * "fodselsdato").
 */
export function foldText(s: string): string {
  return s
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/ß/g, 'ss')
    .replace(/[øØ]/g, 'o')
    .replace(/[æÆ]/g, 'ae')
    // Letters with a stroke have no decomposition: "rođenja", "Małgorzata", "Yıldız".
    .replace(/[đĐ]/g, 'd')
    .replace(/[łŁ]/g, 'l')
    .replace(/ı/g, 'i')
    .replace(/[\u2010-\u2015\u2212]/g, '-')
    .replace(/[\u2018\u2019\u00b4`]/g, "'")
    .toLowerCase();
}

/** Fold each character on its own, so indices in the result line up with the original text. */
export function foldSameLength(text: string): string {
  return [...text]
    .map((ch) => {
      const f = foldText(ch);
      return f.length === 1 ? f : ch.toLowerCase();
    })
    .join('');
}

/** What a name's closing brackets hold: "WBC" in "So luong bach cau (WBC)", "TSH" in "THYROID STIMULATING HORMONE (TSH)". */
export function trailingBracket(name: string): string | undefined {
  return /\(([^()]{1,40})\)\s*$/.exec(name)?.[1]?.trim();
}

/** Collapse runs of whitespace to one space and trim. */
export function squash(s: string): string {
  return s.replace(/\s+/g, ' ').trim();
}

export type DocLanguage = 'en' | 'de' | 'fr';

// Words frequent in lab reports of each language; a word counts once per occurrence.
const LANGUAGE_WORDS: Record<DocLanguage, RegExp> = {
  en: /\b(the|and|result|results|units?|reference|range|patient|date|birth|collected|reported|specimen|flag|test|normal|high|low|negative|positive|of|blood|count)\b/g,
  de: /\b(und|der|die|das|ergebnis|einheit|referenzbereich|normbereich|befund|geburtsdatum|patient(?:in)?|untersuchung|blutbild|labor|entnahme|datum|negativ|positiv|nicht|im|von|erniedrigt|erhoht|harn|urin)\b/g,
  fr: /\b(le|la|les|des|du|et|resultat|resultats|unites?|valeurs|reference|nom|prenom|date|naissance|prelevement|examen|negatif|positif|sang|numeration|hematies|leucocytes|bilan)\b/g,
};

/** Guess the report language from word counts; English wins ties (the service expects English first). */
export function detectLanguage(text: string): DocLanguage {
  const folded = foldText(text);
  let best: DocLanguage = 'en';
  let bestCount = 0;
  for (const lang of ['en', 'de', 'fr'] as const) {
    const count = folded.match(LANGUAGE_WORDS[lang])?.length ?? 0;
    if (count > bestCount) {
      best = lang;
      bestCount = count;
    }
  }
  return best;
}
