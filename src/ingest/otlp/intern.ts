/**
 * Interning of short attribute values and span names. A buffered span holds about ten strings; most of
 * the short ones (operation names, model ids, finish reasons, tool names, span names) repeat across
 * every span of their kind, and each copy costs its 16-byte header plus its characters for as long as the
 * span waits for its trace's decision. One shared instance per distinct short text saves ~300 bytes per
 * buffered span on the recorded traces (bench: memory). Long texts (messages, documents, results) are
 * left alone: they rarely repeat and hashing them would cost more than it saves, except the agent's own
 * configuration that instrumentations copy onto every LLM span whatever its length (tool definitions,
 * system instructions, invocation parameters): an agent has one of each, and a fleet a few hundred.
 */

/** Strings up to this many UTF-16 units are interned. */
export const MAX_INTERNED_LENGTH = 64;
/** The table is dropped and restarted when it reaches this many entries (a high-cardinality value stream). */
export const MAX_INTERNED_ENTRIES = 16_384;

let table = new Map<string, string>();
let configTable = new Map<string, string>();
let configChars = 0;

/** Attributes that carry an agent's configuration, the same on every LLM call of that agent. */
const CONFIG_KEYS: ReadonlySet<string> = new Set([
  'gen_ai.tool.definitions',
  'gen_ai.system_instructions',
  'llm.invocation_parameters',
  'ai.prompt.tools',
]);
/** Bound on the characters held by the configuration table; reaching it restarts the table. */
export const MAX_INTERNED_CONFIG_CHARS = 8 * 1024 * 1024;

/** The shared instance equal to `s` when `s` is short, else `s` itself. Bounded; never changes a value. */
export function intern(s: string): string {
  if (s.length > MAX_INTERNED_LENGTH) return s;
  const hit = table.get(s);
  if (hit !== undefined) return hit;
  if (table.size >= MAX_INTERNED_ENTRIES) table = new Map<string, string>();
  table.set(s, s);
  return s;
}

/** `intern`, and for a configuration attribute (`key` in a fixed set) the shared instance at any length. */
export function internAttribute(key: string, s: string): string {
  if (s.length <= MAX_INTERNED_LENGTH) return intern(s);
  if (!CONFIG_KEYS.has(key) && !key.startsWith('llm.tools.')) return s;
  const hit = configTable.get(s);
  if (hit !== undefined) return hit;
  if (configChars + s.length > MAX_INTERNED_CONFIG_CHARS) {
    configTable = new Map<string, string>();
    configChars = 0;
  }
  configTable.set(s, s);
  configChars += s.length;
  return s;
}

/** Current table sizes (for tests and diagnostics). */
export function internedSizes(): { short: number; config: number; configChars: number } {
  return { short: table.size, config: configTable.size, configChars };
}
