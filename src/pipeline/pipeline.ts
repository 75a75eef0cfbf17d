/**
 * The per-trace handler behind every source: extract → sample → score → emit (the README, "Architecture").
 *
 * Code scorers run inline (cheap, deterministic) and first, so `boost` sampling rules can read their
 * scores. Judge scorers go through a bounded WorkQueue (judge concurrency, queue limit, shed-oldest), so a
 * judge outage never stalls ingestion: each evaluation ends as a score, an error record, or a counted skip.
 * `handleTrace` resolves only when every record of the trace was accepted by every output, or dropped by an
 * output's explicit, counted policy (src/emit/deliver.ts): that is what settles the trace (Kafka's offset
 * commits, the write-ahead log). While an output cannot deliver, the trace waits (holding back the sources
 * through the assembler's bounds); when the shutdown stops the wait, `handleTrace` rejects with an
 * `UndeliveredError` and the trace is left unsettled, to be redelivered or replayed after the restart.
 */
import { flushReserveMs, raceDeadline, type Component, type ComponentSettings } from '../component.js';
import type { Config } from '../config/schema.js';
import { evaluationIdFor } from '../emit/evaluation-id.js';
import { errorMessage, UndeliveredError } from '../errors.js';
import { deliver, DeliveryStop } from '../emit/deliver.js';
import { Extractor, type ExtractOptions } from '../extract/extract.js';
import type { KeyFlagTable } from '../extract/key-flags.js';
import { runBudgeted, type JudgeEconomics } from '../judge/economics/economics.js';
import type { AgentRunContext } from '../model/agent-run.js';
import type { ScoreRecord } from '../model/score-record.js';
import type { Emitter } from '../emit/emitter.js';
import type { SourceKind, Span, Trace } from '../model/span.js';
import type { SamplingPolicy } from '../sampling/policy.js';
import type { SamplingDecision } from '../sampling/types.js';
import type { JudgePorts } from '../scorers/core/scorer.js';
import { scorerVersionOf, type ConfiguredScorer } from '../scorers/descriptor.js';
import { ThrottledLog } from '../telemetry/log.js';
import { Evaluator, type EvaluateArgs, type EvaluationOutcome } from './evaluate.js';
import { isSelfRun } from './self-exclusion.js';
import { WorkQueue } from './work-queue.js';

export interface PipelineOptions {
  scorers: readonly ConfiguredScorer[];
  /** Current sampling policy (swappable for hot reload); undefined scores every run (`score --all`). */
  policy?: () => SamplingPolicy;
  emitter: Emitter;
  source: SourceKind;
  extract?: ExtractOptions;
  /** The key-family table extraction keeps across traces (the service's `settings.keyFlags`; default: the pipeline's own). */
  keyFlags?: KeyFlagTable;
  /** Judge evaluations running at once (default: judge.concurrency). */
  judgeConcurrency: number;
  /** Judge evaluations waiting; beyond it the oldest waiting one is shed as an error record. */
  maxQueuedJudgeEvaluations: number;
  /**
   * Builds the trajectory of a run for trajectory scorers (undefined: those scorers are not applicable).
   * `traceSpans` are all spans of the run's trace (a nested agent's spans are not in `context.spans`).
   */
  trajectoryOf?: (context: AgentRunContext, traceSpans: readonly Span[]) => unknown;
  /** Runs the judge's own calls produced are never scored (default: the self-exclusion marks). */
  isSelfRun?: (context: AgentRunContext) => boolean;
  /** Judge economics: budgets with fallbacks around each judge evaluation, and the judge scope. */
  economics?: JudgeEconomics;
  /**
   * Code scorers that feed boost rules (`score-below`): run on every run so the signal exists, with a
   * record only where the scorer itself was sampled.
   */
  signalScorers?: () => ReadonlySet<string>;
  /** Logger, instruments, secrets and clock. */
  settings: ComponentSettings;
  /** Resolves judge models scorers name themselves (the service's judge resolver). */
  judges?: JudgePorts;
  /**
   * Called when judge evaluations are still running close to the shutdown deadline: aborts them (they end
   * as error records), so a hanging judge cannot hold the shutdown past its deadline.
   */
  abortJudges?: () => void;
  /** Told about every run once its records were handed to the emitters (the live page, `score`'s table). */
  observers?: readonly RunObserver[];
}

