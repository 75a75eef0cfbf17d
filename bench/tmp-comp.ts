import { performance } from 'node:perf_hooks';
import nlp from 'compromise';
import { buildDataset } from './lib/dataset.js';
import { decodeTraceRequestProto } from '../src/ingest/otlp/decode.js';
import { extractAgentRuns } from '../src/extract/extract.js';
const ds = buildDataset('x', 300, 512, { seed: 3, messageSize: 'llm' });
const texts = new Set<string>();
for (const b of ds.proto) for (const r of extractAgentRuns(decodeTraceRequestProto(b).spans)) {
  texts.add(r.input.inputMessages.map((m) => m.content).join(', ').trim());
  texts.add(r.output.map((m) => m.content).join(', ').trim());
}
const list = [...texts];
console.log('texts', list.length, 'avg chars', Math.round(list.reduce((n, t) => n + t.length, 0) / list.length));
const stage = (name: string, fn: (t: string) => void) => {
  for (const t of list) fn(t);
  const t0 = performance.now(); for (let k = 0; k < 3; k++) for (const t of list) fn(t);
  console.log(name, ((performance.now() - t0) / (3 * list.length)).toFixed(3), 'ms/text');
};
for (let round = 0; round < 3; round++) {
console.log('round', round);
stage('nlp', (t) => { nlp(t); });
stage('nlp+nouns', (t) => { nlp(t).nouns().out('array'); });
stage('nlp+verbs.json', (t) => { nlp(t).verbs().json(); });
stage('nlp+verbs.toInf', (t) => { nlp(t).verbs().toInfinitive().out('array'); });
stage('nlp+topics', (t) => { nlp(t).topics().out('array'); });
stage('nlp+terms', (t) => { nlp(t).terms().out('array'); });
stage('all', (t) => { const d = nlp(t); d.nouns().out('array'); d.verbs().toInfinitive().out('array'); d.topics().out('array'); d.terms().out('array'); });
stage('nlp+compute(chunks)', (t) => { nlp(t).compute('chunks'); });
stage('nlp+chunks+nouns', (t) => { const d = nlp(t); d.compute('chunks'); d.nouns().out('array'); });
}
