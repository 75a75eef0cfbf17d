/**
 * The live page's ring (src/live/ring.ts) and run excerpts (src/live/excerpt.ts), on a hand-set clock: its
 * bounds (evaluations, window, agents), the summary's numbers against hand-computed ones, sampling and
 * judge economics figures, and excerpts from both run message shapes.
 */
import { describe, expect, it } from 'vitest';
import { liveSection } from '../../src/config/sections/live.js';
import { economicsSection } from '../../src/config/sections/economics.js';
import { createJudgeEconomics } from '../../src/judge/economics/economics.js';
import { runExcerpt, shorten } from '../../src/live/excerpt.js';
import { LiveRing } from '../../src/live/ring.js';
import type { AgentRun, AgentRunContext } from '../../src/model/agent-run.js';
import { agentInput, assistantMessage } from '../../src/model/messages.js';
import type { ScoreRecord } from '../../src/model/score-record.js';
import type { Span } from '../../src/model/span.js';

const T0 = Date.UTC(2026, 0, 1, 12, 0, 0);
const MIN = 60_000;

function clock(start = T0): { now: () => number; advance: (ms: number) => void } {
  let t = start;
  return { now: () => t, advance: (ms) => (t += ms) };
}

let seq = 0;
function run(agentName: string, over: Partial<AgentRun> = {}): AgentRun {
  seq++;
  return {
    traceId: seq.toString(16).padStart(32, '0'),
    spanId: seq.toString(16).padStart(16, '0'),
    agentName,
    convention: 'aisdk',
    input: agentInput('What is the weather in Lisbon?'),
    output: [assistantMessage('It is 21 °C in Lisbon.', [{ toolCallId: 'c1', toolName: 'getWeather', args: { city: 'Lisbon' }, state: 'result', result: { temperatureC: 21 } }])],
    toolResults: [],
    context: [],
    status: 'ok',
    startTime: new Date(T0).toISOString(),
    endTime: new Date(T0).toISOString(),
    ...over,
  };
}

function ctx(r: AgentRun): AgentRunContext {
  return { run: r, span: {} as Span, spans: [], resourceAttributes: {} };
}

function rec(r: AgentRun, scorer: string, score: number | undefined, at: number, label?: 'pass' | 'fail', reason?: string): ScoreRecord {
  return {
    evaluationId: `${r.traceId}-${scorer}`,
    traceId: r.traceId,
    spanId: r.spanId,
    agentName: r.agentName,
    scorer,
    scorerVersion: '3f2a9c1e5b7d',
    ...(score !== undefined ? { score, label: label ?? (score < 0.5 ? 'fail' : 'pass') } : { error: { type: 'judge_timeout', message: 'no answer' } }),
    threshold: 0.5,
    ...(reason !== undefined ? { reason } : {}),
    samplingRate: 1,
    durationMs: 1,
    timestamp: new Date(at).toISOString(),
    source: 'otlp',
  };
}

const config = (over: Record<string, unknown> = {}) => liveSection.parse(over);

