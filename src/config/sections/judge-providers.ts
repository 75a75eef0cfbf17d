/**
 * The built-in judge providers of model router strings (`"<provider>/<model>"`, src/judge/providers.ts):
 * the common OpenAI-compatible providers that Mastra's model router knows, with the same key variables.
 * `openai` is not listed: its endpoint is the `judge:` section itself (`judge.baseURL` or
 * `OPENAI_BASE_URL`, `judge.apiKey` or `OPENAI_API_KEY`). Each base URL here can be moved with
 * `<PREFIX>_BASE_URL` (e.g. `OLLAMA_BASE_URL`), and `judge.providers` adds or replaces entries.
 */

/** One built-in provider. */
export interface BuiltinProvider {
  /** OpenAI-compatible base URL (requests go to `<baseURL>/chat/completions`). */
  readonly baseURL: string;
  /** Environment variable holding the API key. */
  readonly apiKeyEnv: string;
  /** The server works without a key (local runtimes): a missing key is not an error. */
  readonly keyOptional?: true;
}

/** The provider of model strings without a prefix: the `judge:` section's own endpoint. */
export const DEFAULT_PROVIDER = 'openai';

/** What a provider prefix may look like (also the key rule of `judge.providers`). */
export const PROVIDER_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;

/** Built-in providers besides `openai`, by prefix. */
export const BUILTIN_PROVIDERS: Readonly<Record<string, BuiltinProvider>> = Object.freeze({
  openrouter: { baseURL: 'https://openrouter.ai/api/v1', apiKeyEnv: 'OPENROUTER_API_KEY' },
  ollama: { baseURL: 'http://localhost:11434/v1', apiKeyEnv: 'OLLAMA_API_KEY', keyOptional: true },
  lmstudio: { baseURL: 'http://127.0.0.1:1234/v1', apiKeyEnv: 'LMSTUDIO_API_KEY', keyOptional: true },
  groq: { baseURL: 'https://api.groq.com/openai/v1', apiKeyEnv: 'GROQ_API_KEY' },
  deepseek: { baseURL: 'https://api.deepseek.com', apiKeyEnv: 'DEEPSEEK_API_KEY' },
  togetherai: { baseURL: 'https://api.together.xyz/v1', apiKeyEnv: 'TOGETHER_API_KEY' },
  'fireworks-ai': { baseURL: 'https://api.fireworks.ai/inference/v1', apiKeyEnv: 'FIREWORKS_API_KEY' },
  mistral: { baseURL: 'https://api.mistral.ai/v1', apiKeyEnv: 'MISTRAL_API_KEY' },
  xai: { baseURL: 'https://api.x.ai/v1', apiKeyEnv: 'XAI_API_KEY' },
  cerebras: { baseURL: 'https://api.cerebras.ai/v1', apiKeyEnv: 'CEREBRAS_API_KEY' },
  deepinfra: { baseURL: 'https://api.deepinfra.com/v1/openai', apiKeyEnv: 'DEEPINFRA_API_KEY' },
  perplexity: { baseURL: 'https://api.perplexity.ai', apiKeyEnv: 'PERPLEXITY_API_KEY' },
  huggingface: { baseURL: 'https://router.huggingface.co/v1', apiKeyEnv: 'HF_TOKEN' },
  nvidia: { baseURL: 'https://integrate.api.nvidia.com/v1', apiKeyEnv: 'NVIDIA_API_KEY' },
  nebius: { baseURL: 'https://api.tokenfactory.nebius.com/v1', apiKeyEnv: 'NEBIUS_API_KEY' },
  alibaba: { baseURL: 'https://dashscope-intl.aliyuncs.com/compatible-mode/v1', apiKeyEnv: 'DASHSCOPE_API_KEY' },
});

/** Environment variable that moves a built-in provider's base URL: `fireworks-ai` → `FIREWORKS_AI_BASE_URL`. */
export function baseURLEnvOf(provider: string): string {
  return `${provider.toUpperCase().replace(/[^A-Z0-9]/g, '_')}_BASE_URL`;
}
