/**
 * Which convention key families a span's attributes carry, from one pass over its keys. Several selectors
 * ask "does any key start with …" of the same span (and the AI SDK one of its parent and children too);
 * the tree computes the answer once per span (`SpanTree.keyFlags`) instead of one key scan per question.
 * The selectors also test a flag before looking up keys that most spans lack (the other conventions'
 * markers, GenAI usage or tool keys): a lookup that misses costs as much as one that hits, and the flag
 * test next to nothing. A flag only ever rules keys out: when it is set, the key is still read.
 */
import type { Attributes } from '../model/span.js';

/** A key starts with `mastra.`. */
export const KEY_MASTRA = 1;
/** A key starts with `gen_ai.`. */
export const KEY_GEN_AI = 2;
/** A key starts with `gen_ai.prompt.0.`, `gen_ai.completion.0.` or `traceloop.entity.` (OpenLLMetry's indexed form). */
export const KEY_OPENLLMETRY_LEGACY = 4;
/** A key starts with `gen_ai.prompt.` (OpenLLMetry's flattened prompt messages, any index). */
export const KEY_GEN_AI_PROMPT = 8;
/** A key starts with `gen_ai.completion.` (OpenLLMetry's flattened completion messages, any index). */
export const KEY_GEN_AI_COMPLETION = 16;
/** A key starts with `llm.input_messages.` (OpenInference's flattened input messages). */
export const KEY_LLM_INPUT_MESSAGES = 32;
/** A key starts with `llm.output_messages.` (OpenInference's flattened output messages). */
export const KEY_LLM_OUTPUT_MESSAGES = 64;
/** A key starts with `retrieval.documents.` (OpenInference's flattened documents). */
export const KEY_RETRIEVAL_DOCUMENTS = 128;
/** A key starts with `gen_ai.agent.`. */
export const KEY_GEN_AI_AGENT = 1 << 8;
/** A key starts with `gen_ai.tool.`. */
export const KEY_GEN_AI_TOOL = 1 << 9;
/** A key starts with `gen_ai.usage.`. */
export const KEY_GEN_AI_USAGE = 1 << 10;
/** A key starts with `gen_ai.retrieval.`. */
export const KEY_GEN_AI_RETRIEVAL = 1 << 11;
/** A key starts with `error.`. */
export const KEY_ERROR = 1 << 12;
/** The key `gen_ai.input.messages`, `gen_ai.output.messages` or `gen_ai.system_instructions` (GenAI content). */
export const KEY_GEN_AI_CONTENT = 1 << 13;
/** The key `openinference.span.kind`. */
export const KEY_OPENINFERENCE_KIND = 1 << 14;
/** The key `traceloop.span.kind` or `llm.request.type` (OpenLLMetry's markers). */
export const KEY_OPENLLMETRY_MARKER = 1 << 15;
/** The key `ai.operationId`. */
export const KEY_AI_OPERATION_ID = 1 << 16;

const PREFIXES: ReadonlyArray<readonly [flag: number, prefix: string]> = [
  [KEY_MASTRA, 'mastra.'],
  [KEY_GEN_AI, 'gen_ai.'],
  [KEY_OPENLLMETRY_LEGACY, 'gen_ai.prompt.0.'],
  [KEY_OPENLLMETRY_LEGACY, 'gen_ai.completion.0.'],
  [KEY_OPENLLMETRY_LEGACY, 'traceloop.entity.'],
  [KEY_GEN_AI_PROMPT, 'gen_ai.prompt.'],
  [KEY_GEN_AI_COMPLETION, 'gen_ai.completion.'],
  [KEY_LLM_INPUT_MESSAGES, 'llm.input_messages.'],
  [KEY_LLM_OUTPUT_MESSAGES, 'llm.output_messages.'],
  [KEY_RETRIEVAL_DOCUMENTS, 'retrieval.documents.'],
  [KEY_GEN_AI_AGENT, 'gen_ai.agent.'],
  [KEY_GEN_AI_TOOL, 'gen_ai.tool.'],
  [KEY_GEN_AI_USAGE, 'gen_ai.usage.'],
  [KEY_GEN_AI_RETRIEVAL, 'gen_ai.retrieval.'],
  [KEY_ERROR, 'error.'],
];

const KEYS: ReadonlyMap<string, number> = new Map([
  ['gen_ai.input.messages', KEY_GEN_AI_CONTENT],
  ['gen_ai.output.messages', KEY_GEN_AI_CONTENT],
  ['gen_ai.system_instructions', KEY_GEN_AI_CONTENT],
  ['openinference.span.kind', KEY_OPENINFERENCE_KIND],
  ['traceloop.span.kind', KEY_OPENLLMETRY_MARKER],
  ['llm.request.type', KEY_OPENLLMETRY_MARKER],
  ['ai.operationId', KEY_AI_OPERATION_ID],
]);

/** The flags of one key. */
function flagsOfKey(key: string): number {
  let flags = KEYS.get(key) ?? 0;
  for (const [flag, prefix] of PREFIXES) if (key.startsWith(prefix)) flags |= flag;
  return flags;
}

/**
 * Attribute keys repeat from span to span (one set per instrumentation), so each key's flags are worked
 * out once and looked up after: a lookup of an interned key costs a third of the prefix tests (measured:
 * 0.45 → 0.11 µs per span). At most `KEY_CACHE_MAX` keys of at most `KEY_CACHE_MAX_LENGTH` UTF-16 units
 * (under 1.5 MiB however hostile the keys); longer keys are worked out each time, and the cache starts
 * over when full (flattened message keys grow with conversation length).
 */
const KEY_CACHE_MAX = 4096;
const KEY_CACHE_MAX_LENGTH = 128;
const keyCache = new Map<string, number>();

/** The flags of `attrs` (for-in over a plain attribute object visits exactly its own keys). */
export function keyFlagsOf(attrs: Attributes): number {
  let flags = 0;
  for (const k in attrs) {
    let f = keyCache.get(k);
    if (f === undefined) {
      f = flagsOfKey(k);
      if (k.length <= KEY_CACHE_MAX_LENGTH) {
        if (keyCache.size >= KEY_CACHE_MAX) keyCache.clear();
        keyCache.set(k, f);
      }
    }
    flags |= f;
  }
  return flags;
}
