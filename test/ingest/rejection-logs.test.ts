/** Refused OTLP requests are logged with status, reason and client address; the pending count is written at shutdown. */
import { Writable } from 'node:stream';
import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { componentSettings } from '../../src/component.js';
import { createOtlpHttpReceiver } from '../../src/ingest/http/receiver.js';
import { RecordingSpanSink } from '../../src/testing/recording-sink.js';
import { deadlineIn, testIngest } from './receivers.js';

describe('OTLP/HTTP rejection log lines', () => {
  it('name status, reason and client; the count still pending is flushed at shutdown', async () => {
    const lines: Record<string, unknown>[] = [];
    const logger = pino(
      { level: 'info' },
      new Writable({
        write(chunk: Buffer, _e, cb) {
          lines.push(JSON.parse(chunk.toString()) as Record<string, unknown>);
          cb();
        },
      }),
    );
    const settings = componentSettings({ logger });
    const http = createOtlpHttpReceiver({ host: '127.0.0.1', port: 0, maxBodyBytes: 1 << 20, ingest: testIngest(new RecordingSpanSink(), settings), settings, isReady: () => true });
    await http.start();
    const post = (body: string, type = 'application/json'): Promise<number> =>
      fetch(`http://127.0.0.1:${http.port}/v1/traces`, { method: 'POST', headers: { 'content-type': type }, body }).then((r) => r.status);
    expect(await post('{"resourceSpans": [')).toBe(400);
    expect(await post('x', 'text/plain')).toBe(415);
    expect(await post('{"resourceSpans": 3')).toBe(400);
    const bad = (): Record<string, unknown>[] => lines.filter((l) => l.msg === 'rejected malformed OTLP/HTTP requests');
    expect(bad()).toHaveLength(1);
    expect(bad()[0]).toMatchObject({ status: 400, client: '127.0.0.1', count: 1 });
    expect(String(bad()[0]?.reason)).toMatch(/JSON/i);
    await http.shutdown(deadlineIn());
    expect(bad()).toHaveLength(2);
    expect(bad()[1]).toMatchObject({ status: 400, client: '127.0.0.1', count: 2 });
  });
});
