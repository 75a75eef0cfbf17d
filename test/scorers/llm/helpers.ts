import { createJudgeClient, resolveJudgeSettings, type JudgeClient, type JudgeClientOptions } from '../../../src/judge/index.js';
import { judgeSection } from '../../../src/config/sections/judge.js';
import type { JudgeCallArgs, JudgeModelPort } from '../../../src/judge/port.js';
import type { StubJudge } from '../../../src/testing/stub-judge/index.js';

export const TEST_KEY = 'sk-scorer-test-0123456789abcdef';

/** A judge client pointed at the stub server (`options`: its telemetry, secrets and judge scopes). */
export function stubClient(stub: StubJudge, options: JudgeClientOptions = {}): JudgeClient {
  const s = resolveJudgeSettings(judgeSection.parse({}), { OPENAI_API_KEY: TEST_KEY, OPENAI_BASE_URL: stub.baseURL });
  return createJudgeClient({ ...s, apiKey: TEST_KEY, backoffInitialMs: 5, backoffMaxMs: 20 }, options);
}

/** In-process port double: answers per step name, parses structured answers with the step's schema, records calls. */
export function scriptedPort(answers: Partial<Record<string, unknown>>): JudgeModelPort & { calls: JudgeCallArgs[] } {
  const calls: JudgeCallArgs[] = [];
  const meta = { usage: { inputTokens: 1, outputTokens: 1 }, durationMs: 0, modelId: 'scripted' };
  return {
    calls,
    async generateObject(args) {
      calls.push(args);
      if (!(args.stepName in answers)) throw new Error(`no scripted answer for ${args.stepName}`);
      return Promise.resolve({ ...meta, object: args.schema.parse(answers[args.stepName]) });
    },
    async generateText(args) {
      calls.push(args);
      const a = answers[args.stepName];
      return Promise.resolve({ ...meta, text: typeof a === 'string' ? a : 'The score is x because scripted.' });
    },
  };
}

/** A Mastra-shaped agent run with one user turn and one assistant answer. */
export function agentRun(user: string, answer: string, extra: { system?: string; toolInvocations?: unknown[] } = {}) {
  return {
    input: {
      inputMessages: [{ role: 'user', content: user }],
      systemMessages: extra.system ? [{ role: 'system', content: extra.system }] : [],
    },
    output: [{ role: 'assistant', content: answer, ...(extra.toolInvocations ? { toolInvocations: extra.toolInvocations } : {}) }],
  };
}
