import { describe, expect, it } from 'vitest';
import { secondOcrLanguage } from '../../activities/lab-reports/language.js';
import { OCR_LANGUAGES, OCR_SECOND_LANGUAGES, firstPassLanguages, ocrLanguageMode, secondPassLanguages } from '../../activities/lab-reports/ocr.js';

// Lines as a first reading with eng+deu+fra might give them: some diacritics kept, some turned into look-alikes.
const PORTUGUESE = ['Laboratório de Análises Clínicas', 'Nome do utente: Joao Conceicao', 'Data da colheita: 12/03/2025', 'Exame Resultado Unidades Valores de referência', 'Hemoglobina 13,9 g/dL 12,0 - 16,0', 'Os resultados não são um diagnóstico'];
const CZECH = ['Výsledky vyšetření', 'Pacient: Jiri Dvorak  Rodné číslo: 780512/1234', 'Datum odberu: 12.03.2025', 'Vyšetření Hodnota Jednotka Referenční meze', 'Hemoglobin 139 g/l 135 - 175', 'Výsledek je ve shodě s normou pro věk'];
const POLISH = ['Wyniki badania laboratoryjnego', 'Pacjent: Jan Kowalski  PESEL: 78051212345', 'Data pobrania: 12.03.2025  Data urodzenia: 01.02.1978', 'Badanie Wynik Jednostka Zakres referencyjny', 'Hemoglobina 13,9 g/dl 12,0 - 16,0', 'Wynik nie jest diagnozą'];
const ENGLISH = ['Comprehensive Metabolic Panel', 'Patient: Maria da Silva  DOB: 01/02/1978', 'Test Result Units Reference Range', 'Glucose 5.4 mmol/L 3.9 - 6.1', 'Results of the test are for the physician'];
const SPANISH = ['Laboratorio de Análisis Clínicos', 'Paciente: José García  Fecha de nacimiento: 01/02/1978', 'Prueba Resultado Unidad Valores de referencia', 'Hemoglobina 13,9 g/dL 12,0 - 16,0', 'Los resultados se deben valorar con la clínica del paciente'];
const ITALIAN = ['Laboratorio Analisi', 'Paziente: Mario Rossi  Data di nascita: 01/02/1978', 'Esame Risultato Unità Valori di riferimento', 'Emoglobina 13,9 g/dL 12,0 - 16,0', 'Referto firmato da un medico'];

describe('language of a first OCR reading', () => {
  it('names Portuguese, Czech and Polish from their words and letters', () => {
    expect(secondOcrLanguage(PORTUGUESE)).toBe('por');
    expect(secondOcrLanguage(CZECH)).toBe('ces');
    expect(secondOcrLanguage(POLISH)).toBe('pol');
  });

  it('names none for English, Spanish or Italian pages, nor for pages with too little text', () => {
    expect(secondOcrLanguage(ENGLISH)).toBeUndefined();
    expect(secondOcrLanguage(SPANISH)).toBeUndefined();
    expect(secondOcrLanguage(ITALIAN)).toBeUndefined();
    expect(secondOcrLanguage(['Hemoglobin 13.9 g/dL'])).toBeUndefined();
    expect(secondOcrLanguage([])).toBeUndefined();
  });

  it('names none when two of the languages are as likely', () => {
    expect(secondOcrLanguage([...CZECH, ...POLISH])).toBeUndefined();
  });
});

describe('OCR languages by mode', () => {
  it('reads with the default models in one pass unless asked otherwise', () => {
    expect(ocrLanguageMode({})).toBe('one-pass');
    expect(ocrLanguageMode({ OCR_LANGUAGE_MODE: ' Second-Pass ' })).toBe('second-pass');
    expect(() => ocrLanguageMode({ OCR_LANGUAGE_MODE: 'all' })).toThrow(/OCR_LANGUAGE_MODE/);
    expect(firstPassLanguages('one-pass')).toEqual(OCR_LANGUAGES);
    expect(firstPassLanguages('second-pass')).toEqual(OCR_LANGUAGES);
    expect(firstPassLanguages('wide')).toEqual([...OCR_LANGUAGES, ...OCR_SECOND_LANGUAGES]);
  });

  it('reads a page again with English and the language it looks written in, in the second-pass modes only', () => {
    expect(secondPassLanguages(POLISH, 'second-pass')).toEqual(['eng', 'pol']);
    expect(secondPassLanguages(PORTUGUESE, 'second-pass')).toEqual(['eng', 'por']);
    expect(secondPassLanguages(ENGLISH, 'second-pass')).toBeUndefined();
    expect(secondPassLanguages(POLISH, 'one-pass')).toBeUndefined();
    expect(secondPassLanguages(POLISH, 'wide')).toBeUndefined();
    expect(secondPassLanguages(CZECH, 'second-pass-all')).toEqual([...OCR_LANGUAGES, 'ces']);
    expect(secondPassLanguages(ENGLISH, 'second-pass-all')).toBeUndefined();
  });

  it('has every model it may use installed', async () => {
    const { createRequire } = await import('node:module');
    const require = createRequire(import.meta.url);
    for (const code of [...OCR_LANGUAGES, ...OCR_SECOND_LANGUAGES]) expect((require(`@tesseract.js-data/${code}`) as { langPath: string }).langPath).toContain(code);
  });
});
