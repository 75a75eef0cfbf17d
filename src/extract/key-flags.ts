/**
 * Which convention key families a span's attributes carry, from one pass over its keys. Several selectors
 * ask "does any key start with …" of the same span (and the AI SDK one of its parent and children too);
 * the tree computes the answer once per span (`SpanTree.keyFlags`) instead of one key scan per question.
 * The selectors also test a flag before looking up keys that most spans lack (the other conventions'
 * markers, GenAI usage or tool keys): a lookup that misses costs as much as one that hits, and the flag
 * test next to nothing. A flag only ever rules keys out: when it is set, the key is still read.
 */
import { ErrorCodes, TracejudgeError } from '../errors.js';
import type { Attributes } from '../model/span.js';
import type { TableGauge } from '../telemetry/instruments.js';

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

/** `PREFIXES` grouped by their first character's code: a key is tested only against the prefixes it can have. */
const PREFIXES_BY_FIRST: ReadonlyMap<number, ReadonlyArray<readonly [flag: number, prefix: string]>> = (() => {
  const groups = new Map<number, Array<readonly [number, string]>>();
  for (const entry of PREFIXES) {
    const first = entry[1].charCodeAt(0);
    const group = groups.get(first);
    if (group) group.push(entry);
    else groups.set(first, [entry]);
  }
  return groups;
})();

/** The flags of one key. */
function flagsOfKey(key: string): number {
  let flags = KEYS.get(key) ?? 0;
  const group = PREFIXES_BY_FIRST.get(key.charCodeAt(0));
  if (group !== undefined) for (const [flag, prefix] of group) if (key.startsWith(prefix)) flags |= flag;
  return flags;
}

/** The flags of `attrs`, every key worked out afresh (for-in over a plain attribute object visits exactly its own keys). */
export function keyFlagsOf(attrs: Attributes): number {
  let flags = 0;
  for (const k in attrs) flags |= flagsOfKey(k);
  return flags;
}

/** Estimated bytes per cached key besides its text (map entry, string header). */
const ENTRY_OVERHEAD_BYTES = 64;

/**
 * `keyFlagsOf` with each key's flags remembered. Attribute keys repeat from span to span (one set per
 * instrumentation), and a lookup of an interned key costs a third of the prefix tests (measured: 0.45 →
 * 0.11 µs per span). At most `maxKeys` keys of at most `maxKeyLength` UTF-16 units (by default under
 * 1.5 MiB however hostile the keys); longer keys are worked out each time, and the table starts over when
 * full (flattened message keys grow with conversation length). A service has one (its settings'
 * `keyFlags`, reported in `/metrics` as `extract.key_flags`); an `Extractor` made without one has its own.
 */
export class KeyFlagTable {
  readonly #flags = new Map<string, number>();
  #chars = 0;

  constructor(
    readonly maxKeys = 4096,
    readonly maxKeyLength = 128,
  ) {
    for (const [name, value] of [['maxKeys', maxKeys], ['maxKeyLength', maxKeyLength]] as const) {
      if (!Number.isSafeInteger(value) || value < 1) throw new TracejudgeError(ErrorCodes.USAGE, `KeyFlagTable: ${name} must be a positive integer, got ${String(value)}`);
    }
  }

  flagsOf(attrs: Attributes): number {
    let flags = 0;
    for (const k in attrs) {
      let f = this.#flags.get(k);
      if (f === undefined) {
        f = flagsOfKey(k);
        if (k.length <= this.maxKeyLength) {
          if (this.#flags.size >= this.maxKeys) {
            this.#flags.clear();
            this.#chars = 0;
          }
          this.#flags.set(k, f);
          this.#chars += k.length;
        }
      }
      flags |= f;
    }
    return flags;
  }

  /** The table as `/metrics` reports it (`tracejudge.memory.table.*`). */
  tables(): TableGauge[] {
    return [{ table: 'extract.key_flags', entries: this.#flags.size, bytes: this.#flags.size * ENTRY_OVERHEAD_BYTES + 2 * this.#chars }];
  }
}
