import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createCanvas } from '@napi-rs/canvas';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recognize, stopOcr } from '../../activities/lab-reports/ocr.js';
import {
  availableScripts,
  doubtfulShare,
  isLetterWord,
  letterConfidence,
  mayBeOtherScript,
  missingScriptsNote,
  modelFile,
  OTHER_SCRIPTS,
  pickScript,
  preferReading,
  type ReadWord,
  scriptShare,
  stripLines,
} from '../../activities/lab-reports/ocr-script.js';
import { ensureTesseract, ensureTesseractModel } from '../support/tesseract.js';

const w = (text: string, confidence: number): ReadWord => ({ text, confidence });
/** Words of a reading, "text:confidence" separated by spaces. */
const read = (s: string): ReadWord[] =>
  s.split(' ').map((t) => {
    const at = t.lastIndexOf(':');
    return w(t.slice(0, at), Number(t.slice(at + 1)));
  });

// A Russian page's rows as the Latin models read them (look-alikes, low confidence; numbers right)…
const RUSSIAN_AS_LATIN = read(
  'KpEATMHMH:31 58:90 mkmonb/n:40 DpurpouxTsi:22 (REC):61 4,93:93 Imoxoza:12 5,25:91 Xonectepux:35 oÔLUM:18 4,60:92 DEPPHUTHH:20 152:95 Bumpy:52 Gun:40 o6wui:9',
);
// …and as rus+eng reads them.
const RUSSIAN = read(
  'Креатинин:88 58:90 мкмоль/л:80 Эритроциты:91 (RBC):85 4,93:93 Глюкоза:86 5,25:91 Холестерин:92 общий:90 4,60:92 Ферритин:93 152:95 Билирубин:89 общий:90',
);
// A German page: a few doubtful words (a smudge, a unit) among confident ones.
const GERMAN = read(
  'Hämoglobin:92 14,2:95 g/dl:55 Leukozyten:91 6,1:93 Erythrozyten:90 Kreatinin:93 0,9:94 mg/dl:61 Glukose:91 Cholesterin:88 Leopoldstraite:44 Befund:93 Bry:24 Labor:90 Datum:92',
);

describe('does the first (Latin) reading look like another script?', () => {
  it('counts words of letters only: units, numbers and short words say nothing about the script', () => {
    expect(isLetterWord('Kreatinin')).toBe(true);
    expect(isLetterWord('(HGB)')).toBe(true);
    expect(isLetterWord('mg/dL')).toBe(false);
    expect(isLetterWord('4,93')).toBe(false);
    expect(isLetterWord('Hb')).toBe(false);
    expect(isLetterWord('TP582283X')).toBe(false);
  });

  it('a Russian page read as Latin look-alikes: mostly doubtful words, so the page is checked', () => {
    expect(doubtfulShare(RUSSIAN_AS_LATIN)).toBeGreaterThan(0.6);
    expect(mayBeOtherScript(RUSSIAN_AS_LATIN)).toBe(true);
  });

  it('a Latin page with a few doubtful words is left as read (no second reading)', () => {
    expect(doubtfulShare(GERMAN)).toBeLessThan(0.2);
    expect(mayBeOtherScript(GERMAN)).toBe(false);
  });

  it('too few words of letters to tell: left as read', () => {
    expect(mayBeOtherScript(read('Kpeam:20 58:90 Imoxoza:12 5,25:91'))).toBe(false);
  });

  it('the strip is cut from the lines with the most doubtful words, at most `max`, in page order', () => {
    const lines = [read('Labor:95 Datum:93'), read('KpEATMHMH:31 58:90'), read('Xonectepux:35 oÔLUM:18 4,60:92'), read('Bumpy:52 Gun:40 o6wui:9')];
    expect(stripLines(lines)).toEqual([1, 2, 3]);
    expect(stripLines(lines, 2)).toEqual([2, 3]);
  });
});

describe('which script reads the strip best', () => {
  it('the script whose reading is clearly more confident and written in it', () => {
    expect(letterConfidence(RUSSIAN)).toBeGreaterThan(letterConfidence(RUSSIAN_AS_LATIN) + 40);
    expect(scriptShare(RUSSIAN, 'cyrillic')).toBeGreaterThan(0.8);
    const greekGuess = read('Kpeativivn:45 58:90 Epuepokutta:40 Tdukoln:38 Xoàeotepivn:41 Dequitivn:39 Bidipovivn:36');
    expect(pickScript(RUSSIAN_AS_LATIN, [{ script: 'greek', words: greekGuess }, { script: 'cyrillic', words: RUSSIAN }])).toBe('cyrillic');
  });

  it('none when no other reading beats the Latin one by the margin', () => {
    const barely = RUSSIAN.map((x) => ({ ...x, confidence: Math.min(x.confidence, letterConfidence(RUSSIAN_AS_LATIN) + 5) }));
    expect(pickScript(RUSSIAN_AS_LATIN, [{ script: 'cyrillic', words: barely }])).toBeUndefined();
  });

  it('none when the confident reading is not in the script (its English model read a Latin page)', () => {
    const latinAgain = GERMAN.map((x) => ({ ...x, confidence: 95 }));
    expect(pickScript(GERMAN, [{ script: 'cyrillic', words: latinAgain }])).toBeUndefined();
  });

  it('the page read in the script is kept only when its words are more confident', () => {
    expect(preferReading(RUSSIAN_AS_LATIN, RUSSIAN, 'cyrillic')).toBe(true);
    expect(preferReading(RUSSIAN, RUSSIAN_AS_LATIN, 'cyrillic')).toBe(false);
    const worse = RUSSIAN.map((x) => ({ ...x, confidence: 10 }));
    expect(preferReading(RUSSIAN_AS_LATIN, worse, 'cyrillic')).toBe(false);
  });
});

