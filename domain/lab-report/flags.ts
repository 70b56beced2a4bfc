/**
 * Abnormal flags as printed next to results: H, L, HH, LL, A, AA, C, High, Low, Critical, *, !, !!,
 * arrows, and German/French words. HH/LL/critical/panic/!! mean critical; the rest abnormal; N normal.
 */
import { foldText } from './text.js';

export interface ParsedFlag {
  flag: string;
  severity: 'critical' | 'abnormal' | 'normal';
  direction?: 'high' | 'low';
}

interface FlagRule {
  test: RegExp;
  severity: ParsedFlag['severity'];
  direction?: 'high' | 'low';
}

const RULES: FlagRule[] = [
  { test: /^(hh|h\*|h!|>>|↑↑|\+\+\+|critical high|crit high|ch|panic high|kritisch hoch|critique haut|tres eleve)$/, severity: 'critical', direction: 'high' },
  { test: /^(ll|l\*|l!|<<|↓↓|critical low|crit low|cl|panic low|kritisch niedrig|critique bas|tres bas)$/, severity: 'critical', direction: 'low' },
  { test: /^(aa|c|crit|critical|panic|!!|\*\*|kritisch|critique|alert)$/, severity: 'critical' },
  { test: /^(h|hi|high|above high normal|above (normal |reference |optimal )?range|above optimal|>|↑|▲|\+|\+\+|hoch|erhoht|erh\.?|eleve|elevee|haut|sup|alto|alta|elevado|elevada|aumentado|aumentada)$/, severity: 'abnormal', direction: 'high' },
  { test: /^(l|lo|low|below low normal|below (normal |reference |optimal )?range|below optimal|<|↓|▼|niedrig|erniedrigt|ern\.?|tief|n?bas|basse|b|inf|bajo|baja|basso|bassa|disminuido|disminuida)$/, severity: 'abnormal', direction: 'low' },
  { test: /^(a|abn|abnormal|abnorm|out of (normal |reference )?range|\*|!|pathologisch|path\.?|pathologique|anormal|anomalo|anormale|fuera de rango|fuori range)$/, severity: 'abnormal' },
  { test: /^(n|nl|normal|norm|im normbereich|in (normal |reference )?range|within (normal |reference )?range|normale|en rango|nella norma)$/, severity: 'normal' },
];

/** Parse a flag token; undefined when it is not one. */
export function parseFlag(raw: string): ParsedFlag | undefined {
  const text = raw.trim().replace(/^[([]|[)\]]$/g, '');
  if (text === '' || text.length > 24) return undefined;
  const t = foldText(text).replace(/\s+/g, ' ');
  for (const rule of RULES) if (rule.test.test(t)) return { flag: text, severity: rule.severity, direction: rule.direction };
  return undefined;
}

/** Flags that are also common words or signs elsewhere; accepted only in a flag column or after a value. */
export function isAmbiguousFlag(raw: string): boolean {
  return /^(a|b|c|n|\+|\+\+|\+\+\+|<|>|sup|inf|normal)$/i.test(raw.trim());
}
