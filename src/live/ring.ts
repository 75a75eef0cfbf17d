/**
 * The live page's data: a bounded, in-memory ring of the newest evaluations (each with an excerpt of its
 * run) and per-minute counts per agent and scorer over `live.windowMinutes`, fed by the pipeline as a
 * {@link RunObserver}. Nothing is written anywhere: a restart starts empty (docs/live-page.md).
 *
 * Bounds: `live.maxEvaluations` evaluations, `windowMinutes` minute buckets per agent, `live.maxAgents` agent
 * names (later ones are counted as `other`); excerpts are short (src/live/excerpt.ts). The work per run is a
 * few map updates and one excerpt, on the pipeline's path.
 */
import type { Component } from '../component.js';
import type { LiveConfig } from '../config/sections/live.js';
import type { JudgeEconomics } from '../judge/economics/economics.js';
import type { ScoreRecord } from '../model/score-record.js';
import type { RunObserver, ScoredRun } from '../pipeline/pipeline.js';
import { emptyRunWarning } from '../extract/empty-runs.js';
import { SKIP_REASONS } from '../telemetry/instruments.js';
import { runExcerpt, type RunExcerpt } from './excerpt.js';
import { failRateOf, meanOf, OTHER_AGENT, Tally } from './tally.js';
import { traceUrl } from './trace-url.js';

const MINUTE_MS = 60_000;

/** One evaluation as the page and `/api/evaluations` show it. */
export interface LiveEvaluation {
  evaluationId: string;
  /** RFC 3339, when the evaluation finished. */
  timestamp: string;
  agent: string;
  scorer: string;
  score?: number;
  label?: 'pass' | 'fail';
  threshold?: number;
  reason?: string;
  /** Specifics of the answer the scorer could check neither way (the record's `unverified`). */
  unverified?: number;
  error?: { type: string; message: string };
  traceId: string;
  spanId: string;
  /** From `live.traceUrlTemplate`, when set. */
  traceUrl?: string;
  durationMs: number;
  samplingRate: number;
  judgeModel?: string;
  /** Excerpts of the run, kept for runs with a failing or unscored evaluation (the page shows those). */
  run?: RunExcerpt;
  /** The run has no agent span (LLM calls alone): `agent` is then the name of its top-level span. */
  noAgentSpan?: true;
}

/** What a scorer in the ring is (from the configured scorers). */
export interface LiveScorerInfo {
  name: string;
  kind: 'code' | 'judge';
  threshold: number;
  direction: 'higher' | 'lower';
}

interface MinuteCounts {
  evaluations: number;
  scored: number;
  sum: number;
  fails: number;
  unscored: number;
  /** Scored evaluations that left specifics unverified (`unverified` above 0). */
  unverified: number;
  /** Sampling decisions made for this scorer, and how many said "score". */
  seen: number;
  sampled: number;
  /** Rate of the last decision. */
  rate: number;
  /** Sampled evaluations that did not apply (no record), per reason (`no_output`, …, as the metric's label). */
  skips?: Map<string, number>;
}

interface MinuteBucket {
  minute: number;
  runs: number;
  /** Runs with at least one skipped evaluation. */
  skippedRuns: number;
  scorers: Map<string, MinuteCounts>;
}

/** Per agent and scorer over the window: the page's "Agents" and "Sampling and cost" rows. */
export interface LiveScorerSummary {
  name: string;
  kind?: 'code' | 'judge';
  threshold?: number;
  direction?: 'higher' | 'lower';
  evaluations: number;
  scored: number;
  mean: number | null;
  failRate: number | null;
  fails: number;
  unscored: number;
  /** Scored evaluations that left specifics of the answer unverified (scorers that report it). */
  unverified: number;
  /** Mean score per minute, oldest first, `null` for a minute without scores (length `trendMinutes`). */
  trend: (number | null)[];
  sampling: { seen: number; sampled: number; effectiveRate: number | null; rate: number | null };
  /** Sampled evaluations that did not apply to the run, per reason (`no_output`, `no_input`, …). */
  skipped: Record<string, number>;
  /** Judge calls since start (judge scorers with a judge; from the judge economics). */
  judge?: { requests: number; inputTokens: number; outputTokens: number; costUsd: number };
  /** Use of each matching `economics.budgets` allowance in its current window. */
  budgets?: { rule: number; window: 'hour' | 'day'; resource: 'tokens' | 'requests'; used: number; limit: number; fallback: string }[];
}

