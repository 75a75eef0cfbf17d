import { describe, expect, it } from 'vitest';
import * as api from '../../src/index.js';

describe('public API (SPEC §9)', () => {
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
      'startService',
    ]) {
      expect(typeof (api as Record<string, unknown>)[name], name).toBe('function');
    }
  });

  it('a scorer run resolves to the documented shape', async () => {
    const scorer = api.createContentSimilarityScorer();
    const r = await scorer.run({
      input: { inputMessages: [{ role: 'user', content: 'The quick brown fox' }], systemMessages: [] },
      output: [{ role: 'assistant', content: 'The quick brown cat' }],
      runId: 'r1',
    });
    expect(r.runId).toBe('r1');
    expect(r.score).toBe(0.8); // SCORERS §5.1 vector
    expect(r).toHaveProperty('preprocessStepResult');
    expect(r).toHaveProperty('analyzeStepResult');
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
});
