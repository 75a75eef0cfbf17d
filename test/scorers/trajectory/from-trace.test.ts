import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { AgentRunContext } from '../../../src/model/agent-run.js';
import { extractAgentRunContexts } from '../../../src/api/extract.js';
import { decodeTraceRequestJson } from '../../../src/ingest/otlp/decode.js';
import type { Span } from '../../../src/model/span.js';
import { trajectoryFromRun, trajectoryFromSpans } from '../../../src/scorers/trajectory/from-trace.js';
import type { TrajectoryStep } from '../../../src/scorers/utils/trajectory-types.js';

const TRACES = fileURLToPath(new URL('../../fixtures/traces/', import.meta.url));

function load(name: string): { spans: Span[]; contexts: AgentRunContext[] } {
  const text = readFileSync(join(TRACES, `${name}.json`), 'utf8');
  return { spans: decodeTraceRequestJson(text).spans, contexts: extractAgentRunContexts(text) };
}

/** `type:name` outline with children in brackets. */
function outline(steps: readonly TrajectoryStep[]): string[] {
  return steps.map((s) => `${s.stepType}:${s.name}${s.children ? `[${outline(s.children).join(',')}]` : ''}`);
}

describe('trajectory from traces — AI SDK 6 two tools', () => {
  const { spans, contexts } = load('aisdk6-two-tools');
  const ctx = contexts[0] as AgentRunContext;
  const t = trajectoryFromRun(ctx, spans);

  it('lists generations and tool calls in start order', () => {
    expect(outline(t.steps)).toEqual([
      'model_generation:mock-gpt-4o',
      'tool_call:getWeather',
      'model_generation:mock-gpt-4o',
      'tool_call:convertTemperature',
      'model_generation:mock-gpt-4o',
    ]);
  });

  it('carries tool args, results and success, and model ids, tokens and finish reasons', () => {
    const [g1, weather, , convert, g3] = t.steps;
    expect(g1).toMatchObject({ modelId: 'mock-gpt-4o', promptTokens: 120, completionTokens: 30, finishReason: 'tool-calls' });
    expect(g3).toMatchObject({ promptTokens: 240, completionTokens: 22, finishReason: 'stop' });
    expect(weather).toMatchObject({ stepType: 'tool_call', success: true });
    expect(weather && 'toolArgs' in weather ? weather.toolArgs : undefined).toEqual(ctx.run.toolResults[0]?.args);
    expect(weather && 'toolResult' in weather ? weather.toolResult : undefined).toEqual(ctx.run.toolResults[0]?.result);
    expect(convert && 'toolArgs' in convert ? convert.toolArgs : undefined).toEqual(ctx.run.toolResults[1]?.args);
    expect(t.totalDurationMs).toBeCloseTo(11.505185, 5);
  });

  it('the run context alone gives the same steps (no nested agents here)', () => {
    expect(outline(trajectoryFromRun(ctx).steps)).toEqual(outline(t.steps));
  });
});

describe('trajectory from traces — nested agents', () => {
  it('AI SDK 6: the sub-agent is an agent_run step under the tool call that invoked it', () => {
    const { spans, contexts } = load('aisdk6-nested-agents');
    const support = contexts.find((c) => c.run.agentName === 'support-agent') as AgentRunContext;
    const t = trajectoryFromRun(support, spans);
    expect(outline(t.steps)).toEqual([
      'model_generation:mock-gpt-4o',
      'tool_call:askBillingAgent[agent_run:billing-agent[model_generation:mock-gpt-4o-mini,tool_call:getInvoice,model_generation:mock-gpt-4o-mini]]',
      'model_generation:mock-gpt-4o',
    ]);
    const billing = t.steps[1]?.children?.[0];
    expect(billing).toMatchObject({ stepType: 'agent_run', agentId: 'billing-agent' });
    // The billing agent's own run yields its steps at the top level.
    const inner = contexts.find((c) => c.run.agentName === 'billing-agent') as AgentRunContext;
    expect(outline(trajectoryFromRun(inner, spans).steps)).toEqual([
      'model_generation:mock-gpt-4o-mini',
      'tool_call:getInvoice',
      'model_generation:mock-gpt-4o-mini',
    ]);
  });

  it('every convention with nested agents gives the same tool/agent outline', () => {
    for (const name of ['aisdk6-nested-agents', 'aisdk7-otel-nested-agents', 'openinference-nested-agents', 'openllmetry-nested-agents']) {
      const { spans, contexts } = load(name);
      const support = contexts.find((c) => c.run.agentName === 'support-agent') as AgentRunContext;
      const tools = (steps: readonly TrajectoryStep[]): string[] =>
        steps.filter((s) => s.stepType !== 'model_generation').map((s) => `${s.name}${s.children ? `[${tools(s.children).join(',')}]` : ''}`);
      expect(tools(trajectoryFromRun(support, spans).steps), name).toEqual(['askBillingAgent[billing-agent[getInvoice]]']);
    }
  });
});

describe('trajectory from traces — failures, Mastra wrappers, ties', () => {
  it('a thrown tool is a failed tool_call without a result', () => {
    const { spans, contexts } = load('aisdk6-tool-error');
    const t = trajectoryFromRun(contexts[0] as AgentRunContext, spans);
    const tool = t.steps.find((s) => s.stepType === 'tool_call');
    expect(tool).toMatchObject({ name: 'lookupOrder', success: false });
    expect(tool && 'toolResult' in tool).toBe(false);
  });

  it('Mastra: per-call generations are the steps, the wrapper span is flattened', () => {
    const { spans, contexts } = load('mastra-two-tools');
    expect(outline(trajectoryFromRun(contexts[0] as AgentRunContext, spans).steps)).toEqual([
      'model_generation:mock-gpt-4o',
      'tool_call:getWeather',
      'model_generation:mock-gpt-4o',
      'tool_call:convertTemperature',
      'model_generation:mock-gpt-4o',
    ]);
  });

  it('equal start times are ordered by end time, then span id', () => {
    const { spans, contexts } = load('aisdk6-two-tools');
    const ctx = contexts[0] as AgentRunContext;
    const root = ctx.span;
    const t0 = root.startTimeUnixNano;
    const mk = (spanId: string, name: string, end: bigint): Span => ({
      ...root,
      spanId,
      parentSpanId: root.spanId,
      name: 'ai.toolCall',
      startTimeUnixNano: t0 + 1_000_000n,
      endTimeUnixNano: end,
      attributes: { 'ai.operationId': 'ai.toolCall', 'ai.toolCall.name': name, 'ai.toolCall.args': '{}', 'ai.toolCall.result': '1' },
      events: [],
    });
    const tied = [root, mk('00000000000000bb', 'late', t0 + 3_000_000n), mk('00000000000000cc', 'idB', t0 + 2_000_000n), mk('00000000000000aa', 'idA', t0 + 2_000_000n)];
    expect(trajectoryFromSpans(tied, root.spanId).steps.map((s) => s.name)).toEqual(['idA', 'idB', 'late']);
    expect(spans.length).toBeGreaterThan(0);
  });

  it('no spans, or an unknown root, give an empty trajectory', () => {
    expect(trajectoryFromSpans([]).steps).toEqual([]);
    const { spans } = load('aisdk6-two-tools');
    expect(trajectoryFromSpans(spans, 'ffffffffffffffff').steps).toEqual([]);
  });
});