export interface LiveAgentSummary {
  name: string;
  /** Runs in the window, and per minute over the minutes the window has covered so far. */
  runs: number;
  runsPerMinute: number;
  /** Since start (not bounded by the window). */
  totalRuns: number;
  /** Fails of all its scorers in the window (agents are listed by this, most first). */
  fails: number;
  /** Runs in the window with at least one skipped evaluation. */
  skippedRuns: number;
  /**
   * Why its runs were skipped and how to fix it, per convention: the newest `extract --explain` warning for a
   * run with no input or output text (src/extract/empty-runs.ts).
   */
  skipHints: { convention: string; hint: string }[];
  scorers: LiveScorerSummary[];
}

export interface LiveSummary {
  generatedAt: string;
  startedAt: string;
  windowMinutes: number;
  trendMinutes: number;
  maxEvaluations: number;
  /** Evaluations held now (at most `maxEvaluations`, none older than the window). */
  heldEvaluations: number;
  /** Always true: the ring is in memory and a restart empties it. */
  inMemory: true;
  totals: { runs: number; evaluations: number; fails: number; unscored: number; skippedRuns: number };
  /** Agent runs, failing agents first (most fails first), then by name; `other` last. */
  agents: LiveAgentSummary[];
  /**
   * Runs with no agent span (LLM calls outside any agent), by the name of their top-level span (often the LLM
   * call's, such as `openai.chat`): scored, but not agents, so not listed among them. Same order.
   */
  withoutAgent: LiveAgentSummary[];
  /** `live.traceUrlTemplate` is set (the page hints at it otherwise). */
  traceLinks: boolean;
}

export interface EvaluationQuery {
  /** `fail` (scored and failed), `error` (no score), `pass`, or all when absent. */
  label?: 'pass' | 'fail' | 'error';
  agent?: string;
  scorer?: string;
  /** Newest first, at most this many (default 50, at most `maxEvaluations`). */
  limit?: number;
}

export interface LiveRingOptions {
  config: LiveConfig;
  now: () => number;
  /** The configured scorers (ordering and kinds on the page). */
  scorers?: readonly LiveScorerInfo[];
  /** Judge requests, cost and budget use per agent and scorer. */
  economics?: JudgeEconomics;
}

/** The trend shows this many minutes at most (the window may be longer). */
export const TREND_MINUTES = 30;

export class LiveRing implements Component, RunObserver {
  readonly name = 'live-ring';
  readonly #config: LiveConfig;
  readonly #now: () => number;
  readonly #scorers: ReadonlyMap<string, LiveScorerInfo>;
  readonly #economics: JudgeEconomics | undefined;
  /** Fixed-size ring: `#next` is where the next evaluation goes; `#count` how many slots are filled. */
  readonly #slots: (LiveEvaluation | undefined)[];
  #next = 0;
  #count = 0;
  readonly #minutes = new Map<string, MinuteBucket[]>();
  /** Runs without an agent span, by top-level span name (bounded like agents). */
  readonly #withoutAgent = new Map<string, MinuteBucket[]>();
  /** Newest skip hint per agent and convention, with its minute (dropped with the window). */
  readonly #hints = new Map<string, Map<string, { hint: string; minute: number }>>();
  readonly #totals: Tally;
  readonly #startedAt: number;

  constructor(options: LiveRingOptions) {
    this.#config = options.config;
    this.#now = options.now;
    this.#scorers = new Map((options.scorers ?? []).map((s) => [s.name, s]));
    this.#economics = options.economics;
    this.#slots = new Array<LiveEvaluation | undefined>(options.config.maxEvaluations);
    this.#totals = new Tally(options.config.maxAgents);
    this.#startedAt = options.now();
  }

  start(): Promise<void> {
    return Promise.resolve();
  }

  /** Nothing to flush: the ring is memory only. */
  shutdown(): Promise<void> {
    return Promise.resolve();
  }

  /** Totals since start, per agent and scorer (the demo's terminal summary). */
  get totals(): Tally {
    return this.#totals;
  }

