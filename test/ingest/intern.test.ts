import { describe, expect, it } from 'vitest';
import { decodeTraceRequestJson, decodeTraceRequestProto } from '../../src/ingest/otlp/decode.js';
import { CONFIG_VALUES_PER_KEY, Interner, MAX_CONFIG_CHARS, MAX_CONFIG_KEYS, MAX_INTERNED_CONFIG_LENGTH, MAX_INTERNED_ENTRIES, MAX_INTERNED_LENGTH } from '../../src/ingest/otlp/intern.js';
import { createTestTelemetry } from '../../src/testing/test-telemetry.js';
import { encodeTraceRequest, jsonSpan, jsonTraceRequest, prng } from './helpers.js';

describe('interning of attribute values', () => {
  it('never changes a value, whatever its length or key', () => {
    const interner = new Interner();
    const long = 'x'.repeat(MAX_INTERNED_LENGTH + 1);
    expect(interner.intern('gpt-4o')).toBe('gpt-4o');
    expect(interner.intern(long)).toBe(long);
    expect(interner.internAttribute('gen_ai.system_instructions', long)).toBe(long);
    expect(interner.internAttribute('gen_ai.input.messages', long)).toBe(long);
    expect(interner.internAttribute('llm.tools.0.tool.json_schema', `${long}!`)).toBe(`${long}!`);
  });

  it('stays bounded on a high-cardinality stream (ids, unique texts)', () => {
    const interner = new Interner();
    for (let i = 0; i < MAX_INTERNED_ENTRIES * 3; i++) interner.intern(`call_${i}`);
    expect(interner.sizes().short).toBeLessThanOrEqual(MAX_INTERNED_ENTRIES);
    const big = 'y'.repeat(MAX_INTERNED_CONFIG_LENGTH - 10);
    for (let i = 0; i < 500; i++) interner.internAttribute(`llm.tools.${i % 300}.tool.json_schema`, `${i}${big}`);
    const sizes = interner.sizes();
    expect(sizes.configKeys).toBeLessThanOrEqual(MAX_CONFIG_KEYS);
    expect(sizes.configChars).toBeLessThanOrEqual(MAX_CONFIG_KEYS * CONFIG_VALUES_PER_KEY * MAX_INTERNED_CONFIG_LENGTH);
  });

  it('bounds the configuration values by characters, and still shares a value it holds', () => {
    const interner = new Interner();
    const big = 'z'.repeat(MAX_INTERNED_CONFIG_LENGTH - 10);
    // 60 keys × 8 values of ~64 Ki characters would be ~31 Mi characters without the byte bound.
    for (let i = 0; i < 60 * CONFIG_VALUES_PER_KEY; i++) {
      interner.internAttribute(`llm.tools.${i % 60}.tool.json_schema`, `${i}${big}`);
      expect(interner.sizes().configChars).toBeLessThanOrEqual(MAX_CONFIG_CHARS);
    }
    expect(interner.sizes().configChars).toBeGreaterThan(MAX_CONFIG_CHARS / 2);
    const value = `again${big}`;
    const first = interner.internAttribute('gen_ai.tool.definitions', value);
    expect(interner.internAttribute('gen_ai.tool.definitions', `again${big}`)).toBe(first);
  });

  it('reports its tables (entries, estimated bytes) on tracejudge.memory.table.*', async () => {
    const interner = new Interner();
    for (let i = 0; i < 100; i++) interner.intern(`tool_${i}`);
    interner.internAttribute('gen_ai.system_instructions', 's'.repeat(1000));
    const short = interner.tables().find((t) => t.table === 'intern.short');
    expect(short?.entries).toBe(100);
    // 100 strings of 6–7 characters: at least their UTF-16 text (2 bytes per character).
    expect(short?.bytes).toBeGreaterThanOrEqual(2 * (10 * 6 + 90 * 7));
    expect(interner.tables().find((t) => t.table === 'intern.config')).toMatchObject({ entries: 1 });
    expect(interner.tables().find((t) => t.table === 'intern.config')?.bytes).toBeGreaterThanOrEqual(2000);
    const meter = createTestTelemetry();
    const stop = meter.telemetry.observeTables(() => interner.tables());
    expect(await meter.sum('tracejudge.memory.table.entries', { table: 'intern.short' })).toBe(100);
    expect(await meter.sum('tracejudge.memory.table.bytes', { table: 'intern.config' })).toBeGreaterThanOrEqual(2000);
    stop();
    await meter.shutdown();
  });

  it('decoded spans carry the same values as sent, through both decoders', () => {
    const interner = new Interner();
    const attrs = {
      'gen_ai.operation.name': 'chat',
      'gen_ai.system_instructions': 'You are a careful assistant. '.repeat(20),
      'gen_ai.input.messages': JSON.stringify([{ role: 'user', parts: [{ type: 'text', content: 'hi '.repeat(100) }] }]),
      'gen_ai.usage.input_tokens': 12,
    };
    const kv = Object.entries(attrs).map(([key, v]) => ({ key, value: typeof v === 'number' ? { intValue: v } : { stringValue: v } }));
    const ids = (n: number) => ({ traceId: Buffer.from('0af7651916cd43dd8448eb211c80319c', 'hex'), spanId: Buffer.from(`00000000000000${n}${n}`, 'hex') });
    const proto = decodeTraceRequestProto(encodeTraceRequest([1, 2].map((n) => ({ ...ids(n), name: 'chat gpt-4o', attributes: kv }))), interner);
    const json = decodeTraceRequestJson(jsonTraceRequest([1, 2].map(() => ({ ...jsonSpan('chat gpt-4o'), attributes: kv }))), interner);
    expect(proto.spans).toHaveLength(2);
    expect(json.spans).toHaveLength(2);
    for (const s of [...proto.spans, ...json.spans]) {
      expect(s.name).toBe('chat gpt-4o');
      expect(s.attributes).toEqual(attrs);
    }
  });
});

describe('decodeUtf8 (short strings from protobuf bytes)', () => {
  it('equals Buffer#toString for random bytes: ASCII, multi-byte, invalid sequences, every length around the cache limit', () => {
    const interner = new Interner();
    const next = prng(42);
    const rand = (): number => next() / 2 ** 32;
    const alphabet = [0x61, 0x62, 0x2e, 0x5f, 0x30, 0x7a, 0xc3, 0xa9, 0xe2, 0x82, 0xac, 0xff, 0x80, 0x00];
    for (let n = 0; n < 20_000; n++) {
      const len = Math.floor(rand() * (MAX_INTERNED_LENGTH + 16));
      // Mostly ASCII from a tiny alphabet, so equal strings recur and slots collide; sometimes any byte.
      const bytes = Buffer.alloc(len + 4);
      const wild = rand() < 0.2;
      for (let i = 0; i < bytes.length; i++) bytes[i] = wild ? Math.floor(rand() * 256) : (alphabet[Math.floor(rand() * 6)] as number);
      expect(interner.decodeUtf8(bytes, 2, 2 + len)).toBe(bytes.toString('utf8', 2, 2 + len));
    }
  });

  it('returns the right text when two strings share a table slot', () => {
    const interner = new Interner();
    // Fill far more distinct strings than slots, then re-read all of them.
    const texts = Array.from({ length: 30_000 }, (_, i) => `gen_ai.attr.${i}`);
    for (const t of texts) interner.decodeUtf8(Buffer.from(t), 0, t.length);
    for (const t of texts) expect(interner.decodeUtf8(Buffer.from(`##${t}`), 2, t.length + 2)).toBe(t);
  });
});
