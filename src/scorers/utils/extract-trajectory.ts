/** `extractTrajectory` (docs/scorers.md): a tool-call trajectory from agent output messages. */
import { mergeToolInvocations } from './run-messages.js';
import type { Trajectory, TrajectoryStep } from './trajectory-types.js';

const KEEP: ReadonlySet<string> = new Set(['result', 'call', 'output-error']);

/** A tool call's args or result as a step field: a plain object as is, another value as `{ value }`, none as undefined. */
function wrap(v: unknown): unknown {
  if (v === null || v === undefined) return undefined;
  return typeof v === 'object' && !Array.isArray(v) ? v : { value: v };
}

/**
 * One `tool_call` step per merged tool invocation (states result/call/output-error), in message order.
 * A value that is already a `Trajectory` is returned as is.
 *
 * @example
 * ```ts
 * toTrajectory(run.output).steps.map((s) => s.name); // ['search', 'summarize']
 * ```
 */
export function toTrajectory(output: unknown): Trajectory {
  if (output !== null && typeof output === 'object' && !Array.isArray(output) && Array.isArray((output as Trajectory).steps)) {
    return output as Trajectory;
  }
  const steps: TrajectoryStep[] = [];
  if (Array.isArray(output)) {
    for (const message of output) {
      for (const inv of mergeToolInvocations(message)) {
        if (typeof inv.toolName !== 'string' || !KEEP.has(inv.state ?? '')) continue;
        const step: TrajectoryStep = {
          stepType: 'tool_call',
          name: inv.toolName,
          toolArgs: wrap(inv.args),
          success: inv.state === 'result' && inv.isError !== true,
        };
        if (inv.state === 'result') step.toolResult = wrap(inv.result);
        steps.push(step);
      }
    }
    return { steps, rawOutput: output as unknown[] };
  }
  return { steps };
}