  runScored({ context, records, decisions, skipped }: ScoredRun): void {
    const now = this.#now();
    const minute = Math.floor(now / MINUTE_MS);
    const noAgentSpan = context.noAgentSpan === true;
    const groups = noAgentSpan ? this.#withoutAgent : this.#minutes;
    const agent = this.#agentKey(groups, context.run.agentName);
    const bucket = this.#bucket(groups, agent, minute);
    bucket.runs++;
    if (skipped && skipped.length > 0) {
      bucket.skippedRuns++;
      let hinted = false;
      for (const k of skipped) {
        const c = this.#counts(bucket, k.scorer);
        const why = skipLabel(k.reason);
        (c.skips ??= new Map<string, number>()).set(why, (c.skips.get(why) ?? 0) + 1);
        if (!hinted && (k.reason === 'no-output' || k.reason === 'no-input')) {
          hinted = true;
          // The ring does not know how many log records arrived for the trace, so that clause is left out (1).
          const hint = emptyRunWarning(context.run, 1);
          if (hint !== undefined && !noAgentSpan) {
            let byConvention = this.#hints.get(agent);
            if (!byConvention) this.#hints.set(agent, (byConvention = new Map<string, { hint: string; minute: number }>()));
            byConvention.set(context.run.convention, { hint, minute });
          }
        }
      }
    }
    for (const d of decisions) {
      const c = this.#counts(bucket, d.scorer);
      c.seen++;
      if (d.sampled) c.sampled++;
      c.rate = d.rate;
    }
    for (const r of records) {
      const c = this.#counts(bucket, r.scorer);
      c.evaluations++;
      if (typeof r.score !== 'number') c.unscored++;
      else {
        c.scored++;
        c.sum += r.score;
        if (r.label === 'fail') c.fails++;
        if ((r.unverified ?? 0) > 0) c.unverified++;
      }
    }
    this.#totals.addRun(context.run.agentName, records);
    if (records.length === 0) return;
    // Most runs pass: their excerpt would cost more than the rest of this method, and the page never shows it.
    const run = records.some((r) => r.label !== 'pass') ? runExcerpt(context.run) : undefined;
    for (const r of records) {
      const e = this.#evaluation(r, run);
      if (noAgentSpan) e.noAgentSpan = true;
      this.#push(e);
    }
  }

