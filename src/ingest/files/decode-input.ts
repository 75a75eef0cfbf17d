/**
 * Turns an input's bytes into OTLP documents: OTLP/JSON (one document, or JSON lines with one document
 * per line) or OTLP/protobuf, each a traces or a logs request, the kind detected from the content.
 * Every error names the input and where: `traces.json:3: invalid JSON at byte offset 17 (unexpected '}')`.
 */
import { DecodeError, ErrorCodes, errorMessage, TracejudgeError } from '../../errors.js';
import { decodeLogsRequestJson, decodeLogsRequestProto, decodeTraceRequestJson, decodeTraceRequestProto } from '../otlp/decode.js';
import { Interner } from '../otlp/intern.js';
import type { LogRecord, Span } from '../../model/span.js';
import { findJsonSyntaxError } from './json-syntax.js';
import type { InputBytes } from './read-bytes.js';

/** One decoded OTLP request from an input. */
export interface InputDocument {
  kind: 'traces' | 'logs';
  spans: Span[];
  logs: LogRecord[];
  /** Spans or log records rejected one by one (bad ids, too deep values), with the first few reasons. */
  rejected: number;
  errors: string[];
  /** 1-based line of the document (JSON lines), or undefined for a whole-file document. */
  line: number | undefined;
}

export type InputFormat = 'json' | 'protobuf';

const BOM = [0xef, 0xbb, 0xbf];

/** The format from the extension (`.json`, `.jsonl`, `.ndjson`, `.pb`, `.binpb`), else from the content. */
export function detectFormat(formatHint: string, bytes: Uint8Array): InputFormat {
  if (/\.(json|jsonl|ndjson)$/i.test(formatHint)) return 'json';
  if (/\.(pb|binpb|protobuf)$/i.test(formatHint)) return 'protobuf';
  return firstNonSpace(bytes, bomLength(bytes)) === 0x7b ? 'json' : 'protobuf';
}

/** Decode every document of an input; throws `TracejudgeError` (INPUT_MALFORMED) naming the place. */
export function decodeInput(input: InputBytes, ix: Interner = new Interner()): InputDocument[] {
  const format = detectFormat(input.formatHint, input.bytes);
  if (format === 'protobuf') return [decodeProto(input, ix)];
  try {
    return decodeJson(input, ix);
  } catch (err) {
    // Sniffed as JSON only because a protobuf payload happened to start like one: try protobuf.
    if (input.formatHint === '' || !/\.(json|jsonl|ndjson)$/i.test(input.formatHint)) {
      if (input.bytes[0] === 0x0a) {
        try {
          return [decodeProto(input, ix)];
        } catch {
          // report the JSON error below
        }
      }
    }
    throw err;
  }
}

function decodeJson(input: InputBytes, ix: Interner): InputDocument[] {
  const { bytes } = input;
  const start = bomLength(bytes);
  if (looksLikeJsonLines(bytes, start)) return decodeJsonLines(input, splitLines(bytes, start), ix);
  try {
    return [decodeJsonDocument(input, start, bytes.length, undefined, ix)];
  } catch (err) {
    // Only now pay for a syntax scan: to find the offset, and to tell JSON lines from a broken document.
    const whole = findJsonSyntaxError(bytes, start, bytes.length);
    if (whole === undefined) throw err;
    const lines = splitLines(bytes, start).filter((l) => firstNonSpace(bytes, l.start, l.end) !== undefined);
    const first = lines[0];
    if (lines.length < 2 || !first || findJsonSyntaxError(bytes, first.start, first.end) !== undefined) {
      throw syntaxError(input, start + whole.offset, whole.reason);
    }
    return decodeJsonLines(input, lines, ix);
  }
}

/**
 * True when the input is JSON lines for sure: its first line is a whole JSON object by itself and more
 * follows (a single document cannot go on after its closing brace). Checked on the first line alone, so a
 * large file of JSON lines is never converted and parsed whole first; anything else (a pretty-printed or
 * single-line document, a broken first line) takes the document path, which still finds JSON lines.
 */
function looksLikeJsonLines(bytes: Uint8Array, start: number): boolean {
  const nl = bytes.indexOf(0x0a, start);
  if (nl < 0 || firstNonSpace(bytes, nl + 1) === undefined) return false;
  if (firstNonSpace(bytes, start, nl) !== 0x7b) return false;
  try {
    const first: unknown = JSON.parse(Buffer.from(bytes.buffer, bytes.byteOffset + start, nl - start).toString('utf8'));
    return typeof first === 'object' && first !== null && !Array.isArray(first);
  } catch {
    return false;
  }
}

