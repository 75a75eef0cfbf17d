/**
 * Mastra 0.x's Metric API (docs/mastra-compat.md): `new XMetric(...).measure(input, output)` → `{ score, info }`.
 * Each legacy metric here runs a scorer of this package on a one-turn agent run built from the two strings, so the
 * scores come from the same engine as everywhere else; `info` is read from the scorer's step results.
 */
import { ErrorCodes, TracejudgeError } from '../../errors.js';
import { agentInput, assistantMessage } from '../../model/messages.js';
import type { ScorerLike, ScorerRunResult } from '../core/types.js';

/** What `measure()` resolves to (Mastra 0.x `MetricResult`). */
export interface MetricResult {
  score: number;
  info?: Record<string, unknown>;
}

/** The result of the judge-based legacy metrics: `info.reason` explains the score. */
export interface MetricResultWithReason extends MetricResult {
  info: { reason: string } & Record<string, unknown>;
}

/**
 * The base class of legacy metrics (Mastra 0.x `import { Metric } from '@mastra/core/eval'`). Extend it for a
 * custom metric.
 *
 * @example
 * ```ts
 * class LengthMetric extends Metric {
 *   async measure(input: string, output: string) { return { score: output.length <= 200 ? 1 : 0, info: { length: output.length } }; }
 * }
 * ```
 */
export abstract class Metric {
  abstract measure(input: string, output: string): Promise<MetricResult>;
}

/** A `TJ_USAGE` error for a misused legacy metric: `<where>: <problem>`. */
export function legacyUsage(where: string, problem: string): TracejudgeError {
  return new TracejudgeError(ErrorCodes.USAGE, `${where}: ${problem}`);
}

type Obj = Record<string, unknown>;

function isObj(v: unknown): v is Obj {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

/** Check `measure(input, output)` arguments: both strings. */
export function checkMeasureArgs(metric: string, input: unknown, output: unknown): void {
  if (typeof input !== 'string') throw legacyUsage(`${metric}.measure(input, output)`, `input must be a string, got ${input === null ? 'null' : typeof input}`);
  if (typeof output !== 'string') throw legacyUsage(`${metric}.measure(input, output)`, `output must be a string, got ${output === null ? 'null' : typeof output}`);
}

/**
 * The scorer run for `measure(input, output)`: `input` as the user message, `output` as the assistant answer.
 *
 * @example
 * ```ts
 * legacyRun('What is AI?', 'AI is …').output[0]?.role; // 'assistant'
 * ```
 */
export function legacyRun(input: string, output: string) {
  return { input: agentInput(input), output: [assistantMessage(output, [], { id: 'msg-1' })] };
}

/**
 * Run `scorer` and require a numeric score. A not-scorable result is a `TJ_SCORER_FAILED` error (a legacy
 * metric always returns a number); scorer failures propagate as thrown by the scorer (`ScorerRunError`).
 */
export async function runForScore(metric: string, scorer: ScorerLike, run: Parameters<ScorerLike['run']>[0]): Promise<ScorerRunResult & { score: number }> {
  const r = await scorer.run(run);
  if (typeof r.score !== 'number') {
    const why = r.notScorable?.reason ? `: ${r.notScorable.reason}` : '';
    throw new TracejudgeError(ErrorCodes.SCORER_FAILED, `${metric}.measure: scorer ${scorer.id} declared the run not scorable${why}`);
  }
  return r;
}

/** The constructor arguments of a judge metric: `(model, options)`, or the older `({ model, ...options })`. */
export function modelAndOptions<O extends object>(metric: string, first: unknown, second: O | undefined): { model: unknown; options: Partial<O> } {
  const looksLikeOptions = isObj(first) && 'model' in first && typeof first.doGenerate !== 'function' && typeof first.generateObject !== 'function';
  const model = looksLikeOptions ? first.model : first;
  const options = (looksLikeOptions ? first : (second ?? {})) as Partial<O>;
  const where = `new ${metric}(model, options)`;
  if (model === undefined || model === null || (typeof model !== 'string' && typeof model !== 'object')) {
    throw legacyUsage(where, `model must be an AI SDK model object or a model string such as "openai/gpt-4o-mini", got ${model === null ? 'null' : typeof model}`);
  }
  if (typeof model === 'string' && model === '') throw legacyUsage(where, 'model must not be an empty string');
  if (!isObj(options)) throw legacyUsage(where, 'options must be an object');
  return { model, options };
}

/** `options.scale`: absent, or a positive finite number. */
export function checkScale(metric: string, scale: unknown): number | undefined {
  if (scale === undefined) return undefined;
  if (typeof scale !== 'number' || !Number.isFinite(scale) || scale <= 0) {
    throw legacyUsage(`new ${metric}(model, options)`, `options.scale must be a positive number, got ${typeof scale === 'number' ? scale : scale === null ? 'null' : typeof scale}`);
  }
  return scale;
}

/** A required, non-empty list of strings (`options.context`, `options.instructions`). */
export function checkStrings(metric: string, name: string, v: unknown): string[] {
  if (!Array.isArray(v) || v.length === 0 || !v.every((s) => typeof s === 'string')) {
    throw legacyUsage(`new ${metric}(model, options)`, `options.${name} must be a non-empty array of strings`);
  }
  return [...v] as string[];
}

/** The reason of a judge scorer's result ('' when its reason step was skipped). */
export function reasonOf(r: ScorerRunResult): string {
  return typeof r.reason === 'string' ? r.reason : '';
}
