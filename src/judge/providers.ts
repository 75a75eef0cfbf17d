/**
 * Model router strings: `"<provider>/<model>"` names a judge model the way Mastra's model router does
 * (`openai/gpt-4o-mini`, `openrouter/anthropic/claude-3.5-sonnet`, `ollama/llama3.1`). Only the first
 * segment is the provider; the rest is the model id sent on the wire. A string without `/` is a model of
 * the `openai` provider (the `judge:` endpoint), as before model strings had prefixes.
 *
 * Every provider here speaks OpenAI's chat-completions API. The built-in table lists the common ones that
 * Mastra's router knows, with the same key variables; `judge.providers` in the config, or `providers` given
 * to a `JudgeResolver`, add more or move a built-in one (docs/configuration.md, "Model strings").
 */
import { BUILTIN_PROVIDERS, DEFAULT_PROVIDER, baseURLEnvOf } from '../config/sections/judge-providers.js';
import { ErrorCodes, TracejudgeError } from '../errors.js';

/** Where the models of one provider prefix are served. */
export interface JudgeProviderConfig {
  /** The OpenAI-compatible base URL, e.g. `https://openrouter.ai/api/v1` (requests go to `<baseURL>/chat/completions`). */
  baseURL: string;
  /** Environment variable holding the API key. Absent: no key, no `Authorization` header. */
  apiKeyEnv?: string;
  /** The API key itself (code only; a config file names `apiKeyEnv`). Wins over `apiKeyEnv`. */
  apiKey?: string;
}

/** One provider prefix resolved against the environment. */
export interface JudgeEndpoint {
  /** The prefix, e.g. `openrouter`. */
  provider: string;
  baseURL: string;
  /** The key, when one is known. */
  apiKey: string | undefined;
  /** Where the key is looked up, for error messages (`OPENROUTER_API_KEY`); undefined for keyless entries. */
  apiKeyEnv: string | undefined;
  /** False for local servers (Ollama, LM Studio) and entries without `apiKeyEnv`: they run without a key. */
  keyRequired: boolean;
  /** Where the entry comes from: `built-in`, `judge.providers` (config) or `code`. */
  source: 'built-in' | 'config' | 'code';
}

/** Prefixes Mastra's router knows whose API is not OpenAI's chat completions: named in the error for them. */
const OTHER_APIS: Readonly<Record<string, string>> = Object.freeze({
  anthropic: "anthropic('…') from @ai-sdk/anthropic",
  google: "google('…') from @ai-sdk/google",
  gemini: "google('…') from @ai-sdk/google",
  'azure-openai': "azure('…') from @ai-sdk/azure",
  'amazon-bedrock': "bedrock('…') from @ai-sdk/amazon-bedrock",
  vercel: "gateway('…') from @ai-sdk/gateway",
});

/** A model string split at its first `/`. */
export interface ModelRoute {
  provider: string;
  /** The model id sent on the wire (the string without its provider segment). */
  modelId: string;
}

/**
 * Split a model string: `openrouter/anthropic/claude-3.5` → `{ provider: 'openrouter', modelId:
 * 'anthropic/claude-3.5' }`; `gpt-4o-mini` → `{ provider: 'openai', modelId: 'gpt-4o-mini' }`. Throws a
 * `TracejudgeError` for an empty provider or model segment.
 *
 * @example
 * ```ts
 * parseModelString('openai/gpt-4o-mini'); // { provider: 'openai', modelId: 'gpt-4o-mini' }
 * ```
 */
export function parseModelString(name: string): ModelRoute {
  const slash = name.indexOf('/');
  if (slash < 0) {
    if (name.trim() === '') throw new TracejudgeError(ErrorCodes.CONFIG_INVALID, 'judge model "": the model string is empty');
    return { provider: DEFAULT_PROVIDER, modelId: name };
  }
  const provider = name.slice(0, slash);
  const modelId = name.slice(slash + 1);
  if (provider === '' || modelId === '') {
    throw new TracejudgeError(
      ErrorCodes.CONFIG_INVALID,
      `judge model ${JSON.stringify(name)}: expected "<provider>/<model>" (e.g. "openai/gpt-4o-mini") or a bare model id`,
    );
  }
  return { provider, modelId };
}

type Env = Readonly<Record<string, string | undefined>>;

const nonEmpty = (v: string | undefined): string | undefined => (v !== undefined && v.trim() !== '' ? v : undefined);

/** The `openai` endpoint: the `judge:` section's values, then the environment, then OpenAI itself. */
export interface DefaultEndpointParts {
  baseURL: string;
  apiKey: string | undefined;
}

/**
 * The provider table of one resolver, resolved against `env`: `openai` from the `judge:` section, the
 * built-in providers (each base URL movable with `<PREFIX>_BASE_URL`), then `config` entries
 * (`judge.providers`) and `code` entries, each overriding the fields it gives of an earlier one.
 */
