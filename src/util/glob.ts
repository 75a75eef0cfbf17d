/**
 * Agent-name patterns for `sampling.agents`: `*` matches any run of characters (including none and `/`),
 * `?` exactly one; everything else is literal. Precedence (documented in docs/sampling.md): an exact name
 * beats every glob; among matching globs the one with the most literal characters wins, then the one with
 * the fewest wildcards, then the one written first. `[`, `]`, `{` and `}` are refused by the config check
 * (`agentPatternProblem`), so a pattern never silently means something else than its writer expected.
 */
import picomatch from 'picomatch';

/** Characters that are glob syntax elsewhere (classes, braces) but not in agent patterns. */
const UNSUPPORTED = new Set(['[', ']', '{', '}']);

/**
 * Why `pattern` is not a valid agent pattern, or undefined when it is: it must not be empty, and only `*` and
 * `?` are wildcards, so `[`, `]`, `{` and `}` (character classes and braces in other glob dialects, which a
 * writer may expect to work) are refused rather than matched literally.
 *
 * @example
 * ```ts
 * agentPatternProblem('billing-*'); // undefined
 * agentPatternProblem('billing-['); // 'invalid agent pattern "billing-[": "[" at character 9 is not supported …'
 * ```
 */
export function agentPatternProblem(pattern: string): string | undefined {
  if (pattern === '') return 'invalid agent pattern: empty';
  let i = 0;
  for (const ch of pattern) {
    i++;
    if (UNSUPPORTED.has(ch)) {
      return `invalid agent pattern ${JSON.stringify(pattern)}: ${JSON.stringify(ch)} at character ${i} is not supported (only * and ? are wildcards; character classes and braces are not)`;
    }
  }
  return undefined;
}

/**
 * Why `pattern` is not a valid picomatch glob (span-name patterns of `extract.mapping`, `emit.metrics.allowAgents`),
 * or undefined: unbalanced brackets, braces or parentheses, which picomatch would otherwise match literally.
 */
export function picomatchProblem(pattern: string): string | undefined {
  try {
    picomatch.makeRe(pattern, { strictBrackets: true });
    return undefined;
  } catch (err) {
    return `invalid glob ${JSON.stringify(pattern)}: ${err instanceof Error ? err.message : String(err)}`;
  }
}

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
