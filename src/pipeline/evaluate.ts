/**
 * One evaluation: one configured scorer on one agent run, producing a score record, an error record,
 * or "not applicable" (no record, counted as skipped). Never throws.
 */
import { evaluationIdFor } from '../emit/evaluation-id.js';
import type { ScoreRecord } from '../model/score-record.js';
import { errorMessage } from '../errors.js';
import type { AgentRunContext } from '../model/agent-run.js';
import { hasInputText, hasOutputText } from '../extract/empty-runs.js';
import type { SourceKind } from '../model/span.js';
import { LIVE_RUN_KEY } from '../scorers/llm/shared.js';
import type { JudgePorts } from '../scorers/core/scorer.js';
import { labelOf, scorerVersionOf, wantsReason, type ConfiguredScorer } from '../scorers/descriptor.js';
import type { Secrets } from '../telemetry/log.js';

export type EvaluationOutcome =
  | { kind: 'record'; record: ScoreRecord }
  | { kind: 'not-applicable'; reason: string };

export interface EvaluateArgs {
  scorer: ConfiguredScorer;
  context: AgentRunContext;
  samplingRate: number;
  source: SourceKind;
  /** Output for trajectory scorers, built by the caller from the run's spans. */
  trajectory?: unknown;
}

/** The type name of a failure, for `error.type`: the innermost coded cause, else its class name. */
export function errorType(err: unknown): string {
  let e: unknown = err;
  for (let i = 0; i < 5 && e instanceof Error; i++) {
    const cause = (e as { cause?: unknown }).cause;
    if (!(cause instanceof Error)) break;
    e = cause;
  }
  if (e instanceof Error) {
    const kind = (e as { kind?: unknown }).kind;
    if (typeof kind === 'string') return `judge_${kind}`;
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string') return code;
    return e.name || 'Error';
  }
  return 'Error';
}

/**
 * Why a scorer cannot judge this run, before it runs: an answer scorer needs the answer's text and the
 * question (`no-output`, `no-input`: a run whose content was not captured is never a pass), a ground-truth
 * scorer its ground truth, a trajectory scorer the run's trajectory.
 */
export function notApplicable(scorer: ConfiguredScorer, context: AgentRunContext, trajectory: unknown): string | undefined {
  if (scorer.input !== 'trajectory') {
    if (!hasOutputText(context.run) && !scorer.scoresEmptyOutput) return 'no-output';
    if (!hasInputText(context.run)) return 'no-input';
  }
  if (scorer.needsGroundTruth && context.run.groundTruth === undefined) return 'no-ground-truth';
  if (scorer.input === 'trajectory' && trajectory === undefined) return 'no-trajectory';
  return undefined;
}

/** Build the scorer run from an extracted agent run (Mastra agent shape plus live facts). */
export function scorerRunOf(context: AgentRunContext, scorer: ConfiguredScorer, trajectory: unknown) {
  const { run } = context;
  return {
    runId: `${run.traceId}:${run.spanId}`,
    input: run.input,
    output: scorer.input === 'trajectory' ? trajectory : run.output,
    groundTruth: run.groundTruth,
    requestContext: { [LIVE_RUN_KEY]: { toolResults: run.toolResults, context: run.context, agentName: run.agentName, startTime: run.startTime } },
    targetMetadata: { agentName: run.agentName },
    scoreSource: 'live' as const,
    targetScope: scorer.input === 'trajectory' ? ('trajectory' as const) : ('span' as const),
    targetTraceId: run.traceId,
    targetSpanId: run.spanId,
  };
}

/**
 * The specifics a scorer could check neither way: the length of an `unverified` list in its preprocess or
 * analyze step result (claim-grounding's, or a custom scorer's that follows the same shape); undefined when
 * the scorer reports none.
 */
export function unverifiedCount(result: { preprocessStepResult?: unknown; analyzeStepResult?: unknown }): number | undefined {
  for (const step of [result.analyzeStepResult, result.preprocessStepResult]) {
    if (typeof step === 'object' && step !== null && Array.isArray((step as { unverified?: unknown }).unverified)) {
      return (step as { unverified: unknown[] }).unverified.length;
    }
  }
  return undefined;
}

