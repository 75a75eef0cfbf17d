/** A pool of generated requests, encoded both ways, shared by the throughput scenarios. */
import { performance } from 'node:perf_hooks';
import { batchRequests, encodeJson, encodeProto, spanCountOf, TraceGenerator, type GeneratorOptions } from '../generator.js';

export interface Dataset {
  label: string;
  traces: number;
  spans: number;
  json: Buffer[];
  proto: Uint8Array[];
  /** Trace ids carried by each request (requests hold whole traces). */
  traceIdsByRequest: string[][];
  jsonBytes: number;
  protoBytes: number;
  generateMs: number;
}

/** Generates `traces` traces with `options` and packs them into requests of about `spansPerRequest` spans. */
export function buildDataset(label: string, traces: number, spansPerRequest: number, options: GeneratorOptions): Dataset {
  const t0 = performance.now();
  const generated = new TraceGenerator(options).take(traces);
  const traceIdsByRequest: string[][] = [];
  let current: string[] = [];
  let spansInCurrent = 0;
  for (const t of generated) {
    current.push(t.traceId);
    spansInCurrent += t.spanCount;
    if (spansInCurrent >= spansPerRequest) {
      traceIdsByRequest.push(current);
      current = [];
      spansInCurrent = 0;
    }
  }
  if (current.length > 0) traceIdsByRequest.push(current);
  const requests = batchRequests(generated, spansPerRequest);
  const json = requests.map(encodeJson);
  const proto = requests.map(encodeProto);
  const spans = requests.reduce((n, r) => n + spanCountOf(r), 0);
  return {
    label,
    traces,
    spans,
    json,
    proto,
    traceIdsByRequest,
    jsonBytes: json.reduce((n, b) => n + b.length, 0),
    protoBytes: proto.reduce((n, b) => n + b.length, 0),
    generateMs: performance.now() - t0,
  };
}
