import type { LogRecord, Span } from '../../src/model/span.js';

export const T1 = '0af7651916cd43dd8448eb211c80319c';
export const T2 = '1bf7651916cd43dd8448eb211c80319d';
export const T3 = '2cf7651916cd43dd8448eb211c80319e';

const resource = { attributes: { 'service.name': 'test' } };
const scope = { name: 'test', version: '1', attributes: {} };

/** A span with the given ids; `parent` '' makes it a root. */
export function span(traceId: string, spanId: string, parent: string, name = `span-${spanId}`): Span {
  return {
    traceId,
    spanId: spanId.padStart(16, '0'),
    parentSpanId: parent === '' ? '' : parent.padStart(16, '0'),
    traceState: '',
    flags: 1,
    name,
    kind: 1,
    startTimeUnixNano: 1_000_000_000n,
    endTimeUnixNano: 2_000_000_000n,
    attributes: { 'gen_ai.operation.name': 'chat' },
    events: [],
    links: [],
    status: { code: 0, message: '' },
    resource,
    scope,
  };
}

export function log(traceId: string, spanId: string): LogRecord {
  return {
    timeUnixNano: 1n,
    observedTimeUnixNano: 1n,
    severityNumber: 9,
    severityText: 'INFO',
    eventName: 'gen_ai.user.message',
    body: { content: 'hello' },
    attributes: {},
    traceId,
    spanId: spanId.padStart(16, '0'),
    flags: 0,
    resource,
    scope,
  };
}

/** A controllable clock. */
export class FakeClock {
  t = 1_000_000;
  readonly now = (): number => this.t;
  advance(ms: number): void {
    this.t += ms;
  }
}

export interface Deferred {
  promise: Promise<void>;
  resolve: () => void;
  reject: (err: Error) => void;
}

export function deferred(): Deferred {
  let resolve!: () => void;
  let reject!: (err: Error) => void;
  const promise = new Promise<void>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

/**
 * A real SDK meter for one test: hand `settings` (or `telemetry`) to the components under test, then
 * `sum(name, attrs)` reads an instrument's current value for matching attributes.
 */
export { createTestTelemetry as testMeter, type TestTelemetry as TestMeter } from '../../src/testing/test-telemetry.js';

/** Let queued microtasks and promise continuations run. */
export async function settle(): Promise<void> {
  for (let i = 0; i < 5; i++) await new Promise<void>((r) => setImmediate(r));
}
