/**
 * Child process of the memory scenario (run with --expose-gc): fills a TraceAssembler with `traces` buffered
 * traces decoded from protobuf replicas of generated requests, then offers more and checks the bounds hold.
 * Prints one JSON object (MemoryResult) on stdout.
 *
 *     node --expose-gc --import tsx bench/scenarios/memory-child.ts <traces> [seed]
 */
import { performance } from 'node:perf_hooks';
import { componentSettings } from '../../src/component.js';
import { TraceAssembler } from '../../src/ingest/assembler.js';
import { OtlpIngest } from '../../src/ingest/otlp/ingest.js';
import { Interner } from '../../src/ingest/otlp/intern.js';
import { replicateProto } from '../generator.js';
import { buildDataset } from '../lib/dataset.js';
import { PeakRss } from '../lib/stats.js';

export interface MemoryResult {
  traces: number;
  spans: number;
  baselineRss: number;
  filledRss: number;
  peakRss: number;
  heapUsedDelta: number;
  estimatedBytes: number;
  refusedBatches: number;
  bufferedAfterOverflow: number;
  maxBufferedTraces: number;
  byteBound: { maxBufferedBytes: number; bufferedBytes: number; refused: number };
  fillSeconds: number;
}

const gc = (globalThis as { gc?: () => void }).gc;
if (!gc) throw new Error('memory-child needs --expose-gc');
const fullGc = (): void => {
  for (let i = 0; i < 3; i++) gc();
};

const target = Number(process.argv[2] ?? '100000');
const seed = Number(process.argv[3] ?? '7');
const ds = buildDataset('memory', 2000, 512, { seed, messageSize: 'small' });

const assembler = new TraceAssembler({
  config: { maxBufferedTraces: target, maxBufferedBytes: 2 ** 45, decisionWaitMs: 3_600_000, maxTraceAgeMs: 7_200_000 },
  onTrace: () => Promise.resolve(),
});
fullGc();
const baselineRss = process.memoryUsage.rss();
const baselineHeap = process.memoryUsage().heapUsed;
const peak = new PeakRss(50);
const t0 = performance.now();
let refused = 0;
let r = 0;
// The receivers' path: one interner shared by every request, as in a service.
const settings = { ...componentSettings(), interner: new Interner() };
const ingest = new OtlpIngest({ sink: assembler, settings });
const body = (i: number, round: number): Buffer => {
  const bytes = replicateProto(ds.proto[i] as Uint8Array, ds.traceIdsByRequest[i] ?? [], round);
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
};
const offerRound = async (): Promise<void> => {
  for (let i = 0; i < ds.proto.length; i++) {
    if ((await ingest.accept('traces', 'protobuf', body(i, r))).kind === 'refused') refused++;
  }
  r++;
};
while (assembler.bufferedTraces < target && refused === 0) await offerRound();
// One more full round past the bound: every batch of it must be refused, and nothing more held.
await offerRound();
const fillSeconds = (performance.now() - t0) / 1000;
fullGc();
const filledRss = process.memoryUsage.rss();
const heapUsedDelta = process.memoryUsage().heapUsed - baselineHeap;
const peakRss = peak.stop();
const result: Omit<MemoryResult, 'byteBound'> = {
  traces: assembler.bufferedTraces,
  spans: assembler.stats.spansAccepted,
  baselineRss,
  filledRss,
  peakRss,
  heapUsedDelta,
  estimatedBytes: assembler.bufferedBytes,
  refusedBatches: refused,
  bufferedAfterOverflow: assembler.bufferedTraces,
  maxBufferedTraces: target,
  fillSeconds,
};

// The byte bound, on a fresh assembler with a small limit: offers stop being accepted before it is passed.
const maxBufferedBytes = 32 * 1024 * 1024;
const small = new TraceAssembler({ config: { maxBufferedBytes, decisionWaitMs: 3_600_000, maxTraceAgeMs: 7_200_000 }, onTrace: () => Promise.resolve() });
const smallIngest = new OtlpIngest({ sink: small, settings });
let smallRefused = 0;
for (let r = 0; smallRefused < 3 && r < 1000; r++) {
  for (let i = 0; i < ds.proto.length && smallRefused < 3; i++) {
    if ((await smallIngest.accept('traces', 'protobuf', body(i, 1_000_000 + r))).kind === 'refused') smallRefused++;
  }
}
const out: MemoryResult = { ...result, byteBound: { maxBufferedBytes, bufferedBytes: small.bufferedBytes, refused: smallRefused } };
process.stdout.write(`${JSON.stringify(out)}\n`);
