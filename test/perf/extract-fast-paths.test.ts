/**
 * The extraction fast paths must give exactly what the plain code gave: RFC 3339 formatting, display
 * JSON, the per-trace parse cache, the byte cap shortcut.
 */
import { describe, expect, it } from 'vitest';
import { capText } from '../../src/extract/hygiene.js';
import { rfc3339 } from '../../src/extract/runs.js';
import { buildSpanTree } from '../../src/extract/tree.js';
import { parseJsonish, stringify, toPlain } from '../../src/extract/values.js';

/** The original bigint-division formatting. */
function referenceRfc3339(ns: bigint): string {
  const n = ns < 0n ? 0n : ns;
  const d = new Date(Number(n / 1_000_000n));
  if (Number.isNaN(d.getTime())) return '1970-01-01T00:00:00.000000000Z';
  return `${d.toISOString().slice(0, 19)}.${(n % 1_000_000_000n).toString().padStart(9, '0')}Z`;
}

/** The original display JSON: always through a plain deep copy. */
function referenceStringify(v: unknown): string {
  if (typeof v === 'string') return v;
  if (v === undefined) return '';
  try {
    return JSON.stringify(toPlain(v)) ?? '';
  } catch {
    return '[unserialisable value]';
  }
}

function nest(levels: number, leaf: unknown, wrap: (x: unknown) => unknown): unknown {
  let v = leaf;
  for (let i = 0; i < levels; i++) v = wrap(v);
  return v;
}

describe('rfc3339', () => {
  const edges = [
    0n, 1n, -5n, 999_999_999n, 1_000_000_000n, 1_700_000_000_123_456_789n, 1_700_000_000_999_999_999n,
    2n ** 63n, 2n ** 64n - 1n, 253_402_300_799_999_999_999n, 253_402_300_800_000_000_000n,
    8_639_999_999_999_999_999_999n, 8_640_000_000_000_000_000_000n, 8_640_000_000_000_001_000_000n, 10n ** 30n,
  ];
  it.each(edges.map((e) => [e]))('formats %s like the bigint arithmetic', (ns) => {
    expect(rfc3339(ns)).toBe(referenceRfc3339(ns));
  });

  it('agrees on a deterministic spread of 20,000 values, in and out of the per-second cache', () => {
    let x = 88_172_645_463_325_252n;
    for (let i = 0; i < 20_000; i++) {
      x = (x * 6_364_136_223_846_793_005n + 1_442_695_040_888_963_407n) % 2n ** 64n;
      const ns = i % 2 === 0 ? x : 1_700_000_000_000_000_000n + (x % 5_000_000_000n);
      expect(rfc3339(ns)).toBe(referenceRfc3339(ns));
    }
  });
});

describe('stringify', () => {
  const cases: Array<[string, unknown]> = [
    ['null', null],
    ['NaN', Number.NaN],
    ['-Infinity', -Infinity],
    ['bigint', 5n],
    ['huge bigint in an object', { a: 2n ** 70n }],
    ['bytes', new Uint8Array([1, 2, 3])],
    ['sparse array', Object.assign(new Array<unknown>(3), { 0: 1, 2: 3 })],
    ['parsed __proto__ key', JSON.parse('{"__proto__":{"x":1},"b":2}')],
    ['string toJSON', { toJSON: 'x' }],
    ['function toJSON', { toJSON: () => 1 }],
    ['Date', new Date(0)],
    ['Map', new Map([[1, 2]])],
    ['array 70 deep', nest(70, 'x', (v) => [v])],
    ['object 64 deep around a number', nest(64, 1, (v) => ({ a: v }))],
    ['object 63 deep around a number', nest(63, 1, (v) => ({ a: v }))],
    ['integer-like keys', JSON.parse('{"2":1,"1":2,"a":[{"b":null}]}')],
    ['undefined in array and object', [undefined, { u: undefined }]],
    ['inherited enumerable key', Object.create({ inherited: 1 }) as unknown],
    ['null prototype', Object.assign(Object.create(null) as object, { a: 1 })],
    ['plain parsed message', JSON.parse('[{"role":"user","parts":[{"type":"text","content":"hi"}]}]')],
  ];
  it.each(cases)('%s serialises as through toPlain', (_name, v) => {
    expect(stringify(v)).toBe(referenceStringify(v));
  });
});

describe('the per-trace parse cache (SpanTree.json)', () => {
  const text = '{"role":"user","content":"hello"}';
  const traceCache = () => buildSpanTree('t1', []).json;

  it('parses a text once per trace and shares the value; without the cache every call parses', () => {
    const cache = traceCache();
    const [a, b] = [parseJsonish(text, cache), parseJsonish(`${text}`, cache)];
    expect(a).toEqual({ role: 'user', content: 'hello' });
    expect(b).toBe(a);
    expect(parseJsonish(text)).not.toBe(parseJsonish(text));
    expect(parseJsonish(text, traceCache())).not.toBe(a);
  });

  it('keeps one cache across every use within the trace and returns non-JSON text unchanged', () => {
    const cache = traceCache();
    const outer = parseJsonish(text, cache);
    expect(parseJsonish(text, cache)).toBe(outer);
    expect(parseJsonish('{not json', cache)).toBe('{not json');
    expect(parseJsonish('{not json', cache)).toBe('{not json');
    expect(parseJsonish('plain', cache)).toBe('plain');
  });
});

describe('capText', () => {
  it('keeps texts within the cap and cuts the others exactly as before', () => {
    expect(capText('a'.repeat(10), 30)).toBe('a'.repeat(10));
    expect(capText('é'.repeat(10), 20)).toBe('é'.repeat(10));
    expect(capText('é'.repeat(11), 20)).toBe(`${'é'.repeat(10)}…[truncated 2 bytes]`);
    expect(capText('€'.repeat(4), 10)).toBe(`${'€'.repeat(3)}…[truncated 3 bytes]`);
    expect(capText('', 0)).toBe('');
  });
});
