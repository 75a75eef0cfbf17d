/**
 * A scripted judge model: an AI SDK `MockLanguageModelV3` (from `ai/test`) that answers the scorer's judge calls
 * in order, each reply a JSON object (structured steps) or a string (reason steps). Its `doGenerateCalls`
 * record the prompts it was sent.
 */
import type { LanguageModelV3GenerateResult } from '@ai-sdk/provider';
import { MockLanguageModelV3 } from 'ai/test';

export function scriptedModel(replies: ReadonlyArray<unknown>): MockLanguageModelV3 {
  const results: LanguageModelV3GenerateResult[] = replies.map((reply, i) => ({
    content: [{ type: 'text', text: typeof reply === 'string' ? reply : JSON.stringify(reply) }],
    finishReason: { unified: 'stop', raw: 'stop' },
    usage: { inputTokens: { total: 10, noCache: 10, cacheRead: undefined, cacheWrite: undefined }, outputTokens: { total: 5, text: 5, reasoning: undefined } },
    response: { id: `judge-${i}`, modelId: 'mock-judge-1', timestamp: new Date(Date.UTC(2026, 0, 1)) },
    warnings: [],
  }));
  return new MockLanguageModelV3({ provider: 'mock-judge', modelId: 'mock-judge-1', doGenerate: results });
}

/** The text of every user turn of judge call `i` (what the scorer's prompt said). */
export function promptOf(model: MockLanguageModelV3, i: number): string {
  const call = model.doGenerateCalls[i];
  if (!call) return '';
  return call.prompt
    .filter((m) => m.role === 'user')
    .flatMap((m) => m.content)
    .map((p) => (p.type === 'text' ? p.text : ''))
    .join('\n');
}
