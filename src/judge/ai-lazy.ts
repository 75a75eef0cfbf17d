/**
 * The AI SDK modules, loaded when a judge is first used rather than when tracejudge starts: `ai` and
 * `@ai-sdk/openai` are ~25 MiB of resident memory that a service without a judge never needs.
 */
import { createRequire } from 'node:module';
import type * as AiModule from 'ai';
import type * as OpenAiModule from '@ai-sdk/openai';

// Node's module cache holds each module after its first load; nothing here keeps state of its own.
const require = createRequire(import.meta.url);

/** `ai` as an ES module (what every judge call uses), loaded on the first call. */
export function loadAi(): Promise<typeof AiModule> {
  return import('ai');
}

/**
 * `ai` for synchronous use (classifying an error): its CommonJS build. The SDK's error classes recognise
 * each other's instances across the two builds (`isInstance`), so an error thrown by the ES module is
 * classified alike.
 */
export function aiNow(): typeof AiModule {
  return require('ai') as typeof AiModule;
}

/**
 * `@ai-sdk/openai` (its CommonJS build, so that making a judge client stays synchronous), loaded when the
 * first judge client is made. The provider's models are plain objects that `ai` calls.
 */
export function openAiProvider(): typeof OpenAiModule {
  return require('@ai-sdk/openai') as typeof OpenAiModule;
}