/** Every non-blank line as a document; a bad line names its line and byte offset. */
function decodeJsonLines(input: InputBytes, lines: readonly LineRange[], ix: Interner): InputDocument[] {
  const { bytes } = input;
  const out: InputDocument[] = [];
  for (const l of lines) {
    if (firstNonSpace(bytes, l.start, l.end) === undefined) continue;
    try {
      out.push(decodeJsonDocument(input, l.start, l.end, l.line, ix));
    } catch (lineErr) {
      const bad = findJsonSyntaxError(bytes, l.start, l.end);
      throw bad ? syntaxError(input, l.start + bad.offset, bad.reason) : lineErr;
    }
  }
  return out;
}

function decodeJsonDocument(input: InputBytes, start: number, end: number, line: number | undefined, ix: Interner): InputDocument {
  const slice = input.bytes.subarray(start, end);
  const where = line === undefined ? input.name : `${input.name}:${line}`;
  try {
    const traces = decodeTraceRequestJson(slice, ix);
    if (traces.spans.length === 0 && traces.rejected === 0) {
      const logs = tryLogs(() => decodeLogsRequestJson(slice, ix));
      if (logs) return { kind: 'logs', spans: [], logs: logs.logs, rejected: logs.rejected, errors: logs.errors, line };
    }
    return { kind: 'traces', spans: traces.spans, logs: [], rejected: traces.rejected, errors: traces.errors, line };
  } catch (err) {
    throw new TracejudgeError(ErrorCodes.INPUT_MALFORMED, `${where}: ${errorMessage(err)}`, { cause: err });
  }
}

function decodeProto(input: InputBytes, ix: Interner): InputDocument {
  const note = input.decompressed ? ' (in the decompressed data)' : '';
  let traceError: unknown;
  try {
    const traces = decodeTraceRequestProto(input.bytes, ix);
    if (traces.spans.length > 0) return { kind: 'traces', spans: traces.spans, logs: [], rejected: traces.rejected, errors: traces.errors, line: undefined };
    const logs = tryLogs(() => decodeLogsRequestProto(input.bytes, ix));
    if (logs) return { kind: 'logs', spans: [], logs: logs.logs, rejected: logs.rejected, errors: logs.errors, line: undefined };
    return { kind: 'traces', spans: traces.spans, logs: [], rejected: traces.rejected, errors: traces.errors, line: undefined };
  } catch (err) {
    traceError = err;
  }
  const logs = tryLogs(() => decodeLogsRequestProto(input.bytes, ix));
  if (logs) return { kind: 'logs', spans: [], logs: logs.logs, rejected: logs.rejected, errors: logs.errors, line: undefined };
  const msg = traceError instanceof DecodeError ? traceError.message : `malformed protobuf: ${errorMessage(traceError)}`;
  throw new TracejudgeError(ErrorCodes.INPUT_MALFORMED, `${input.name}: ${msg}${note}`, { cause: traceError });
}

/** A logs decode that counts only when it found log records (or rejected some). */
function tryLogs<T extends { logs: LogRecord[]; rejected: number }>(decode: () => T): T | undefined {
  try {
    const r = decode();
    return r.logs.length > 0 || r.rejected > 0 ? r : undefined;
  } catch {
    return undefined;
  }
}

function syntaxError(input: InputBytes, offset: number, reason: string): TracejudgeError {
  const note = input.decompressed ? ' in the decompressed data' : '';
  return new TracejudgeError(
    ErrorCodes.INPUT_MALFORMED,
    `${input.name}:${lineOf(input.bytes, offset)}: invalid JSON at byte offset ${offset}${note} (${reason})`,
  );
}

function lineOf(bytes: Uint8Array, offset: number): number {
  let line = 1;
  const end = Math.min(offset, bytes.length);
  for (let i = 0; i < end; i++) if (bytes[i] === 0x0a) line++;
  return line;
}

interface LineRange {
  start: number;
  end: number;
  line: number;
}

function splitLines(bytes: Uint8Array, from: number): LineRange[] {
  const out: LineRange[] = [];
  let start = from;
  let line = 1;
  for (;;) {
    // indexOf is a native scan: a byte loop here was a few percent of `extract` on large files.
    const nl = bytes.indexOf(0x0a, start);
    const i = nl < 0 ? bytes.length : nl;
    const end = i > start && bytes[i - 1] === 0x0d ? i - 1 : i;
    out.push({ start, end, line });
    if (nl < 0) return out;
    start = i + 1;
    line++;
  }
}

function bomLength(bytes: Uint8Array): number {
  return bytes[0] === BOM[0] && bytes[1] === BOM[1] && bytes[2] === BOM[2] ? 3 : 0;
}

function firstNonSpace(bytes: Uint8Array, from: number, to = bytes.length): number | undefined {
  for (let i = from; i < to; i++) {
    const b = bytes[i] as number;
    if (b !== 0x20 && b !== 0x0a && b !== 0x0d && b !== 0x09) return b;
  }
  return undefined;
}
