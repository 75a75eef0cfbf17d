import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { extractAgentRunContexts } from '../../../src/api/extract.js';
import type { Span } from '../../../src/model/span.js';
import { createJudgeClient, resolveJudgeSettings, type JudgeClient } from '../../../src/judge/index.js';
import { judgeSection } from '../../../src/config/sections/judge.js';
import { markJudgeFetch } from '../../../src/judge/self-mark.js';
import { isSelfRun, isSelfSpan, withoutSelfRuns } from '../../../src/pipeline/self-exclusion.js';
import { reply, startStubJudge, type StubJudge } from '../../../src/testing/stub-judge/index.js';
import { z } from 'zod';

const fixture = readFileSync(fileURLToPath(new URL('../../fixtures/traces/aisdk6-nested-agents.json', import.meta.url)), 'utf8');

function withAttr(span: Span, key: string, value: Span['attributes'][string]): Span {
  return { ...span, attributes: { ...span.attributes, [key]: value } };
}

describe('self-exclusion', () => {
  it('recognises every marker of the convention, and nothing else', () => {
    const [ctx] = extractAgentRunContexts(fixture);
    if (!ctx) throw new Error('no run');
    const s = ctx.span;
    expect(isSelfSpan(s)).toBe(false);
    expect(isSelfSpan(withAttr(s, 'tracejudge.judge', true))).toBe(true);
    expect(isSelfSpan(withAttr(s, 'tracejudge.judge', 'true'))).toBe(true);
    expect(isSelfSpan(withAttr(s, 'tracejudge.judge', false))).toBe(false);
    expect(isSelfSpan(withAttr(s, 'ai.telemetry.metadata.tracejudge.judge', 'true'))).toBe(true);
    expect(isSelfSpan(withAttr(s, 'http.request.header.x-tracejudge-judge', ['1']))).toBe(true);
    expect(isSelfSpan(withAttr(s, 'user_agent.original', 'ai-sdk/6 tracejudge-judge/1'))).toBe(true);
    expect(isSelfSpan(withAttr(s, 'user_agent.original', 'curl/8'))).toBe(false);
    expect(isSelfSpan({ attributes: {}, resource: { attributes: { 'tracejudge.judge': true } } })).toBe(true);
  });

  it('a run containing a judge span is dropped; the others stay', () => {
    const contexts = extractAgentRunContexts(fixture);
    expect(contexts).toHaveLength(2);
    expect(withoutSelfRuns(contexts)).toHaveLength(2);
    const billing = contexts.find((c) => c.run.agentName === 'billing-agent');
    if (!billing) throw new Error('no billing run');
    const marked = { ...billing, spans: billing.spans.map((sp, i) => (i === 1 ? withAttr(sp, 'ai.telemetry.metadata.tracejudge.judge', true) : sp)) };
    expect(isSelfRun(marked)).toBe(true);
    expect(withoutSelfRuns([contexts[0] as (typeof contexts)[number], marked]).map((c) => c.run.agentName)).toEqual(['support-agent']);
  });

  describe('judge requests carry the header and user agent', () => {
    let stub: StubJudge;
    let client: JudgeClient;
    beforeAll(async () => {
      stub = await startStubJudge({ script: () => reply.json({ ok: true }) });
      const key = 'sk-self-exclusion-0123456789';
      const s = resolveJudgeSettings(judgeSection.parse({}), { OPENAI_API_KEY: key, OPENAI_BASE_URL: stub.baseURL });
      client = createJudgeClient({ ...s, apiKey: key }, { fetch: markJudgeFetch() });
    });
    afterAll(async () => {
      client.close();
      await stub.close();
    });

    it('over real HTTP', async () => {
      const r = await client.port().generateObject({ model: undefined, instructions: 'i', prompt: 'p', stepName: 'analyze', scorerId: 's', schema: z.object({ ok: z.boolean() }) });
      expect(r.object).toEqual({ ok: true });
      const [req] = stub.requests;
      expect(req?.headers['x-tracejudge-judge']).toBe('1');
      expect(req?.headers['user-agent']).toContain('tracejudge-judge/1');
    });
  });
});