/** One handled run, as {@link RunObserver}s see it. */
export interface ScoredRun {
  context: AgentRunContext;
  /** Its records (code scorers first), as emitted; empty when nothing was sampled or applicable. */
  records: readonly ScoreRecord[];
  /** The sampling decision per scorer, in scorer order (`sampled: true` for every scorer under `score --all`). */
  decisions: readonly { scorer: string; sampled: boolean; rate: number }[];
  /** Sampled evaluations that did not apply to the run (no record), with the reason (`no-output`, …). */
  skipped?: readonly { scorer: string; reason: string }[];
}

/**
 * Sees each run after its records were emitted. Called synchronously on the pipeline's path, so it must be
 * cheap and must not throw (a throw is logged and ignored).
 */
export interface RunObserver {
  runScored(run: ScoredRun): void;
}

export interface PipelineStats {
  /** Traces handed to the pipeline. */
  traces: number;
  /** Traces whose every record was delivered to every output (or dropped by policy, or skipped). */
  tracesDone: number;
  runs: number;
  records: number;
  errors: number;
  skipped: number;
  notSampled: number;
  shed: number;
  /** Judge evaluations skipped because a budget was spent and the fallback is `skip`. */
  budgetSkipped: number;
  /** Runs produced by the judge's own calls, never scored. */
  selfRuns: number;
  /** Code evaluations run only as boost signals (scorer not sampled; no record). */
  signalOnly: number;
}

/**
 * The per-trace handler, and the judge queue as a component: its shutdown waits for the queued and
 * running evaluations (the assembler has already flushed), aborting judge calls still running near the
 * deadline so the emitters keep time to flush their records.
 */
export interface Pipeline extends Component {
  handleTrace(trace: Trace): Promise<void>;
  /** Score already-extracted runs (offline `score`, runEvals over captured traces). */
  scoreRuns(contexts: readonly AgentRunContext[], source?: SourceKind, traceSpans?: readonly Span[]): Promise<ScoreRecord[]>;
  /** Resolves when no evaluation is running or queued. */
  idle(): Promise<void>;
  /** Evaluations running or queued now. */
  pending(): number;
  /**
   * Start the shutdown clock early: judge calls still running a flush reserve before `deadline` are
   * aborted. The service calls it when its shutdown begins, before intake and assembly wind down.
   */
  abortNear(deadline: number): void;
  stats(): PipelineStats;
}

const ALL: SamplingDecision = { sampled: true, rate: 1, reason: 'all' };

/** What every evaluation of one run shares. */
interface CommonArgs {
  context: AgentRunContext;
  source: SourceKind;
  trajectory: unknown;
}

/** Evaluation arguments as one literal (not `{ ...common, … }`: a spread plus added keys is slow on Node 20). */
function argsOf(common: CommonArgs, scorer: ConfiguredScorer, samplingRate: number): EvaluateArgs {
  return { scorer, context: common.context, samplingRate, source: common.source, trajectory: common.trajectory };
}

/** Options of the pipeline from the config file. */
export function pipelineOptionsFromConfig(config: Config): Pick<PipelineOptions, 'extract' | 'judgeConcurrency' | 'maxQueuedJudgeEvaluations'> {
  const extract = config.extract as ExtractOptions;
  return {
    extract,
    judgeConcurrency: config.judge.concurrency,
    maxQueuedJudgeEvaluations: Math.max(100, config.judge.concurrency * 250),
  };
}

