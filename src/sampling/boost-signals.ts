/**
 * Which code scorers feed `score-below` (boost) and `unverified` rules (those that name their scorers) anywhere in the `sampling` section. The pipeline
 * runs these on every run, sampled or not, so a boost rule always has its cheap signal; their records are
 * emitted only where the scorer itself was sampled.
 */
export function boostSignalScorers(sampling: unknown): Set<string> {
  const out = new Set<string>();
  const visit = (v: unknown, depth: number): void => {
    if (depth > 32 || v === null || typeof v !== 'object') return;
    if (Array.isArray(v)) {
      for (const x of v) visit(x, depth + 1);
      return;
    }
    const o = v as Record<string, unknown>;
    if (o.type === 'score-below' && o.below !== null && typeof o.below === 'object') for (const name of Object.keys(o.below)) out.add(name);
    if (o.type === 'unverified' && Array.isArray(o.scorers)) for (const name of o.scorers) if (typeof name === 'string') out.add(name);
    for (const x of Object.values(o)) visit(x, depth + 1);
  };
  visit(sampling, 0);
  return out;
}
