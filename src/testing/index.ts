/**
 * Test doubles for users' tests and ours (`import … from 'tracejudge/testing'`): a stub OpenAI-compatible
 * judge on 127.0.0.1, a recording span sink, telemetry on an in-memory reader, and real OTel spans.
 */
export { startStubJudge, reply, byMarker, type StubJudge, type StubJudgeOptions, type StubMessage, type StubRequest, type StubResponse, type StubScript, type StubReply, type StubUsage, type StreamFault } from './stub-judge/index.js';
export { RecordingSpanSink, type RecordingSpanSinkOptions } from './recording-sink.js';
export { createTestTelemetry, type TestTelemetry } from './test-telemetry.js';
export { recordTestTrace, makeTestSpans, TEST_RESOURCE } from './otel-spans.js';
