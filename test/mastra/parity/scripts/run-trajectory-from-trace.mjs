// Calls @mastra/core's extractTrajectoryFromTrace on each case and writes one outcome per case: { value } or
// { error }. Started by test/mastra/reference.ts under Node 22; the cases come from
// test/mastra/parity/trajectory-from-trace.test.ts. Span records travel as JSON, so their times are ISO strings:
// they become Dates here, as Mastra's observability store returns them.
import { extractTrajectoryFromTrace } from '@mastra/core/evals';
import { readInput, writeOutput } from '../../scripts/io.mjs';

const DATE_FIELDS = ['startedAt', 'endedAt', 'createdAt', 'updatedAt'];

function toRecord(span) {
  const record = { ...span };
  for (const f of DATE_FIELDS) if (typeof record[f] === 'string') record[f] = new Date(record[f]);
  return record;
}

const cases = await readInput();
const out = [];
for (const c of cases) {
  try {
    const value = extractTrajectoryFromTrace(c.spans.map(toRecord), c.rootSpanId ?? undefined);
    // JSON drops the properties Mastra sets to undefined (writeOutput would turn them into null).
    out.push({ value: JSON.parse(JSON.stringify(value)) });
  } catch (err) {
    out.push({ error: String(err?.message ?? err).slice(0, 300) });
  }
}
writeOutput(out);
