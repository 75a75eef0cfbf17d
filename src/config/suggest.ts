/**
 * "Did you mean" for config typos: the known keys at a key path of the zod schema, and the closest of them to
 * what was written (`scorer` → `scorers`, `hots` → `host`, `content-simlarity` → `content-similarity`).
 */
import type { z } from 'zod';

/** Edit distance (insert, delete, substitute, swap two neighbours), case-insensitive. */
function distance(a: string, b: string): number {
  const s = a.toLowerCase();
  const t = b.toLowerCase();
  const d: number[][] = Array.from({ length: s.length + 1 }, (_, i) => Array.from({ length: t.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)));
  for (let i = 1; i <= s.length; i++) {
    for (let j = 1; j <= t.length; j++) {
      const row = d[i] as number[];
      const prev = d[i - 1] as number[];
      const cost = s[i - 1] === t[j - 1] ? 0 : 1;
      row[j] = Math.min((prev[j] as number) + 1, (row[j - 1] as number) + 1, (prev[j - 1] as number) + cost);
      if (i > 1 && j > 1 && s[i - 1] === t[j - 2] && s[i - 2] === t[j - 1]) row[j] = Math.min(row[j] as number, ((d[i - 2] as number[])[j - 2] as number) + 1);
    }
  }
  return (d[s.length] as number[])[t.length] as number;
}

/** The candidate closest to `word`, when close enough to be a typo of it (at most a third of its letters off). */
export function closest(word: string, candidates: Iterable<string>): string | undefined {
  const limit = Math.max(1, Math.floor(word.length / 3));
  let best: string | undefined;
  let bestDistance = Infinity;
  for (const c of candidates) {
    if (c === word) continue;
    const n = distance(word, c);
    if (n <= limit && n < bestDistance) {
      best = c;
      bestDistance = n;
    }
  }
  return best;
}

/** `; did you mean "x"?` for `word`, or `''`. */
export function didYouMean(word: string, candidates: Iterable<string>): string {
  const c = closest(word, candidates);
  return c === undefined ? '' : `; did you mean "${c}"?`;
}

interface Def {
  type?: string;
  shape?: Record<string, z.ZodType>;
  innerType?: z.ZodType;
  in?: z.ZodType;
  valueType?: z.ZodType;
  element?: z.ZodType;
}

const defOf = (schema: z.ZodType): Def => (schema as unknown as { _zod: { def: Def } })._zod.def;

/** The keys an object schema accepts at `path` (record keys and array indexes are stepped over); [] when none. */
export function knownKeysAt(schema: z.ZodType, path: readonly PropertyKey[]): string[] {
  let node: z.ZodType | undefined = schema;
  let i = 0;
  for (let guard = 0; node && guard < 100; guard++) {
    const def = defOf(node);
    const next = def.innerType ?? def.in;
    if (next && def.type !== 'object') {
      node = next;
      continue;
    }
    if (i === path.length) return def.type === 'object' && def.shape ? Object.keys(def.shape) : [];
    const key = path[i++];
    if (def.type === 'object' && def.shape) node = def.shape[String(key)];
    else if (def.type === 'record') node = def.valueType;
    else if (def.type === 'array') node = def.element;
    else return [];
  }
  return [];
}
