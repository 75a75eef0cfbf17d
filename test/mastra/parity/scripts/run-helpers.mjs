// Calls @mastra/evals' scorer utilities on the given arguments and writes one outcome per call: { value } or
// { error }. Started by test/mastra/reference.ts under Node 22; the calls come from test/mastra/parity/helpers.test.ts.
import * as utils from '@mastra/evals/scorers/utils';
import { readInput, writeOutput } from '../../scripts/io.mjs';

const calls = await readInput();
const out = [];
for (const c of calls) {
  try {
    const f = utils[c.fn];
    if (typeof f !== 'function') throw new Error(`@mastra/evals/scorers/utils has no ${c.fn}`);
    const value = await f(...c.args);
    out.push({ value: value === undefined ? { $undefined: true } : JSON.parse(JSON.stringify(value)) });
  } catch (err) {
    out.push({ error: String(err?.message ?? err).slice(0, 300) });
  }
}
writeOutput(out);
