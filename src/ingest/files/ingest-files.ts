/**
 * The file source: reads inputs (paths or `-`), decodes every document up front (so a malformed input
 * fails before anything is printed), then offers each document to a sink as one batch. When the sink is
 * full the file source "pauses": it flushes the assembler and offers again.
 */
import { ErrorCodes, TracejudgeError } from '../../errors.js';
import type { ComponentSettings } from '../../component.js';
import type { Interner } from '../otlp/intern.js';
import type { SpanSink } from '../sink.js';
import { decodeInput, detectFormat, type InputDocument } from './decode-input.js';
import { describeNonOtlp, foreignFormat } from './not-otlp.js';
import { readInputBytes, type InputBytes } from './read-bytes.js';

/** One input with its decoded documents. */
export interface DecodedInput {
  name: string;
  documents: InputDocument[];
}

/** Totals over all inputs, for the command's closing log line. */
export interface IngestTotals {
  inputs: number;
  documents: number;
  spans: number;
  logs: number;
  rejected: number;
}

/**
 * Read and decode every input; throws `TracejudgeError` (INPUT_UNREADABLE / INPUT_MALFORMED) naming the first
 * bad one. An input that yields no span and no log record is bad too (a Jaeger export, `{"hello":"world"}`):
 * the message says what it holds instead, rather than the command reporting 0 runs and exit 0.
 */
export async function readInputs(paths: readonly string[], settings: ComponentSettings & { readonly interner: Interner }, stdin?: NodeJS.ReadableStream): Promise<DecodedInput[]> {
  if (paths.filter((p) => p === '-').length > 1) throw new TracejudgeError(ErrorCodes.USAGE, 'stdin (-) can be read only once');
  const out: DecodedInput[] = [];
  for (const path of paths) {
    const input = await readInputBytes(path, stdin);
    const documents = decodeWithHint(input, settings.interner);
    if (documents.every((d) => d.spans.length === 0 && d.logs.length === 0 && d.rejected === 0)) {
      throw new TracejudgeError(ErrorCodes.INPUT_MALFORMED, `${input.name}: ${describeNonOtlp(input, detectFormat(input.formatHint, input.bytes))}`);
    }
    for (const d of documents) {
      if (d.rejected > 0) {
        const where = d.line === undefined ? input.name : `${input.name}:${d.line}`;
        settings.logger.warn({ input: where, rejected: d.rejected, errors: d.errors }, `${where}: ${d.rejected} ${d.kind === 'traces' ? 'spans' : 'log records'} rejected`);
      }
    }
    out.push({ name: input.name, documents });
  }
  return out;
}

/** `decodeInput`, adding what the input looks like when its JSON is fine but not an OTLP envelope (a Zipkin array). */
function decodeWithHint(input: InputBytes, ix: Interner): InputDocument[] {
  try {
    return decodeInput(input, ix);
  } catch (err) {
    if (!(err instanceof TracejudgeError) || detectFormat(input.formatHint, input.bytes) !== 'json') throw err;
    let doc: unknown;
    try {
      doc = JSON.parse(Buffer.from(input.bytes.buffer, input.bytes.byteOffset, input.bytes.length).toString('utf8').replace(/^\uFEFF/, ''));
    } catch {
      throw err; // a syntax error, already named with its offset
    }
    const foreign = foreignFormat(doc);
    if (foreign === undefined) throw err;
    throw new TracejudgeError(ErrorCodes.INPUT_MALFORMED, `${input.name}: not an OTLP request: ${foreign}`, { cause: err });
  }
}

/** Something that takes batches and can decide everything it holds (the assembler). */
export interface FlushableSink extends SpanSink {
  flush(): Promise<void>;
}

/** Offer every document to `sink` as one batch each (source `file`), flushing when the sink is full. */
export async function feedInputs(sink: FlushableSink, inputs: readonly DecodedInput[], settings: ComponentSettings): Promise<IngestTotals> {
  const totals: IngestTotals = { inputs: inputs.length, documents: 0, spans: 0, logs: 0, rejected: 0 };
  const { spansReceived, spansRejected } = settings.telemetry.instruments;
  for (const input of inputs) {
    for (const doc of input.documents) {
      const batch = { spans: doc.spans, logs: doc.logs, source: 'file' as const };
      let result = sink.offer(batch);
      if (!result.accepted && result.reason === 'buffer_full') {
        await sink.flush();
        result = sink.offer(batch);
      }
      if (!result.accepted) {
        throw new TracejudgeError(ErrorCodes.BACKPRESSURE, `${input.name}: the assembler refused a document (${result.reason})`);
      }
      totals.documents++;
      totals.spans += doc.spans.length;
      totals.logs += doc.logs.length;
      totals.rejected += doc.rejected;
      if (doc.spans.length > 0) spansReceived.add(doc.spans.length, { source: 'file' });
      if (doc.rejected > 0 && doc.kind === 'traces') spansRejected.add(doc.rejected, { source: 'file', reason: 'invalid' });
    }
  }
  return totals;
}
