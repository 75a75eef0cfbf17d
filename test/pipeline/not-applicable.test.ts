/**
 * Not applicable is never a pass (issue 14, point 3): a run with no output text or no input text gets no
 * record from an answer scorer, and each skip is counted with its reason; trajectory scorers still judge
 * the calls of a run whose answer is empty.
 */
import { describe, expect, it } from 'vitest';
import { createScorer } from '../../src/scorers/core/scorer.js';
import { createPipeline } from '../../src/pipeline/pipeline.js';
import { Evaluator } from '../../src/pipeline/evaluate.js';
import { notScorable } from '../../src/scorers/core/not-scorable.js';
import { Secrets } from '../../src/telemetry/log.js';
import type { ConfiguredScorer } from '../../src/scorers/descriptor.js';
import { createTestTelemetry } from '../../src/testing/test-telemetry.js';
import { extractAgentRunContexts } from '../../src/api/extract.js';
import type { AgentRunContext } from '../../src/model/agent-run.js';
import { agentInput, assistantMessage } from '../../src/model/messages.js';
import { fixtureTrace, MemoryEmitter } from './helpers.js';

/** A code scorer that would pass anything it is given: any record from it on an empty run is the bug. */
function alwaysPasses(name: string, input: 'agent' | 'trajectory' = 'agent'): ConfiguredScorer {
  return {
    name,
    type: 'test',
    kind: 'code',
    direction: 'higher',
    threshold: 0.5,
    reason: 'never',
    needsGroundTruth: false,
    input,
    samplingKey: name,
    scorer: createScorer({ id: name, description: 'passes' }).generateScore(() => 1),
  };
}

const evaluator = new Evaluator({ now: Date.now, secrets: new Secrets() });
const outcome = (scorer: ConfiguredScorer, context: AgentRunContext, trajectory?: unknown) =>
  evaluator.evaluate({ scorer, context, samplingRate: 1, source: 'file', trajectory });

/** The fixture's one run with its input and output replaced. */
function withMessages(input: string, output: string, invocations = false): AgentRunContext {
  const [context] = extractAgentRunContexts(fixtureTrace('aisdk6-two-tools'));
  if (!context) throw new Error('fixture has no run');
  const tools = invocations ? context.run.output.flatMap((m) => m.content.toolInvocations ?? []) : [];
  return { ...context, run: { ...context.run, input: agentInput(input), output: [assistantMessage(output, tools)] } };
}

describe('runs with nothing to judge', () => {
  it('a trace recorded without message content gets no record, counted as skipped no_output', async () => {
    // As an instrumentation with content capture off (or whose content went to log records that did not
    // arrive) sends it: the spans, without any attribute that carries messages, prompts or answers.
    const full = fixtureTrace('aisdk6-two-tools');
    const content = /message|prompt|response\.text|response\.object|input\.value|output\.value|content|completion|result|args/i;
    const trace = { ...full, spans: full.spans.map((sp) => ({ ...sp, attributes: Object.fromEntries(Object.entries(sp.attributes).filter(([k]) => !content.test(k))) })) };
    const runs = extractAgentRunContexts(trace).length;
    expect(runs).toBeGreaterThan(0);
    const meter = createTestTelemetry();
    const emitter = new MemoryEmitter();
    const pipeline = createPipeline({ scorers: [alwaysPasses('anything')], emitter, source: 'file', judgeConcurrency: 1, maxQueuedJudgeEvaluations: 10, settings: meter.settings });
    await pipeline.handleTrace(trace);
    expect(emitter.records).toEqual([]);
    expect(await meter.sum('tracejudge.evaluations', { outcome: 'skipped', 'tracejudge.skip.reason': 'no_output' })).toBe(runs);
    expect(await meter.sum('tracejudge.evaluations', { outcome: 'pass' })).toBe(0);
  });

  it('an empty answer after tool calls is skipped (no-output) by answer scorers, and judged by trajectory scorers', async () => {
    const run = withMessages('What is the weather in Paris?', '', true);
    expect(run.run.output[0]?.content.toolInvocations?.length).toBe(2);
    expect(await outcome(alwaysPasses('answer'), run)).toEqual({ kind: 'not-applicable', reason: 'no-output' });
    const calls = await outcome(alwaysPasses('calls', 'trajectory'), run, { steps: [] });
    expect(calls.kind).toBe('record');
  });

  it('answered judges an empty answer after a tool returned data: a fail, not a skip', async () => {
    const { createScorerRegistry } = await import('../../src/scorers/registry.js');
    const answered = await createScorerRegistry().build('answered', { type: 'answered' });
    expect(answered.scoresEmptyOutput).toBe(true);
    for (const empty of ['', '   ']) {
      const r = await outcome(answered, withMessages('What is the weather in Paris?', empty, true));
      expect(r.kind === 'record' ? [r.record.label, r.record.score] : r).toEqual(['fail', 0]);
    }
  });

  it('an answer with no input text is skipped as no-input', async () => {
    expect(await outcome(alwaysPasses('answer'), withMessages('', 'It is 18°C in Paris.'))).toEqual({ kind: 'not-applicable', reason: 'no-input' });
    expect(await outcome(alwaysPasses('answer'), withMessages('   ', 'It is 18°C in Paris.'))).toEqual({ kind: 'not-applicable', reason: 'no-input' });
  });

  it('a run with input and output text is scored', async () => {
    const r = await outcome(alwaysPasses('answer'), withMessages('What is the weather in Paris?', 'It is 18°C in Paris.'));
    expect(r.kind === 'record' ? r.record.label : r).toBe('pass');
  });

  it('a scorer\'s own "not scorable" is passed on with its reason and counted as not_scorable', async () => {
    const picky: ConfiguredScorer = {
      ...alwaysPasses('picky'),
      scorer: createScorer({ id: 'picky', description: 'never applies' }).generateScore(() => notScorable('no-grounding-source')),
    };
    expect(await outcome(picky, withMessages('q?', 'a.'))).toEqual({ kind: 'not-applicable', reason: 'no-grounding-source' });
    const meter = createTestTelemetry();
    meter.telemetry.recordSkipped('support-agent', 'picky', 'no-grounding-source');
    meter.telemetry.recordSkipped('support-agent', 'picky', 'no-input');
    expect(await meter.sum('tracejudge.evaluations', { outcome: 'skipped', 'tracejudge.skip.reason': 'not_scorable' })).toBe(1);
    expect(await meter.sum('tracejudge.evaluations', { outcome: 'skipped', 'tracejudge.skip.reason': 'no_input' })).toBe(1);
  });
});
