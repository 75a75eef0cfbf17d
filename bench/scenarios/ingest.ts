/**
 * Ingest floor: raw JSON.parse and raw protobufjs decode of the same OTLP payloads, against the full
 * OTLP/HTTP path (real HTTP on 127.0.0.1 to the receiver, decode, assembler) with a no-op trace handler.
 */
import { performance } from 'node:perf_hooks';
import { decodeTraceRequestJson, decodeTraceRequestProto } from '../../src/ingest/otlp/decode.js';
import { Interner } from '../../src/ingest/otlp/intern.js';
import { otlp } from '../../src/otlp/descriptor.js';
import { benchConfig, benchService } from '../lib/bench-service.js';
import { buildDataset, type Dataset } from '../lib/dataset.js';
import { postAll } from '../lib/http-client.js';
import type { Row } from '../lib/results.js';
import { median, medianTimeMs, mib, PeakRss, percentile } from '../lib/stats.js';
import type { BenchContext } from './context.js';

const CONCURRENCY = 4;

interface PathRun {
  spansPerS: number;
  tracesPerS: number;
  p50: number;
  p99: number;
  peakRss: number;
  failures: number;
}

async function fullPath(ds: Dataset, encoding: 'json' | 'protobuf'): Promise<PathRun> {
  const sentAtByTrace = new Map<string, number>();
  const latencies: number[] = [];
  let assembled = 0;
  // The OTLP/HTTP receiver and the assembler as `serve` builds them, with a handler that only counts.
  const config = benchConfig([], '/dev/null', {
    sources: { otlp: { http: { host: '127.0.0.1', port: 0, maxBodyBytes: 64 * 1024 * 1024 }, grpc: { enabled: false } } },
    assembly: { decisionWaitMs: 0, tickMs: 5, maxBufferedTraces: 10_000_000, maxQueuedTraces: 10_000_000, maxBufferedBytes: 2 ** 45 },
  });
  const service = await benchService(config, {
    source: { kind: 'configured' },
    handleTrace: (trace) => {
      assembled++;
      const sent = sentAtByTrace.get(trace.traceId);
      if (sent !== undefined) latencies.push(performance.now() - sent);
      return Promise.resolve();
    },
  });
  await service.start();
  const port = service.ports().http ?? 0;
  const rss = new PeakRss();
  const bodies = encoding === 'json' ? ds.json : ds.proto;
  const t0 = performance.now();
  const result = await postAll(port, bodies, encoding === 'json' ? 'application/json' : 'application/x-protobuf', CONCURRENCY, {
    onSend: (i, at) => {
      for (const id of ds.traceIdsByRequest[i] ?? []) sentAtByTrace.set(id, at);
    },
  });
  await service.assembler.flush();
  const elapsedS = (performance.now() - t0) / 1000;
  const peakRss = rss.stop();
  await service.shutdown(Date.now() + 30_000);
  const failures = [...result.failures.values()].reduce((n, c) => n + c, 0);
  return {
    spansPerS: ds.spans / elapsedS,
    tracesPerS: assembled / elapsedS,
    p50: percentile(latencies, 0.5),
    p99: percentile(latencies, 0.99),
    peakRss,
    failures,
  };
}

function rawJsonSpansPerS(ds: Dataset, rounds: number): number {
  const ms = medianTimeMs(rounds, () => {
    for (const b of ds.json) JSON.parse(b.toString('utf8'));
  });
  return ds.spans / (ms / 1000);
}

function rawProtoSpansPerS(ds: Dataset, rounds: number): number {
  const T = otlp().types.ExportTraceServiceRequest;
  const ms = medianTimeMs(rounds, () => {
    for (const b of ds.proto) T.decode(b);
  });
  return ds.spans / (ms / 1000);
}

function decoderSpansPerS(ds: Dataset, rounds: number, encoding: 'json' | 'protobuf'): number {
  // One interner for every request, as a service's decoders share theirs.
  const interner = new Interner();
  const ms = medianTimeMs(rounds, () => {
    if (encoding === 'json') for (const b of ds.json) decodeTraceRequestJson(b, interner);
    else for (const b of ds.proto) decodeTraceRequestProto(b, interner);
  });
  return ds.spans / (ms / 1000);
}

