/**
 * Agent-name patterns for `sampling.agents`: `*` matches any run of characters (including none and `/`),
 * `?` exactly one; everything else is literal. Precedence (documented in docs/sampling.md): an exact name
 * beats every glob; among matching globs the one with the most literal characters wins, then the one with
 * the fewest wildcards, then the one written first.
 */

/** True when `key` contains a wildcard and is therefore matched as a glob. */
export function isGlob(key: string): boolean {
  return key.includes('*') || key.includes('?');
}

/** Compile a glob to an anchored regular expression. */
export function compileGlob(glob: string): RegExp {
  let src = '^';
  for (const ch of glob) {
    if (ch === '*') src += '[\\s\\S]*';
    else if (ch === '?') src += '[\\s\\S]';
    else src += ch.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  }
  return new RegExp(`${src}$`, 'u');
}

/** Specificity of a glob: literal characters and wildcards. */
export function globSpecificity(glob: string): { literal: number; wildcards: number } {
  let wildcards = 0;
  let literal = 0;
  for (const ch of glob) {
    if (ch === '*' || ch === '?') wildcards++;
    else literal++;
  }
  return { literal, wildcards };
}

export interface PatternMatch<T> {
  key: string;
  value: T;
  glob: boolean;
}

/**
 * Build a matcher over config entries (insertion order = config order). Returns the winning entry for a
 * name, or undefined when none matches.
 */
export function createPatternMatcher<T>(entries: Readonly<Record<string, T>>): (name: string) => PatternMatch<T> | undefined {
  const exact = new Map<string, T>();
  const globs: { key: string; value: T; re: RegExp; literal: number; wildcards: number; order: number }[] = [];
  let order = 0;
  for (const [key, value] of Object.entries(entries)) {
    if (isGlob(key)) globs.push({ key, value, re: compileGlob(key), ...globSpecificity(key), order: order++ });
    else exact.set(key, value);
  }
  globs.sort((a, b) => b.literal - a.literal || a.wildcards - b.wildcards || a.order - b.order);
  return (name) => {
    if (exact.has(name)) return { key: name, value: exact.get(name) as T, glob: false };
    for (const g of globs) if (g.re.test(name)) return { key: g.key, value: g.value, glob: true };
    return undefined;
  };
}