export function createPipeline(options: PipelineOptions): Pipeline {
  const { settings } = options;
  const log = settings.logger.child({ component: 'pipeline' });
  const telemetry = settings.telemetry;
  const now = settings.now;
  const evaluator = new Evaluator({ now, secrets: settings.secrets, judges: options.judges });
  const evaluate = (args: EvaluateArgs): Promise<EvaluationOutcome> => evaluator.evaluate(args);
  const undelivered = new ThrottledLog(log, 'score records not delivered by the shutdown; their traces stay unsettled (redelivered or replayed after a restart)');
  const stop = new DeliveryStop();
  const extractFailures = new ThrottledLog(log, 'extraction failed for a trace; it is skipped');
  const extractor = new Extractor(options.extract ?? {}, options.keyFlags);
  const codeScorers = options.scorers.filter((s) => s.kind === 'code');
  const byName = new Map(options.scorers.map((s) => [s.name, s]));
  const selfRun = options.isSelfRun ?? isSelfRun;
  const judgeScorers = options.scorers.filter((s) => s.kind === 'judge');
  const needsTrajectory = options.scorers.some((s) => s.input === 'trajectory');
  const queue = new WorkQueue(Math.max(1, options.judgeConcurrency), Math.max(1, options.maxQueuedJudgeEvaluations));
  const observers = options.observers ?? [];
  const observerFailures = new ThrottledLog(log, 'a run observer failed; it is ignored');
  const observe = (run: ScoredRun): void => {
    for (const o of observers) {
      try {
        o.runScored(run);
      } catch (err) {
        observerFailures.hit(1, { err: errorMessage(err) });
      }
    }
  };
  const stats: PipelineStats = { traces: 0, tracesDone: 0, runs: 0, records: 0, errors: 0, skipped: 0, notSampled: 0, shed: 0, budgetSkipped: 0, selfRuns: 0, signalOnly: 0 };

  const decide = (
    policy: SamplingPolicy | undefined,
    context: AgentRunContext,
    scorer: ConfiguredScorer,
    codeScores: Record<string, number>,
    codeUnverified?: Record<string, number>,
  ): SamplingDecision => {
    if (!policy) return ALL;
    return policy.decide(
      { run: context.run, spans: context.spans, span: context.span, resourceAttributes: context.resourceAttributes, scorer: scorer.samplingKey, scorerKind: scorer.kind, codeScores, ...(codeUnverified ? { codeUnverified } : {}) },
      now(),
    );
  };

  const settle = (outcome: EvaluationOutcome, context: AgentRunContext, scorer: ConfiguredScorer, out: ScoreRecord[], skipped?: { scorer: string; reason: string }[]): void => {
    if (outcome.kind === 'record') {
      out.push(outcome.record);
      if (outcome.record.error) stats.errors++;
      else stats.records++;
    } else {
      stats.skipped++;
      telemetry.recordSkipped(context.run.agentName, scorer.name, outcome.reason);
      skipped?.push({ scorer: scorer.name, reason: outcome.reason });
    }
  };

  const shedRecord = (context: AgentRunContext, scorer: ConfiguredScorer, rate: number, source: SourceKind): EvaluationOutcome => {
    stats.shed++;
    const at = new Date(now()).toISOString();
    return {
      kind: 'record',
      record: {
        evaluationId: evaluationIdFor(context.run.traceId, context.run.spanId, scorer.name, scorerVersionOf(scorer)),
        traceId: context.run.traceId,
        spanId: context.run.spanId,
        agentName: context.run.agentName,
        scorer: scorer.name,
        scorerVersion: scorerVersionOf(scorer),
        threshold: scorer.threshold,
        samplingRate: rate,
        durationMs: 0,
        timestamp: at,
        source,
        ...(scorer.judgeModel ? { judgeModel: scorer.judgeModel } : {}),
        error: { type: 'shed', message: 'judge queue full: the oldest waiting evaluation was shed' },
      },
    };
  };

  /** One judge evaluation, under its budget when economics are configured. */
  async function judgeEvaluation(
    context: AgentRunContext,
    scorer: ConfiguredScorer,
    rate: number,
    common: CommonArgs,
    codeScores: Record<string, number>,
  ): Promise<{ scorer: ConfiguredScorer; outcome: EvaluationOutcome } | undefined> {
    const run = (): Promise<EvaluationOutcome> => evaluate(argsOf(common, scorer, rate));
    const economics = options.economics;
    if (!economics) return { scorer, outcome: await run() };
    const out = await runBudgeted<{ scorer: ConfiguredScorer; outcome: EvaluationOutcome }>({
      economics,
      runId: `${context.run.traceId}:${context.run.spanId}`,
      agentName: context.run.agentName,
      scorerName: scorer.name,
      evaluate: async () => ({ scorer, outcome: await run() }),
      // The fallback code scorer runs under its own name, unless it already scored this run.
      fallback: (name) => {
        const fb = byName.get(name);
        if (!fb || fb.kind !== 'code' || name in codeScores) return undefined;
        return async () => ({ scorer: fb, outcome: await evaluate(argsOf(common, fb, rate)) });
      },
    });
    if (out.kind === 'skipped') {
      stats.budgetSkipped++;
      return undefined;
    }
    return out.value;
  }

  /** A run's records in order (code first, then judge); the first `emittedEarly` were already emitted. */
  async function scoreRun(
    context: AgentRunContext,
    source: SourceKind,
    traceSpans: readonly Span[],
  ): Promise<{ records: ScoreRecord[]; emittedEarly: number; decisions: ScoredRun['decisions']; skipped: ScoredRun['skipped']; delivered: boolean }> {
    const records: ScoreRecord[] = [];
    const decisions: { scorer: string; sampled: boolean; rate: number }[] = [];
    // Kept only for observers (the live page shows skipped runs with their reason).
    const skipped: { scorer: string; reason: string }[] | undefined = observers.length > 0 ? [] : undefined;
    const codeScores: Record<string, number> = {};
    let codeUnverified: Record<string, number> | undefined;
    const note = (name: string, outcome: EvaluationOutcome): void => {
      if (outcome.kind !== 'record') return;
      if (typeof outcome.record.score === 'number') codeScores[name] = outcome.record.score;
      if (typeof outcome.record.unverified === 'number') (codeUnverified ??= {})[name] = outcome.record.unverified;
    };
    // One policy per run, so a hot reload never splits a run's decisions between two configs.
    const policy = options.policy?.();
    // Only trajectory scorers read the trajectory; building it walks the run's spans again.
    const trajectory = needsTrajectory ? options.trajectoryOf?.(context, traceSpans) : undefined;
    const common: CommonArgs = { context, source, trajectory };
    // Code scorers first: cheap, and their scores feed `boost` rules of the judge scorers.
    const signals = options.signalScorers?.();
    for (const scorer of codeScorers) {
      const decision = decide(policy, context, scorer, codeScores);
      if (observers.length > 0) decisions.push({ scorer: scorer.name, sampled: decision.sampled, rate: decision.rate });
      if (!decision.sampled) {
        stats.notSampled++;
        // A boost signal is computed anyway, for the judge scorers' decisions; it is not emitted.
        if (signals?.has(scorer.name)) {
          note(scorer.name, await evaluate(argsOf(common, scorer, decision.rate)));
          stats.signalOnly++;
        }
        continue;
      }
      const outcome = await evaluate(argsOf(common, scorer, decision.rate));
      note(scorer.name, outcome);
      settle(outcome, context, scorer, records, skipped);
    }
    const pending: Promise<void>[] = [];
    for (const scorer of judgeScorers) {
      const decision = decide(policy, context, scorer, codeScores, codeUnverified);
      if (observers.length > 0) decisions.push({ scorer: scorer.name, sampled: decision.sampled, rate: decision.rate });
      if (!decision.sampled) {
        stats.notSampled++;
        continue;
      }
      pending.push(
        queue
          .submit(
            () => judgeEvaluation(context, scorer, decision.rate, common, codeScores),
            () => ({ scorer, outcome: shedRecord(context, scorer, decision.rate, source) }),
          )
          .then((done) => {
            if (done) settle(done.outcome, context, done.scorer, records, skipped);
          }),
      );
    }
    // Code records go out now, not with the judge's: a judge outage (retries, timeouts, a backed-up queue)
    // must not hold back the cheap signals. The trace still settles only when everything was emitted.
    const emittedEarly = pending.length > 0 ? records.length : 0;
    const early = emittedEarly > 0 ? emit(records.slice()) : undefined;
    let delivered = true;
    try {
      await Promise.all(pending);
    } finally {
      if (early) delivered = await early;
    }
    return { records, emittedEarly, decisions, skipped, delivered };
  }

  /** Delivers to every output (src/emit/deliver.ts); false when the shutdown stopped it first. */
  async function emit(records: ScoreRecord[]): Promise<boolean> {
    const outcome = await deliver(options.emitter, records, stop);
    if (!outcome.delivered) undelivered.hit(records.length, { emitters: outcome.emitters, err: outcome.error });
    return outcome.delivered;
  }

  /** Scores the runs and delivers their records; `delivered` is false when some were not (shutdown). */
  async function scoreAndDeliver(contexts: readonly AgentRunContext[], source: SourceKind, traceSpans?: readonly Span[]): Promise<{ records: ScoreRecord[]; delivered: boolean }> {
    const runs = contexts.filter((c) => !selfRun(c));
    stats.selfRuns += contexts.length - runs.length;
    stats.runs += runs.length;
    if (runs.length > 0) telemetry.instruments.runsExtracted.add(runs.length, { source });
    const perRun = await Promise.all(runs.map((c) => scoreRun(c, source, traceSpans ?? c.spans)));
    const rest = await emit(perRun.flatMap((r) => r.records.slice(r.emittedEarly)));
    if (observers.length > 0) perRun.forEach((r, i) => observe({ context: runs[i] as AgentRunContext, records: r.records, decisions: r.decisions, ...(r.skipped ? { skipped: r.skipped } : {}) }));
    return { records: perRun.flatMap((r) => r.records), delivered: rest && perRun.every((r) => r.delivered) };
  }

  async function scoreRuns(contexts: readonly AgentRunContext[], source: SourceKind = options.source, traceSpans?: readonly Span[]): Promise<ScoreRecord[]> {
    return (await scoreAndDeliver(contexts, source, traceSpans)).records;
  }

  let stopping: Promise<void> | undefined;
  let abortTimer: NodeJS.Timeout | undefined;
  /** From now on, abort judge calls still running a flush reserve before `deadline` (they end as error records). */
  function abortNear(deadline: number): void {
    if (abortTimer) return;
    abortTimer = setTimeout(() => {
      if (queue.size > 0) log.warn('judge calls still running near the shutdown deadline; aborting them');
      options.abortJudges?.();
      // Records still waiting for an output now stay with their unsettled traces.
      stop.stop();
    }, Math.max(0, deadline - Date.now() - flushReserveMs(deadline)));
    abortTimer.unref();
  }
  async function shutdown(deadline: number): Promise<void> {
    abortNear(deadline);
    await raceDeadline(queue.idle(), deadline);
    clearTimeout(abortTimer);
    options.abortJudges?.();
    stop.stop();
  }

  return {
    name: 'pipeline',
    start: () => Promise.resolve(),
    shutdown(deadline) {
      stopping ??= shutdown(deadline);
      return stopping;
    },
    async handleTrace(trace) {
      stats.traces++;
      let contexts: AgentRunContext[];
      try {
        contexts = extractor.runContexts(trace);
      } catch (err) {
        // Extraction is written never to throw; this is the last line of defence.
        extractFailures.hit(1, { traceId: trace.traceId, err: errorMessage(err) });
        return;
      }
      const { delivered } = await scoreAndDeliver(contexts, trace.source, trace.spans);
      if (!delivered) throw new UndeliveredError(`trace ${trace.traceId}: score records not delivered to every output before the shutdown`);
      stats.tracesDone++;
    },
    scoreRuns,
    idle: () => queue.idle(),
    pending: () => queue.size,
    abortNear,
    stats: () => ({ ...stats }),
  };
}
