/**
 * The public extraction functions, which accept OTLP/JSON as well as decoded spans. Extraction
 * (`src/extract/`) takes decoded spans only; the wire format is decoded here, by ingest's decoders, and
 * then handed to an `Extractor`. The service and the CLI decode in their sources and use `Extractor`.
 */
import { decodeLogsRequestJson, decodeTraceRequestJson } from '../ingest/otlp/decode.js';
import { Extractor, type DecodedInput, type ExtractOptions, type TraceExtraction } from '../extract/extract.js';
import type { TraceExplanation } from '../extract/explain.js';
import type { AgentRun, AgentRunContext } from '../model/agent-run.js';
import type { LogRecord } from '../model/span.js';

/** What the extraction functions accept: a trace, traces, spans, `{spans, logs}`, or an OTLP/JSON trace request (object or text). */
export type ExtractInput = DecodedInput | { resourceSpans: unknown } | string | Uint8Array;

function isRequestObject(input: ExtractInput): input is { resourceSpans: unknown } {
  return typeof input === 'object' && input !== null && !Array.isArray(input) && !(input instanceof Uint8Array) && 'resourceSpans' in input;
}

/** Decodes OTLP/JSON text or a request object to spans; decoded input is returned as it is. Throws `DecodeError`. */
export function decodeExtractInput(input: ExtractInput): DecodedInput {
  if (typeof input === 'string' || input instanceof Uint8Array) return { spans: decodeTraceRequestJson(input).spans };
  if (isRequestObject(input)) return { spans: decodeTraceRequestJson(JSON.stringify(input)).spans };
  return input;
}

/** Logs from an OTLP/JSON `ExportLogsServiceRequest` (object or text), for `ExtractOptions.logs`. */
export function logsFromRequest(request: unknown): LogRecord[] {
  if (typeof request === 'string' || request instanceof Uint8Array) return decodeLogsRequestJson(request).logs;
  return decodeLogsRequestJson(JSON.stringify(request)).logs;
}

/**
 * Extracts every agent run of every trace in `input`, with its span context and an explanation per
 * trace. Never throws on span content; an undecodable OTLP/JSON request throws `DecodeError`.
 */
export function extractTraces(input: ExtractInput, options: ExtractOptions = {}): TraceExtraction[] {
  return new Extractor(options).traces(decodeExtractInput(input));
}

/** Every agent run in `input` (the shape in docs/records.md, "The agent run"), in trace then start order. */
export function extractAgentRuns(input: ExtractInput, options: ExtractOptions = {}): AgentRun[] {
  return extractTraces(input, options).flatMap((t) => t.contexts.map((c) => c.run));
}

/** Every agent run with its spans and resource attributes, for sampling rules and trajectory scorers. */
export function extractAgentRunContexts(input: ExtractInput, options: ExtractOptions = {}): AgentRunContext[] {
  return new Extractor(options).runContexts(decodeExtractInput(input));
}

/** Per trace: conventions matched, spans seen, runs found and why no run was found. */
export function explainTrace(input: ExtractInput, options: ExtractOptions = {}): TraceExplanation[] {
  return extractTraces(input, options).map((t) => t.explanation);
}
