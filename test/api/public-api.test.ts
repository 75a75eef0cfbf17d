import { describe, expect, it } from 'vitest';
import * as api from '../../src/index.js';

describe('public API (the README, "Library")', () => {
  it('exports the named entry points', () => {
    for (const name of [
      'createScorer',
      'createHallucinationScorer',
      'createFaithfulnessScorer',
      'createAnswerRelevancyScorer',
      'createContentSimilarityScorer',
      'createKeywordCoverageScorer',
      'extractToolResults',
      'extractAgentRuns',
      'runEvals',
      'createScorerRegistry',
      'componentSettings',
      'createSettings',
      'buildService',
      'createClaimGroundingScorer',
      'createAnsweredScorer',
      'createDefaultJudgeResolver',
      'parseModelString',
      'emptyRunWarning',
      'runExperiment',
      'extractTrajectoryFromTrace',
    ]) {
      expect(typeof (api as Record<string, unknown>)[name], name).toBe('function');
    }
  });

  it('the default no-judge scorers are exported and give the documented verdicts', async () => {
    // The tool says shipped by DHL; the answer says cancelled via FedEx: a contradiction fails.
    const tools = [{ toolCallId: 'c1', toolName: 'getOrder', args: { id: 'A-1009' }, result: { status: 'shipped', carrier: 'DHL' }, state: 'result' as const }];
    const run = (answer: string) => ({
      input: api.agentInput('Where is order A-1009?'),
      output: [api.assistantMessage(answer, tools)],
      runId: 'r1',
    });
    const grounding = api.createClaimGroundingScorer();
    expect((await grounding.run(run('Order A-1009 was cancelled and sent via FedEx.'))).score).toBe(0);
    expect((await grounding.run(run('Order A-1009 has shipped with DHL.'))).score).toBeGreaterThanOrEqual(0.6);
    const answered = api.createAnsweredScorer();
    expect((await answered.run(run("I'm sorry, I don't have access to order information."))).score).toBe(0);
  });

  it('a scorer run resolves to the documented shape', async () => {
    const scorer = api.createContentSimilarityScorer();
    const r = await scorer.run({
      input: { inputMessages: [{ role: 'user', content: 'The quick brown fox' }], systemMessages: [] },
      output: [{ role: 'assistant', content: 'The quick brown cat' }],
      runId: 'r1',
    });
    expect(r.runId).toBe('r1');
    expect(r.score).toBe(0.8); // docs/scorers.md
    expect(r).toHaveProperty('preprocessStepResult');
    expect(r).toHaveProperty('analyzeStepResult');
  });

  it('the scorer registry builds a configured scorer with its descriptor', async () => {
    const configured = await api.createScorerRegistry().build('similarity', { type: 'content-similarity', threshold: 0.9 });
    expect(configured).toMatchObject({ name: 'similarity', kind: 'code', direction: 'higher', threshold: 0.9, reason: 'on-fail' });
    const r = await configured.scorer.run({
      input: { inputMessages: [{ role: 'user', content: 'The quick brown fox' }], systemMessages: [] },
      output: [{ role: 'assistant', content: 'The quick brown cat' }],
    });
    expect(r.score).toBe(0.8);
    expect(api.labelOf(configured, r.score ?? 0)).toBe('fail');
  });

  it('extractAgentRuns accepts an OTLP/JSON request and extractToolResults reads its output', async () => {
    const { readFileSync } = await import('node:fs');
    const request = JSON.parse(readFileSync(new URL('../fixtures/traces/aisdk6-two-tools.json', import.meta.url), 'utf8')) as unknown;
    const runs = api.extractAgentRuns(request as { resourceSpans: unknown });
    expect(runs).toHaveLength(1);
    const run = runs[0] as api.AgentRun;
    expect(api.extractToolResults(run.output).map((t) => t.toolName)).toEqual(run.toolResults.map((t) => t.toolName));
    expect(run.toolResults.length).toBe(2);
  });

  it('test doubles are the tracejudge/testing subpath, not part of the main entry point', async () => {
    for (const name of ['startStubJudge', 'RecordingSpanSink', 'createTestTelemetry', 'makeTestSpans']) {
      expect((api as Record<string, unknown>)[name], name).toBeUndefined();
    }
    // The package resolves its own subpath export (after `npm run build`, which `npm test` runs first).
    const testing = (await import('tracejudge/testing')) as Record<string, unknown>;
    expect(typeof testing.reply).toBe('object');
    for (const name of ['startStubJudge', 'byMarker', 'RecordingSpanSink', 'createTestTelemetry', 'makeTestSpans']) {
      expect(typeof testing[name], name).toBe('function');
    }
    const main = (await import('tracejudge')) as Record<string, unknown>;
    expect(typeof main.createScorer).toBe('function');
  });
});
