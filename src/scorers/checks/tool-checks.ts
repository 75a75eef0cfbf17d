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

/** A failed tool call: the tool, and the error text the trace gave. */
export interface ToolFailure {
  tool: string;
  error: string;
}

const isRecord = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

/** The error text of a result the tool itself marked failed (MCP `isError`, `status: "error"`). */
function markedFailed(result: unknown): string | undefined {
  if (!isRecord(result)) return undefined;
  if (result.isError !== true && String(result.status).toLowerCase() !== 'error') return undefined;
  const text = [result.error, result.message, result.content].find((x) => typeof x === 'string' && x.trim() !== '');
  if (typeof text === 'string') return text;
  return JSON.stringify(result).slice(0, 200);
}

/**
 * The tool calls the trace marks as failed: an exception or error status on the tool span (`output-error`),
 * `isError` on the call or its result, a result with `status: "error"`, or a call that never got a result.
 * A returned result is data, whatever its fields are called: `{"error": "claim not found"}` is an answer.
 */
export function toolFailures(output: unknown): ToolFailure[] {
  const out: ToolFailure[] = [];
  for (const inv of allToolInvocations(output)) {
    const tool = inv.toolName ?? 'unknown tool';
    if (inv.state === 'output-error') out.push({ tool, error: inv.errorText?.trim() || 'the call threw (no error text recorded)' });
    else if (inv.state === 'call') out.push({ tool, error: 'the call has no result' });
    else if (inv.isError === true) out.push({ tool, error: markedFailed(inv.result) ?? (JSON.stringify(inv.result) ?? 'marked isError').slice(0, 200) });
    else {
      const marked = markedFailed(inv.result);
      if (marked !== undefined) out.push({ tool, error: marked });
    }
  }
  return out;
}

/**
 * 1 when no tool invocation is unfinished (`call`), threw (`output-error`), is flagged `isError`, or has a truthy
 * `result.error`: Mastra's `checks.noToolErrors`, unchanged (parity). The configured type `no-tool-errors` is
 * `createToolErrorsScorer`, which reads only what the trace marks as failed.
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

/**
 * The operational tool-error scorer (the configured type `no-tool-errors`, the embedded default's
 * `tool-errors`): 1 when no tool call failed (see `toolFailures`); a fail's reason names every failed tool and
 * its error text.
 *
 * @example
 * ```ts
 * createToolErrorsScorer();
 * ```
 */
export function createToolErrorsScorer() {
  return createScorer({ id: 'tool-errors-scorer', name: 'Tool Errors Scorer', description: 'Tool calls the trace marks as failed', type: 'agent' })
    .preprocess(({ run }) => ({ failures: toolFailures(run.output) }))
    .generateScore(({ results }) => (results.preprocessStepResult.failures.length === 0 ? 1 : 0))
    .generateReason(({ results }) => {
      const f = results.preprocessStepResult.failures;
      if (f.length === 0) return 'No tool call failed.';
      return `${f.length} tool call(s) failed: ${f.map((x) => `${x.tool}: ${x.error}`).join('; ')}.`;
    });
}
