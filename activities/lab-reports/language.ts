import type { ExtractedPage } from '../../domain/lab-report/types.js';

/**
 * A rough check used only when a document yielded no results: is its text mostly in a language other
 * than English? Counts frequent short words of English, German, French and Spanish; a document where
 * another language's words clearly outnumber English ones is "not English" (failure_reason not_english).
 */
const WORDS: Record<string, string[]> = {
  en: ['the', 'and', 'of', 'to', 'in', 'is', 'for', 'result', 'results', 'test', 'range', 'reference', 'patient', 'date', 'units', 'normal', 'report', 'collected', 'with', 'blood'],
  de: ['der', 'die', 'das', 'und', 'mit', 'von', 'für', 'ist', 'nicht', 'ergebnis', 'befund', 'referenzbereich', 'einheit', 'patient', 'datum', 'geburtsdatum', 'labor', 'untersuchung', 'wert', 'blut'],
  fr: ['le', 'la', 'les', 'des', 'et', 'du', 'pour', 'est', 'avec', 'résultat', 'résultats', 'valeurs', 'référence', 'unité', 'patient', 'date', 'naissance', 'laboratoire', 'analyse', 'sang'],
  es: ['el', 'los', 'las', 'del', 'y', 'para', 'con', 'es', 'resultado', 'resultados', 'valor', 'referencia', 'unidad', 'paciente', 'fecha', 'nacimiento', 'laboratorio', 'análisis', 'sangre', 'muestra'],
};

export function looksNotEnglish(pages: ExtractedPage[]): boolean {
  const tokens = pages
    .flatMap((p) => p.lines.map((l) => l.text))
    .join(' ')
    .toLowerCase()
    .split(/[^\p{L}]+/u)
    .filter(Boolean);
  if (tokens.length < 10) return false;
  const count = (lang: string) => {
    const set = new Set(WORDS[lang]);
    return tokens.reduce((n, t) => n + (set.has(t) ? 1 : 0), 0);
  };
  const english = count('en');
  const other = Math.max(count('de'), count('fr'), count('es'));
  return other >= 5 && other > 2 * english;
}

/** Languages whose model a page may be read again with (eng+<it>), when its first reading looks written in one. */
export type SecondOcrLanguage = 'por' | 'ces' | 'pol';

/**
 * Evidence per language in a first OCR reading made WITHOUT that language's model: frequent words that
 * survive such a reading (no or few diacritics, or diacritics the loaded models know), and letters only
 * that language (among the Latin-script ones read here) prints, when the reading kept them. Words that
 * Spanish, Italian, Romanian, French or German share (de, da, das, se, norma, valores, resultado…) are left out.
 */
const SECOND_WORDS: Record<SecondOcrLanguage, string[]> = {
  por: ['não', 'nao', 'são', 'sao', 'do', 'dos', 'em', 'uma', 'exame', 'exames', 'colheita', 'coleta', 'análises', 'analises', 'referência', 'nascimento', 'utente', 'sangue', 'médica', 'técnico', 'responsável'],
  ces: ['je', 've', 'ze', 'pro', 'výsledek', 'vysledek', 'výsledky', 'vysledky', 'hodnota', 'jednotka', 'jednotky', 'narození', 'narozeni', 'rodné', 'rodne', 'číslo', 'cislo', 'vyšetření', 'vysetreni', 'referenční', 'referencni', 'meze', 'odběr', 'odber', 'krev', 'lékař', 'lekar', 'pojišťovna', 'pojistovna'],
  pol: ['się', 'jest', 'nie', 'wynik', 'wyniki', 'badanie', 'badania', 'badań', 'jednostka', 'pacjent', 'urodzenia', 'zakres', 'referencyjny', 'referencyjne', 'pobrania', 'pobranie', 'krew', 'lekarz', 'pesel', 'morfologia', 'oznaczenie'],
};
const SECOND_LETTERS: Record<SecondOcrLanguage, RegExp> = {
  por: /[ãõ]/giu,
  ces: /[ěřů]/giu,
  pol: /[ąęłńśźż]/giu,
};

/**
 * The language a page's first OCR reading (made with the default models) looks written in, among
 * Portuguese, Czech and Polish; undefined when none clearly: at least 4 of its words or letters, and
 * twice as many as the next of the three and as the page's English words.
 */
export function secondOcrLanguage(texts: string[]): SecondOcrLanguage | undefined {
  const text = texts.join(' ');
  const tokens = text
    .toLowerCase()
    .split(/[^\p{L}]+/u)
    .filter(Boolean);
  const english = new Set(WORDS.en);
  const englishCount = tokens.reduce((n, t) => n + (english.has(t) ? 1 : 0), 0);
  const scores = (Object.keys(SECOND_WORDS) as SecondOcrLanguage[])
    .map((lang) => {
      const set = new Set(SECOND_WORDS[lang]);
      const words = tokens.reduce((n, t) => n + (set.has(t) ? 1 : 0), 0);
      return { lang, score: words + (text.match(SECOND_LETTERS[lang])?.length ?? 0) };
    })
    .sort((a, b) => b.score - a.score);
  const [best, next] = scores;
  if (!best || best.score < 4 || best.score < 2 * (next?.score ?? 0) || best.score < 2 * englishCount) return undefined;
  return best.lang;
}
