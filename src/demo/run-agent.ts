/**
 * One sample agent run through the real AI SDK: `generateText` with real tools, telemetry on, and a scripted
 * mock model (`MockLanguageModelV3` from `ai/test`, shipped in the `ai` package) that first calls the
 * scenario's tools and then gives its answer. No key and no network: the model never leaves the process.
 * The AI SDK's spans go to `tracer`, whose provider exports them over OTLP like any instrumented app.
 */
import type { Tracer } from '@opentelemetry/api';
import { generateText, stepCountIs, tool, type ToolSet } from 'ai';
import { MockLanguageModelV3 } from 'ai/test';
import { z } from 'zod';
import type { SampleAgent, Scenario } from './agents.js';

type GenerateResult = Awaited<ReturnType<MockLanguageModelV3['doGenerate']>>;

const MODEL_ID = 'demo-scripted-model';

function usage(input: number, output: number): GenerateResult['usage'] {
  return {
    inputTokens: { total: input, noCache: input, cacheRead: undefined, cacheWrite: undefined },
    outputTokens: { total: output, text: output, reasoning: undefined },
  };
}

/** The model's two steps: the tool calls, then the answer. */
function script(scenario: Scenario, runId: string): GenerateResult[] {
  const at = new Date();
  const steps: GenerateResult[] = [];
  if (scenario.calls.length > 0) {
    steps.push({
      content: scenario.calls.map((c, i) => ({ type: 'tool-call' as const, toolCallId: `call_${runId}_${i}`, toolName: c.toolName, input: JSON.stringify(c.input) })),
      finishReason: { unified: 'tool-calls', raw: 'tool_calls' },
      usage: usage(90 + scenario.question.length, 12 * scenario.calls.length),
      response: { id: `resp_${runId}_1`, modelId: MODEL_ID, timestamp: at },
      warnings: [],
    });
  }
  steps.push({
    content: [{ type: 'text', text: scenario.answer }],
    finishReason: { unified: 'stop', raw: 'stop' },
    usage: usage(160 + scenario.question.length, Math.ceil(scenario.answer.length / 4)),
    response: { id: `resp_${runId}_2`, modelId: MODEL_ID, timestamp: at },
    warnings: [],
  });
  return steps;
}

/** The agent's tools for one scenario: each returns (or throws) what the scenario scripted for its call. */
function toolsFor(agent: SampleAgent, scenario: Scenario): ToolSet {
  const tools: ToolSet = {};
  for (const [name, def] of Object.entries(agent.tools)) {
    const calls = scenario.calls.filter((c) => c.toolName === name);
    let next = 0;
    tools[name] = tool({
      description: def.description,
      inputSchema: z.object(Object.fromEntries(def.fields.map((f) => [f, z.string()]))),
      execute: (): Promise<unknown> => {
        const call = calls[Math.min(next++, calls.length - 1)];
        if (!call) return Promise.reject(new Error(`${name}: not expected in this scenario`));
        if ('error' in call.outcome) return Promise.reject(new Error(call.outcome.error));
        return Promise.resolve(call.outcome.result);
      },
    });
  }
  return tools;
}

/**
 * Run `scenario` of `agent` once; resolves when the AI SDK finished (the spans are then with the tracer's
 * processor, which exports them in the background).
 */
export async function runScenario(agent: SampleAgent, scenario: Scenario, tracer: Tracer, runId: string): Promise<void> {
  await generateText({
    model: new MockLanguageModelV3({ provider: 'demo', modelId: MODEL_ID, doGenerate: script(scenario, runId) }),
    system: agent.system,
    prompt: scenario.question,
    tools: toolsFor(agent, scenario),
    stopWhen: stepCountIs(4),
    experimental_telemetry: { isEnabled: true, functionId: agent.name, recordInputs: true, recordOutputs: true, tracer },
  });
}
