import { describe, expect, it } from 'vitest';
import { findJsonSyntaxError } from '../../src/ingest/files/json-syntax.js';

function parses(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

/** Deterministic LCG. */
function lcg(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

describe('findJsonSyntaxError', () => {
  it.each([
    ['{"a":}', 5, "unexpected '}'"],
    ['{"a":1} x', 8, "unexpected 'x' after the JSON value"],
    ['', 0, 'unexpected end of input'],
    ['[1,2,]', 5, "unexpected ']'"],
    ['{"é":"x"y}', 9, "expected ',' or '}', got 'y'"], // offsets count UTF-8 bytes
    ['[01]', 2, "expected ',' or ']', got '1'"],
    ['{"a" 1}', 5, "expected ':', got '1'"],
    ['"\\q"', 2, 'invalid escape'],
    ['"abc', 4, 'unterminated string'],
  ])('%j → offset %d', (text, offset, reason) => {
    expect(findJsonSyntaxError(Buffer.from(text))).toEqual({ offset, reason });
  });

  it('works on a sub-range, reporting offsets relative to its start', () => {
    const buf = Buffer.from('xx{"a":]yy');
    expect(findJsonSyntaxError(buf, 2, 8)).toEqual({ offset: 5, reason: "unexpected ']'" });
    expect(findJsonSyntaxError(Buffer.from('xx[1]yy'), 2, 5)).toBeUndefined();
  });

  it('agrees with JSON.parse on valid/invalid for thousands of mutated documents', () => {
    const base = '{"resourceSpans":[{"a":[1,-2.5e3,true,false,null,"s\\u00e9\\n"],"b":{"c":{}}}],"d":[]}';
    const alphabet = '{}[]":,0123456789-+.eE \\tnulrfas\u00e9';
    const rand = lcg(7);
    let invalid = 0;
    for (let i = 0; i < 3000; i++) {
      const chars = [...base];
      const edits = 1 + Math.floor(rand() * 3);
      for (let e = 0; e < edits; e++) {
        const at = Math.floor(rand() * chars.length);
        const op = rand();
        const c = alphabet[Math.floor(rand() * alphabet.length)] as string;
        if (op < 0.33) chars.splice(at, 1);
        else if (op < 0.66) chars.splice(at, 0, c);
        else chars[at] = c;
      }
      const text = chars.join('');
      const found = findJsonSyntaxError(Buffer.from(text));
      expect({ text, valid: found === undefined }).toEqual({ text, valid: parses(text) });
      if (found) {
        invalid++;
        expect(found.offset).toBeGreaterThanOrEqual(0);
        expect(found.offset).toBeLessThanOrEqual(Buffer.byteLength(text));
        // the prefix before the offset is never the problem: cutting there gives "end of input" or valid
        const prefix = Buffer.from(text).subarray(0, found.offset);
        const cut = findJsonSyntaxError(prefix);
        if (cut) expect(cut.reason).toMatch(/end of input|unterminated string|invalid \\u escape/);
      }
    }
    expect(invalid).toBeGreaterThan(1000);
  });
});