export function resolveProviderTable(
  openai: DefaultEndpointParts,
  env: Env,
  config: Readonly<Record<string, JudgeProviderConfig>> = {},
  code: Readonly<Record<string, JudgeProviderConfig>> = {},
): Readonly<Record<string, Readonly<JudgeEndpoint>>> {
  const table: Record<string, Readonly<JudgeEndpoint>> = {
    [DEFAULT_PROVIDER]: Object.freeze({ provider: DEFAULT_PROVIDER, baseURL: openai.baseURL, apiKey: openai.apiKey, apiKeyEnv: 'OPENAI_API_KEY', keyRequired: true, source: 'built-in' }),
  };
  for (const [provider, b] of Object.entries(BUILTIN_PROVIDERS)) {
    table[provider] = Object.freeze({
      provider,
      baseURL: nonEmpty(env[baseURLEnvOf(provider)]) ?? b.baseURL,
      apiKey: nonEmpty(env[b.apiKeyEnv]),
      apiKeyEnv: b.apiKeyEnv,
      keyRequired: b.keyOptional !== true,
      source: 'built-in',
    });
  }
  const overlay = (entries: Readonly<Record<string, JudgeProviderConfig>>, source: 'config' | 'code'): void => {
    for (const [provider, p] of Object.entries(entries)) {
      if (provider === DEFAULT_PROVIDER) {
        throw new TracejudgeError(ErrorCodes.CONFIG_INVALID, `judge provider "openai" cannot be redefined: set judge.baseURL and judge.apiKey (or OPENAI_BASE_URL and OPENAI_API_KEY)`);
      }
      const before = Object.hasOwn(table, provider) ? table[provider] : undefined;
      // A `judge.providers` entry for a built-in prefix keeps the built-in key variable unless it names another.
      const apiKeyEnv = p.apiKeyEnv ?? before?.apiKeyEnv;
      const apiKey = nonEmpty(p.apiKey) ?? (apiKeyEnv !== undefined ? nonEmpty(env[apiKeyEnv]) : undefined);
      table[provider] = Object.freeze({
        provider,
        baseURL: p.baseURL,
        apiKey,
        apiKeyEnv,
        keyRequired: p.apiKey !== undefined || p.apiKeyEnv !== undefined ? true : (before?.keyRequired ?? false),
        source,
      });
    }
  };
  overlay(config, 'config');
  overlay(code, 'code');
  return Object.freeze(table);
}

/** The environment variables a provider table reads (for noticing that the environment changed). */
export function providerEnvNames(): string[] {
  const names = ['OPENAI_BASE_URL', 'OPENAI_API_KEY'];
  for (const [provider, b] of Object.entries(BUILTIN_PROVIDERS)) names.push(b.apiKeyEnv, baseURLEnvOf(provider));
  return names;
}

/** The error for a prefix that is not in the table: lists the known prefixes and how to add one. */
export function unknownProviderError(model: string, provider: string, table: Readonly<Record<string, unknown>>): TracejudgeError {
  const known = Object.keys(table).join(', ');
  const other = OTHER_APIS[provider];
  const why = other
    ? `${provider} does not speak OpenAI's chat-completions API; pass an AI SDK model object instead (${other}), or route it through an OpenAI-compatible gateway such as "openrouter/${model.slice(provider.length + 1)}"`
    : `add it under judge.providers in the config (judge: { providers: { ${provider}: { baseURL: "https://…/v1", apiKeyEnv: "${provider.toUpperCase().replace(/[^A-Z0-9]/g, '_')}_API_KEY" } } }), ` +
      `pass providers to new JudgeResolver({ providers }), or pass { id: ${JSON.stringify(model)}, url, apiKey } as the model. ` +
      `A model id of the judge.baseURL endpoint that itself contains "/" is written "openai/${model}"`;
  return new TracejudgeError(ErrorCodes.CONFIG_INVALID, `judge model ${JSON.stringify(model)}: unknown provider ${JSON.stringify(provider)} (known: ${known}); ${why}`);
}

/** The error for a provider whose key is not set. */
export function missingKeyError(model: string, endpoint: JudgeEndpoint): TracejudgeError {
  const where =
    endpoint.provider === DEFAULT_PROVIDER
      ? 'set OPENAI_API_KEY (or judge.apiKey in the config)'
      : endpoint.apiKeyEnv !== undefined
        ? `set ${endpoint.apiKeyEnv}`
        : 'give the provider an apiKey';
  return new TracejudgeError(ErrorCodes.CONFIG_INVALID, `judge model ${JSON.stringify(model)} needs an API key: ${where}`);
}

/**
 * The endpoint serving `model`, or a thrown `TracejudgeError` (unknown provider, missing key).
 *
 * @example
 * ```ts
 * const { endpoint, modelId } = routeModel('openrouter/anthropic/claude-3.5', table);
 * ```
 */
export function routeModel(model: string, table: Readonly<Record<string, Readonly<JudgeEndpoint>>>): { endpoint: Readonly<JudgeEndpoint>; modelId: string } {
  const { provider, modelId } = parseModelString(model);
  const endpoint = Object.hasOwn(table, provider) ? table[provider] : undefined;
  if (!endpoint) throw unknownProviderError(model, provider, table);
  if (endpoint.keyRequired && endpoint.apiKey === undefined) throw missingKeyError(model, endpoint);
  return { endpoint, modelId };
}
