/** Input that is not OTLP (a Jaeger or Zipkin export, any other JSON) is an input error, not "0 runs". */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { makeFixtures, type Fixtures } from './fixtures.js';
import { runCli } from './run-cli.js';

let dir: string;
let fx: Fixtures;
const file = (name: string, text: string | Uint8Array): string => {
  const p = join(dir, name);
  writeFileSync(p, text);
  return p;
};

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'tj-not-otlp-'));
  fx = await makeFixtures();
});

const jaeger = {
  data: [{ traceID: '4bf92f3577b34da6a3ce929d0e0e4736', spans: [{ traceID: '4bf92f3577b34da6a3ce929d0e0e4736', spanID: '00f067aa0ba902b7', operationName: 'chat', references: [], startTime: 1, duration: 2, tags: [] }], processes: { p1: { serviceName: 'agent', tags: [] } } }],
  total: 0,
  limit: 0,
  offset: 0,
  errors: null,
};
const zipkin = [{ traceId: '4bf92f3577b34da6a3ce929d0e0e4736', id: '00f067aa0ba902b7', name: 'chat', timestamp: 1, duration: 2, localEndpoint: { serviceName: 'agent' } }];

/** The one `tracejudge: ` line on stderr. */
function errorLine(stderr: string): string {
  const lines = stderr.split('\n').filter((l) => l.startsWith('tracejudge: '));
  expect(lines).toHaveLength(1);
  return lines[0] as string;
}

describe('input that is not OTLP: exit 2, naming the file and what it holds', () => {
  it.each([
    ['score', 'jaeger.json', JSON.stringify(jaeger), 'no OTLP spans or log records: a Jaeger JSON export? (data[].spans with traceID)'],
    ['extract', 'jaeger.json', JSON.stringify(jaeger, null, 2), 'no OTLP spans or log records: a Jaeger JSON export? (data[].spans with traceID)'],
    ['score', 'zipkin.json', JSON.stringify(zipkin), 'not an OTLP request: a Zipkin JSON? (an array of spans with traceId and localEndpoint)'],
    ['extract', 'zipkin-ui.json', JSON.stringify([zipkin]), 'not an OTLP request: a Zipkin JSON? (an array of spans with traceId and localEndpoint)'],
    ['score', 'hello.json', '{"hello":"world"}', 'no OTLP spans or log records (found top-level keys: hello); expected an OTLP ExportTraceServiceRequest'],
    ['extract', 'lines.jsonl', '{"a":1,"b":2}\n{"c":3}\n', 'no OTLP spans or log records (found top-level keys: a, b); expected'],
    ['score', 'empty-otlp.json', '{"resourceSpans":[]}', 'no OTLP spans or log records: an OTLP traces request without spans (resourceSpans is empty)'],
    ['extract', 'metrics.json', '{"resourceMetrics":[{"scopeMetrics":[]}]}', 'no OTLP spans or log records: an OTLP metrics request (resourceMetrics); tracejudge reads traces and logs'],
    ['score', 'empty.pb', new Uint8Array(0), 'no OTLP spans or log records in 0 bytes read as protobuf'],
  ])('%s %s', async (command, name, content, message) => {
    const path = file(name, content);
    const r = await runCli([command, path]);
    expect(r.code).toBe(2);
    expect(errorLine(r.stderr)).toContain(`tracejudge: ${path}: ${message}`);
    expect(r.stdout).toBe('');
    expect(r.stderr).not.toContain('summary:');
  });

  it('extract --explain says it too, and a good file beside a bad one prints nothing (inputs are read first)', async () => {
    const bad = file('hello2.json', '{"hello":"world"}');
    const r = await runCli(['extract', '--explain', fx.path('traces.json'), bad]);
    expect(r.code).toBe(2);
    expect(errorLine(r.stderr)).toContain(`${bad}: no OTLP spans or log records (found top-level keys: hello)`);
    expect(r.stdout).toBe('');
  });

  it('on stdin, named <stdin>', async () => {
    const r = await runCli(['extract', '-'], { stdin: '[1, 2]' });
    expect(r.code).toBe(2);
    expect(errorLine(r.stderr)).toContain('tracejudge: <stdin>: ');
  });

  it('OTLP input still works (a logs request alone is fine too)', async () => {
    const r = await runCli(['extract', fx.path('traces.json')]);
    expect(r.code).toBe(0);
    expect(r.stdout.trim().split('\n')).toHaveLength(2);
    const logsOnly = await runCli(['extract', fx.path('logs.json')]);
    expect(logsOnly.code).toBe(0);
  });
});