async function medianRun(ds: Dataset, encoding: 'json' | 'protobuf', rounds: number): Promise<PathRun> {
  const runs: PathRun[] = [];
  for (let i = 0; i < rounds; i++) runs.push(await fullPath(ds, encoding));
  const mid = median(runs.map((r) => r.spansPerS));
  return runs.find((r) => r.spansPerS === mid) ?? (runs[0] as PathRun);
}

/** The ingest-floor scenario for one size profile. */
export async function ingestScenario(ctx: BenchContext, profile: 'small' | 'llm'): Promise<Row[]> {
  const traces = ctx.quick ? 1500 : 5000;
  const rounds = ctx.quick ? 3 : 5;
  const ds = buildDataset(profile, traces, 512, { seed: 42, messageSize: profile });
  ctx.log(`ingest/${profile}: ${ds.traces} traces, ${ds.spans} spans, ${ds.json.length} requests, JSON ${mib(ds.jsonBytes)} MiB, protobuf ${mib(ds.protoBytes)} MiB (generated in ${(ds.generateMs / 1000).toFixed(1)} s)`);
  const rawJson = rawJsonSpansPerS(ds, rounds);
  const rawProto = rawProtoSpansPerS(ds, rounds);
  const decJson = decoderSpansPerS(ds, rounds, 'json');
  const decProto = decoderSpansPerS(ds, rounds, 'protobuf');
  const pathRounds = ctx.quick ? 2 : 3;
  const httpJson = await medianRun(ds, 'json', pathRounds);
  const httpProto = await medianRun(ds, 'protobuf', pathRounds);
  const scenario = `ingest (${profile}, ${Math.round(ds.jsonBytes / ds.spans)} B/span JSON)`;
  const rows: Row[] = [
    { scenario, metric: 'raw JSON.parse (Buffer→string→parse)', value: rawJson, unit: 'spans/s' },
    { scenario, metric: 'raw protobufjs reflection decode', value: rawProto, unit: 'spans/s' },
    { scenario, metric: 'tracejudge JSON decoder only', value: decJson, unit: 'spans/s', baseline: rawJson, baselineName: 'JSON.parse', ratio: decJson / rawJson },
    { scenario, metric: 'tracejudge protobuf decoder only', value: decProto, unit: 'spans/s', baseline: rawProto, baselineName: 'protobufjs', ratio: decProto / rawProto },
  ];
  for (const [enc, run] of [['JSON', httpJson], ['protobuf', httpProto]] as const) {
    const ratio = run.spansPerS / rawJson;
    rows.push({
      scenario,
      metric: `OTLP/HTTP ${enc} → assembled traces`,
      value: run.spansPerS,
      unit: 'spans/s',
      baseline: rawJson,
      baselineName: 'JSON.parse',
      ratio,
      target: 'ratio ≥ 0.3',
      met: run.failures === 0 && ratio >= 0.3,
      ...(run.failures > 0 ? { note: `${run.failures} requests failed` } : {}),
    });
    rows.push({ scenario, metric: `OTLP/HTTP ${enc}: traces/s`, value: run.tracesPerS, unit: 'traces/s' });
    rows.push({ scenario, metric: `OTLP/HTTP ${enc}: latency send→assembled p50 / p99`, value: run.p50, unit: 'ms', baseline: run.p99, baselineName: 'p99' });
    rows.push({ scenario, metric: `OTLP/HTTP ${enc}: peak RSS`, value: mib(run.peakRss), unit: 'MiB' });
  }
  if (profile === 'llm') {
    ctx.notes.push(
      `Ingest: ${CONCURRENCY} concurrent keep-alive requests of ~512 spans from a client in the same process; decisionWaitMs 0 and tickMs 5, so the latency is transport + decode + assembly + up to one tick, not the production 5 s decision wait. Throughput is the median of ${pathRounds} rounds, each on a fresh receiver and assembler.`,
    );
  }
  return rows;
}
