/**
 * Where extraction allocates: V8's sampling heap profiler (objects the collector has since freed included)
 * over three passes of extraction on freshly decoded spans, as the service extracts them. Prints bytes
 * allocated per span and the top allocating functions (built-ins named with their caller).
 *
 *     node --import tsx bench/extract-alloc.ts [top]
 */
import { Session } from 'node:inspector/promises';

await import('./lib/use-dist.js');
const { decodeTraceRequestProto } = await import('../src/ingest/otlp/decode.js');
const { Interner } = await import('../src/ingest/otlp/intern.js');
const { Extractor } = await import('../src/extract/extract.js');
const { buildDataset } = await import('./lib/dataset.js');
const { groupTraces } = await import('./lib/group-traces.js');

interface SamplingNode {
  callFrame: { functionName: string; url: string; lineNumber: number };
  selfSize: number;
  children: SamplingNode[];
}

const top = Number(process.argv[2] ?? '30');
const ds = buildDataset('extract-alloc', 1500, 512, { seed: 99, messageSize: 'llm' });
const interner = new Interner();
const fresh = (): ReturnType<typeof groupTraces> => groupTraces(ds.proto.map((b) => decodeTraceRequestProto(b, interner)));
// Warm-up passes first: the profile is of compiled code, as in a running service.
// One extractor, as a service has: its key-family table kept across traces.
const extractor = new Extractor();
for (let i = 0; i < 5; i++) for (const t of fresh()) extractor.runContexts(t);
const passes = [fresh(), fresh(), fresh()];

const session = new Session();
session.connect();
await session.post('HeapProfiler.startSampling', { samplingInterval: 4096, includeObjectsCollectedByMinorGC: true, includeObjectsCollectedByMajorGC: true });
for (const traces of passes) for (const t of traces) extractor.runContexts(t);
const { profile } = (await session.post('HeapProfiler.stopSampling')) as unknown as { profile: { head: SamplingNode } };
session.disconnect();

const BUILTINS = new Set(['sort', 'Map', 'Set', 'set', 'add', 'push', 'next', 'filter', 'map', '']);
const nameOf = (n: SamplingNode): string => `${n.callFrame.functionName || '(anonymous)'} ${n.callFrame.url.replace(/^.*\/(dist|node_modules)\//, '$1/')}:${n.callFrame.lineNumber}`;
const bytes = new Map<string, number>();
const walk = (n: SamplingNode, parent: string): void => {
  const key = BUILTINS.has(n.callFrame.functionName) ? `${nameOf(n)} < ${parent}` : nameOf(n);
  bytes.set(key, (bytes.get(key) ?? 0) + n.selfSize);
  for (const c of n.children) walk(c, nameOf(n));
};
walk(profile.head, '');
const total = [...bytes.values()].reduce((a, b) => a + b, 0);
process.stdout.write(`${(total / passes.length / ds.spans).toFixed(0)} bytes allocated per span (${(total / passes.length / 2 ** 20).toFixed(1)} MiB per pass of ${ds.spans} spans)\n`);
for (const [key, n] of [...bytes].sort((a, b) => b[1] - a[1]).slice(0, top)) process.stdout.write(`${((100 * n) / total).toFixed(1).padStart(5)} %  ${key}\n`);
