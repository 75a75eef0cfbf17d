/**
 * Lists that start small. An array grown from empty by `push` gets room for 16 elements at its first push;
 * most of extraction's lists (a span's conventions, a run's LLM calls, a message's tool calls) hold one or
 * two, and are made at their size here.
 */

/**
 * `list` with `x` appended: a new list while it holds at most two, `list` itself grown after that. Callers
 * keep the returned list (the one passed in may be left behind).
 */
export function append<T>(list: T[] | undefined, x: T): T[] {
  if (list === undefined || list.length === 0) return [x];
  if (list.length === 1) return [list[0] as T, x];
  list.push(x);
  return list;
}
