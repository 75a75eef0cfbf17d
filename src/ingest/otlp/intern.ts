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

import type { TableGauge } from '../../telemetry/instruments.js';

/** Strings up to this many UTF-16 units are interned. */
export const MAX_INTERNED_LENGTH = 64;
/** The table is dropped and restarted when it reaches this many entries (a high-cardinality value stream). */
export const MAX_INTERNED_ENTRIES = 16_384;
/** Configuration values longer than this are not interned. */
export const MAX_INTERNED_CONFIG_LENGTH = 64 * 1024;
/** Recent distinct values remembered per configuration key (agents of a fleet interleave). */
export const CONFIG_VALUES_PER_KEY = 8;
/** Configuration keys remembered (`llm.tools.<n>.…` keys are numbered). */
export const MAX_CONFIG_KEYS = 64;
/** Characters of configuration values remembered in all (the table restarts beyond: about 4 MiB of text). */
export const MAX_CONFIG_CHARS = 2 * 1024 * 1024;
/** Estimated overhead of one remembered string beyond its characters (header, map or array slot). */
const ENTRY_OVERHEAD_BYTES = 48;
/** Slots of the protobuf decoder's table of short ASCII strings. */
const ASCII_SLOTS = 8192;

/** Attributes that carry an agent's configuration, the same on every LLM call of that agent. */
const CONFIG_KEYS: ReadonlySet<string> = new Set([
  'gen_ai.tool.definitions',
  'gen_ai.system_instructions',
  'llm.invocation_parameters',
  'ai.prompt.tools',
]);

/**
 * The interning tables of one service (its decoders share them; two services share nothing). Bounded;
 * never changes a value.
 */
export class Interner {
  #table = new Map<string, string>();
  /**
   * Per configuration key, its most recent distinct values. A long value is compared with these (a string
   * comparison stops at the first differing character) instead of being hashed whole for a map lookup.
   */
  readonly #recentConfig = new Map<string, string[]>();
  /** Characters held by {@link #recentConfig}, kept ≤ {@link MAX_CONFIG_CHARS}. */
  #configChars = 0;
  /** Characters held by the short-string table. */
  #shortChars = 0;
  /**
   * The protobuf decoder's short strings (attribute keys, span names, short values) straight from their
   * bytes: an ASCII string of at most {@link MAX_INTERNED_LENGTH} bytes is looked up by a hash of its bytes
   * in a fixed table of recent strings and, when found, returned without decoding or allocating. Keys then
   * arrive already internalized for the attribute stores, and equal values share one instance.
   */
  readonly #asciiSlots: string[] = new Array<string>(ASCII_SLOTS).fill('');

  /** The shared instance equal to `s` when `s` is short, else `s` itself. */
  intern(s: string): string {
    if (s.length > MAX_INTERNED_LENGTH) return s;
    const hit = this.#table.get(s);
    if (hit !== undefined) return hit;
    if (this.#table.size >= MAX_INTERNED_ENTRIES) {
      this.#table = new Map<string, string>();
      this.#shortChars = 0;
    }
    this.#table.set(s, s);
    this.#shortChars += s.length;
    return s;
  }

  /** `intern`, and for a configuration attribute (`key` in a fixed set) the shared instance at any length. */
  internAttribute(key: string, s: string): string {
    if (s.length <= MAX_INTERNED_LENGTH) return this.intern(s);
    return this.internConfig(key, s);
  }

  /** For a configuration attribute longer than {@link MAX_INTERNED_LENGTH}, its shared instance; else `s`. */
  internConfig(key: string, s: string): string {
    if (s.length > MAX_INTERNED_CONFIG_LENGTH || (!CONFIG_KEYS.has(key) && !key.startsWith('llm.tools.'))) return s;
    let recent = this.#recentConfig.get(key);
    if (recent !== undefined) for (const v of recent) if (v === s) return v;
    if (recent === undefined || this.#configChars + s.length > MAX_CONFIG_CHARS) {
      if (this.#recentConfig.size >= MAX_CONFIG_KEYS || this.#configChars + s.length > MAX_CONFIG_CHARS) {
        this.#recentConfig.clear();
        this.#configChars = 0;
      }
      recent = this.#recentConfig.get(key);
      if (recent === undefined) this.#recentConfig.set(key, (recent = []));
    }
    if (recent.length >= CONFIG_VALUES_PER_KEY) this.#configChars -= (recent.pop() as string).length;
    recent.unshift(s);
    this.#configChars += s.length;
    return s;
  }

  /** Current table sizes (for tests and diagnostics). */
  sizes(): { short: number; configKeys: number; configChars: number } {
    return { short: this.#table.size, configKeys: this.#recentConfig.size, configChars: this.#configChars };
  }

  /** The tables as `/metrics` reports them (`tracejudge.memory.table.*`): entries and estimated bytes. */
  tables(): TableGauge[] {
    let configValues = 0;
    for (const values of this.#recentConfig.values()) configValues += values.length;
    let asciiEntries = 0;
    let asciiChars = 0;
    for (const t of this.#asciiSlots) {
      if (t === '') continue;
      asciiEntries++;
      asciiChars += t.length;
    }
    const bytes = (entries: number, chars: number): number => entries * ENTRY_OVERHEAD_BYTES + 2 * chars;
    return [
      { table: 'intern.short', entries: this.#table.size, bytes: bytes(this.#table.size, this.#shortChars) },
      { table: 'intern.config', entries: configValues, bytes: bytes(configValues, this.#configChars) },
      { table: 'intern.ascii', entries: asciiEntries, bytes: bytes(asciiEntries, asciiChars) },
    ];
  }

  /** `buf[start, end)` as UTF-8 text (invalid sequences become U+FFFD, as `Buffer#toString` does). */
  decodeUtf8(buf: Buffer, start: number, end: number): string {
    const len = end - start;
    if (len === 0) return '';
    if (len > MAX_INTERNED_LENGTH) return buf.toString('utf8', start, end);
    let h = 0x811c9dc5 ^ len;
    for (let i = start; i < end; i++) {
      const b = buf[i] as number;
      if (b >= 0x80) return this.intern(buf.toString('utf8', start, end));
      h = Math.imul(h ^ b, 0x01000193);
    }
    const slot = (h >>> 0) % ASCII_SLOTS;
    const slots = this.#asciiSlots;
    const cached = slots[slot] as string;
    if (cached.length === len) {
      let i = 0;
      while (i < len && cached.charCodeAt(i) === buf[start + i]) i++;
      if (i === len) return cached;
    }
    const text = buf.toString('latin1', start, end);
    slots[slot] = text;
    return text;
  }
}
