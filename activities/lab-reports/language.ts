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
