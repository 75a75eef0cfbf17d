// Runs scorer cases through the pinned @mastra/evals (see test/mastra/parity/cases.ts for the case format) and
// writes one outcome per case: { score, reason } or { error }. Started by test/mastra/reference.ts under Node 22.
//
// A case names a factory of '@mastra/evals/scorers/prebuilt' (or a `checks.<name>` check) and its arguments;
// an argument `{ "$regex": [source, flags] }` is a RegExp, and `{ "$judge": true }` is the scripted judge's
// model (the stub server whose base URL the input carries).
import * as prebuilt from '@mastra/evals/scorers/prebuilt';
import { readInput, writeOutput } from '../../scripts/io.mjs';

const { judge, cases } = await readInput();
const judgeModel = judge ? { id: `openai/${judge.modelId}`, url: judge.baseURL, apiKey: judge.apiKey, api: 'chat' } : undefined;

function decode(value) {
  if (Array.isArray(value)) return value.map(decode);
  if (value !== null && typeof value === 'object') {
    if (Array.isArray(value.$regex)) return new RegExp(value.$regex[0], value.$regex[1]);
    if (value.$judge === true) return judgeModel;
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, decode(v)]));
  }
  return value;
}

function factoryOf(name) {
  const f = name.startsWith('checks.') ? prebuilt.checks[name.slice('checks.'.length)] : prebuilt[name];
  if (typeof f !== 'function') throw new Error(`@mastra/evals has no ${name}`);
  return f;
}

const out = [];
for (const c of cases) {
  try {
    const scorer = factoryOf(c.factory)(...decode(c.args));
    const r = await scorer.run(c.run);
    out.push({ score: typeof r.score === 'number' && Number.isNaN(r.score) ? 'NaN' : r.score, reason: r.reason ?? null });
  } catch (err) {
    out.push({ error: String(err?.message ?? err).slice(0, 300) });
  }
}
writeOutput(out);
