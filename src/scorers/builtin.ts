/**
 * Registers every built-in scorer type with the registry: code types (registered by the registry module
 * itself) and LLM types. Import this before parsing a config, so `scorers.<name>.type` is checked against
 * every type.
 */
import { registerCustomScorerTypes } from './custom/register.js';
import { registerLlmScorerTypes } from './llm/register.js';
import { registerScorerType } from './registry.js';

registerLlmScorerTypes(registerScorerType);
registerCustomScorerTypes(registerScorerType);