describe('LiveRing', () => {
  it('keeps the newest maxEvaluations, newest first, and filters by label, agent and scorer', () => {
    const c = clock();
    const ring = new LiveRing({ config: config({ maxEvaluations: 3 }), now: c.now });
    const runs = ['a', 'b', 'a', 'b', 'a'].map((n) => run(`${n}-agent`));
    runs.forEach((r, i) => ring.runScored({ context: ctx(r), records: [rec(r, 'grounding', i / 10, c.now() + i)], decisions: [] }));
    const all = ring.evaluations({ limit: 10 });
    expect(all.map((e) => e.traceId)).toEqual([runs[4]!.traceId, runs[3]!.traceId, runs[2]!.traceId]);
    expect(ring.evaluations({ agent: 'b-agent' }).map((e) => e.traceId)).toEqual([runs[3]!.traceId]);
    expect(ring.evaluations({ label: 'pass' })).toHaveLength(0); // scores 0.2, 0.3, 0.4 all fail
    expect(ring.evaluations({ label: 'fail', limit: 2 })).toHaveLength(2);
    expect(ring.evaluations({ scorer: 'other' })).toHaveLength(0);
  });

  it('summarises per agent and scorer: runs, mean, fail rate, unscored, and the per-minute trend', () => {
    const c = clock();
    const ring = new LiveRing({ config: config({ windowMinutes: 10 }), now: c.now, scorers: [{ name: 'grounding', kind: 'code', threshold: 0.5, direction: 'higher' }] });
    const r1 = run('weather-agent');
    const r2 = run('weather-agent');
    ring.runScored({ context: ctx(r1), records: [rec(r1, 'grounding', 1, c.now()), rec(r1, 'hallucination', undefined, c.now())], decisions: [] });
    c.advance(2 * MIN);
    ring.runScored({ context: ctx(r2), records: [rec(r2, 'grounding', 0.2, c.now(), 'fail', 'The score is 0.2 because …')], decisions: [] });
    const s = ring.summary();
    expect(s.inMemory).toBe(true);
    expect(s.windowMinutes).toBe(10);
    expect(s.trendMinutes).toBe(10);
    const agent = s.agents.find((a) => a.name === 'weather-agent');
    expect(agent?.runs).toBe(2);
    // 2 runs over the 2 minutes the window has covered.
    expect(agent?.runsPerMinute).toBeCloseTo(1, 5);
    const g = agent?.scorers.find((x) => x.name === 'grounding');
    expect(g).toMatchObject({ kind: 'code', threshold: 0.5, evaluations: 2, scored: 2, fails: 1, unscored: 0 });
    expect(g?.mean).toBeCloseTo((1 + 0.2) / 2, 10);
    expect(g?.failRate).toBeCloseTo(0.5, 10);
    // Oldest first: the last slot is this minute (0.2), two slots before it the first run's minute (1).
    expect(g?.trend).toHaveLength(10);
    expect(g?.trend[9]).toBeCloseTo(0.2, 10);
    expect(g?.trend[7]).toBe(1);
    expect(g?.trend.filter((v) => v !== null)).toHaveLength(2);
    const h = agent?.scorers.find((x) => x.name === 'hallucination');
    expect(h).toMatchObject({ evaluations: 1, scored: 0, unscored: 1, mean: null, failRate: null });
    // The configured scorer comes first.
    expect(agent?.scorers.map((x) => x.name)).toEqual(['grounding', 'hallucination']);
    expect(s.totals).toEqual({ runs: 2, evaluations: 3, fails: 1, unscored: 1, skippedRuns: 0 });
  });

  it('forgets what is older than the window (minute counts and evaluations), but keeps totals since start', () => {
    const c = clock();
    const ring = new LiveRing({ config: config({ windowMinutes: 5 }), now: c.now });
    const r = run('old-agent');
    ring.runScored({ context: ctx(r), records: [rec(r, 'grounding', 0.1, c.now())], decisions: [] });
    expect(ring.evaluations()).toHaveLength(1);
    c.advance(6 * MIN);
    expect(ring.evaluations()).toHaveLength(0);
    expect(ring.summary().agents).toEqual([]);
    expect(ring.totals.agents().map(([n, a]) => [n, a.runs])).toEqual([['old-agent', 1]]);
  });

  it('counts agents beyond maxAgents as "other"', () => {
    const ring = new LiveRing({ config: config({ maxAgents: 2 }), now: clock().now });
    for (const name of ['a', 'b', 'c', 'd']) {
      const r = run(name);
      ring.runScored({ context: ctx(r), records: [], decisions: [] });
    }
    const s = ring.summary();
    expect(s.agents.map((a) => [a.name, a.runs])).toEqual([
      ['a', 1],
      ['b', 1],
      ['other', 2],
    ]);
  });

  it('reports the effective sampling rate from the decisions, and judge requests, cost and budget use from the economics', () => {
    const c = clock();
    const economics = createJudgeEconomics(
      economicsSection.parse({ prices: { 'gpt-test': { inputPerMTokens: 1, outputPerMTokens: 2 } }, budgets: [{ agent: 'support-agent', scorer: 'hallucination', perDay: { requests: 10 } }] }),
      { now: c.now },
    );
    const ring = new LiveRing({ config: config(), now: c.now, economics, scorers: [{ name: 'hallucination', kind: 'judge', threshold: 0.5, direction: 'lower' }] });
    for (let i = 0; i < 4; i++) {
      const r = run('support-agent');
      const sampled = i % 2 === 0;
      ring.runScored({ context: ctx(r), records: sampled ? [rec(r, 'hallucination', 0.1, c.now(), 'pass')] : [], decisions: [{ scorer: 'hallucination', sampled, rate: 0.5 }] });
    }
    economics.scopes.run({ agentName: 'support-agent', scorerName: 'hallucination' }, () => economics.accounting.record('gpt-test', { inputTokens: 1000, outputTokens: 500 }, 3));
    economics.budgets.charge('support-agent', 'hallucination', { tokens: 1500, requests: 3 });
    const h = ring.summary().agents[0]?.scorers[0];
    expect(h?.sampling).toEqual({ seen: 4, sampled: 2, effectiveRate: 0.5, rate: 0.5 });
    expect(h?.judge).toEqual({ requests: 3, inputTokens: 1000, outputTokens: 500, costUsd: (1000 * 1 + 500 * 2) / 1_000_000 });
    expect(h?.budgets).toEqual([{ rule: 0, window: 'day', resource: 'requests', used: 3, limit: 10, fallback: 'skip' }]);
  });

  it('builds trace links from the template, only for http(s) templates with {traceId}', () => {
    const ring = new LiveRing({ config: config({ traceUrlTemplate: 'http://127.0.0.1:16686/trace/{traceId}?span={spanId}' }), now: clock().now });
    const r = run('a');
    ring.runScored({ context: ctx(r), records: [rec(r, 'grounding', 0.9, T0)], decisions: [] });
    expect(ring.evaluations()[0]?.traceUrl).toBe(`http://127.0.0.1:16686/trace/${r.traceId}?span=${r.spanId}`);
    expect(liveSection.safeParse({ traceUrlTemplate: 'javascript:alert(1)//{traceId}' }).success).toBe(false);
    expect(liveSection.safeParse({ traceUrlTemplate: 'http://x/trace' }).success).toBe(false);
  });

  it('lists failing agents first (most fails in the window), then by name, with their fails counted', () => {
    const c = clock();
    const ring = new LiveRing({ config: config(), now: c.now });
    const feed = (name: string, scores: number[]): void => {
      for (const sc of scores) {
        const r = run(name);
        ring.runScored({ context: ctx(r), records: [rec(r, 'grounding', sc, c.now())], decisions: [] });
      }
    };
    feed('alpha-agent', [1, 1]);
    feed('beta-agent', [0, 1]);
    feed('zeta-agent', [0, 0, 1]);
    feed('gamma-agent', [1]);
    const s = ring.summary();
    expect(s.agents.map((a) => [a.name, a.fails])).toEqual([
      ['zeta-agent', 2],
      ['beta-agent', 1],
      ['alpha-agent', 0],
      ['gamma-agent', 0],
    ]);
  });

  it('counts skipped evaluations per agent, scorer and reason, with the extract --explain hint for empty runs', () => {
    const c = clock();
    const ring = new LiveRing({ config: config(), now: c.now });
    const empty = run('quiet-agent', { convention: 'openllmetry', output: [] });
    ring.runScored({ context: ctx(empty), records: [], decisions: [], skipped: [{ scorer: 'grounding', reason: 'no-output' }, { scorer: 'answered', reason: 'no-output' }] });
    const noTruth = run('quiet-agent');
    ring.runScored({ context: ctx(noTruth), records: [rec(noTruth, 'grounding', 1, c.now())], decisions: [], skipped: [{ scorer: 'exact', reason: 'no-ground-truth' }, { scorer: 'custom', reason: 'the scorer said no' }] });
    const s = ring.summary();
    const a = s.agents.find((x) => x.name === 'quiet-agent');
    expect(a?.runs).toBe(2);
    expect(a?.skippedRuns).toBe(2);
    expect(s.totals.skippedRuns).toBe(2);
    const skipped = Object.fromEntries((a?.scorers ?? []).map((x) => [x.name, x.skipped]));
    expect(skipped).toEqual({ grounding: { no_output: 1 }, answered: { no_output: 1 }, exact: { no_ground_truth: 1 }, custom: { not_scorable: 1 } });
    expect(a?.skipHints).toHaveLength(1);
    expect(a?.skipHints[0]?.convention).toBe('openllmetry');
    expect(a?.skipHints[0]?.hint).toContain('TRACELOOP_TRACE_CONTENT=true');
    expect(a?.skipHints[0]?.hint).toContain('no output text');
    // The hints leave with the window.
    c.advance(31 * MIN);
    expect(ring.summary().agents).toEqual([]);
  });

  it('says whether live.traceUrlTemplate is set (the page hints at it when not)', () => {
    const c = clock();
    expect(new LiveRing({ config: config(), now: c.now }).summary().traceLinks).toBe(false);
    expect(new LiveRing({ config: config({ traceUrlTemplate: 'http://127.0.0.1:16686/trace/{traceId}' }), now: c.now }).summary().traceLinks).toBe(true);
  });

  it('lists runs without an agent span apart from the agents, and flags their evaluations', () => {
    const c = clock();
    const ring = new LiveRing({ config: config(), now: c.now });
    const llm = run('openai.chat');
    ring.runScored({ context: { ...ctx(llm), noAgentSpan: true }, records: [rec(llm, 'grounding', 0, c.now())], decisions: [] });
    const agent = run('billing-agent');
    ring.runScored({ context: ctx(agent), records: [rec(agent, 'grounding', 1, c.now())], decisions: [] });
    const s = ring.summary();
    expect(s.agents.map((a) => a.name)).toEqual(['billing-agent']);
    expect(s.withoutAgent.map((a) => [a.name, a.runs, a.fails])).toEqual([['openai.chat', 1, 1]]);
    expect(s.totals.runs).toBe(2);
    const fails = ring.evaluations({ label: 'fail' });
    expect(fails.map((e) => [e.agent, e.noAgentSpan])).toEqual([['openai.chat', true]]);
    expect(ring.evaluations({ label: 'pass' })[0]?.noAgentSpan).toBeUndefined();
  });
});

