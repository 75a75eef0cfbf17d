import { performance } from 'node:perf_hooks';
import { buildDataset } from './lib/dataset.js';
import { decodeTraceRequestProto, decodeTraceRequestJson } from '../src/ingest/otlp/decode.js';
const ds = buildDataset('x', 1500, 512, { seed: 99, messageSize: 'small' });
const res: number[] = []; const resj: number[] = [];
for (let r = 0; r < 9; r++) {
  let t = performance.now(); for (const b of ds.proto) decodeTraceRequestProto(b); res.push(ds.spans / ((performance.now() - t) / 1000));
  t = performance.now(); for (const b of ds.json) decodeTraceRequestJson(b); resj.push(ds.spans / ((performance.now() - t) / 1000));
}
res.sort((a, b) => a - b); resj.sort((a, b) => a - b);
console.log('proto', Math.round(res[4]!), 'json', Math.round(resj[4]!));
