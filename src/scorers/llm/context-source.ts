/** Context options shared by the context-* scorers (docs/scorers.md). */
import type { PreparedRun } from '../core/types.js';
import { isAgentInput } from './run-text.js';

export interface ContextSourceOptions {
  /** Static context pieces. Must not be an empty array. */
  context?: string[];
  /** Reads context from agent-shaped input/output (ignored for other shapes). */
  contextExtractor?: (input: unknown, output: unknown) => string[];
  /** tracejudge extension (the service's live default context); wins over the others. */
  getContext?: (params: { run: PreparedRun }) => string[] | Promise<string[]>;
}

/** Construction checks of the reference: some context source is required, and `context` may not be `[]`. */
export function checkContextOptions(scorer: string, o: ContextSourceOptions): void {
  if (!o.getContext && !o.context && !o.contextExtractor) throw new Error(`${scorer}: either context or contextExtractor is required`);
  if (o.context && o.context.length === 0) throw new Error(`${scorer}: context array cannot be empty if provided`);
}

/** Context for a run: `getContext`, else `contextExtractor` on agent-shaped runs, else `context ?? []`. */
export async function resolveContext(o: ContextSourceOptions, run: PreparedRun): Promise<string[]> {
  if (o.getContext) return o.getContext({ run });
  if (o.contextExtractor && isAgentInput(run.input) && Array.isArray(run.output)) return o.contextExtractor(run.input, run.output);
  return o.context ?? [];
}
