/** Tool quick checks (docs/scorers.md). Scores 0/1. */
import { createScorer } from '../core/scorer.js';
import { allToolInvocations, extractToolCalls } from '../utils/run-messages.js';

function check(id: string, description: string, test: (tools: string[], output: unknown) => boolean) {
  return createScorer({ id, name: id, description, type: 'agent' }).generateScore(({ run }) =>
    test(extractToolCalls(run.output).tools, run.output) ? 1 : 0,
  );
}

/**
 * 1 when `name` was called at least `times` (default 1) times.
 *
 * @example
 * ```ts
 * calledTool('search', { times: 2 });
 * ```
 */
export function calledTool(name: string, options: { times?: number } = {}) {
  const times = options.times ?? 1;
  return check('check-called-tool', `Called ${name} at least ${times} time(s)`, (tools) => tools.filter((t) => t === name).length >= times);
}

/**
 * 1 when `name` was never called.
 *
 * @example
 * ```ts
 * didNotCall('refund');
 * ```
 */
export function didNotCall(name: string) {
  return check('check-did-not-call', `Did not call ${name}`, (tools) => !tools.includes(name));
}

/**
 * 1 when `order` is a subsequence of the called tools.
 *
 * @example
 * ```ts
 * toolOrder(['search', 'summarize']); // [search, x, summarize] → 1
 * ```
 */
export function toolOrder(order: readonly string[]) {
  return check('check-tool-order', `Called ${order.join(' → ')} in order`, (tools) => {
    let i = 0;
    for (const t of tools) if (i < order.length && t === order[i]) i++;
    return i === order.length;
  });
}

/**
 * 1 when at most `max` tool calls were made.
 *
 * @example
 * ```ts
 * maxToolCalls(1); // [a, b] → 0
 * ```
 */
export function maxToolCalls(max: number) {
  return check('check-max-tool-calls', `At most ${max} tool call(s)`, (tools) => tools.length <= max);
}

/**
 * 1 when no tool was called.
 *
 * @example
 * ```ts
 * usedNoTools();
 * ```
 */
export function usedNoTools() {
  return check('check-used-no-tools', 'Used no tools', (tools) => tools.length === 0);
}

/**
 * 1 when no tool invocation is unfinished (`call`), threw (`output-error`), is flagged `isError`, or has a truthy `result.error`.
 *
 * @example
 * ```ts
 * noToolErrors();
 * ```
 */
export function noToolErrors() {
  return check('check-no-tool-errors', 'No tool errors', (_tools, output) =>
    allToolInvocations(output).every((inv) => {
      if (inv.state === 'call' || inv.state === 'output-error' || inv.isError === true) return false;
      const r = inv.result;
      return !(r !== null && typeof r === 'object' && (r as { error?: unknown }).error);
    }),
  );
}
