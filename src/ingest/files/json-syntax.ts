/**
 * Finds the first JSON syntax error in a byte range and its exact byte offset. `JSON.parse` on Node 20
 * does not always say where it failed (and counts UTF-16 units when it does), so file errors are located
 * with this small iterative scanner instead. It runs only after a parse has failed.
 */

/** Where and why a JSON text is malformed. `offset` is relative to the start of the buffer. */
export interface JsonSyntaxError {
  offset: number;
  reason: string;
}

class Fail extends Error {
  constructor(
    readonly offset: number,
    readonly reason: string,
  ) {
    super(reason);
  }
}

const enum Mode {
  Value,
  ArrayValueOrEnd,
  KeyOrEnd,
  Key,
  Colon,
  ObjectCommaOrEnd,
  ArrayCommaOrEnd,
  Done,
}

const OBJECT = 1;
const ARRAY = 2;

function describeByte(c: number): string {
  return c >= 0x21 && c < 0x7f ? `'${String.fromCharCode(c)}'` : `byte 0x${c.toString(16).padStart(2, '0')}`;
}

function scanString(buf: Uint8Array, start: number, end: number): number {
  let j = start + 1;
  for (;;) {
    if (j >= end) throw new Fail(end, 'unterminated string');
    const b = buf[j] as number;
    if (b === 0x22) return j + 1;
    if (b < 0x20) throw new Fail(j, 'control character in string');
    if (b === 0x5c) {
      const e = buf[j + 1];
      if (e === undefined || j + 1 >= end) throw new Fail(end, 'unterminated string');
      if (e === 0x75) {
        for (let k = 2; k < 6; k++) {
          const h = j + k < end ? buf[j + k] : undefined;
          const isHex = h !== undefined && ((h >= 0x30 && h <= 0x39) || (h >= 0x41 && h <= 0x46) || (h >= 0x61 && h <= 0x66));
          if (!isHex) throw new Fail(Math.min(j + k, end), 'invalid \\u escape');
        }
        j += 6;
        continue;
      }
      if (!'"\\/bfnrt'.includes(String.fromCharCode(e))) throw new Fail(j + 1, 'invalid escape');
      j += 2;
      continue;
    }
    j++;
  }
}

function scanDigits(buf: Uint8Array, start: number, end: number): number {
  let j = start;
  while (j < end && (buf[j] as number) >= 0x30 && (buf[j] as number) <= 0x39) j++;
  if (j === start) throw new Fail(start, start < end ? `unexpected ${describeByte(buf[start] as number)} in number` : 'unexpected end of input');
  return j;
}

function scanNumber(buf: Uint8Array, start: number, end: number): number {
  let j = start;
  if (buf[j] === 0x2d) j++;
  if (buf[j] === 0x30 && j < end) j++;
  else j = scanDigits(buf, j, end);
  if (j < end && buf[j] === 0x2e) j = scanDigits(buf, j + 1, end);
  if (j < end && (buf[j] === 0x65 || buf[j] === 0x45)) {
    j++;
    if (j < end && (buf[j] === 0x2b || buf[j] === 0x2d)) j++;
    j = scanDigits(buf, j, end);
  }
  return j;
}

function scanLiteral(buf: Uint8Array, start: number, end: number, word: string): number {
  for (let k = 0; k < word.length; k++) {
    if (start + k >= end) throw new Fail(end, 'unexpected end of input');
    if (buf[start + k] !== word.charCodeAt(k)) throw new Fail(start + k, `unexpected ${describeByte(buf[start + k] as number)}`);
  }
  return start + word.length;
}

/** The first syntax error in `buf[start, end)`, or undefined when it holds exactly one valid JSON value. */
export function findJsonSyntaxError(buf: Uint8Array, start = 0, end = buf.length): JsonSyntaxError | undefined {
  const stack: number[] = [];
  let mode: Mode = Mode.Value;
  let i = start;
  const afterValue = (): Mode => {
    const top = stack[stack.length - 1];
    return top === undefined ? Mode.Done : top === OBJECT ? Mode.ObjectCommaOrEnd : Mode.ArrayCommaOrEnd;
  };
  try {
    for (;;) {
      while (i < end && (buf[i] === 0x20 || buf[i] === 0x0a || buf[i] === 0x0d || buf[i] === 0x09)) i++;
      if (i >= end) return mode === Mode.Done ? undefined : { offset: end - start, reason: 'unexpected end of input' };
      const c = buf[i] as number;
      switch (mode) {
        case Mode.Done:
          throw new Fail(i, `unexpected ${describeByte(c)} after the JSON value`);
        case Mode.Value:
        case Mode.ArrayValueOrEnd:
          if (c === 0x5d && mode === Mode.ArrayValueOrEnd) {
            stack.pop();
            i++;
            mode = afterValue();
          } else if (c === 0x7b) {
            stack.push(OBJECT);
            i++;
            mode = Mode.KeyOrEnd;
          } else if (c === 0x5b) {
            stack.push(ARRAY);
            i++;
            mode = Mode.ArrayValueOrEnd;
          } else {
            if (c === 0x22) i = scanString(buf, i, end);
            else if (c === 0x2d || (c >= 0x30 && c <= 0x39)) i = scanNumber(buf, i, end);
            else if (c === 0x74) i = scanLiteral(buf, i, end, 'true');
            else if (c === 0x66) i = scanLiteral(buf, i, end, 'false');
            else if (c === 0x6e) i = scanLiteral(buf, i, end, 'null');
            else throw new Fail(i, `unexpected ${describeByte(c)}`);
            mode = afterValue();
          }
          break;
        case Mode.KeyOrEnd:
        case Mode.Key:
          if (c === 0x7d && mode === Mode.KeyOrEnd) {
            stack.pop();
            i++;
            mode = afterValue();
          } else if (c === 0x22) {
            i = scanString(buf, i, end);
            mode = Mode.Colon;
          } else throw new Fail(i, `expected a string key, got ${describeByte(c)}`);
          break;
        case Mode.Colon:
          if (c !== 0x3a) throw new Fail(i, `expected ':', got ${describeByte(c)}`);
          i++;
          mode = Mode.Value;
          break;
        case Mode.ObjectCommaOrEnd:
        case Mode.ArrayCommaOrEnd: {
          const close = mode === Mode.ObjectCommaOrEnd ? 0x7d : 0x5d;
          if (c === 0x2c) {
            i++;
            mode = mode === Mode.ObjectCommaOrEnd ? Mode.Key : Mode.Value;
          } else if (c === close) {
            stack.pop();
            i++;
            mode = afterValue();
          } else throw new Fail(i, `expected ',' or '${String.fromCharCode(close)}', got ${describeByte(c)}`);
          break;
        }
      }
    }
  } catch (err) {
    if (err instanceof Fail) return { offset: err.offset - start, reason: err.reason };
    throw err;
  }
}
