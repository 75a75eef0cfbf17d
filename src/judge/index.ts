/** The LLM judge: AI SDK over any OpenAI-compatible endpoint, with retries, timeouts and accounting. */
export { AiSdkJudge, type AiSdkJudgeOptions, type JudgeCallPolicy } from './ai-sdk-judge.js';
export { createJudgeClient, type JudgeClient, type JudgeClientOptions } from './client.js';
export { JudgeError, type JudgeFailureKind } from './errors.js';
export { JudgeResolver, isLanguageModelObject, type JudgeResolverOptions } from './resolver.js';
export { resolveJudgeSettings, judgeEnabled, DEFAULT_JUDGE_MODEL, DEFAULT_JUDGE_BASE_URL, type JudgeSettings } from './settings.js';
export { Semaphore } from './semaphore.js';
