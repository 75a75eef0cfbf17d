/**
 * The AI SDK modules, loaded when a judge is first used rather than when tracejudge starts: `ai` and
 * `@ai-sdk/openai` are ~25 MiB of resident memory that a service without a judge never needs.
 */
import { createRequire } from 'node:module';
import type * as AiModule from 'ai';
import type * as OpenAiModule from '@ai-sdk/openai';

const require = createRequire(import.meta.url);
let ai: typeof AiModule | undefined;
let openai: typeof OpenAiModule | undefined;

/** `ai` as an ES module (what every judge call uses), loaded on the first call. */
export async function loadAi(): Promise<typeof AiModule> {
  ai ??= await import('ai');
  return ai;
}

/**
 * `ai` for synchronous use (classifying an error): the module `loadAi` loaded, else its CommonJS build.
 * The SDK's error classes recognise each other's instances across builds (`isInstance`).
 */
export function aiNow(): typeof AiModule {
  ai ??= require('ai') as typeof AiModule;
  return ai;
}

/**
 * `@ai-sdk/openai` (its CommonJS build, so that making a judge client stays synchronous), loaded when the
 * first judge client is made. The provider's models are plain objects that `ai` calls.
 */
export function openAiProvider(): typeof OpenAiModule {
  openai ??= require('@ai-sdk/openai') as typeof OpenAiModule;
  return openai;
}
