/**
 * A scripted judge model: an AI SDK `MockLanguageModelV3` (from `ai/test`) that answers the scorer's judge calls
 * in order, each reply a JSON object (structured steps) or a string (reason steps). The judge streams by default
 * (`judge.stream`), so each reply is offered both as a stream (`doStream`, in a few deltas) and as one result
 * (`doGenerate`); {@link judgeCalls} are the calls it received, whichever way.
 */
import type { LanguageModelV3CallOptions, LanguageModelV3GenerateResult, LanguageModelV3StreamPart, LanguageModelV3StreamResult } from '@ai-sdk/provider';
import { simulateReadableStream } from 'ai';
import { MockLanguageModelV3 } from 'ai/test';

const USAGE = { inputTokens: { total: 10, noCache: 10, cacheRead: undefined, cacheWrite: undefined }, outputTokens: { total: 5, text: 5, reasoning: undefined } };
const STOP = { unified: 'stop', raw: 'stop' } as const;

function streamOf(text: string, i: number): LanguageModelV3StreamResult {
  const half = Math.ceil(text.length / 2);
  const chunks: LanguageModelV3StreamPart[] = [
    { type: 'stream-start', warnings: [] },
    { type: 'response-metadata', id: `judge-${i}`, modelId: 'mock-judge-1', timestamp: new Date(Date.UTC(2026, 0, 1)) },
    { type: 'text-start', id: '0' },
    { type: 'text-delta', id: '0', delta: text.slice(0, half) },
    { type: 'text-delta', id: '0', delta: text.slice(half) },
    { type: 'text-end', id: '0' },
    { type: 'finish', finishReason: STOP, usage: USAGE },
  ];
  return { stream: simulateReadableStream({ chunks }) };
}

export function scriptedModel(replies: ReadonlyArray<unknown>): MockLanguageModelV3 {
  const texts = replies.map((reply) => (typeof reply === 'string' ? reply : JSON.stringify(reply)));
  const results: LanguageModelV3GenerateResult[] = texts.map((text, i) => ({
    content: [{ type: 'text', text }],
    finishReason: STOP,
    usage: USAGE,
    response: { id: `judge-${i}`, modelId: 'mock-judge-1', timestamp: new Date(Date.UTC(2026, 0, 1)) },
    warnings: [],
  }));
  return new MockLanguageModelV3({ provider: 'mock-judge', modelId: 'mock-judge-1', doGenerate: results, doStream: texts.map(streamOf) });
}

/** The judge calls the model received, streamed or not, in order. */
export function judgeCalls(model: MockLanguageModelV3): LanguageModelV3CallOptions[] {
  return model.doStreamCalls.length > 0 ? model.doStreamCalls : model.doGenerateCalls;
}

/** The text of every user turn of judge call `i` (what the scorer's prompt said). */
export function promptOf(model: MockLanguageModelV3, i: number): string {
  const call = judgeCalls(model)[i];
  if (!call) return '';
  return call.prompt
    .filter((m) => m.role === 'user')
    .flatMap((m) => m.content)
    .map((p) => (p.type === 'text' ? p.text : ''))
    .join('\n');
}