const FIELD_ORDER: readonly (keyof ScoreRecord)[] = [
  'evaluationId', 'traceId', 'spanId', 'agentName', 'parentSpanId', 'parentAgent', 'scorer', 'scorerVersion', 'score', 'label', 'threshold', 'reason',
  'unverified', 'samplingRate', 'judgeModel', 'durationMs', 'timestamp', 'source', 'error', 'startTime',
];

/** The record with its keys in the documented order (docs/records.md; readable JSON lines, no value changes). */
export function inSpecOrder(record: ScoreRecord): ScoreRecord {
  const out: Record<string, unknown> = {};
  for (const k of FIELD_ORDER) if (record[k] !== undefined) out[k] = record[k];
  return out as unknown as ScoreRecord;
}

/**
 * `inSpecOrder({ ...base, ...rest })` for disjoint `base` and `rest`, without the intermediate spread
 * object (on Node 20 each property added after a spread costs close to a microsecond).
 */
function recordOf(base: Partial<ScoreRecord>, rest: Partial<ScoreRecord>): ScoreRecord {
  const out: Record<string, unknown> = {};
  for (const k of FIELD_ORDER) {
    const v = rest[k] !== undefined ? rest[k] : base[k];
    if (v !== undefined) out[k] = v;
  }
  return out as unknown as ScoreRecord;
}

/** What every evaluation of one pipeline shares: its clock, secrets and judge resolver. */
export interface EvaluatorOptions {
  now: () => number;
  secrets: Secrets;
  /** Resolves model strings and objects that scorers name themselves (custom modules). */
  judges?: JudgePorts | undefined;
}

/** Runs evaluations (see {@link Evaluator.evaluate}). One per pipeline. */
export class Evaluator {
  #isoMs = Number.NaN;
  #isoText = '';

  constructor(private readonly options: EvaluatorOptions) {}

  /** `new Date(ms).toISOString()`, remembered for the last millisecond (evaluations come in bursts). */
  #isoAt(ms: number): string {
    if (ms !== this.#isoMs) {
      this.#isoText = new Date(ms).toISOString();
      this.#isoMs = ms;
    }
    return this.#isoText;
  }

  /** One scorer on one run: a score record, an error record, or not applicable. Never throws. */
  async evaluate(args: EvaluateArgs): Promise<EvaluationOutcome> {
    const { scorer, context, samplingRate, source } = args;
    const { now, secrets } = this.options;
    const { run } = context;
    const skip = notApplicable(scorer, context, args.trajectory);
    if (skip !== undefined) return { kind: 'not-applicable', reason: skip };

    const started = now();
    const version = scorerVersionOf(scorer);
    const base: Partial<ScoreRecord> = {
      evaluationId: evaluationIdFor(run.traceId, run.spanId, scorer.name, version),
      traceId: run.traceId,
      spanId: run.spanId,
      agentName: run.agentName,
      parentSpanId: run.parentSpanId,
      parentAgent: run.parentAgentName,
      scorer: scorer.name,
      scorerVersion: version,
      samplingRate,
      source,
      startTime: this.#isoAt(started),
      judgeModel: scorer.judgeModel ? scorer.judgeModel : undefined,
    };
    try {
      const result = await scorer.scorer.run(scorerRunOf(context, scorer, args.trajectory), {
        skipReason: (score) => !wantsReason(scorer, score),
        ...(this.options.judges ? { judges: this.options.judges } : {}),
      });
      if (result.notScorable || typeof result.score !== 'number') {
        return { kind: 'not-applicable', reason: result.notScorable?.reason ?? `not scorable at ${result.notScorable?.step ?? 'generateScore'}` };
      }
      const ended = now();
      const rest: Partial<ScoreRecord> = {
        score: result.score,
        label: labelOf(scorer, result.score),
        threshold: scorer.threshold,
        durationMs: ended - started,
        timestamp: this.#isoAt(ended),
        reason: typeof result.reason === 'string' && result.reason !== '' ? secrets.scrub(result.reason) : undefined,
        unverified: unverifiedCount(result),
      };
      return { kind: 'record', record: recordOf(base, rest) };
    } catch (err) {
      const ended = now();
      return {
        kind: 'record',
        record: recordOf(base, {
          threshold: scorer.threshold,
          durationMs: ended - started,
          timestamp: this.#isoAt(ended),
          error: { type: errorType(err), message: secrets.scrub(errorMessage(err)) },
        }),
      };
    }
  }
}
