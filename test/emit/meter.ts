/** Telemetry on a real SDK meter with an in-memory reader, for asserting what was counted. */
export { createTestTelemetry as installTestMeter, type TestTelemetry as TestMeter } from '../../src/testing/test-telemetry.js';
