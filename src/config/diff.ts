/**
 * The key paths where two configs differ, for the reload: which changes a running service applies and
 * which need a restart. Only paths are reported, never values (a path may lead to a token or a key).
 */
import { formatPath } from './path.js';

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

/**
 * Every leaf path whose value differs between `a` and `b`, sorted. Objects are compared key by key (a key
 * present on one side only is reported at its own path); arrays and scalars are compared whole.
 *
 * @example configDiff({ assembly: { decisionWaitMs: 1 } }, { assembly: { decisionWaitMs: 2 } }) // ['assembly.decisionWaitMs']
 */
export function configDiff(a: unknown, b: unknown): string[] {
  const out: string[] = [];
  walk(a, b, [], out);
  return out.sort();
}

function walk(a: unknown, b: unknown, path: PropertyKey[], out: string[]): void {
  if (isObject(a) && isObject(b)) {
    for (const k of new Set([...Object.keys(a), ...Object.keys(b)])) walk(a[k], b[k], [...path, k], out);
    return;
  }
  if (a === b) return;
  if (JSON.stringify(a) === JSON.stringify(b)) return;
  out.push(path.length === 0 ? '(root)' : formatPath(path));
}
