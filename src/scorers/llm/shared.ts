/**
 * What every LLM scorer shares: run text, the `scale` rule, the live default context and judge wiring.
 */
import type { JudgeConfig, PreparedRun } from '../core/types.js';
import { withDataRule } from './fence.js';
import { extractToolResults, getAssistantMessageFromRunOutput, getUserMessageFromRunInput } from './run-text.js';

/** A judge model: a `JudgeModelPort`, an AI SDK language model object, or a model string (`openai/gpt-4o-mini`). */
export type JudgeModel = unknown;

/**
 * Key under `run.requestContext` where the service puts facts of the extracted agent run that are not in
 * the Mastra run shape: `{ toolResults, context }` (docs/records.md, "The agent run"). Library users may set it too.
 */
export const LIVE_RUN_KEY = 'tracejudge.run';

/** Facts of an agent run under {@link LIVE_RUN_KEY}. */
export interface LiveRunFacts {
  toolResults?: ReadonlyArray<{ toolName: string; result: unknown }>;
  /** Retrieved document texts. */
  context?: readonly string[];
}

/** The reference's `scale` rule: `options.scale || 1` (so 0 acts as 1). */
export const scaleOf = (scale: number | undefined): number => scale || 1;

/** "Input text": the first user message, or ''. */
export const inputTextOf = (run: { input?: unknown }): string => getUserMessageFromRunInput(run.input) ?? '';
/** "Output text": the last assistant message with text, or ''. */
export const outputTextOf = (run: { output: unknown }): string => getAssistantMessageFromRunOutput(run.output) ?? '';

function factsOf(requestContext: unknown): LiveRunFacts | undefined {
  if (requestContext === null || typeof requestContext !== 'object') return undefined;
  const rc = requestContext as { get?: unknown } & Record<string, unknown>;
  const v: unknown = typeof rc.get === 'function' ? (rc.get as (k: string) => unknown).call(rc, LIVE_RUN_KEY) : rc[LIVE_RUN_KEY];
  return v !== null && typeof v === 'object' ? (v) : undefined;
}

/**
 * The live default context: the run's tool results (`JSON.stringify({ tool, result })` each), then its
 * retrieved documents, then `staticContext`. Tool results come from `requestContext[LIVE_RUN_KEY]` when the
 * service set them, else from the output messages (`extractToolResults`).
 *
 * @example
 * ```ts
 * createHallucinationScorer({ model, options: { getContext: ({ run }) => liveContext(run, ['policy text']) } });
 * ```
 */
export function liveContext(run: Pick<PreparedRun, 'output' | 'requestContext'>, staticContext: readonly string[] = []): string[] {
  const facts = factsOf(run.requestContext);
  const tools = facts?.toolResults ?? extractToolResults(run.output);
  return [...tools.map((t) => JSON.stringify({ tool: t.toolName, result: t.result })), ...(facts?.context ?? []), ...staticContext];
}

/** The scorer-level judge: `model` plus the instructions with the untrusted-data rule appended. */
export function judgeConfig(model: JudgeModel, instructions: string): JudgeConfig {
  return { model, instructions: withDataRule(instructions) };
}

/** Reason prompt tail shared by every scorer: use the given score, be brief, fixed opening. */
export const REASON_FORMAT =
  'Do not recompute or question the score; explain it. Be concise: two or three sentences. Start with "The score is {score} because".';

/** The reference's rounding: `Math.round((x + Number.EPSILON) * 100) / 100`. */
export const round2 = (x: number): number => Math.round((x + Number.EPSILON) * 100) / 100;

/** Clamp to [0, 1]. */
export const clamp01 = (x: number): number => (x < 0 ? 0 : x > 1 ? 1 : x);
