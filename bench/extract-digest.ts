/**
 * A digest of everything extraction produces over the generated datasets (both message profiles, several
 * seeds) and the recorded fixtures: runs, their span ids and the explanations. Refactors of the hot path
 * must leave it unchanged; run it before and after (`node --import tsx bench/extract-digest.ts [--fixtures DIR]`).
 * `--fixtures DIR` reads the fixtures (templates and recorded traces) from DIR instead of test/fixtures/traces,
 * so a snapshot of them keeps the corpus fixed while fixtures are being added.
 */
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { extractTraces } from '../src/api/extract.js';
import { decodeTraceRequestJson, decodeTraceRequestProto } from '../src/ingest/otlp/decode.js';
import type { Span } from '../src/model/span.js';
import { buildDataset } from './lib/dataset.js';

const fixturesArg = process.argv.indexOf('--fixtures');
const dir = fixturesArg >= 0 ? resolve(process.argv[fixturesArg + 1] ?? '') : join(import.meta.dirname, '../test/fixtures/traces');
if (fixturesArg >= 0 && !process.argv[fixturesArg + 1]) throw new Error('extract-digest: --fixtures needs a directory');

const hash = createHash('sha256');
let runs = 0;
let traces = 0;
const add = (spans: readonly Span[]): void => {
  for (const t of extractTraces(spans)) {
    traces++;
    runs += t.contexts.length;
    hash.update(JSON.stringify({ traceId: t.traceId, explanation: t.explanation, runs: t.contexts.map((c) => ({ run: c.run, spans: c.spans.map((s) => s.spanId) })) }, (_k, v: unknown) => (typeof v === 'bigint' ? v.toString() : v)));
  }
};
for (const [seed, messageSize] of [[77, 'llm'], [99, 'llm'], [5, 'small'], [11, 'small']] as const) {
  const ds = buildDataset('digest', 1500, 64, { seed, messageSize, fixturesDir: dir });
  for (const b of ds.proto) add(decodeTraceRequestProto(b).spans);
}
for (const f of readdirSync(dir).filter((n) => n.endsWith('.json')).sort()) add(decodeTraceRequestJson(readFileSync(join(dir, f))).spans);
process.stdout.write(`${traces} traces, ${runs} runs, sha256 ${hash.digest('hex')}\n`);
