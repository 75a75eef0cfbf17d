/** The LLM judge: AI SDK over any OpenAI-compatible endpoint, with retries, timeouts and accounting; model router strings. */
export { AiSdkJudge, type AiSdkJudgeOptions, type JudgeCallPolicy } from './ai-sdk-judge.js';
export { createJudgeClient, type JudgeClient, type JudgeClientOptions, type JudgeClientSettings } from './client.js';
export { createDefaultJudgeResolver } from './default-resolver.js';
export { JudgeError, type JudgeFailureKind } from './errors.js';
export { parseModelString, type JudgeEndpoint, type JudgeProviderConfig, type ModelRoute } from './providers.js';
export { JudgeResolver, isLanguageModelObject, type JudgeResolverOptions, type OpenAICompatibleModelConfig } from './resolver.js';
export { resolveJudgeSettings, judgeEnabled, judgeProblem, DEFAULT_JUDGE_MODEL, DEFAULT_JUDGE_BASE_URL, type JudgeSettings } from './settings.js';
export { Semaphore } from './semaphore.js';