describe('where the models are', () => {
  beforeAll(() => {
    // No npm package ships Russian: Debian's tesseract-ocr-rus is installed when missing, not skipped.
    ensureTesseractModel('rus');
  }, 1_500_000);

  it("Greek from its npm package (gzip), Russian from the system's tessdata, an unknown code nowhere", () => {
    expect(modelFile('ell')).toMatch(/@tesseract\.js-data\/ell\/4\.0\.0_best_int\/ell\.traineddata\.gz$/);
    expect(modelFile('rus')).toMatch(/rus\.traineddata$/);
    expect(modelFile('zzq')).toBeUndefined();
  });

  it('TESSDATA_PREFIX is looked in', () => {
    const dir = mkdtempSync(join(tmpdir(), 'tessdata-test-'));
    try {
      writeFileSync(join(dir, 'zzq.traineddata'), 'x');
      expect(modelFile('zzq', { TESSDATA_PREFIX: dir })).toBe(join(dir, 'zzq.traineddata'));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('says which scripts stay Latin-only when their model is missing, and nothing when all are there', () => {
    expect(availableScripts().map((s) => s.script)).toEqual(['cyrillic', 'greek']);
    expect(missingScriptsNote()).toBeUndefined();
    const note = missingScriptsNote(OTHER_SCRIPTS.filter((s) => s.code !== 'rus'));
    expect(note).toMatch(/no rus\.traineddata/);
    expect(note).toMatch(/tesseract-ocr-rus/);
    expect(note).toMatch(/cyrillic pages are read with the Latin models only/);
  });
});

/** A small page of result lines drawn in DejaVu Sans (it has Cyrillic and Greek letters). */
function page(lines: string[]) {
  const canvas = createCanvas(1500, 80 * lines.length + 60);
  const ctx = canvas.getContext('2d');
  ctx.fillStyle = '#ffffff';
  ctx.fillRect(0, 0, canvas.width, canvas.height);
  ctx.fillStyle = '#000000';
  ctx.font = '44px DejaVu Sans';
  lines.forEach((l, i) => ctx.fillText(l, 40, 80 * (i + 1)));
  return canvas;
}

const RUSSIAN_PAGE = [
  'Исследование Результат Единицы',
  'Гемоглобин 145 г/л 132 - 173',
  'Креатинин 58 мкмоль/л 62 - 115',
  'Глюкоза 5,25 ммоль/л 4,10 - 5,90',
  'Холестерин общий 4,60 ммоль/л',
  'Ферритин 152 мкг/л 20 - 250',
];
const GREEK_PAGE = [
  'Εξέταση Αποτέλεσμα Μονάδες',
  'Γλυκόζη 93 mg/dL 70 - 110',
  'Ουρία 25 mg/dL 15 - 45',
  'Κρεατινίνη 1,4 mg/dL 0,7 - 1,3',
  'Χοληστερόλη ολική 173 mg/dL',
  'Τριγλυκερίδια 92 mg/dL',
];
const LATIN_PAGE = ['Test Result Units', 'Hemoglobin 14.5 g/dL 13.2 - 17.3', 'Creatinine 0.9 mg/dL 0.7 - 1.3', 'Glucose 93 mg/dL 70 - 110', 'Cholesterol total 173 mg/dL'];

ensureTesseract();
ensureTesseractModel('rus');

describe.each(['wasm', 'native'] as const)('pages in Cyrillic and Greek (%s)', (engine) => {
  afterAll(() => stopOcr());
  const text = (p: { lines: { text: string }[] }) => p.lines.map((l) => l.text).join('\n');

  it('a Russian page comes out in Cyrillic, its numbers as printed', async () => {
    const out = text(await recognize(page(RUSSIAN_PAGE), 1, engine));
    expect(out).toMatch(/Креатинин\s+58/);
    expect(out).toMatch(/Глюкоза\s+5,25/);
    expect(out).toMatch(/Ферритин\s+152/);
  }, 180_000);

  it('a Greek page comes out in Greek, Latin units kept', async () => {
    const out = text(await recognize(page(GREEK_PAGE), 1, engine));
    expect(out).toMatch(/Γλυκόζη\s+93\s+mg\/dL/);
    expect(out).toMatch(/Κρεατινίνη\s+1,4/);
  }, 180_000);

  it('a Latin page stays Latin', async () => {
    const out = text(await recognize(page(LATIN_PAGE), 1, engine));
    expect(out).toMatch(/Creatinine\s+0\.9\s+mg\/dL/);
    expect(out).not.toMatch(/[\p{Script=Cyrillic}\p{Script=Greek}]/u);
  }, 180_000);
});
