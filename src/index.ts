/**
 * The public API of tracejudge (SPEC §9). Everything a library user may import is listed here explicitly.
 */
export type { Span, SpanEvent, SpanLink, Trace, LogRecord, Attributes, AttributeValue, SourceKind } from './ingest/span.js';
export type { AgentRun, RunInput, RunMessage, ToolInvocation, ToolResult, Convention } from './extract/agent-run.js';
export type { ScoreRecord, Emitter, EmitResult } from './emit/score-record.js';
export type { Config } from './config/schema.js';
export { loadConfig, parseConfig, parseConfigText } from './config/load.js';
export { TracejudgeError, ConfigError, DecodeError, ErrorCodes } from './errors.js';
