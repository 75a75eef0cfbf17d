/**
 * Ingest floor: raw JSON.parse and raw protobufjs decode of the same OTLP payloads, against the full
 * OTLP/HTTP path (real HTTP on 127.0.0.1 to the receiver, decode, assembler) with a no-op trace handler.
 */
import { fork } from 'node:child_process';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { decodeTraceRequestJson, decodeTraceRequestProto } from '../../src/ingest/otlp/decode.js';
import { Interner } from '../../src/ingest/otlp/intern.js';
import { otlp } from '../../src/otlp/descriptor.js';
import { buildDataset, type Dataset } from '../lib/dataset.js';
import { postAll } from '../lib/http-client.js';
import type { Row } from '../lib/results.js';
import { median, medianTimeMs, mib, percentile } from '../lib/stats.js';
import type { BenchContext } from './context.js';
import type { IngestChildResult } from './ingest-child.js';
import { USE_DIST } from '../lib/use-dist-path.js';

const CONCURRENCY = 4;

interface PathRun {
  spansPerS: number;
  tracesPerS: number;
  p50: number;
  p99: number;
  peakRss: number;
  /** What held memory: RSS at the start of the round and the breakdown at its peak. */
  memory: string;
  failures: number;
}

const CHILD = fileURLToPath(new URL('./ingest-child.ts', import.meta.url));

/** One round: the service in a fresh child process (ingest-child.ts), the client and its bodies here. */
async function fullPath(ds: Dataset, encoding: 'json' | 'protobuf'): Promise<PathRun> {
  const sentAtByTrace = new Map<string, number>();
  let answered = false;
  const child = fork(CHILD, [], { execArgv: ['--import', 'tsx', '--import', USE_DIST], env: { ...process.env, TRACEJUDGE_LOG_LEVEL: 'warn' }, stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  try {
    const exited = new Promise<never>((_, reject) => child.once('exit', (code) => reject(new Error(`ingest-child exited ${String(code)} before answering`))));
    const next = <T>(type: string): Promise<T> =>
      Promise.race([exited, new Promise<T>((resolve) => {
        const on = (m: { type?: string }): void => {
          if (m.type !== type) return;
          child.off('message', on);
          resolve(m as T);
        };
        child.on('message', on);
      })]);
    const { port } = await next<{ port: number }>('ready');
    const bodies = encoding === 'json' ? ds.json : ds.proto;
    const t0 = performance.now();
    const result = await postAll(port, bodies, encoding === 'json' ? 'application/json' : 'application/x-protobuf', CONCURRENCY, {
      onSend: (i, at) => {
        for (const id of ds.traceIdsByRequest[i] ?? []) sentAtByTrace.set(id, performance.timeOrigin + at);
      },
    });
    const done = next<IngestChildResult>('done');
    child.send({ type: 'flush' });
    const r = await done;
    answered = true;
    const elapsedS = (performance.now() - t0) / 1000;
    const latencies: number[] = [];
    for (const [id, at] of r.assembledAt) {
      const sent = sentAtByTrace.get(id);
      if (sent !== undefined) latencies.push(at - sent);
    }
    const failures = [...result.failures.values()].reduce((n, c) => n + c, 0);
    return {
      spansPerS: ds.spans / elapsedS,
      tracesPerS: r.assembled / elapsedS,
      p50: percentile(latencies, 0.5),
      p99: percentile(latencies, 0.99),
      peakRss: Math.max(r.peakRss, r.hwm),
      memory: `${r.memory}, VmHWM ${mib(r.hwm)} MiB`,
      failures,
    };
  } finally {
    if (child.exitCode === null && child.signalCode === null) {
      const gone = new Promise((resolve) => child.once('exit', resolve));
      if (!answered) child.kill();
      await gone;
    }
  }
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
  ctx.log(`ingest/${profile}: memory JSON ${httpJson.memory}; protobuf ${httpProto.memory}`);
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
      `Ingest: ${CONCURRENCY} concurrent keep-alive requests of ~512 spans from the bench process to the service in a fresh child process (bench/scenarios/ingest-child.ts, run with tsx: the OTLP/HTTP receiver and assembler as serve builds them, a handler that only counts). Peak RSS is the child's alone (the larger of its VmHWM and its RSS sampled every 20 ms, start-up and the tsx loader included); the client, its pre-built request bodies and the raw-decode rounds stay in the parent and are not counted. decisionWaitMs 0 and tickMs 5, so the latency is transport + decode + assembly + up to one tick, not the production 5 s decision wait. Throughput is the median of ${pathRounds} rounds, each on a fresh receiver and assembler.`,
    );
  }
  return rows;
}
