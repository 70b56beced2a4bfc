/** What a substitution or a merge costs where OCR readings are compared (look-alike letters cost less). */
export interface EditCosts {
  /** The cost of reading `x` for `y` (x ≠ y); 1 when absent. */
  substitution?: (x: string, y: string) => number;
  /** Two letters read as one and one as two ("rn" for m), either way: the pair → the letter. */
  merges?: ReadonlyMap<string, string>;
  /** What such a merge costs (with `merges`). */
  mergeCost?: number;
}

/**
 * Levenshtein distance (insertions and deletions cost 1), with optional cheaper substitutions and merges,
 * stopping early once it exceeds `max` (then max + 1).
 */
export function editDistance(a: string, b: string, max: number, costs: EditCosts = {}): number {
  const { substitution, merges, mergeCost = 1 } = costs;
  // a length difference of d costs at least d, or d × mergeCost by merges
  if (Math.abs(a.length - b.length) * (merges ? Math.min(1, mergeCost) : 1) > max) return max + 1;
  let before: number[] = [];
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const cur = [i];
    let rowMin = i;
    for (let j = 1; j <= b.length; j++) {
      const x = a[i - 1]!;
      const y = b[j - 1]!;
      let v = Math.min(prev[j]! + 1, cur[j - 1]! + 1, prev[j - 1]! + (x === y ? 0 : substitution ? substitution(x, y) : 1));
      if (merges) {
        if (i >= 2 && merges.get(a.slice(i - 2, i)) === y) v = Math.min(v, before[j - 1]! + mergeCost);
        if (j >= 2 && merges.get(b.slice(j - 2, j)) === x) v = Math.min(v, prev[j - 2]! + mergeCost);
      }
      cur.push(v);
      rowMin = Math.min(rowMin, v);
    }
    if (rowMin > max) return max + 1;
    before = prev;
    prev = cur;
  }
  return prev[b.length]!;
}
