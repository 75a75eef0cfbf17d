/**
 * `tracejudge score` builds its service with the same graph builder as `serve`, so a backfill writes to
 * every configured emitter: with `emit.otlp` (or only OTEL_EXPORTER_OTLP_ENDPOINT) set, the score records
 * of an offline run arrive at an OTLP receiver as `gen_ai.evaluation.result` log records and evaluation
 * carrier spans in the judged trace, besides the JSON lines on stdout and the JSON-lines file.
 */
import { readFileSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectedCarrierSpanId } from '../emit/carrier-ids.js';
import { OtlpReceiver } from '../emit/otlp-receiver.js';
import { childEnv, removeDir, ROOT, runCli, tempDir } from './serve-process.js';

const FIXTURE = join(ROOT, 'test/fixtures/traces/aisdk6-two-tools.json');
const EXPECTED = JSON.parse(readFileSync(join(ROOT, 'test/fixtures/expected/aisdk6-two-tools.json'), 'utf8')) as { runs: { traceId: string; spanId: string }[] };
const RUN = EXPECTED.runs[0] as { traceId: string; spanId: string };
const SCORERS = ['similarity', 'tone'];

let dir: string;

beforeAll(async () => {
  dir = await tempDir('score-otlp');
});

afterAll(async () => {
  await removeDir(dir);
});

function config(otlp: string): string {
  return ['scorers:', '  similarity: { type: content-similarity }', '  tone: { type: tone }', 'emit:', `  jsonl: { path: ${JSON.stringify(join(dir, 'scores.jsonl'))} }`, otlp, ''].join('\n');
}

async function scoreInto(receiver: OtlpReceiver, yaml: string, env: Record<string, string>): Promise<Record<string, unknown>[]> {
  const file = join(dir, `score-${Date.now()}.yaml`);
  await writeFile(file, yaml);
  const r = await runCli(['score', '--all', '-c', file, FIXTURE], childEnv(env));
  expect(r.code, r.stderr).toBe(0);
  return r.stdout
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => JSON.parse(l) as Record<string, unknown>);
}

function expectDelivered(receiver: OtlpReceiver, transport: string): void {
  for (const scorer of SCORERS) {
    const id = expectedCarrierSpanId(receiver.spans, RUN.traceId, RUN.spanId, scorer);
    const span = receiver.spans.find((s) => s.spanId === id);
    expect(span, `carrier span of ${scorer}`).toMatchObject({ transport, traceId: RUN.traceId, parentSpanId: RUN.spanId, name: `evaluation ${scorer}` });
    expect(span?.events[0]?.name).toBe('gen_ai.evaluation.result');
    expect(span?.events[0]?.attributes['gen_ai.evaluation.name']?.value).toBe(scorer);
    const log = receiver.logs.find((l) => l.traceId === RUN.traceId && l.attributes['gen_ai.evaluation.name']?.value === scorer);
    expect(log, `log record of ${scorer}`).toMatchObject({ transport, spanId: RUN.spanId, eventName: 'gen_ai.evaluation.result' });
  }
}

describe('score writes to every configured emitter, as serve does', () => {
  it('with emit.otlp: stdout, the JSON-lines file, and carrier spans plus log records over OTLP/HTTP protobuf', async () => {
    const receiver = new OtlpReceiver();
    await receiver.start();
    try {
      const records = await scoreInto(receiver, config(`  otlp: { endpoint: ${JSON.stringify(receiver.httpUrl)}, protocol: http/protobuf }`), {});
      expect(records.map((r) => r.scorer).sort()).toEqual([...SCORERS].sort());
      const file = readFileSync(join(dir, 'scores.jsonl'), 'utf8').trim().split('\n');
      expect(file).toHaveLength(SCORERS.length);
      // Everything was flushed before the command exited: no waiting needed.
      expectDelivered(receiver, 'http/protobuf');
    } finally {
      await receiver.stop();
    }
  });

  it('with only OTEL_EXPORTER_OTLP_ENDPOINT (and _PROTOCOL=grpc) set', async () => {
    const receiver = new OtlpReceiver();
    await receiver.start();
    try {
      await scoreInto(receiver, config(''), { OTEL_EXPORTER_OTLP_ENDPOINT: receiver.grpcUrl, OTEL_EXPORTER_OTLP_PROTOCOL: 'grpc' });
      expectDelivered(receiver, 'grpc');
    } finally {
      await receiver.stop();
    }
  });
});