  /** Newest first, filtered; never older than the window. */
  evaluations(query: EvaluationQuery = {}): LiveEvaluation[] {
    const limit = Math.max(0, Math.min(query.limit ?? 50, this.#config.maxEvaluations));
    const oldest = this.#now() - this.#config.windowMinutes * MINUTE_MS;
    const out: LiveEvaluation[] = [];
    const size = this.#slots.length;
    for (let i = 1; i <= this.#count && out.length < limit; i++) {
      const e = this.#slots[(this.#next - i + size) % size];
      if (!e) continue;
      // Records of one run arrive together, so timestamps are only nearly ordered: skip, do not stop.
      if (Date.parse(e.timestamp) < oldest) continue;
      if (query.agent !== undefined && e.agent !== query.agent) continue;
      if (query.scorer !== undefined && e.scorer !== query.scorer) continue;
      if (query.label === 'error' ? e.error === undefined : query.label !== undefined && e.label !== query.label) continue;
      out.push(e);
    }
    return out;
  }

  summary(): LiveSummary {
    const now = this.#now();
    const nowMinute = Math.floor(now / MINUTE_MS);
    const window = this.#config.windowMinutes;
    const trendMinutes = Math.min(window, TREND_MINUTES);
    this.#prune(nowMinute);
    const totals = { runs: 0, evaluations: 0, fails: 0, unscored: 0, skippedRuns: 0 };
    // Minutes the window has covered so far (at least one), for a fair runs-per-minute at start.
    const coveredMinutes = Math.max(1, Math.min(window, (now - this.#startedAt) / MINUTE_MS));
    const groups = (from: Map<string, MinuteBucket[]>, agentRuns: boolean): LiveAgentSummary[] => {
      const out: LiveAgentSummary[] = [];
      for (const [name, buckets] of from) {
        const a = this.#groupSummary(name, buckets, nowMinute, trendMinutes, coveredMinutes, agentRuns);
        out.push(a);
        totals.runs += a.runs;
        totals.skippedRuns += a.skippedRuns;
        totals.fails += a.fails;
        for (const r of a.scorers) {
          totals.evaluations += r.evaluations;
          totals.unscored += r.unscored;
        }
      }
      return out.sort(byFailsThenName);
    };
    const agents = groups(this.#minutes, true);
    const withoutAgent = groups(this.#withoutAgent, false);
    return {
      generatedAt: new Date(now).toISOString(),
      startedAt: new Date(this.#startedAt).toISOString(),
      windowMinutes: window,
      trendMinutes,
      maxEvaluations: this.#config.maxEvaluations,
      heldEvaluations: this.evaluations({ limit: this.#config.maxEvaluations }).length,
      inMemory: true,
      totals,
      agents,
      withoutAgent,
      traceLinks: this.#config.traceUrlTemplate !== undefined,
    };
  }

  /** One agent's (or one span name's) rows over the window. */
  #groupSummary(name: string, buckets: readonly MinuteBucket[], nowMinute: number, trendMinutes: number, coveredMinutes: number, agentRuns: boolean): LiveAgentSummary {
    let runs = 0;
    let skippedRuns = 0;
    const scorers = new Map<string, { all: MinuteCounts; trend: (number | null)[] }>();
    for (const b of buckets) {
      runs += b.runs;
      skippedRuns += b.skippedRuns;
      for (const [scorer, c] of b.scorers) {
        let s = scorers.get(scorer);
        if (!s) scorers.set(scorer, (s = { all: emptyMinute(), trend: new Array<number | null>(trendMinutes).fill(null) }));
        addMinute(s.all, c);
        const slot = trendMinutes - 1 - (nowMinute - b.minute);
        if (slot >= 0 && c.scored > 0) s.trend[slot] = c.sum / c.scored;
      }
    }
    const rows = [...scorers].sort(([a], [b]) => this.#scorerOrder(a) - this.#scorerOrder(b) || a.localeCompare(b)).map(([scorer, s]) => this.#scorerSummary(name, scorer, s.all, s.trend));
    const total = agentRuns ? this.#totals.agents().find(([n]) => n === name)?.[1] : undefined;
    const skipHints = agentRuns ? [...(this.#hints.get(name) ?? [])].map(([convention, h]) => ({ convention, hint: h.hint })) : [];
    const fails = rows.reduce((n, r) => n + r.fails, 0);
    return { name, runs, runsPerMinute: runs / coveredMinutes, totalRuns: total?.runs ?? runs, fails, skippedRuns, skipHints, scorers: rows };
  }

  #scorerOrder(name: string): number {
    let i = 0;
    for (const key of this.#scorers.keys()) {
      if (key === name) return i;
      i++;
    }
    return i;
  }

  #scorerSummary(agent: string, scorer: string, c: MinuteCounts, trend: (number | null)[]): LiveScorerSummary {
    const info = this.#scorers.get(scorer);
    const out: LiveScorerSummary = {
      name: scorer,
      ...(info ? { kind: info.kind, threshold: info.threshold, direction: info.direction } : {}),
      evaluations: c.evaluations,
      scored: c.scored,
      mean: meanOf(c) ?? null,
      failRate: failRateOf(c) ?? null,
      fails: c.fails,
      unscored: c.unscored,
      unverified: c.unverified,
      trend,
      sampling: { seen: c.seen, sampled: c.sampled, effectiveRate: c.seen > 0 ? c.sampled / c.seen : null, rate: c.seen > 0 ? c.rate : null },
      skipped: c.skips ? Object.fromEntries(c.skips) : {},
    };
    const economics = this.#economics;
    if (economics && info?.kind === 'judge') {
      const judge = { requests: 0, inputTokens: 0, outputTokens: 0, costUsd: 0 };
      for (const [key, t] of Object.entries(economics.accounting.totals())) {
        const [a, s] = key.split('|');
        if (a !== agent || s !== scorer) continue;
        judge.requests += t.requests;
        judge.inputTokens += t.inputTokens;
        judge.outputTokens += t.outputTokens;
        judge.costUsd += t.costUsd;
      }
      out.judge = judge;
      if (agent !== OTHER_AGENT) out.budgets = economics.budgets.usage(agent, scorer);
    }
    return out;
  }

  /** The page's view of a record (assigned key by key: conditional spreads are slow on the pipeline's path). */
  #evaluation(r: ScoreRecord, run: RunExcerpt | undefined): LiveEvaluation {
    const e: LiveEvaluation = {
      evaluationId: r.evaluationId,
      timestamp: r.timestamp,
      agent: r.agentName,
      scorer: r.scorer,
      traceId: r.traceId,
      spanId: r.spanId,
      durationMs: r.durationMs,
      samplingRate: r.samplingRate,
    };
    if (run) e.run = run;
    if (r.score !== undefined) e.score = r.score;
    if (r.label !== undefined) e.label = r.label;
    if (r.threshold !== undefined) e.threshold = r.threshold;
    if (r.reason !== undefined) e.reason = r.reason;
    if (r.unverified !== undefined) e.unverified = r.unverified;
    if (r.error) e.error = r.error;
    if (r.judgeModel !== undefined) e.judgeModel = r.judgeModel;
    if (this.#config.traceUrlTemplate !== undefined) e.traceUrl = traceUrl(this.#config.traceUrlTemplate, r.traceId, r.spanId);
    return e;
  }

  #push(e: LiveEvaluation): void {
    this.#slots[this.#next] = e;
    this.#next = (this.#next + 1) % this.#slots.length;
    if (this.#count < this.#slots.length) this.#count++;
  }

  #agentKey(groups: Map<string, MinuteBucket[]>, agentName: string): string {
    if (groups.has(agentName) || groups.size < this.#config.maxAgents) return agentName;
    return OTHER_AGENT;
  }

  #bucket(groups: Map<string, MinuteBucket[]>, agent: string, minute: number): MinuteBucket {
    let buckets = groups.get(agent);
    if (!buckets) groups.set(agent, (buckets = []));
    const last = buckets[buckets.length - 1];
    if (last && last.minute === minute) return last;
    // A clock step backwards keeps counting into the newest bucket rather than reordering the list.
    if (last && last.minute > minute) return last;
    const b: MinuteBucket = { minute, runs: 0, skippedRuns: 0, scorers: new Map() };
    buckets.push(b);
    if (buckets.length > this.#config.windowMinutes) buckets.splice(0, buckets.length - this.#config.windowMinutes);
    return b;
  }

  #counts(bucket: MinuteBucket, scorer: string): MinuteCounts {
    let c = bucket.scorers.get(scorer);
    if (!c) bucket.scorers.set(scorer, (c = emptyMinute()));
    return c;
  }

  /** Drop minute buckets older than the window (agents with none left disappear from the page). */
  #prune(nowMinute: number): void {
    const first = nowMinute - this.#config.windowMinutes + 1;
    for (const groups of [this.#minutes, this.#withoutAgent]) {
      for (const [agent, buckets] of groups) {
        let drop = 0;
        while (drop < buckets.length && (buckets[drop] as MinuteBucket).minute < first) drop++;
        if (drop > 0) buckets.splice(0, drop);
        if (buckets.length === 0) groups.delete(agent);
      }
    }
    for (const [agent, byConvention] of this.#hints) {
      for (const [convention, h] of byConvention) if (h.minute < first) byConvention.delete(convention);
      if (byConvention.size === 0 || !this.#minutes.has(agent)) this.#hints.delete(agent);
    }
  }
}

function emptyMinute(): MinuteCounts {
  return { evaluations: 0, scored: 0, sum: 0, fails: 0, unscored: 0, unverified: 0, seen: 0, sampled: 0, rate: 0 };
}

function addMinute(into: MinuteCounts, c: MinuteCounts): void {
  into.evaluations += c.evaluations;
  into.scored += c.scored;
  into.sum += c.sum;
  into.fails += c.fails;
  into.unscored += c.unscored;
  into.unverified += c.unverified;
  if (c.skips) for (const [why, n] of c.skips) (into.skips ??= new Map<string, number>()).set(why, (into.skips.get(why) ?? 0) + n);
  into.seen += c.seen;
  into.sampled += c.sampled;
  // The newest bucket comes last, so the last decision's rate wins.
  if (c.seen > 0) into.rate = c.rate;
}


/** The skip reason as the metric labels it (`no_output`, …; a scorer's own reason is `not_scorable`). */
function skipLabel(reason: string): string {
  return (SKIP_REASONS as readonly string[]).includes(reason) ? reason.replace(/-/g, '_') : 'not_scorable';
}

/** Most fails first, then by name; `other` last. */
function byFailsThenName(a: LiveAgentSummary, b: LiveAgentSummary): number {
  if (a.name === OTHER_AGENT || b.name === OTHER_AGENT) return a.name === b.name ? 0 : a.name === OTHER_AGENT ? 1 : -1;
  return b.fails - a.fails || a.name.localeCompare(b.name);
}
