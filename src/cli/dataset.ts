/**
 * `tracejudge score --dataset FILE`: offline evaluation of a JSON-lines dataset of
 * `{ input, output?, groundTruth? }` items with every configured scorer, through `runEvals`.
 * Sampling does not apply (items have no trace id). Items without `output` are reported and left out
 * (there is no target agent to produce one).
 */
import { readFileSync } from 'node:fs';
import type { ConfiguredScorer } from '../pipeline/configured-scorer.js';
import { labelFor } from '../pipeline/configured-scorer.js';
import { runEvals, type EvalItem } from '../scorers/core/run-evals.js';
import type { ScorerLike } from '../scorers/core/types.js';
import { ErrorCodes, TracejudgeError } from '../errors.js';

export interface DatasetItem extends EvalItem {
  /** 1-based line in the file. */
  line: number;
}

/** A plain-text input becomes the agent run shape (SPEC §5), as an agent target would have produced it. */
function agentInput(input: unknown): unknown {
  return typeof input === 'string' ? { inputMessages: [{ role: 'user', content: input }], systemMessages: [] } : input;
}

/** A plain-text output becomes one assistant message. */
function agentOutput(output: unknown): unknown {
  return typeof output === 'string' ? [{ role: 'assistant', content: output }] : output;
}

/** Parse the dataset; every malformed line is an error naming `file:line`. */
export function readDataset(path: string): { items: DatasetItem[]; withoutOutput: number[] } {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    throw new TracejudgeError(ErrorCodes.INPUT_UNREADABLE, `${path}: cannot read dataset (${(err as NodeJS.ErrnoException).code ?? 'error'})`);
  }
  const items: DatasetItem[] = [];
  const withoutOutput: number[] = [];
  text.split('\n').forEach((raw, i) => {
    const line = raw.trim();
    if (line === '') return;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch (err) {
      throw new TracejudgeError(ErrorCodes.INPUT_MALFORMED, `${path}:${i + 1}: invalid JSON (${(err as Error).message})`);
    }
    if (value === null || typeof value !== 'object' || Array.isArray(value) || !('input' in value)) {
      throw new TracejudgeError(ErrorCodes.INPUT_MALFORMED, `${path}:${i + 1}: expected an object with "input" (and "output", "groundTruth")`);
    }
    const v = value as { input: unknown; output?: unknown; groundTruth?: unknown };
    if (v.output === undefined) {
      withoutOutput.push(i + 1);
      return;
    }
    items.push({ line: i + 1, input: agentInput(v.input), output: agentOutput(v.output), ...(v.groundTruth !== undefined ? { groundTruth: v.groundTruth } : {}) });
  });
  return { items, withoutOutput };
}

/** The scorer under its configured name, so results are keyed by name (two scorers may share a type). */
function named(s: ConfiguredScorer): ScorerLike {
  const inner = s.scorer;
  return {
    id: s.name,
    name: s.name,
    description: inner.description,
    type: inner.type,
    hasJudge: inner.hasJudge,
    run: (input, options) => inner.run(input, options),
    getSteps: () => inner.getSteps(),
  };
}

export interface DatasetLine {
  line: number;
  scorer: string;
  score?: number;
  label?: 'pass' | 'fail';
  threshold: number;
  reason?: string;
  notScorable?: string;
}

/** Score the dataset; `onLine` receives one result per item and scorer, in item order. */
export async function scoreDataset(
  items: readonly DatasetItem[],
  scorers: readonly ConfiguredScorer[],
  concurrency: number,
  onLine: (line: DatasetLine) => void,
): Promise<Awaited<ReturnType<typeof runEvals>>> {
  const usable = scorers.filter((s) => s.input === 'agent');
  const byName = new Map(usable.map((s) => [s.name, s]));
  return runEvals({
    data: items,
    scorers: usable.map(named),
    concurrency,
    onItemComplete: ({ item, scorerResults }) => {
      for (const [name, r] of Object.entries(scorerResults)) {
        const s = byName.get(name) as ConfiguredScorer;
        const out: DatasetLine = { line: item.line, scorer: name, threshold: s.threshold };
        if (typeof r.score === 'number') {
          out.score = r.score;
          out.label = labelFor(r.score, s.threshold, s.lowerIsBetter);
        }
        if (typeof r.reason === 'string') out.reason = r.reason;
        if (r.notScorable) out.notScorable = r.notScorable.reason ?? r.notScorable.step;
        onLine(out);
      }
    },
  });
}
