/**
 * A/B of warm extraction between two built trees, in one process, passes interleaved (A, B, A, B, …) so
 * load on a shared machine hits both alike.
 *
 *     node --import tsx bench/extract-ab.ts A_ROOT B_ROOT [passes] [--fresh]
 *
 * Each root is a checkout with `dist/` built (`npx tsc -p tsconfig.build.json`). Prints the median µs per
 * span of extraction over every trace of the micro-benchmark dataset, for A and for B, as the service
 * extracts: one `Extractor` per side, kept across passes (a root without the class falls back to
 * `extractAgentRunContexts`). `--fresh` decodes the spans again before every pass (untimed), so each pass
 * extracts young objects and strings never read before, as the pipeline does.
 */
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { performance } from 'node:perf_hooks';
import type { Trace } from '../src/model/span.js';
import type { extractAgentRunContexts as Extract } from '../src/api/extract.js';
import { decodeTraceRequestProto } from '../src/ingest/otlp/decode.js';
import { Interner } from '../src/ingest/otlp/intern.js';
import { buildDataset } from './lib/dataset.js';
import { groupTraces } from './lib/group-traces.js';
import { median } from './lib/stats.js';

const args = process.argv.slice(2);
const fresh = args.includes('--fresh');
const [aRoot, bRoot, passesArg = '25'] = args.filter((a) => a !== '--fresh');
if (!aRoot || !bRoot) throw new Error('usage: extract-ab.ts A_ROOT B_ROOT [passes] [--fresh]');
const passes = Number(passesArg);

type ExtractFn = (trace: Trace) => unknown;

async function load(root: string): Promise<ExtractFn> {
  const url = pathToFileURL(resolve(root, 'dist/extract/extract.js')).href;
  const mod = (await import(url)) as { extractAgentRunContexts: typeof Extract; Extractor?: new () => { runContexts(t: Trace): unknown } };
  if (mod.Extractor === undefined) return (t) => mod.extractAgentRunContexts(t);
  const extractor = new mod.Extractor();
  return (t) => extractor.runContexts(t);
}

const ds = buildDataset('extract-ab', 1500, 512, { seed: 99, messageSize: 'llm' });
const interner = new Interner();
const decode = (): Trace[] => groupTraces(ds.proto.map((b) => decodeTraceRequestProto(b, interner)));
let traces: Trace[] = decode();

const variants = [
  { label: 'A', root: aRoot, extract: await load(aRoot), samples: [] as number[] },
  { label: 'B', root: bRoot, extract: await load(bRoot), samples: [] as number[] },
];
const pass = (extract: ExtractFn): number => {
  if (fresh) traces = decode();
  const t0 = performance.now();
  for (const t of traces) extract(t);
  return performance.now() - t0;
};
// Warm-up: both compiled and their caches settled before any sample counts.
for (let i = 0; i < 5; i++) for (const v of variants) pass(v.extract);
for (let i = 0; i < passes; i++) {
  const order = i % 2 === 0 ? variants : [...variants].reverse();
  for (const v of order) v.samples.push(pass(v.extract));
}
for (const v of variants) {
  const us = (median(v.samples) * 1000) / ds.spans;
  process.stdout.write(`${v.label} ${us.toFixed(3)} µs/span (median of ${passes}, ${ds.spans} spans${fresh ? ', fresh' : ''})  ${v.root}\n`);
}
const [a, b] = variants.map((v) => median(v.samples)) as [number, number];
process.stdout.write(`B/A ${(b / a).toFixed(3)}\n`);