describe('run excerpts', () => {
  it('reads input, output and tool results (returned, thrown) from a run, shortened to one line', () => {
    const r = run('a', {
      input: agentInput('How much is my\n\n  latest invoice?'),
      output: [
        assistantMessage('Your invoice is 129.40 EUR.', [
          { toolCallId: 'c1', toolName: 'getCustomer', args: {}, state: 'result', result: { name: 'Ana' } },
          { toolCallId: 'c2', toolName: 'getInvoice', args: {}, state: 'output-error', errorText: 'invoice service unavailable' },
        ]),
      ],
    });
    expect(runExcerpt(r)).toEqual({
      input: 'How much is my latest invoice?',
      output: 'Your invoice is 129.40 EUR.',
      tools: [
        { name: 'getCustomer', state: 'result', text: '{"name":"Ana"}' },
        { name: 'getInvoice', state: 'error', text: 'invoice service unavailable' },
      ],
      status: 'ok',
    });
  });

  it('reads the older message shape too (content as a string, invocations beside it)', () => {
    const legacy = {
      ...run('a'),
      input: { inputMessages: [{ role: 'user', content: 'Old question?' }], systemMessages: [] },
      output: [{ role: 'assistant', content: 'Old answer.', toolInvocations: [{ toolCallId: 'x', toolName: 'lookup', args: {}, state: 'result', result: 'found' }] }],
    } as unknown as AgentRun;
    expect(runExcerpt(legacy)).toMatchObject({ input: 'Old question?', output: 'Old answer.', tools: [{ name: 'lookup', state: 'result', text: 'found' }] });
  });

  it('cuts long text with an ellipsis, never inside a surrogate pair', () => {
    expect(shorten('a'.repeat(10), 5)).toBe('aaaa…');
    expect(shorten('abc😀def', 5)).toBe('abc…');
    expect(shorten('short', 10)).toBe('short');
  });
});
